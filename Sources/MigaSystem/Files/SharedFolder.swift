#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// A folder that other machines, a sync tool or other people write into (the sync folder):
/// someone else's disk. Everything below it is reached from an open descriptor, one name at a
/// time, and never through a symbolic link: a link a peer put in place of a folder or a file
/// (Syncthing carries links) is refused, so nothing here is ever read or written through one.
/// Files are only replaced by renaming a new file over them, never written through; files
/// miga appends to must be this user's own.
///
/// The folder itself is the one the person named (a link there is theirs, and followed).
public final class SharedFolder {
    public let path: String
    private let fd: Int32

    /// Opens the folder at `path`, which must be a directory.
    public init(opening path: String) throws {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { throw LinuxError(operation: "open \(path)", code: errno) }
        self.path = path
        self.fd = fd
    }

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit { close(fd) }

    /// One name in a folder: not empty, not `.` or `..`, no `/`.
    public static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.utf8.contains(UInt8(ascii: "/")) && !name.utf8.contains(0)
    }

    private func checked(_ name: String) throws -> String {
        guard Self.isPlainName(name) else { throw LinuxError(operation: "use \(path)/\(name)", code: EINVAL) }
        return name
    }

    /// What is at `name`, the link itself if it is one (never what a link leads to).
    public func status(of name: String) -> FileStatus? {
        guard Self.isPlainName(name) else { return nil }
        var info = stat()
        guard fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return FileStatus(info)
    }

    /// The subfolder `name`, opened without following a link (a link there throws ELOOP or
    /// ENOTDIR). `creating`: made (0700) when missing. `own`: it must belong to this user,
    /// and is set back to 0700 when a sync tool widened it, since it is where this machine
    /// writes.
    public func subfolder(_ name: String, creating: Bool = false, own: Bool = false) throws -> SharedFolder {
        let name = try checked(name)
        let full = path + "/" + name
        if creating, mkdirat(fd, name, 0o700) != 0, errno != EEXIST {
            throw LinuxError(operation: "create \(full)", code: errno)
        }
        let child = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY)
        guard child >= 0 else {
            let code = errno
            throw LinuxError(operation: code == ELOOP || code == ENOTDIR ? "use \(full) (a link or not a folder)" : "open \(full)", code: code)
        }
        let folder = SharedFolder(path: full, fd: child)
        if own {
            let status = try FileStatus(descriptor: child)
            guard status.isOwnedByThisUser else { throw LinuxError(operation: "use \(full) (it belongs to another user)", code: EPERM) }
            if status.permissions & 0o077 != 0 { _ = fchmod(child, 0o700) }
        }
        return folder
    }

    /// The names in the folder for which `include` is true, looking at no more than `limit`
    /// entries of any kind: a folder flooded with other files costs `limit` reads at most.
    /// `complete` is false when the listing stopped there (or could not be read); `looked`
    /// counts the entries read.
    public func names(lookingAt limit: Int, where include: (String) -> Bool) -> (names: [String], complete: Bool, looked: Int) {
        let copy = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard copy >= 0, let directory = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return ([], false, 0)
        }
        defer { closedir(directory) }
        var names: [String] = []
        var looked = 0
        while true {
            guard looked < limit else { return (names, false, looked) }
            guard let entry = readdir(directory) else { return (names, true, looked) }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name == "." || name == ".." { continue }
            looked += 1
            if include(name) { names.append(name) }
        }
    }

    /// Up to `limit` bytes of the regular file `name` from byte `offset`, and its size then.
    /// A link, a FIFO or a device is refused, never followed or waited on.
    public func read(_ name: String, from offset: Int, limit: Int) throws -> (bytes: Data, size: Int) {
        guard Self.isPlainName(name) else { throw FileReadError.failed(code: EINVAL) }
        let file = openat(fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard file >= 0 else {
            if errno == ENOENT { throw FileReadError.missing }
            if errno == ELOOP { throw FileReadError.notRegular(kind: "a symbolic link") }
            throw FileReadError.failed(code: errno)
        }
        defer { close(file) }
        return try JournalFile.read(descriptor: file, from: offset, limit: limit)
    }

    /// Appends `lines` to this user's own regular file `name`, made (0600, `header` first)
    /// when missing; a torn last line is ended first (see `JournalFile.append`).
    public func append(_ lines: Data, to name: String, header: Data) throws {
        let name = try checked(name)
        let full = path + "/" + name
        let file = openat(fd, name, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0o600)
        guard file >= 0 else { throw LinuxError(operation: "open \(full)", code: errno) }
        defer { close(file) }
        let status = try FileStatus(descriptor: file)
        guard status.isRegularFile, status.isOwnedByThisUser, status.links == 1 else {
            throw LinuxError(operation: "append to \(full) (not a file of this user's own)", code: EINVAL)
        }
        try JournalFile.append(lines, descriptor: file, size: status.size, header: header, name: full)
    }

    /// Puts `data` at `name` by writing a new file beside it and renaming it over: whatever
    /// was at `name` (a link included) is replaced, never written through. `modified`: the
    /// new file's modification time.
    public func replace(_ name: String, with data: Data, mode: FileMode = 0o600, modified: FileTime? = nil) throws {
        let name = try checked(name)
        let temporary = ".\(name).miga-\(getpid())"
        _ = unlinkat(fd, temporary, 0)
        let file = openat(fd, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, mode)
        guard file >= 0 else { throw LinuxError(operation: "create \(path)/\(temporary)", code: errno) }
        var failure: LinuxError?
        do {
            try LinuxSystem.write(data, to: file, name: path + "/" + temporary)
        } catch let error as LinuxError {
            failure = error
        } catch {
            failure = LinuxError(operation: "write \(path)/\(temporary)", code: EIO)
        }
        if failure == nil, fchmod(file, mode) != 0 { failure = LinuxError(operation: "chmod \(path)/\(temporary)", code: errno) }
        if failure == nil, let modified {
            var times = [modified.spec, modified.spec]
            _ = futimens(file, &times)
        }
        if failure == nil, fsync(file) != 0 { failure = LinuxError(operation: "sync \(path)/\(temporary)", code: errno) }
        close(file)
        if failure == nil, renameat(fd, temporary, fd, name) != 0 { failure = LinuxError(operation: "rename to \(path)/\(name)", code: errno) }
        if let failure {
            _ = unlinkat(fd, temporary, 0)
            throw failure
        }
    }

    /// Removes the file (or link) `name` itself; true if it was there.
    @discardableResult
    public func remove(_ name: String) -> Bool {
        Self.isPlainName(name) && unlinkat(fd, name, 0) == 0
    }

    /// Removes the empty subfolder `name` (never a link's target); true if it went.
    @discardableResult
    public func removeSubfolder(_ name: String) -> Bool {
        Self.isPlainName(name) && unlinkat(fd, name, AT_REMOVEDIR) == 0
    }
}
