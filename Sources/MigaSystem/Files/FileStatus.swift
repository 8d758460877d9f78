#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Permission bits (and the file type bits, where the C library mixes them in): mode_t, by a
/// name MigaCore can use without the C library.
public typealias FileMode = mode_t

/// A file's modification time as stat(2) gives it: whole seconds since 1970 and the
/// nanoseconds past them. Kept whole, not as a Double, so that a change within the same
/// second (a quick edit of config.toml) is still a change.
public struct FileTime: Equatable, Sendable {
    public var seconds: Int
    public var nanoseconds: Int

    public init(seconds: Int, nanoseconds: Int) { (self.seconds, self.nanoseconds) = (seconds, nanoseconds) }

    init(_ spec: timespec) {
        self.init(seconds: spec.tv_sec, nanoseconds: spec.tv_nsec)
    }

    var spec: timespec { timespec(tv_sec: seconds, tv_nsec: nanoseconds) }
}

/// What stat(2) or lstat(2) says about a file, read once: every question miga asks of a file
/// (is it regular, how large, changed since when) goes through here.
public struct FileStatus: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        case regularFile, directory, symbolicLink, fifo, socket
        /// A character or block device, or a type Linux may add.
        case device
    }

    var kind: Kind
    public var size: Int
    public var modified: FileTime
    public var device: UInt64
    public var inode: UInt64
    /// The permission bits alone (set-id and sticky bits included), without the type.
    public var permissions: FileMode
    /// The owner's user id, and how many names the file has (hard links).
    public var owner: UInt32
    public var links: UInt64

    public var isRegularFile: Bool { kind == .regularFile }
    public var isDirectory: Bool { kind == .directory }
    public var isSymbolicLink: Bool { kind == .symbolicLink }

    /// `followingLinks` false asks about a symbolic link itself (lstat), true about what it
    /// leads to (stat). Throws the call's errno, read at once, as a `LinuxError`.
    init(path: String, followingLinks: Bool = true) throws {
        var info = stat()
        guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else {
            throw LinuxError(operation: "stat \(path)", code: errno)
        }
        self.init(info)
    }

    /// The file open on `fd` (fstat).
    init(descriptor fd: Int32) throws {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw LinuxError(operation: "stat", code: errno) }
        self.init(info)
    }

    /// nil when there is nothing there that this user may stat; for callers to whom every
    /// such reason means the same.
    public static func at(_ path: String, followingLinks: Bool = true) -> FileStatus? {
        try? FileStatus(path: path, followingLinks: followingLinks)
    }

    init(_ info: stat) {
        kind = Self.kind(of: info.st_mode)
        size = Int(info.st_size)
        modified = FileTime(info.st_mtim)
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        permissions = info.st_mode & 0o7777
        owner = UInt32(info.st_uid)
        links = UInt64(info.st_nlink)
    }

    /// Whether this user owns the file (the effective user, as the kernel checks).
    public var isOwnedByThisUser: Bool { owner == UInt32(geteuid()) }

    private static func kind(of mode: mode_t) -> Kind {
        switch mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        case S_IFIFO: return .fifo
        case S_IFSOCK: return .socket
        default: return .device
        }
    }
}
