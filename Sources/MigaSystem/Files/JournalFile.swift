#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// An append-only file of lines that a sync tool copies between machines: written by one
/// process at a time (the caller holds a lock), read by others from where they last stopped.
/// Opened by `SharedFolder`, which refuses links; only regular files are read or appended to.
public enum JournalFile {
    /// Appends `lines` (each ending in a newline) to the open file `fd` of `size` bytes,
    /// with `header` first when it is empty. A last line left torn by an earlier failed append
    /// (a full disk) is ended first, so it stays one unreadable line rather than spoiling the next.
    static func append(_ lines: Data, descriptor fd: Int32, size: Int, header: Data, name: String) throws {
        var data = Data()
        if size == 0 {
            data = header
        } else {
            var last: UInt8 = 0
            let read = pread(fd, &last, 1, off_t(size - 1))
            if read == 1, last != 0x0A { data.append(0x0A) }
        }
        data.append(lines)
        try data.withUnsafeBytes { try LinuxSystem.write($0, to: fd, name: name) }
    }

    /// Up to `limit` bytes of the open file `fd` from byte `offset`, and the file's size then.
    /// Throws `FileReadError` as `BoundedFile` does (not a regular file, unreadable).
    static func read(descriptor fd: Int32, from offset: Int, limit: Int) throws -> (bytes: Data, size: Int) {
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
