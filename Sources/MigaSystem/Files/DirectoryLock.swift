#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An exclusive flock(2) on a folder, for work that replaces files in it: a lock on a file
/// would be lost when a rename replaced the file's inode. Held until `unlock()` (or until
/// the lock is gone), and always released when the process ends.
public final class DirectoryLock {
    public enum Failure: Error, Equatable {
        /// The folder would not open, or flock failed for another reason than a holder.
        case failed(code: Int32)
        /// Another process held the lock for all of `patience`.
        case timedOut
    }

    private var fd: Int32

    /// Waits up to `patience` nanoseconds for another holder, looking again every 2 ms (flock's
    /// blocking wait could not be bounded, and a person must never wait for ever).
    public init(_ folder: String, patience: UInt64) throws {
        fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure.failed(code: errno) }
        let deadline = LinuxSystem.monotonicNanoseconds() + patience
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                unlock()
                throw Failure.failed(code: code)
            }
            guard LinuxSystem.monotonicNanoseconds() < deadline else {
                unlock()
                throw Failure.timedOut
            }
            usleep(2_000)
        }
    }

    /// Closing the folder releases the lock. Safe to call more than once.
    public func unlock() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
    }

    deinit { unlock() }
}
