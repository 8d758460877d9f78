import FoundationEssentials

/// Events that wait outside the database, in the `spool/` folder beside it, until a process
/// folds them in (every process that opens the database does, first, in one transaction):
///
/// - `grace-UPTIME-PID`: a grace pass the PATH shim decided alone (see `GraceStamp`), holding
///   the app's name and a newline, its modification time the moment of the pass. A file per
///   pass: the shell cannot lock, and a file being appended to cannot be emptied safely.
/// - `events-PID-NANOSECONDS`: events a miga process could not write at once (another
///   program's lock, a full disk, an I/O error), as lines of `events export`; written whole
///   (temporary file, then rename), so a file is taken or left whole. When the disk is full
///   they go to the overflow instead (`MigaPaths.overflowSpool`, in `$XDG_RUNTIME_DIR`), folded
///   the same way.
///
/// Folding is keyed by each event's identity (time, session, type, app, as an import is), so a
/// crash between the commit and the removal never counts one twice.
extension EventStore {
    static let spoolFolderName = "spool"
    static let gracePrefix = "grace-"
    static let eventsPrefix = "events-"
    /// An empty or unfinished grace file this old is a shim that stopped before writing.
    static let unfinishedSpoolSeconds = 10.0
    static let spoolBatchLimit = 10_000
    /// A spooled write is one gate's few events; anything larger was not written by miga.
    static let spooledEventsLimit = 64 * 1024

    var spoolFolder: String { FilePath.parent(of: path) + "/" + Self.spoolFolderName }


    /// Keeps `events` in the spool as one file.
    func spool(_ events: [Event]) throws {
        try Self.spool(events, besideDatabase: path, overflow: overflowSpool, files: files, processes: processes)
    }

    /// The same without opening the database: for events about a database that could not
    /// be used at all (another program's file, a damaged one), which wait until it is moved
    /// aside and miga makes a new one. When the spool beside it cannot be written either (the
    /// disk is full), they wait in `overflow`, in memory until logout.
    public static func spool(_ events: [Event], besideDatabase database: String, overflow: String?,
                             files: any FileService = SystemFiles(), processes: any ProcessService = SystemProcesses()) throws {
        let text = events.map { EventLine.jsonl($0) + "\n" }.joined()
        let name = eventsPrefix + "\(processes.id)-\(processes.monotonicNanoseconds())"
        func write(into folder: String) throws {
            try files.makeDirectories(folder, mode: 0o700)
            try AtomicFile.write(text, to: folder + "/" + name, mode: 0o600)
        }
        do {
            try write(into: FilePath.parent(of: database) + "/" + spoolFolderName)
        } catch {
            guard let overflow else { throw error }
            try write(into: overflow) // its error names the overflow; the caller's, the database
        }
    }

    /// Best effort: what cannot be written now stays for the next process. Under another
    /// process's lock this gives up within `LockWait.brief`, as every gate write does.
    func foldSpool() {
        // The overflow holds only whole files of events: grace passes are the shim's, beside
        // the database.
        let names = Self.spooledNames(in: spoolFolder, grace: true, files: files).map { (spoolFolder, $0) }
            + (overflowSpool.map { folder in Self.spooledNames(in: folder, grace: false, files: files).map { (folder, $0) } } ?? [])
        guard !names.isEmpty else { return }
        var folded: [String] = [], discard: [String] = []
        var events: [Event] = []
        let now = Date().timeIntervalSince1970
        for (folder, name) in names {
            let file = folder + "/" + name
            guard let status = FileStatus.at(file, followingLinks: false), status.isRegularFile else { discard.append(file); continue }
            let read = name.hasPrefix(Self.gracePrefix) ? gracePass(name: name, file: file, status: status, now: now)
                : spooledEvents(file: file)
            switch read {
            case .events(let found): events += found; folded.append(file)
            case .notYet: continue
            case .unusable: discard.append(file)
            }
        }
        if !events.isEmpty {
            // In the order they happened (a directory lists its files in no order), so ids
            // keep time order, as for events written at once.
            events = events.enumerated().sorted { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }.map(\.element)
            do {
                try db.transaction(immediate: true) { _ = try insertUnlessStored(events, device: nil) }
            } catch {
                folded = [] // the files stay; the next process tries again
            }
        }
        for file in folded + discard { files.removeFile(file) }
    }

    /// Inserts `events` in their order, each unless one with its identity (time, session,
    /// type, app) is stored; inside a transaction. Returns how many were new.
    func insertUnlessStored(_ events: [Event], device: String?) throws -> Int {
        let insert = try db.prepare("""
            INSERT INTO events (ts, utc_offset_min, session, type, app, content_id, wait_ms, detail, device)
            SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE NOT EXISTS (\(Self.storedEventLookup))
            """)
        var inserted = 0
        for event in events {
            try insert.bind([.integer(event.timestamp), SQLiteValue(event.utcOffsetMinutes), .text(event.session),
                             .text(event.type.rawValue), .text(event.app), SQLiteValue(event.contentID),
                             SQLiteValue(event.waitMilliseconds), SQLiteValue(event.detail), SQLiteValue(device),
                             .integer(event.timestamp), .text(event.session), .text(event.type.rawValue), .text(event.app)])
            while try insert.step() {}
            inserted += db.changes
        }
        return inserted
    }

    private enum SpooledRead {
        case events([Event])
        /// A grace file a shim is still writing.
        case notYet
        case unusable
    }

    static func spooledNames(in folder: String, grace: Bool, limit: Int = spoolBatchLimit, files: any FileService) -> [String] {
        files.directoryNames(in: folder, limit: limit) { name in
            (grace && name.hasPrefix(gracePrefix)) || name.hasPrefix(eventsPrefix)
        }
    }

    private func gracePass(name: String, file: String, status: FileStatus, now: Double) -> SpooledRead {
        // An mtime outside 1970...9999 (set by hand, or a broken clock) says nothing about when
        // the pass was: it counts as now.
        let modified = UnixTime.date(of: status.modified)?.timeIntervalSince1970 ?? now
        let text = (try? BoundedFile.readIfPresent(file, limit: 256)).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) } ?? ""
        guard text.hasSuffix("\n"), case let app = String(text.dropLast()), MigaConfig.isValidAppName(app) else {
            return now - modified > Self.unfinishedSpoolSeconds || status.size > 255 ? .unusable : .notYet
        }
        let session = "shim-" + String(name.dropFirst(Self.gracePrefix.count).unicodeScalars.filter {
            ("0"..."9").contains($0) || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || $0 == "." || $0 == "-"
        }.prefix(64).map(Character.init))
        let milliseconds = UnixTime.milliseconds(seconds: modified) ?? UnixTime.clampedMilliseconds(Date())
        return .events([Event(timestamp: milliseconds, utcOffsetMinutes: SystemClock().utcOffsetMinutes(at: Date(timeIntervalSince1970: modified)),
                              session: session, type: .gracePass, app: app)])
    }

    /// A whole file of exported lines, or nothing of it: a file that is not is not miga's.
    private func spooledEvents(file: String) -> SpooledRead {
        guard let data = (try? BoundedFile.readIfPresent(file, limit: Self.spooledEventsLimit)).flatMap({ $0 }) else { return .unusable }
        var events: [Event] = []
        for line in data.split(separator: 0x0A, omittingEmptySubsequences: true) {
            guard let event = try? EventLine.parse(Data(line)) else { return .unusable }
            events.append(event)
        }
        return .events(events)
    }
}
