#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import JSON

/// Files miga writes on the person's behalf. A write goes to a temporary file beside the target,
/// is flushed to disk, then renamed over it: a reader sees the old file or the new one, never
/// half of either, even if miga is killed mid-write.
public enum AtomicFile {
    /// What to say when a file cannot be written, whichever file it is.
    public static func cannotWrite(_ path: String, _ problem: String) -> String {
        "cannot write \(path): \(problem); check the folder's permissions and free space, then run the command again"
    }

    public static func write(_ text: String, to path: String, mode: FileMode) throws {
        try write(Data(text.utf8), to: path, mode: mode)
    }

    public static func write(_ data: Data, to path: String, mode: FileMode) throws {
        // Through a symlink (dotfile managers link rc files), the link stays and its target changes.
        let target = resolvedTarget(path)
        let folder = FilePath.parent(of: target)
        let temporaryPrefix = ".\(FilePath.lastComponent(of: target)).miga-"
        removeLeftovers(in: folder, prefix: temporaryPrefix)
        let temporary = folder + "/" + temporaryPrefix + "\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw LinuxError(operation: "create \(temporary)", code: errno) }
        var failure: LinuxError?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = LinuxError(operation: "write \(temporary)", code: errno)
                    return
                }
                offset += written
            }
        }
        // The umask must not narrow what was asked for (a shim has to stay executable).
        if failure == nil, fchmod(fd, mode) != 0 { failure = LinuxError(operation: "chmod \(temporary)", code: errno) }
        if failure == nil, fsync(fd) != 0 { failure = LinuxError(operation: "sync \(temporary)", code: errno) }
        close(fd)
        if failure == nil, rename(temporary, target) != 0 { failure = LinuxError(operation: "rename to \(target)", code: errno) }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }

    /// The file's bytes; nil when it is missing or cannot be used (see `BoundedFile`).
    /// Temporary files a killed run left beside this target (`.NAME.miga-PID` whose process
    /// is gone). One still being written by a running miga is left alone.
    static func removeLeftovers(in folder: String, prefix: String) {
        for name in LinuxSystem.directoryNames(in: folder, where: { $0.hasPrefix(prefix) }) {
            guard let pid = pid_t(name.dropFirst(prefix.count)), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) != 0, errno == ESRCH { unlink(folder + "/" + name) }
        }
    }

    public static func read(_ path: String) -> Data? {
        try? BoundedFile.read(path)
    }

    public static func exists(_ path: String) -> Bool {
        FileStatus.at(path, followingLinks: false) != nil
    }

    /// The permission bits of an existing file, to keep them when rewriting it.
    public static func mode(of path: String) -> FileMode? {
        FileStatus.at(path)?.permissions
    }

    /// Removes a file; one that is already gone is not an error.
    public static func remove(_ path: String) throws {
        if unlink(path) != 0, errno != ENOENT { throw LinuxError(operation: "remove \(path)", code: errno) }
    }

    static func resolvedTarget(_ path: String) -> String {
        guard FileStatus.at(path, followingLinks: false)?.kind == .symbolicLink, let real = LinuxSystem.realPath(path) else { return path }
        return real
    }
}
