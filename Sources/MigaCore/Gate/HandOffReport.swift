#if canImport(Glibc)
import Glibc
#endif

/// How a gate without a terminal learns that the gate it started in a terminal emulator is
/// really showing (DESIGN "The gateway"). An emulator can fail in every way (no display, a
/// broken install) or hand the command to a server process and exit at once (gnome-terminal,
/// konsole), so neither its exit nor a pipe says anything. Instead the outer gate makes a
/// fresh empty file and passes its path; the inner gate writes its pid there once its first
/// frame is drawn. An outer gate that gives up removes the file; an inner gate that finds it
/// gone ends at once without opening anything, so the app never opens twice.
public enum HandOffReport {
    /// The outer side: a new empty file in `$XDG_RUNTIME_DIR/miga/` (private to this login),
    /// else in miga's state folder.
    static func create(environment: [String: String], paths: MigaPaths) throws -> String {
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 + "/miga" : nil }
        let folder = runtime ?? paths.stateDirectory + "/handoff"
        try LinuxSystem.makeDirectories(folder, mode: 0o700)
        var template = Array((folder + "/handoff-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw LinuxError(operation: "create a file in \(folder)", code: errno) }
        close(fd)
        return String(cString: template)
    }

    /// The outer side: waits up to `seconds` for the inner gate's report.
    static func awaitShown(_ path: String, seconds: Double) -> Bool {
        let deadline = LinuxSystem.monotonicNanoseconds() + UInt64(seconds * 1_000_000_000)
        repeat {
            var info = stat()
            if stat(path, &info) == 0, info.st_size > 0 { return true }
            usleep(20_000)
        } while LinuxSystem.monotonicNanoseconds() < deadline
        var info = stat()
        return stat(path, &info) == 0 && info.st_size > 0
    }

    /// The outer side, done waiting either way.
    static func remove(_ path: String) {
        unlink(path)
    }

    /// The inner side, before showing anything: whether the outer gate still waits.
    public static func isAwaited(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// The inner side, once its first frame is drawn: false when the outer gate has given up
    /// (and so opened the app itself).
    public static func reportShown(_ path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW) // never O_CREAT: gone means given up
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let text = Array("\(getpid())\n".utf8)
        return write(fd, text, text.count) == text.count
    }
}
