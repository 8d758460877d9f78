import FoundationEssentials

/// One attempt handed from one gate to the next. `open-url`'s gate has run (an Open, grace, or
/// hours without a gate) and passes the link on to the browser, whose extension would otherwise
/// gate the very same attempt again (a second countdown when `grace_minutes = 0`, a duplicate
/// `grace_pass` otherwise). The hand-over leaves one pass per link for its site in
/// `$XDG_RUNTIME_DIR/miga/pass/NAME` (NAME as `MigaConfig.fileName(of:)` writes it; the person's own tmpfs, 0700): the browser's next gate
/// request for that site within a minute takes one and goes on, recording nothing more.
enum HandedOverPass {
    static let lifetimeMilliseconds: Int64 = 60_000

    static func file(app: String, paths: MigaPaths) -> String? {
        guard MigaConfig.isValidGateName(app), let runtime = paths.runtimeDirectory else { return nil }
        return runtime + "/miga/pass/" + MigaConfig.fileName(of: app)
    }

    /// Best effort: without it the browser gates the attempt again, as before.
    static func leave(app: String, count: Int, paths: MigaPaths, clock: MigaClock, files: any FileService = SystemFiles()) {
        guard count > 0, let file = file(app: app, paths: paths),
              (try? files.makeDirectories(FilePath.parent(of: file), mode: 0o700)) != nil else { return }
        let expires = clock.nowMilliseconds() + lifetimeMilliseconds
        try? AtomicFile.write(String(repeating: "\(expires)\n", count: min(count, 64)), to: file, mode: 0o600)
    }

    /// Takes one pass for `app`, if one is there and in time.
    static func take(app: String, paths: MigaPaths, clock: MigaClock, files: any FileService = SystemFiles()) -> Bool {
        guard let file = file(app: app, paths: paths),
              let data = try? BoundedFile.readIfPresent(file, limit: 4096) else { return false }
        let now = clock.nowMilliseconds()
        var passes = String(decoding: data, as: UTF8.self).split(separator: "\n")
            .compactMap { Int64($0) }.filter { now <= $0 && $0 <= now + lifetimeMilliseconds }
        guard !passes.isEmpty else {
            files.removeFile(file)
            return false
        }
        passes.removeFirst()
        if passes.isEmpty {
            files.removeFile(file)
        } else {
            try? AtomicFile.write(passes.map { "\($0)\n" }.joined(), to: file, mode: 0o600)
        }
        return true
    }

    /// The hand-over did not happen after all (the browser could not be started).
    static func withdraw(app: String, paths: MigaPaths, files: any FileService = SystemFiles()) {
        if let file = file(app: app, paths: paths) { files.removeFile(file) }
    }
}
