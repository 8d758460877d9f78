/// A config file that cannot be trusted at all, or a change to it that cannot be made. Problems
/// with single values are warnings instead (see `ConfigLoader`), so one typo does not switch
/// the whole pause off.
public enum ConfigError: Error, CustomStringConvertible, Equatable {
    case unreadable(path: String, reason: String)
    case malformed(path: String, line: Int, column: Int, problem: String)
    /// A change miga will not make to the file as it is (it would not parse, or it changed meanwhile).
    case notEditable(path: String, problem: String)
    /// The edited file would be larger than miga reads (`BoundedFile.configLimit`).
    case tooLarge(path: String, limit: Int)
    case unwritable(path: String, problem: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .malformed(let path, let line, let column, let problem):
            return "\(path):\(line):\(column): \(problem); fix that line (or move the file away to use the defaults)"
        case .notEditable(let path, let problem):
            return "\(path): \(problem); miga does not rewrite a file it cannot read, so fix it by hand and try again"
        case .tooLarge(let path, let limit):
            return "\(path): nothing was written: with this change it would pass \(BoundedFile.describe(limit)), more than miga reads; remove something from it first"
        case .unwritable(let path, let problem):
            return AtomicFile.cannotWrite(path, problem)
        }
    }
}
