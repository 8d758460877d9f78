/// The event database could not be used. Messages say what to do about it.
public enum StoreError: Error, CustomStringConvertible, Equatable {
    case cannotCreateDirectory(path: String, reason: String)
    case notADatabase(path: String)
    /// A SQLite database, but another program's: never written to.
    case foreignDatabase(path: String)
    case unusable(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotCreateDirectory(let path, let reason):
            return "cannot create \(path): \(reason); check that folder's permissions"
        case .notADatabase(let path):
            return "\(path) is not a miga database (corrupt or another program's file); move it aside and miga will start a new one"
        case .foreignDatabase(let path):
            return "\(path) is another program's SQLite database, not miga's; miga leaves it untouched: move it aside and miga will start a new one"
        case .unusable(let path, let reason):
            return "cannot use the event database \(path): \(reason); `miga doctor` says more"
        }
    }
}
