#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The small file operations MigaCore asks for by what they do. Each is one or two system
/// calls; the ones whose failure a caller may ignore (a cleanup that finds nothing to clean)
/// say whether they worked and let the result be dropped.
extension LinuxSystem {
    /// unlink(2): false when nothing was removed (already gone, or not allowed).
    @discardableResult
    public static func removeFile(_ path: String) -> Bool {
        unlink(path) == 0
    }

    /// rmdir(2): removes the folder only if it is empty, which is how miga's cleanups leave
    /// alone a folder someone else put something in.
    @discardableResult
    public static func removeDirectory(_ path: String) -> Bool {
        rmdir(path) == 0
    }

    /// chmod(2), following links.
    @discardableResult
    public static func setPermissions(_ path: String, _ mode: FileMode) -> Bool {
        chmod(path, mode) == 0
    }

    /// Creates an empty file with `mode` unless anything (a dangling link included) is at
    /// `path` already: O_EXCL with O_NOFOLLOW, so an existing file is left exactly as it is
    /// and a link is never followed. false when nothing was created.
    @discardableResult
    public static func createFileIfAbsent(_ path: String, mode: FileMode) -> Bool {
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
        guard fd >= 0 else { return false }
        close(fd)
        return true
    }

    /// link(2): gives the file at `existing` the name `new` too, only if nothing is at `new`;
    /// false when something was (or the link could not be made). A file written whole under
    /// a temporary name and linked into place is how two processes agree on one of their two
    /// values: the first link wins and the other reads it.
    @discardableResult
    public static func linkIfAbsent(_ existing: String, to new: String) -> Bool {
        link(existing, new) == 0
    }

    /// Sets the file's modification (and access) time, never through a link; false when it
    /// could not. Two copies of a file kept level by their times (the newest wins) are given
    /// the same one, so neither looks newer afterwards.
    @discardableResult
    public static func setModified(_ path: String, to time: FileTime) -> Bool {
        var times = [time.spec, time.spec]
        return utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) == 0
    }

    /// This machine's name (gethostname(2)), nil when it has none.
    public static func hostName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name
    }

    /// Creates `path` with `mode`, or empties it, never through a symbolic link; then, when
    /// `modified` is given, sets its access and modification times to it (the file's time
    /// is the message, as for the grace stamps). false when any step failed.
    public static func touch(_ path: String, mode: FileMode, modified: FileTime?) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard let modified else { return true }
        var times = [modified.spec, modified.spec]
        return futimens(fd, &times) == 0
    }

    /// Replaces the contents of the file at `path` with `bytes` in one write, only if that
    /// file exists: never created, never through a link. A file that is gone is an answer
    /// (someone gave up waiting for it), so it is false, not an error.
    public static func overwriteExisting(_ path: String, with bytes: [UInt8]) -> Bool {
        let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return Glibc.write(fd, bytes, bytes.count) == bytes.count
    }

    /// A new empty file in `folder` whose name starts with `prefix` and ends in six random
    /// characters (mkstemp(3)); returns its path.
    public static func createUniqueFile(in folder: String, prefix: String) throws -> String {
        var template = Array((folder + "/" + prefix + "XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw LinuxError(operation: "create a file in \(folder)", code: errno) }
        close(fd)
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The names in `folder` (not "." and "..", unless `include` takes them) for which
    /// `include` is true, in the order the folder lists them, at most `limit` of them: the
    /// listing stops there, so a folder flooded with files costs no more than `limit` reads.
    /// Empty when the folder cannot be opened. Plain readdir(3): Foundation's listing
    /// stats every entry.
    public static func directoryNames(in folder: String, limit: Int = .max, where include: (String) -> Bool) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while names.count < limit, let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if include(name) { names.append(name) }
        }
        return names
    }
}
