#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GRDB

/// The local SQLite file holding events and rotation state (DESIGN "Events").
///
/// Several gates may start at once, so: WAL, a generous busy timeout, IMMEDIATE write
/// transactions, and every write committed before the call returns (before any exec).
public final class EventStore {
    public let path: String
    let queue: DatabaseQueue

    /// Opens the database only if it exists: reading stats must not create one.
    public static func openExisting(path: String) throws -> EventStore? {
        AtomicFile.exists(path) ? try EventStore(path: path) : nil
    }

    public init(path: String) throws {
        self.path = path
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try LinuxSystem.makeDirectories(directory, mode: 0o700)
        } catch {
            throw StoreError.cannotCreateDirectory(path: directory, reason: "\(error)")
        }
        do {
            try Self.createPrivately(path)
            queue = try Self.open(path)
            foldSpool() // the shim's grace passes, before anything reads or writes events
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT {
            throw StoreError.notADatabase(path: path)
        } catch {
            throw StoreError.unusable(path: path, reason: "\(error)")
        }
    }

    /// Opens (and on first use creates) the database. When several gates create it at the
    /// same moment, two things fail at once rather than waiting on the busy timeout: SQLite's
    /// switch to WAL (a journal-mode change never consults the busy handler), and GRDB's
    /// migrator, which reads what has run before taking the write lock, so the loser retries
    /// a migration the winner just committed. Both are settled the same way: a short random
    /// pause and a fresh connection, which then finds WAL on and the schema current.
    ///
    /// Everything is bounded by `patience`: a database some other program keeps locked must
    /// not keep a person from their app. The gate then fails open and says why.
    private static func open(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        // WAL is a property of the file: once set it stays. GRDB's WAL set-up runs a pragma and,
        // whenever the WAL file is absent (as after a checkpoint), a throwaway write, on every
        // open; only a new database needs it.
        var info = stat()
        configuration.journalMode = stat(path, &info) == 0 && info.st_size > 0 ? .default : .wal
        configuration.busyMode = .timeout(patience)
        // WAL's recommended level (GRDB sets it too, but only with its WAL set-up, skipped
        // above): a commit survives any crash of miga or the app; only a power cut may lose
        // the last few events, never corrupting the file. FULL adds an fsync to every gate.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        var generator = SystemRandomNumberGenerator()
        let deadline = LinuxSystem.monotonicNanoseconds() + UInt64(patience * 1_000_000_000)
        while true {
            do {
                let queue = try DatabaseQueue(path: path, configuration: configuration)
                try queue.inDatabase { try checkOwnership(of: $0, path: path) }
                try migrator.migrate(queue)
                tighten(path)
                return queue
            } catch let error as DatabaseError where isRetryable(error) && LinuxSystem.monotonicNanoseconds() < deadline {
                usleep(UInt32.random(in: 2_000...20_000, using: &generator))
            }
        }
    }

    /// Marks the file as miga's (`PRAGMA application_id`, "miga" in ASCII), so that a SQLite
    /// file someone else put at this path is recognised and never given miga's tables.
    static let applicationID: Int32 = 0x6D69_6761

    /// The tables miga makes (GRDB adds its migration table).
    static let ownTables: Set<String> = ["events", "rotation_shown", "rotation_state", "grdb_migrations"]

    /// Throws unless the file is miga's: marked as such, or unmarked and holding nothing but
    /// miga's own tables (a new file, or one from before the mark, which the migration marks).
    static func checkOwnership(of db: Database, path: String) throws {
        let id = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        if id == applicationID { return }
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        guard id == 0, Set(tables).isSubset(of: ownTables) else { throw StoreError.foreignDatabase(path: path) }
    }

    /// The database and its WAL and shared-memory files (which SQLite creates with the
    /// database's mode) are the person's alone: 0600, whatever umask the first command had.
    static func createPrivately(_ path: String) throws {
        let fd = Glibc.open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if fd >= 0 { close(fd) } // an existing file (or anything odd, which SQLite reports) is left as it is
    }

    /// A file of miga's made before it kept them private: 0600 from now on.
    static func tighten(_ path: String) {
        for file in [path, path + "-wal", path + "-shm"] {
            var info = stat()
            if lstat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_mode & 0o077 != 0 { chmod(file, 0o600) }
        }
    }

    /// Seconds a gate waits for the database: ample for many gates' one-millisecond writes.
    static let patience: TimeInterval = 5

    /// Anything but a file that is not (or no longer) a database.
    private static func isRetryable(_ error: DatabaseError) -> Bool {
        ![.SQLITE_NOTADB, .SQLITE_CORRUPT, .SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_PERM]
            .contains(error.resultCode.primaryResultCode)
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
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
                """)
        }
        // Streaks need every local day with an Exit, over all history: this index holds
        // exactly that expression for exactly those rows, so it is read without the table.
        migrator.registerMigration("v2-exit-days") { db in
            try db.execute(sql: """
                CREATE INDEX events_exit_days ON events((ts + utc_offset_min * 60000) / 86400000)
                    WHERE type = 'exit_selected'
                """)
        }
        migrator.registerMigration("v3-application-id") { db in
            try db.execute(sql: "PRAGMA application_id = \(applicationID)")
        }
        return migrator
    }

    public func record(_ event: Event) throws {
        try record([event])
    }

    /// Writes all `events` in one transaction.
    public func record(_ events: [Event]) throws {
        try queue.inTransaction(.immediate) { db in
            for event in events {
                try db.execute(
                    sql: """
                        INSERT INTO events (ts, utc_offset_min, session, type, app, content_id, wait_ms, detail)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [event.timestamp, event.utcOffsetMinutes, event.session, event.type.rawValue,
                                event.app, event.contentID, event.waitMilliseconds, event.detail])
            }
            return .commit
        }
    }

    /// Every usable event (see `StoredEvent.swift`), in the order recorded.
    public func allEvents() throws -> [Event] {
        var report = StoredDataReport()
        return try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM events ORDER BY id").compactMap { Event(stored: $0, report: &report) }
        }
    }

    /// When `app` was last opened through the gate (for `grace_minutes`).
    /// Before exec: a process replaced while holding its connection leaves the WAL behind,
    /// and the next one to open the database replays all of it and then appends to it (the
    /// replay forgets what was already copied back), so it would grow, and every gate slow
    /// down, without end. Closing checkpoints and removes it, but costs a few fsyncs; so that
    /// is done only once the WAL has grown past `walLimit` bytes (a replay of that size is
    /// cheap).
    public func closeBeforeExec() {
        var info = stat()
        guard stat(path + "-wal", &info) == 0, info.st_size > Self.walLimit else { return }
        try? queue.close()
    }

    static let walLimit = 256 * 1024

    public func lastOpen(app: String) throws -> Date? {
        // The bound keeps text and blobs (which sort above every number) out of max(), and
        // the (type, app, ts) index still answers it in one step.
        try queue.read { db in
            try DatabaseValue.fetchOne(db, sql: "SELECT max(ts) FROM events WHERE type = ? AND app = ? AND ts BETWEEN ? AND ?",
                                       arguments: [EventType.openSelected.rawValue, app,
                                                   EventBounds.timestamps.lowerBound, EventBounds.timestamps.upperBound])
        }.flatMap(StoredValue.integer).map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }

    /// Number of Exits (any app) since `date`: for the celebration's "3rd exit this week".
    public func exitCount(since date: Date) throws -> Int {
        try queue.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM events WHERE type = ? AND ts >= ?",
                             arguments: [EventType.exitSelected.rawValue, Int64(date.timeIntervalSince1970 * 1000)]) ?? 0
        }
    }

    /// Draws the next item from the persisted shuffle bag (see `ShuffleBag`), atomically, so
    /// concurrent gates never draw the same slot.
    public func drawContent<G: RandomNumberGenerator>(from candidates: [String], using generator: inout G) throws -> String? {
        var drawn: String?
        try queue.inTransaction(.immediate) { db in
            let shown = Set(try DatabaseValue.fetchAll(db, sql: "SELECT content_id FROM rotation_shown").compactMap(StoredValue.text))
            let last = try DatabaseValue.fetchOne(db, sql: "SELECT last_content_id FROM rotation_state WHERE id = 1").flatMap(StoredValue.text)
            let draw = ShuffleBag.draw(candidates: candidates, shown: shown, last: last, using: &generator)
            if draw.refilled {
                try db.execute(sql: "DELETE FROM rotation_shown")
            }
            if let id = draw.id {
                try db.execute(sql: "INSERT OR IGNORE INTO rotation_shown (content_id) VALUES (?)", arguments: [id])
                try db.execute(sql: "INSERT OR REPLACE INTO rotation_state (id, last_content_id) VALUES (1, ?)",
                               arguments: [id])
            }
            drawn = draw.id
            return .commit
        }
        return drawn
    }

    public func integrityCheck() throws -> String {
        try queue.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "" }
    }
}
