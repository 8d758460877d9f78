#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file with no name, for more data than memory should hold that only this process reads
/// back (the events an import has checked). It is made beside the data it is about and
/// unlinked at once, so a killed process leaves nothing behind and nobody else can open it.
public final class ScratchFile {
    private let fd: Int32
    /// What errors call it ("the import's temporary file").
    private let name: String

    /// A new file in `directory`, briefly named `prefix` and six random characters.
    public init(in directory: String, prefix: String, name: String) throws {
        var template = Array((directory + "/" + prefix + "XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw LinuxError(operation: "make a temporary file in \(directory)", code: errno) }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) } // nameless from here on
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        self.fd = fd
        self.name = name
    }

    deinit { close(fd) }

    /// Writes all of `bytes` at `offset`. A write that takes nothing without an error is a
    /// full disk (ENOSPC), or it would be tried for ever.
    public func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws {
        var done = 0
        while done < bytes.count {
            let count = pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw LinuxError(operation: "write \(name)", code: count < 0 ? errno : ENOSPC) }
            done += count
        }
    }

    /// Reads what fits in `buffer` from `offset`, at least one byte: callers read only what
    /// they wrote, so an end of file there means the file is damaged (EIO).
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws -> Int {
        while true {
            let count = pread(fd, buffer.baseAddress!, buffer.count, off_t(offset))
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw LinuxError(operation: "read \(name)", code: count < 0 ? errno : EIO) }
            return count
        }
    }

    /// The error for a file that does not hold what was written to it.
    public func damaged() -> LinuxError {
        LinuxError(operation: "read \(name)", code: EIO)
    }
}
