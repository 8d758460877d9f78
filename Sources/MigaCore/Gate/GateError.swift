/// Problems with how `miga gate` was asked to run (a command that cannot run is a
/// `CommandError`). Each says what to do next.
public enum GateError: Error, CustomStringConvertible, Equatable {
    case noCommand
    case invalidAppName(String)

    /// The exit status of a usage error.
    public var status: Int32 { 64 }

    public var description: String {
        switch self {
        case .noCommand:
            return CommandError.noCommand.description
        case .invalidAppName(let name):
            return "\(AppCheck.problem(withName: name) ?? "app name \"\(name)\" cannot be used") (try --app \(Self.suggestedName(for: name)))"
        }
    }

    static func suggestedName(for name: String) -> String {
        MigaConfig.appName(derivedFrom: name)
    }
}
