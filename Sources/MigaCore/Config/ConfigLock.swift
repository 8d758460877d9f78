/// One edit of `config.toml` at a time. Each edit reads the file, changes it and renames a
/// new file over it; two at once would each write their own change over the other's (twenty
/// `miga config sites add` at once kept only a handful). The lock is taken on the folder, not
/// the file, because the rename replaces the file's inode.
enum ConfigLock {
    /// How long an edit waits for another to finish before saying so.
    static let patience: UInt64 = 10_000_000_000

    static func holding<T>(folderOf path: String, files: any FileService = SystemFiles(), _ body: () throws -> T) throws -> T {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        do {
            try files.makeDirectories(folder.isEmpty ? "/" : folder, mode: 0o700)
        } catch {
            throw ConfigError.unwritable(path: path, problem: "\(error)")
        }
        let lock: DirectoryLock
        do {
            lock = try DirectoryLock(folder.isEmpty ? "/" : folder, patience: patience)
        } catch DirectoryLock.Failure.timedOut {
            throw ConfigError.unwritable(path: path, problem: "another miga has been changing it for 10 s; try again when it is done")
        } catch DirectoryLock.Failure.failed(let code) {
            throw ConfigError.unwritable(path: path, problem: "cannot lock \(folder): \(Errno(rawValue: code).description)")
        }
        defer { lock.unlock() }
        return try body()
    }
}
