/// One room watcher per user: `miga watch` holds an flock on `$XDG_RUNTIME_DIR/miga/watch.lock`
/// (else on `watch.lock` in miga's state folder) for its whole life; a second one finds it
/// held and leaves. It is a folder, as every lock miga takes is (`DirectoryLock`), and the
/// kernel releases it with the process, however it ends.
public final class WatchLock {
    private let lock: DirectoryLock

    private init(lock: DirectoryLock) {
        self.lock = lock
    }

    /// Where the lock is.
    public static func path(paths: MigaPaths) -> String {
        (paths.runtimeDirectory.map { $0 + "/miga" } ?? paths.stateDirectory) + "/watch.lock"
    }

    /// The lock, waiting up to `patience` seconds for a watcher that is ending; nil while
    /// another watcher holds it. Throws when it cannot be taken at all (no folder for it).
    public static func take(context: MigaContext, patience: Double = 0) throws -> WatchLock? {
        let path = path(paths: context.paths)
        try context.files.makeDirectories(path, mode: 0o700)
        do {
            return WatchLock(lock: try DirectoryLock(path, patience: UInt64(max(0, patience) * 1_000_000_000)))
        } catch DirectoryLock.Failure.timedOut {
            return nil
        }
    }

    /// Whether a watcher runs for this user now (for `doctor`).
    public static func isHeld(context: MigaContext) -> Bool {
        let path = path(paths: context.paths)
        guard context.files.pathExists(path) else { return false }
        do {
            _ = try DirectoryLock(path, patience: 0)
            return false
        } catch {
            return (error as? DirectoryLock.Failure) == .timedOut
        }
    }

    public func release() { lock.unlock() }
}
