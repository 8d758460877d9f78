import FoundationEssentials

/// The grace an Open starts, where the PATH shim sees it without starting miga (a grace pass
/// then costs one `sh`): `$XDG_RUNTIME_DIR/miga/grace/NAME.until`, whose modification time is
/// when the grace ends, and `NAME.since` (NAME as `MigaConfig.fileName(of:)` writes it: a path
/// site's `youtube.com%2Fshorts`), written at the Open, so the shim can tell that
/// neither config.toml nor the licence changed since. The database stays the record: the
/// shim's passes go to the spool (`EventStore.foldSpool`), and miga decides grace from the
/// events whenever the stamps are missing (after a reboot, say).
enum GraceStamp {
    static func folder(_ environment: [String: String]) -> String? {
        environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 + "/miga/grace" : nil }
    }

    /// Best effort: without stamps the gate decides grace itself, only slower.
    /// `spool`: the folder the shim writes its passes to, made here so that it need not be.
    static func write(app: String, until: Date, spool: String, environment: [String: String], files: any FileService = SystemFiles()) {
        guard let folder = folder(environment), MigaConfig.isValidGateName(app),
              (try? files.makeDirectories(folder, mode: 0o700)) != nil,
              (try? files.makeDirectories(spool, mode: 0o700)) != nil else { return }
        let base = folder + "/" + MigaConfig.fileName(of: app)
        // `.until` first: a `.since` without it is never taken for grace.
        files.removeFile(base + ".since")
        guard touch(base + ".until", at: until, files: files), touch(base + ".since", at: nil, files: files) else {
            files.removeFile(base + ".until")
            return
        }
    }

    static func remove(app: String, environment: [String: String], files: any FileService = SystemFiles()) {
        guard let folder = folder(environment), MigaConfig.isValidGateName(app) else { return }
        let base = folder + "/" + MigaConfig.fileName(of: app)
        files.removeFile(base + ".since")
        files.removeFile(base + ".until")
    }

    /// Every stamp, and the folder (`miga uninstall`).
    static func removeAll(environment: [String: String], files: any FileService = SystemFiles()) {
        guard let folder = folder(environment) else { return }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            where name.hasSuffix(".since") || name.hasSuffix(".until") {
            files.removeFile(folder + "/" + name)
        }
        files.removeDirectory(folder)
    }

    /// Creates (or empties) `path` with its modification time `at` (nil: now).
    /// A time outside what events can hold is refused, before the file is touched.
    private static func touch(_ path: String, at date: Date?, files: any FileService) -> Bool {
        guard let date else { return files.touch(path, mode: 0o600, modified: nil) }
        let seconds = date.timeIntervalSince1970
        guard UnixTime.milliseconds(seconds: seconds) != nil else { return false }
        let time = FileTime(seconds: Int(seconds.rounded(.down)), nanoseconds: Int((seconds - seconds.rounded(.down)) * 1e9))
        return files.touch(path, mode: 0o600, modified: time)
    }
}
