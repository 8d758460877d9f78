#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// Why a file was not read, in words that say what to do.
public enum FileReadError: Error, Equatable, CustomStringConvertible {
    case missing
    case notRegular(kind: String)
    case tooLarge(limit: Int)
    case failed(code: Int32)

    public var description: String {
        switch self {
        case .missing: return "it does not exist"
        case .notRegular(let kind): return "it is \(kind), not a regular file; move it aside"
        case .tooLarge(let limit): return "it is larger than \(BoundedFile.describe(limit)); move it aside"
        case .failed(let code): return LinuxSystem.errnoDescription(code).lowercased() + "; check its permissions"
        }
    }
}

/// Reading files that someone else controls (the person, a package, another program), the
/// only way miga reads them: regular files only, and never more than a sane size. A FIFO
/// named `config.toml` would block a plain read for ever, and a gigabyte "content pack" would
/// hold up every launch; both are refused before any byte is read.
public enum BoundedFile {
    /// Size limits (DESIGN "Bounded work").
    public static let configLimit = 1 << 20
    public static let packLimit = 4 << 20
    public static let licenceLimit = 64 << 10
    public static let desktopEntryLimit = 1 << 20
    /// What readline reads by name: its init file and the config editor's history (of
    /// which readline keeps 1000 lines).
    public static let readlineFileLimit = 1 << 20
    /// Anything else miga reads (its own manifest, mimeapps lists, caches).
    public static let defaultLimit = 16 << 20

    public static func read(_ path: String, limit: Int = defaultLimit) throws -> Data {
        try check(status(path, followingLinks: true), limit: limit)
        // O_NONBLOCK: should the path have been swapped for a FIFO since the stat, the open
        // still returns at once, and fstat below refuses it.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { throw errno == ENOENT ? FileReadError.missing : FileReadError.failed(code: errno) }
        defer { close(fd) }
        let opened: FileStatus
        do {
            opened = try FileStatus(descriptor: fd)
        } catch let error as LinuxError {
            throw FileReadError.failed(code: error.code)
        }
        try check(opened, limit: limit)
        // The size may change while reading: read at most one byte past the limit to know.
        var data = Data(count: min(opened.size, limit) + 1)
        var total = 0
        while total < data.count {
            let count = data.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + total, $0.count - total) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileReadError.failed(code: errno)
            }
            if count == 0 { break }
            total += count
            if total == data.count, total <= limit { data.count = min(data.count * 2, limit + 1) }
        }
        guard total <= limit else { throw FileReadError.tooLarge(limit: limit) }
        data.count = total
        return data
    }

    /// The size `stat` gives (following links), nil when there is nothing to stat. For
    /// budgets decided before reading; `read` still enforces its own limit.
    public static func size(of path: String) -> Int? {
        FileStatus.at(path)?.size
    }

    /// nil when the file does not exist; every other problem throws.
    public static func readIfPresent(_ path: String, limit: Int = defaultLimit) throws -> Data? {
        do {
            return try read(path, limit: limit)
        } catch FileReadError.missing {
            return nil
        }
    }

    /// For a file another library opens by name (readline's history and init file), checked
    /// before it does: nothing when there is no file, else that it is a regular file within
    /// `limit`, and with `followingLinks` false, the file itself and not a link. A FIFO there
    /// would block that library's open for ever, and its write through a link would change
    /// whatever file the link names.
    /// Returns whether there is a file.
    @discardableResult
    public static func checkBeforeOpening(_ path: String, limit: Int, followingLinks: Bool) throws -> Bool {
        do {
            try check(status(path, followingLinks: followingLinks), limit: limit)
            return true
        } catch FileReadError.missing {
            return false
        }
    }

    /// The file's status; nothing there (or a path through a non-folder) is `missing`.
    private static func status(_ path: String, followingLinks: Bool) throws -> FileStatus {
        do {
            return try FileStatus(path: path, followingLinks: followingLinks)
        } catch let error as LinuxError {
            throw error.code == ENOENT || error.code == ENOTDIR ? FileReadError.missing : FileReadError.failed(code: error.code)
        }
    }

    private static func check(_ status: FileStatus, limit: Int) throws {
        switch status.kind {
        case .regularFile: break
        case .symbolicLink: throw FileReadError.notRegular(kind: "a symbolic link")
        case .directory: throw FileReadError.notRegular(kind: "a folder")
        case .fifo: throw FileReadError.notRegular(kind: "a FIFO")
        case .socket: throw FileReadError.notRegular(kind: "a socket")
        case .device: throw FileReadError.notRegular(kind: "a device")
        }
        guard status.size <= limit else { throw FileReadError.tooLarge(limit: limit) }
    }

    public static func describe(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB"
    }
}
