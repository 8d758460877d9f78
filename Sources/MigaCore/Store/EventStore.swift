import FoundationEssentials
import CSQLite

/// The local SQLite file holding events and rotation state (DESIGN "Events").
///
/// Several gates may start at once, so: WAL, IMMEDIATE write transactions, and every write
/// committed (or spooled) before the call returns (before any exec). A gate never waits on
/// another process: a write that cannot be made within `LockWait.brief` — another program's
/// lock, an import, a full disk, an I/O error — goes to the spool (`EventStore+Spool.swift`)
/// and is folded in by a later process.
public final class EventStore {
    public let path: String
    /// Where events wait when the spool beside the database cannot be written either (see
    /// `MigaPaths.overflowSpool`); nil without a runtime directory.
    public let overflowSpool: String?
    let db: SQLiteConnection
    /// Where this machine's events are shared with the person's other machines, when
    /// `sync_folder` is set: every write appends them there too (`EventStore+Journal.swift`).
    public var journal: SyncJournal?
    /// This process committed events of this machine the journal does not have yet: a push
    /// (`catchUpJournal`, or `GateService.shareInBackground` off the gate's path) is due.
    public var journalBehind = false
    /// Why this machine's events could not be appended when a command last tried
    /// (`openForReading`), for `sync status` to say.
    public var journalProblem: SyncError?
    /// The file system this store writes its folders, spool and journal through.
    let files: any FileService
    /// This process's id, clock and waits, for the spool's names and the import's pacing.
    let processes: any ProcessService
    /// Reads an export given as a descriptor (`EventStore+Transfer`).
    let terminal: any TerminalService

    /// How long a write may wait for another process's lock.
    public enum LockWait: Sendable {
        /// Anything in front of an app (gates, the browser host, open-url): a few tens of
        /// milliseconds, then the spool.
        case brief
        /// A person's own command on their data (`events import`, `data delete`): it may wait.
        case patient

        var seconds: Double { self == .brief ? 0.04 : 5 }
    }

    /// Opens the database only if it exists: reading stats must not create one.
    /// Events waiting in the overflow (the disk was full when they happened) make one.
    public static func openExisting(paths: MigaPaths, lockWait: LockWait = .brief, files: any FileService = SystemFiles(),
                                    processes: any ProcessService = SystemProcesses(),
                                    terminal: any TerminalService = SystemTerminal()) throws -> EventStore? {
        let waiting = paths.overflowSpool.map { !spooledNames(in: $0, grace: false, limit: 1, files: files).isEmpty } ?? false
        return AtomicFile.exists(paths.database) || waiting
            ? try EventStore(paths: paths, lockWait: lockWait, files: files, processes: processes, terminal: terminal) : nil
    }

    /// `openExisting(paths:lockWait:)` with the context's paths and services.
    public static func openExisting(context: MigaContext, lockWait: LockWait = .brief) throws -> EventStore? {
        try openExisting(paths: context.paths, lockWait: lockWait, files: context.files, processes: context.processes,
                         terminal: context.terminal)
    }

    /// miga's database, with its overflow spool, through the context's services.
    public convenience init(context: MigaContext, lockWait: LockWait = .brief) throws {
        try self.init(paths: context.paths, lockWait: lockWait, files: context.files, processes: context.processes,
                      terminal: context.terminal)
    }

    /// miga's database, with its overflow spool.
    public convenience init(paths: MigaPaths, lockWait: LockWait = .brief, files: any FileService = SystemFiles(),
                            processes: any ProcessService = SystemProcesses(), terminal: any TerminalService = SystemTerminal()) throws {
        try self.init(path: paths.database, lockWait: lockWait, overflowSpool: paths.overflowSpool,
                      files: files, processes: processes, terminal: terminal)
    }

    public init(path: String, lockWait: LockWait = .brief, overflowSpool: String? = nil, files: any FileService = SystemFiles(),
                processes: any ProcessService = SystemProcesses(), terminal: any TerminalService = SystemTerminal()) throws {
        self.path = path
        self.overflowSpool = overflowSpool
        self.files = files
        self.processes = processes
        self.terminal = terminal
        let directory = FilePath.parent(of: path)
        do {
            try files.makeDirectories(directory, mode: 0o700)
        } catch {
            throw StoreError.cannotCreateDirectory(path: directory, reason: "\(error)")
        }
        do {
            try Self.createPrivately(path, files: files)
            db = try Self.open(path, lockWait: lockWait, files: files, processes: processes)
            foldSpool() // the shim's grace passes and spooled events, before anything reads or writes events
        } catch let error as StoreError {
            throw error
        } catch let error as SQLiteError where error.primaryCode == SQLITE_NOTADB || error.primaryCode == SQLITE_CORRUPT {
            throw StoreError.notADatabase(path: path)
        } catch {
            throw StoreError.unusable(path: path, reason: "\(error)")
        }
    }

    /// Opens (and on first use creates) the database. When several gates create it at the
    /// same moment, the switch to WAL fails at once rather than waiting on the busy timeout
    /// (a journal-mode change never consults the busy handler). That is settled with a short
    /// random pause and a fresh connection, which then finds WAL on and the schema current.
    ///
    /// Everything is bounded by `openingSeconds`: a database some other program keeps locked
    /// must not keep a person from their app. The gate then fails open and says why. In the
    /// usual case nothing here waits for a lock: it only reads, and WAL readers never wait.
    private static func open(_ path: String, lockWait: LockWait, files: any FileService,
                             processes: any ProcessService) throws -> SQLiteConnection {
        var generator = SystemRandomNumberGenerator()
        let deadline = processes.monotonicNanoseconds() + UInt64(max(openingSeconds, lockWait.seconds) * 1_000_000_000)
        while true {
            do {
                try refuseForeignFileBesideLog(path)
                let db = try SQLiteConnection(path: path, busyTimeout: lockWait.seconds)
                try checkOwnership(of: db, path: path)
                // WAL is a property of the file: once set it stays, so it is only asked about
                // (SQLite has read the header) and set for a new file, or for one an import of
                // an older miga left in rollback mode by stopping half-way. Not by reading the
                // header here: closing any descriptor of the file drops every POSIX lock this
                // process holds on it, SQLite's own included, and another process could then
                // remove the WAL this connection writes to.
                if try db.value("PRAGMA journal_mode") != .text("wal") { try db.execute("PRAGMA journal_mode = WAL") }
                // WAL's recommended level: a commit survives any crash of miga or the app; only
                // a power cut may lose the last few events, never corrupting the file. FULL
                // adds an fsync to every gate.
                try db.execute("PRAGMA synchronous = NORMAL")
                // Anything in front of an app keeps its page cache to 1 MiB (SQLite's default is
                // 2): on a large history (a million events, or every machine's), the streak of
                // the celebration and the fold filled the default and a gate went past its
                // memory target. The kernel's page cache still holds the file.
                if lockWait == .brief { try db.execute("PRAGMA cache_size = -1024") }
                try migrate(db)
                tighten(path, files: files)
                return db
            } catch let error as SQLiteError where isRetryable(error) && processes.monotonicNanoseconds() < deadline {
                processes.sleep(microseconds: UInt32.random(in: 2_000...20_000, using: &generator))
            }
        }
    }

    /// Seconds an open may spend settling a race between gates creating the database at once.
    static let openingSeconds: Double = 2

    /// Marks the file as miga's (`PRAGMA application_id`, "miga" in ASCII), so that a SQLite
    /// file someone else put at this path is recognised and never given miga's tables.
    static let applicationID: Int32 = 0x6D69_6761

    /// The tables miga makes, with the ledger of migrations run (named as GRDB, which miga
    /// used before, named it: databases made then carry it).
    static let ownTables: Set<String> = ["events", "rotation_shown", "rotation_state", migrationsTable, "sync_written", "sync_read"]
    static let migrationsTable = "grdb_migrations"

    /// Throws unless the file is miga's: marked as such, or unmarked and holding nothing but
    /// miga's own tables (a new file, or one from before the mark, which the migration marks).
    static func checkOwnership(of db: SQLiteConnection, path: String) throws {
        let id = StoredValue.integer(try db.value("PRAGMA application_id")) ?? 0
        if id == Int64(applicationID) { return }
        let tables = try db.column("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        guard id == 0, Set(tables.map { StoredValue.text($0) ?? "" }).isSubset(of: ownTables) else {
            throw StoreError.foreignDatabase(path: path)
        }
    }

    /// SQLite replays a `-wal` lying beside the file over whatever file is at the path when it
    /// is opened, and a later checkpoint writes those pages into it: another program's
    /// database put at miga's path (or restored there) while miga's log remains would be
    /// overwritten. So while a log is there, the file's own header — read before SQLite
    /// opens it, never through the log — must say the file is miga's. An unmarked file is
    /// miga's if it holds only miga's tables (a file from before the mark, or one whose mark
    /// is still in the log); that is read with the log ignored (`immutable`).
    static func refuseForeignFileBesideLog(_ path: String) throws {
        guard let log = FileStatus.at(path + "-wal", followingLinks: false), log.size > 0 else { return } // nothing could be replayed
        // Empty: a database not yet written. Anything but a regular file SQLite reports itself.
        guard let file = FileStatus.at(path), file.isRegularFile, file.size > 0 else { return }
        let header: (id: Int64, tables: Set<String>)
        do {
            header = try headerIgnoringLog(path)
        } catch let error as SQLiteError where error.primaryCode == SQLITE_NOTADB {
            throw StoreError.notADatabase(path: path)
        } catch {
            // Not readable yet: another gate is making the file this moment. Asked again (the
            // open's retries), never taken for a foreign file.
            throw SQLiteError(code: SQLITE_BUSY, message: "the database is being created", sql: nil)
        }
        if header.id == Int64(applicationID) { return }
        guard header.id == 0, header.tables.isSubset(of: ownTables) else { throw StoreError.foreignDatabase(path: path) }
    }

    /// The file's own mark and tables, read through SQLite with the log ignored (`immutable`).
    /// Through SQLite, not a descriptor of our own: closing one would drop every POSIX lock
    /// this process's connections hold on the file.
    private static func headerIgnoringLog(_ path: String) throws -> (id: Int64, tables: Set<String>) {
        // A URI's path: `%`, `?` and `#` would be read as its own syntax.
        var escaped = ""
        for scalar in path.unicodeScalars {
            switch scalar {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        let db = try SQLiteConnection(uri: "file:" + escaped + "?immutable=1")
        let id = StoredValue.integer(try db.value("PRAGMA application_id")) ?? 0
        let tables = Set(try db.column("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            .compactMap(StoredValue.text))
        return (id, tables)
    }

    /// The database and its WAL and shared-memory files (which SQLite creates with the
    /// database's mode) are the person's alone: 0600, whatever umask the first command had.
    static func createPrivately(_ path: String, files: any FileService) throws {
        // An existing file (or anything odd, which SQLite reports) is left as it is.
        files.createFileIfAbsent(path, mode: 0o600)
    }

    /// A file of miga's made before it kept them private: 0600 from now on.
    static func tighten(_ path: String, files: any FileService) {
        for file in [path, path + "-wal", path + "-shm"] {
            if let status = FileStatus.at(file, followingLinks: false), status.isRegularFile, status.permissions & 0o077 != 0 {
                files.setPermissions(file, 0o600)
            }
        }
    }

    /// A lock another connection holds, for a moment. A full disk or an I/O error is not
    /// waited out: trying again would only make the person wait for the same answer.
    private static func isRetryable(_ error: SQLiteError) -> Bool {
        error.primaryCode == SQLITE_BUSY || error.primaryCode == SQLITE_LOCKED
    }

    /// The schema's steps, by name, in order; each runs once per file.
    private static let migrations: [(name: String, sql: String)] = [
        ("v1", """
            CREATE TABLE events (
                id INTEGER PRIMARY KEY,
                ts INTEGER NOT NULL,
                utc_offset_min INTEGER NOT NULL,
                session TEXT NOT NULL,
                type TEXT NOT NULL,
                app TEXT NOT NULL,
                content_id TEXT,
                wait_ms INTEGER,
                detail TEXT
            );
            CREATE INDEX events_by_type_app_ts ON events(type, app, ts);
            CREATE INDEX events_by_ts ON events(ts);
            CREATE TABLE rotation_shown (content_id TEXT PRIMARY KEY NOT NULL);
            CREATE TABLE rotation_state (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                last_content_id TEXT
            );
            """),
        // Streaks need every local day with an Exit, over all history: this index holds
        // exactly that expression for exactly those rows, so it is read without the table.
        ("v2-exit-days", """
            CREATE INDEX events_exit_days ON events((ts + utc_offset_min * 60000) / 86400000)
                WHERE type = 'exit_selected'
            """),
        ("v3-application-id", "PRAGMA application_id = \(applicationID)"),
        // An event's identity (DESIGN: same time, session, type and app) found in one seek:
        // the import skips events already stored, and with only `ts` indexed it read every
        // row of that millisecond for each (20,000 events at one time: 33 s). It leads with
        // `ts`, so it serves every range over time the old index did.
        ("v4-identity-index", """
            DROP INDEX IF EXISTS events_by_ts;
            CREATE INDEX events_by_identity ON events(ts, session, app, type)
            """),
        // One history across machines (`SyncJournal`): which machine an event came from (NULL:
        // this one), how far this machine's own events are in its journal, and how far each
        // other machine's file has been read. Adding a column rewrites no row.
        ("v5-sync", """
            ALTER TABLE events ADD COLUMN device TEXT;
            CREATE TABLE sync_written (
                folder TEXT NOT NULL,
                device TEXT NOT NULL,
                last_id INTEGER NOT NULL,
                PRIMARY KEY (folder, device)
            );
            CREATE TABLE sync_read (
                folder TEXT NOT NULL,
                file TEXT NOT NULL,
                device TEXT NOT NULL,
                host TEXT,
                offset INTEGER NOT NULL DEFAULT 0,
                tail BLOB,
                reader INTEGER NOT NULL DEFAULT 0,
                events INTEGER NOT NULL DEFAULT 0,
                skipped INTEGER NOT NULL DEFAULT 0,
                problem TEXT,
                said INTEGER NOT NULL DEFAULT 1,
                PRIMARY KEY (folder, file)
            );
            """),
    ]

    /// Runs the steps this file has not had. The usual open only reads the ledger; the write
    /// lock is taken (IMMEDIATE) before the ledger is read again and anything is changed, so
    /// two gates creating the database at once never both run a step.
    static func migrate(_ db: SQLiteConnection) throws {
        func done() throws -> Set<String> {
            guard try db.value("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(migrationsTable)]) != .null else {
                return []
            }
            return Set(try db.column("SELECT identifier FROM \(migrationsTable)").compactMap(StoredValue.text))
        }
        if try done().isSuperset(of: migrations.map(\.name)) { return }
        try db.transaction(immediate: true) {
            try db.execute("CREATE TABLE IF NOT EXISTS \(migrationsTable) (identifier TEXT NOT NULL PRIMARY KEY)")
            let ran = try done()
            for step in migrations where !ran.contains(step.name) {
                try db.execute(step.sql)
                try db.execute("INSERT INTO \(migrationsTable) (identifier) VALUES (?)", [.text(step.name)])
            }
        }
        // The mark (v3) then sits in the log until a checkpoint; in the file itself, it spares
        // every later open the slower look at an unmarked file's tables (see above).
        _ = try? db.execute("PRAGMA wal_checkpoint(PASSIVE)")
    }

    public func record(_ event: Event) throws {
        try record([event])
    }

    /// Writes all `events` in one transaction, or, when that cannot be done now, to the spool
    /// (one file, taken whole by a later fold). Throws only when neither could keep them.
    public func record(_ events: [Event]) throws {
        do {
            try insert(events)
        } catch let error as SQLiteError {
            do {
                try spool(events)
            } catch let spoolError {
                throw StoreError.unusable(path: path, reason: "\(error); nor could they wait in the spool: \(spoolError)")
            }
        }
    }

    private func insert(_ events: [Event]) throws {
        try db.transaction(immediate: true) {
            let insert = try db.prepare("""
                INSERT INTO events (ts, utc_offset_min, session, type, app, content_id, wait_ms, detail)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for event in events {
                try insert.bind([.integer(event.timestamp), SQLiteValue(event.utcOffsetMinutes), .text(event.session),
                                 .text(event.type.rawValue), .text(event.app), SQLiteValue(event.contentID),
                                 SQLiteValue(event.waitMilliseconds), SQLiteValue(event.detail)])
                while try insert.step() {}
            }
        }
        if journal != nil { journalBehind = true }
    }

    /// Records `event` unless one with its identity (time, session, type, app) is stored:
    /// for an event several processes may each find due at once (a loosened setting applying).
    public func recordOnce(_ event: Event) throws {
        try db.transaction(immediate: true) {
            let insert = try db.prepare("""
                INSERT INTO events (ts, utc_offset_min, session, type, app, content_id, wait_ms, detail)
                SELECT ?, ?, ?, ?, ?, ?, ?, ?
                WHERE NOT EXISTS (SELECT 1 FROM events WHERE ts = ?1 AND session = ?3 AND app = ?5 AND type = ?4)
                """)
            try insert.bind([.integer(event.timestamp), SQLiteValue(event.utcOffsetMinutes), .text(event.session),
                             .text(event.type.rawValue), .text(event.app), SQLiteValue(event.contentID),
                             SQLiteValue(event.waitMilliseconds), SQLiteValue(event.detail)])
            while try insert.step() {}
        }
        if journal != nil { journalBehind = true }
    }

    /// Every usable event (see `StoredEvent.swift`), in the order recorded.
    public func allEvents() throws -> [Event] {
        var report = StoredDataReport()
        var events: [Event] = []
        try db.forEachRow("SELECT \(Event.storedColumns) FROM events ORDER BY id") { row in
            if let event = Event(stored: row, report: &report) { events.append(event) }
        }
        return events
    }

    /// When `app` was last opened through the gate (for `grace_minutes`).
    /// Before exec: a process replaced while holding its connection leaves the WAL behind,
    /// and the next one to open the database replays all of it and then appends to it (the
    /// replay forgets what was already copied back), so it would grow, and every gate slow
    /// down, without end. Closing checkpoints and removes it, but costs a few fsyncs; so that
    /// is done only once the WAL has grown past `walLimit` bytes (a replay of that size is
    /// cheap).
    public func closeBeforeExec() {
        guard let log = FileStatus.at(path + "-wal"), log.size > Self.walLimit else { return }
        db.close()
    }

    static let walLimit = 256 * 1024

    /// Exits (any app) in the seven days up to `now`: for the celebration's "3rd exit this
    /// week". Rows dated after now (an import from a machine whose clock ran ahead, an edited
    /// database) are not this week's; a minute's slack keeps the Exit just recorded.
    public func exitCountInWeek(endingAt now: Date) throws -> Int {
        let end = UnixTime.clampedMilliseconds(now)
        return Int(StoredValue.integer(try db.value("SELECT count(*) FROM events WHERE type = \(EventType.exitSelected.sqlLiteral) AND ts BETWEEN ? AND ?",
                                                    [.integer(end - 7 * 86_400_000), .integer(end + 60_000)])) ?? 0)
    }

    /// Draws the next item from the persisted shuffle bag (see `ShuffleBag`), atomically, so
    /// concurrent gates never draw the same slot. While another process holds the write lock
    /// the draw is made from reads alone and not marked: an item may come round again sooner,
    /// but Read Next never waits.
    public func drawContent<G: RandomNumberGenerator>(from candidates: [String], using generator: inout G) throws -> String? {
        do {
            return try db.transaction(immediate: true) {
                let draw = try readDraw(from: candidates, using: &generator)
                try write(draw)
                return draw.id
            }
        } catch let error as SQLiteError where error.primaryCode == SQLITE_BUSY || error.primaryCode == SQLITE_FULL
                    || error.primaryCode == SQLITE_IOERR || error.primaryCode == SQLITE_LOCKED {
            return try pickContent(from: candidates, using: &generator).id
        }
    }

    /// The next item, decided from reads alone; `markShown` then writes it. A gate draws its
    /// first frame between the two, so no write (and no sync of a new WAL) comes before it.
    /// Two gates started within that moment may show the same item; nothing else can differ.
    public func pickContent<G: RandomNumberGenerator>(from candidates: [String], using generator: inout G) throws -> ShuffleBag.Draw {
        try db.transaction(immediate: false) { try readDraw(from: candidates, using: &generator) }
    }

    /// Records `draw` (from `pickContent`) in the rotation.
    public func markShown(_ draw: ShuffleBag.Draw) throws {
        try db.transaction(immediate: true) { try write(draw) }
    }

    private func readDraw<G: RandomNumberGenerator>(from candidates: [String], using generator: inout G) throws -> ShuffleBag.Draw {
        let shown = Set(try db.column("SELECT content_id FROM rotation_shown").compactMap(StoredValue.text))
        let last = StoredValue.text(try db.value("SELECT last_content_id FROM rotation_state WHERE id = 1"))
        return ShuffleBag.draw(candidates: candidates, shown: shown, last: last, using: &generator)
    }

    private func write(_ draw: ShuffleBag.Draw) throws {
        guard let id = draw.id else { return }
        if draw.refilled {
            try db.execute("DELETE FROM rotation_shown")
        }
        try db.execute("INSERT OR IGNORE INTO rotation_shown (content_id) VALUES (?)", [.text(id)])
        try db.execute("INSERT OR REPLACE INTO rotation_state (id, last_content_id) VALUES (1, ?)", [.text(id)])
    }

    public func integrityCheck() throws -> String {
        StoredValue.text(try db.value("PRAGMA integrity_check")) ?? ""
    }
}
