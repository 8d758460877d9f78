/// Problems with what `miga gate` was asked to run. Each says what to do next.
public enum GateError: Error, CustomStringConvertible, Equatable {
    case noCommand
    case invalidAppName(String)
    case commandNotFound(String)

    public var description: String {
        switch self {
        case .noCommand:
            return "nothing to run; usage: miga gate [--app NAME] -- COMMAND [ARG...]"
        case .invalidAppName(let name):
            return "app name \"\(name)\" may only use letters, digits and . _ + - (try --app \(Self.suggestedName(for: name)))"
        case .commandNotFound(let command):
            return "\(command): command not found on PATH (miga's own shims are skipped); check the name or give an absolute path"
        }
    }

    static func suggestedName(for name: String) -> String {
        let cleaned = String(name.map { MigaConfig.isValidAppName(String($0)) ? $0 : "-" })
        return cleaned.isEmpty ? "app" : cleaned
    }
}
