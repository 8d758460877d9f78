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
    static func create(environment: [String: String], paths: MigaPaths, files: any FileService = SystemFiles()) throws -> String {
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 + "/miga" : nil }
        let folder = runtime ?? paths.stateDirectory + "/handoff"
        try files.makeDirectories(folder, mode: 0o700)
        return try files.createUniqueFile(in: folder, prefix: "handoff-")
    }

    /// The outer side: waits up to `seconds` for the inner gate's report.
    static func awaitShown(_ path: String, seconds: Double, processes: any ProcessService = SystemProcesses()) -> Bool {
        let deadline = processes.monotonicNanoseconds() + UInt64(seconds * 1_000_000_000)
        func reported() -> Bool { (FileStatus.at(path)?.size ?? 0) > 0 }
        repeat {
            if reported() { return true }
            processes.sleep(microseconds: 20_000)
        } while processes.monotonicNanoseconds() < deadline
        return reported()
    }

    /// The outer side, done waiting either way.
    static func remove(_ path: String, files: any FileService = SystemFiles()) {
        files.removeFile(path)
    }

    /// The inner side, before showing anything: whether the outer gate still waits.
    public static func isAwaited(_ path: String) -> Bool {
        FileStatus.at(path)?.isRegularFile == true
    }

    /// The inner side, once its first frame is drawn: false when the outer gate has given up
    /// (and so opened the app itself).
    public static func reportShown(_ path: String, files: any FileService = SystemFiles(), processes: any ProcessService = SystemProcesses()) -> Bool {
        // Never created: gone means given up.
        files.overwriteExisting(path, with: Array("\(processes.id)\n".utf8))
    }
}
