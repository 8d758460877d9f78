/// Problems with how `miga gate` was asked to run (a command that cannot run is a
/// `CommandError`). Each says what to do next.
public enum GateError: Error, CustomStringConvertible, Equatable {
    case noCommand
    case invalidAppName(String)
    /// `--reentry` without `--app`: which app came back cannot be guessed.
    case reentryNeedsApp
    /// `--reentry` with a command or `--detach`: a coming-back gate runs nothing.
    case reentryRunsNothing
    /// `--window` without `--reentry`.
    case windowNeedsReentry

    /// The exit status of a usage error.
    public var status: Int32 { 64 }

    public var description: String {
        switch self {
        case .noCommand:
            return CommandError.noCommand.description
        case .invalidAppName(let name):
            return "\(AppCheck.problem(withName: name) ?? "app name \"\(name)\" cannot be used") (try --app \(Self.suggestedName(for: name)))"
        case .reentryNeedsApp:
            return "--reentry needs the app that came back; usage: \(Self.reentryUsage)"
        case .reentryRunsNothing:
            return "--reentry runs nothing (the app is already running): leave out the command and --detach; usage: \(Self.reentryUsage)"
        case .windowNeedsReentry:
            return "--window is for a coming-back gate only; usage: \(Self.reentryUsage)"
        }
    }

    static let reentryUsage = "miga gate --app NAME --reentry [--window]"

    static func suggestedName(for name: String) -> String {
        MigaConfig.appName(derivedFrom: name)
    }
}
