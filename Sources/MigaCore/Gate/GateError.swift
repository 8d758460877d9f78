/// Problems with what `miga gate` was asked to run. Each says what to do next.
public enum GateError: Error, CustomStringConvertible, Equatable {
    case noCommand
    case invalidAppName(String)
    case commandNotFound(String)
    /// `command` names miga's own shim and no real program of that name is on PATH.
    case onlyAShim(String)
    /// An explicit path that does not exist (127, as shells say it).
    case noSuchFile(String)
    /// An explicit path that is a folder or not executable (126).
    case notExecutable(String, reason: String)

    /// The exit status a shell gives for the same problem.
    public var status: Int32 {
        switch self {
        case .notExecutable: return 126
        case .commandNotFound, .noSuchFile, .onlyAShim: return 127
        case .noCommand, .invalidAppName: return 64
        }
    }

    public var description: String {
        switch self {
        case .noCommand:
            return "nothing to run; usage: miga gate [--app NAME] -- COMMAND [ARG...]"
        case .invalidAppName(let name):
            return "\(AppCheck.problem(withName: name) ?? "app name \"\(name)\" cannot be used") (try --app \(Self.suggestedName(for: name)))"
        case .commandNotFound(let command):
            return "\(command): command not found on PATH (miga's own shims are skipped); check the name or give an absolute path"
        case .onlyAShim(let path):
            return "\(path) is miga's own shim, and no other program of that name is on PATH; set the app's command to the real program (`miga config apps add NAME --command PROGRAM`)"
        case .noSuchFile(let path):
            return "\(path): No such file or directory; check the path"
        case .notExecutable(let path, let reason):
            return "\(path): \(reason)"
        }
    }

    static func suggestedName(for name: String) -> String {
        MigaConfig.appName(derivedFrom: name)
    }
}
