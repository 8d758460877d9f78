#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// An append-only file of lines that a sync tool copies between machines: written by one
/// process at a time (the caller holds a lock), read by others from where they last stopped.
/// Only regular files: a link or a FIFO put in its place is refused, never followed or waited on.
public enum JournalFile {
    /// Appends `lines` (each ending in a newline) to `path`, creating it with `header` first.
    /// A last line left torn by an earlier failed append (a full disk) is ended first, so it
    /// stays one unreadable line rather than spoiling the next.
    public static func append(_ lines: Data, to path: String, header: Data, mode: FileMode = 0o600) throws {
        let fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, mode)
        guard fd >= 0 else { throw LinuxError(operation: "open \(path)", code: errno) }
        defer { close(fd) }
        let status = try FileStatus(descriptor: fd)
        guard status.isRegularFile else { throw LinuxError(operation: "append to \(path) (not a regular file)", code: EINVAL) }
        var data = Data()
        if status.size == 0 {
            data = header
        } else {
            var last: UInt8 = 0
            let read = pread(fd, &last, 1, off_t(status.size - 1))
            if read == 1, last != 0x0A { data.append(0x0A) }
        }
        data.append(lines)
        try data.withUnsafeBytes { try LinuxSystem.write($0, to: fd, name: path) }
    }

    /// Up to `limit` bytes of `path` from byte `offset`, and the file's size then. Throws
    /// `FileReadError` as `BoundedFile` does (missing, not a regular file, unreadable).
    public static func read(_ path: String, from offset: Int, limit: Int) throws -> (bytes: Data, size: Int) {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            if errno == ENOENT { throw FileReadError.missing }
            if errno == ELOOP { throw FileReadError.notRegular(kind: "a symbolic link") }
            throw FileReadError.failed(code: errno)
        }
        defer { close(fd) }
        let status: FileStatus
        do {
            status = try FileStatus(descriptor: fd)
        } catch let error as LinuxError {
            throw FileReadError.failed(code: error.code)
        }
        guard status.isRegularFile else { throw FileReadError.notRegular(kind: "not a regular file") }
        let wanted = max(0, min(status.size - offset, limit))
        var data = Data(count: wanted)
        var total = 0
        while total < wanted {
            let count = data.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + total, wanted - total, off_t(offset + total)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileReadError.failed(code: errno)
            }
            if count == 0 { break }
            total += count
        }
        data.count = total
        return (data, status.size)
    }
}
