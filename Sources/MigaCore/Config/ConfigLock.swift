#if canImport(Glibc)
import Glibc
#endif

/// One edit of `config.toml` at a time. Each edit reads the file, changes it and renames a
/// new file over it; two at once would each write their own change over the other's (twenty
/// `miga config sites add` at once kept only a handful). The lock is taken on the folder, not
/// the file, because the rename replaces the file's inode.
enum ConfigLock {
    /// How long an edit waits for another to finish before saying so.
    static let patience: UInt64 = 10_000_000_000

    static func holding<T>(folderOf path: String, _ body: () throws -> T) throws -> T {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        do {
            try LinuxSystem.makeDirectories(folder.isEmpty ? "/" : folder, mode: 0o700)
        } catch {
            throw ConfigError.unwritable(path: path, problem: "\(error)")
        }
        let fd = open(folder.isEmpty ? "/" : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw ConfigError.unwritable(path: path, problem: "cannot lock \(folder): \(LinuxSystem.errnoDescription())") }
        defer { close(fd) } // closing releases the lock
        let deadline = LinuxSystem.monotonicNanoseconds() + patience
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw ConfigError.unwritable(path: path, problem: "cannot lock \(folder): \(LinuxSystem.errnoDescription())")
            }
            guard LinuxSystem.monotonicNanoseconds() < deadline else {
                throw ConfigError.unwritable(path: path, problem: "another miga has been changing it for 10 s; try again when it is done")
            }
            usleep(2_000)
        }
        return try body()
    }
}
