#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// Grace passes the PATH shim decided alone (see `GraceStamp`): one small file each in the
/// `spool/` folder beside the database, `grace-UPTIME-PID` holding the app's name and a newline,
/// its modification time the moment of the pass. A file per pass rather than one shared
/// file: the shell cannot lock, and a file being appended to cannot be emptied safely; a
/// whole file is taken or left. Every process that opens the database folds them in first,
/// in one transaction, so counts are exact; a pass is keyed by its file's name, so a crash
/// between the commit and the removal never counts one twice.
extension EventStore {
    static let spoolFolderName = "spool"
    /// An empty or unfinished file this old is a shim that stopped before writing: not a pass.
    static let unfinishedSpoolSeconds = 10.0
    static let spoolBatchLimit = 10_000

    var spoolFolder: String { FilePath.parent(of: path) + "/" + Self.spoolFolderName }

    /// Best effort: what cannot be read now stays for the next process.
    func foldSpool() {
        guard let directory = opendir(spoolFolder) else { return }
        var names: [String] = []
        while names.count < Self.spoolBatchLimit, let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name.hasPrefix("grace-") { names.append(name) }
        }
        closedir(directory)
        guard !names.isEmpty else { return }
        let now = Date().timeIntervalSince1970
        var passes: [(file: String, event: Event)] = []
        var discard: [String] = []
        for name in names {
            let file = spoolFolder + "/" + name
            var info = stat()
            guard lstat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { discard.append(file); continue }
            let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
            let text = (try? BoundedFile.readIfPresent(file, limit: 256)).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) } ?? ""
            guard text.hasSuffix("\n"), case let app = String(text.dropLast()), MigaConfig.isValidAppName(app) else {
                if now - modified > Self.unfinishedSpoolSeconds || info.st_size > 255 { discard.append(file) }
                continue
            }
            let session = "shim-" + String(name.dropFirst("grace-".count).unicodeScalars.filter {
                ("0"..."9").contains($0) || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || $0 == "." || $0 == "-"
            }.prefix(64).map(Character.init))
            let milliseconds = Int64((modified * 1000).rounded(.down))
            passes.append((file, Event(timestamp: milliseconds, utcOffsetMinutes: LinuxSystem.utcOffsetSeconds(at: modified) / 60,
                                       session: session, type: .gracePass, app: app)))
        }
        if !passes.isEmpty {
            do {
                try db.transaction(immediate: true) {
                    for pass in passes {
                        let event = pass.event
                        try db.execute("""
                            INSERT INTO events (ts, utc_offset_min, session, type, app) SELECT ?, ?, ?, ?, ?
                            WHERE NOT EXISTS (SELECT 1 FROM events WHERE type = ? AND app = ? AND session = ?)
                            """, [.integer(event.timestamp), SQLiteValue(event.utcOffsetMinutes), .text(event.session),
                                  .text(event.type.rawValue), .text(event.app),
                                  .text(event.type.rawValue), .text(event.app), .text(event.session)])
                    }
                }
            } catch {
                return // the files stay; the next process tries again
            }
        }
        for file in passes.map(\.file) + discard { unlink(file) }
    }
}
