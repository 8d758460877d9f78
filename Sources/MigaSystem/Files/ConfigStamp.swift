/// Enough of a file's identity to notice that it changed: replaced (inode), edited in
/// place (time, size) or removed.
public struct ConfigStamp: Equatable, Sendable {
    public var device: UInt64 = 0, inode: UInt64 = 0, size: Int64 = -1, seconds = 0, nanoseconds = 0

    public init(path: String) {
        guard let status = FileStatus.at(path) else { return }
        device = status.device
        inode = status.inode
        size = Int64(status.size)
        seconds = status.modified.seconds
        nanoseconds = status.modified.nanoseconds
    }
}
