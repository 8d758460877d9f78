/// A config file that cannot be trusted at all. Problems with single values are warnings
/// instead (see `ConfigLoader`), so one typo does not switch the whole pause off.
public enum ConfigError: Error, CustomStringConvertible, Equatable {
    case unreadable(path: String, reason: String)
    case malformed(path: String, line: Int, column: Int, problem: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .malformed(let path, let line, let column, let problem):
            return "\(path):\(line):\(column): \(problem); fix that line (or move the file away to use the defaults)"
        }
    }
}
