import CSQLite
import FoundationEssentials

/// Step 2 of `importLines`: the checked events go into the database in short transactions, so
/// that the import never holds the write lock for long (DESIGN "Never in the way").
extension EventStore {
    /// Rows of the import's multi-row INSERT.
    static let rowsAStatement = 32

    /// Finds a stored event by its identity (time, session, type, app; parameters in that
    /// order) in one seek of `events_by_identity`, however many share its millisecond: the
    /// import and the spool's fold skip what it finds.
    static let storedEventLookup = "SELECT 1 FROM events WHERE ts = ? AND session = ? AND +type = ? AND app = ?"

    /// Inserts the spooled events in file order, skipping any already there, in transactions
    /// of about `ImportPacing.batch` each; returns how many were new. Between two, the lock
    /// is left free for whoever waits (see `ImportPacing`).
    func insertSpooled(_ spool: ImportSpool, name: String, fileRepeatsEvents: Bool) throws -> Int {
        let columns = "INSERT INTO events (ts, utc_offset_min, session, type, app, content_id, wait_ms, detail)"
        let row = "(?, ?, ?, ?, ?, ?, ?, ?)"
        // Many rows a statement: one step per event was a third of the insert's time. OR FAIL:
        // a statement that may stop half-way and undo its own rows (the default, ABORT) makes
        // SQLite journal every page it touches, in a temporary file, row after row (2.5 s of
        // system time a million events); nothing here can fail a constraint, and should the
        // batch fail anyway it is rolled back whole.
        let insertMany = ImportRow(statement: try db.prepare(columns.replacing("INSERT", with: "INSERT OR FAIL") + " VALUES "
                                                             + Array(repeating: row, count: Self.rowsAStatement).joined(separator: ", ")),
                                   checksDuplicates: false)
        let insert = ImportRow(statement: try db.prepare(columns + " VALUES " + row), checksDuplicates: false)
        // One at a time, so that a second copy in the file finds the first inserted. `+type`:
        // with `type = ?` the planner asks, on every new binding, whether the partial index for
        // exits applies, and SQLite recompiles the statement each time (10x slower).
        let insertNew = ImportRow(statement: try db.prepare("\(columns) SELECT ?, ?, ?, ?, ?, ?, ?, ? WHERE NOT EXISTS (\(Self.storedEventLookup))"),
                                  checksDuplicates: true)
        var overlap = ImportOverlap(earliest: spool.earliest, latest: spool.latest, fileRepeatsEvents: fileRepeatsEvents)
        var pacing = ImportPacing(database: path, processes: processes)
        // Room for the pages of the indexes the batches update (128 MiB). A batch waits for
        // the lock as the store was opened to (`LockWait.patient` for `events import`).
        try db.execute("PRAGMA cache_size = -131072")
        // Checkpoints are this connection's to make, between batches (see ImportPacing), so
        // none falls within a batch's time: its WAL hook, which checkpointed at 1000 frames,
        // only counts them now.
        let walFrames = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        walFrames.initialize(to: 0)
        defer { walFrames.deallocate() }
        sqlite3_wal_hook(db.handle, { frames, _, _, count in
            frames?.assumingMemoryBound(to: Int32.self).pointee = count
            return SQLITE_OK
        }, walFrames)
        defer { _ = try? db.execute("PRAGMA wal_autocheckpoint = 1000") } // SQLite's own hook again
        var committed = 0, pending = 0
        var batch: (looks: Bool, locked: UInt64)? // `locked`: when BEGIN IMMEDIATE had the lock
        func commit(last: Bool) throws {
            try overlap.inserted(db: db)
            try db.execute("COMMIT")
            let checkpoint = pacing.committed(afterHolding: processes.monotonicNanoseconds() - batch!.locked, walFrames: walFrames.pointee)
            batch = nil
            committed += pending
            pending = 0
            if checkpoint || last { sqlite3_wal_checkpoint_v2(db.handle, "main", SQLITE_CHECKPOINT_PASSIVE, nil, nil) } // waits for nobody
        }
        do {
            try spool.forEach(groupsOf: Self.rowsAStatement) { events in
                if batch == nil {
                    pacing.leaveTheLockFree()
                    try db.execute("BEGIN IMMEDIATE")
                    batch = (try overlap.othersMayHoldSpooledEvents(db: db), processes.monotonicNanoseconds())
                }
                if !batch!.looks && events.count == Self.rowsAStatement {
                    try insertMany.run(events[...], db: db)
                    pending += db.changes
                } else {
                    for index in events.indices {
                        try (batch!.looks ? insertNew : insert).run(events[index...index], db: db)
                        pending += db.changes
                    }
                }
                if processes.monotonicNanoseconds() - batch!.locked >= ImportPacing.batch { try commit(last: false) }
            }
            if batch != nil { try commit(last: true) }
        } catch {
            if sqlite3_get_autocommit(db.handle) == 0 { _ = sqlite3_exec(db.handle, "ROLLBACK", nil, nil, nil) }
            throw ImportInterrupted(file: name, imported: committed, reason: "\(error)")
        }
        return committed
    }
}

/// How the import shares the write lock and the WAL. A process that finds the lock held
/// (SQLite's busy handler) sleeps and tries again, after 1, 2, 5, 10, 15 ms and so on, then
/// every 100 ms, and gets it only if it tries while it is free. A gate gives up after 40 ms
/// (`LockWait.brief`: tries at 0, 1, 3, 8, 18, 33 and 40 ms) and leaves its event in the spool;
/// a batch of `batch` followed by `gap` with the lock free lets one of those tries in wherever
/// the gate starts. After every `longGapEvery` of holding it, the lock stays free for longer
/// than the busy handler's longest sleep, so that anything else waiting (a script, the
/// sqlite3 shell) gets in within about half a second, however long the import. And the WAL is
/// checkpointed after every batch, so that a gate's commit never finds the 1000 frames at
/// which SQLite would make that gate copy them into the file.
/// The pauses and the checkpoints (two fsyncs each) cost the import time and are needed only
/// while another process has the database open: one that waits for the lock is one of those,
/// and a gate writes only once it has it open. With nobody there, no pause, and a checkpoint
/// only once the WAL holds `walFramesAlone`.
struct ImportPacing {
    static let batch: UInt64 = 30_000_000 // ns
    static let gap: UInt64 = 15_000_000
    static let longGap: UInt64 = 110_000_000
    static let longGapEvery: UInt64 = 500_000_000
    static let walFramesAlone: Int32 = 2_000 // 8 MB of pages

    let database: String
    /// The clock the batches are timed by and the waits between them.
    let processes: any ProcessService
    private var committedAt: UInt64?
    private var heldSinceLongGap: UInt64 = 0
    private var othersThere = true

    init(database: String, processes: any ProcessService = SystemProcesses()) {
        self.database = database
        self.processes = processes
    }

    /// After a batch's commit: whether to checkpoint now.
    mutating func committed(afterHolding held: UInt64, walFrames: Int32) -> Bool {
        committedAt = processes.monotonicNanoseconds()
        heldSinceLongGap += held
        othersThere = Self.othersHaveOpen(database, processes: processes)
        return othersThere || walFrames >= Self.walFramesAlone
    }

    /// Before a batch: sleeps out what is left of the pause since the last commit (its
    /// checkpoint counts), if anyone else had the database open then.
    mutating func leaveTheLockFree() {
        guard let committedAt, othersThere else { return }
        let long = heldSinceLongGap >= Self.longGapEvery
        let now = processes.monotonicNanoseconds()
        let end = committedAt + (long ? Self.longGap : Self.gap)
        if now < end { processes.sleep(microseconds: UInt32((end - now) / 1000)) }
        if long { heldSinceLongGap = 0 }
    }

    /// Whether a process other than this one has `database` open, from /proc/locks: a SQLite
    /// connection to a database in WAL mode holds a shared lock on the file and on its -shm
    /// from its first read until it closes, waiting for the write lock included. (Not by
    /// opening the files: closing any descriptor of a file drops every POSIX lock this process
    /// holds on it, SQLite's own included.) Unknown counts as yes.
    static func othersHaveOpen(_ database: String, processes: any ProcessService = SystemProcesses()) -> Bool {
        let inodes = Set([database, database + "-shm"].compactMap { FileStatus.at($0)?.inode })
        guard let table = try? BoundedFile.read("/proc/locks", limit: 4 << 20) else { return true }
        return heldByOthers(locks: table, inodes: inodes, me: Int(processes.id))
    }

    /// Lines such as `1: POSIX  ADVISORY  READ 1234 fe:00:5335183 128 128` (the file's device
    /// and inode after its holder's pid); `->` marks a request still waiting.
    static func heldByOthers(locks table: Data, inodes: Set<UInt64>, me: Int) -> Bool {
        for line in table.split(separator: 0x0A) {
            let fields = line.split(separator: 0x20)
            guard let file = fields.firstIndex(where: { $0.filter { $0 == UInt8(ascii: ":") }.count == 2 }), file > fields.startIndex,
                  let inode = fields[file].split(separator: UInt8(ascii: ":")).last.flatMap({ UInt64(String(decoding: $0, as: UTF8.self)) }),
                  inodes.contains(inode) else { continue }
            if Int(String(decoding: fields[file - 1], as: UTF8.self)) != me { return true }
        }
        return false
    }
}

/// Whether a batch of the import must look each event up in `events` before it inserts it (a
/// third of the insert's time) or may insert them all. Only a file that may hold an event
/// twice (see `ImportedIdentities`) or rows written by others can make copies, and a copy
/// shares its event's time: while no row of anyone else's has a time within the span of the
/// file's events, none can be one. That holds for a restore into an empty database even while
/// gates write (their events are of now, after the export); importing a file again, or into a
/// history that overlaps it, looks every event up. Asked at the start of each batch, in its
/// transaction, of the rows written since the import's last batch only (by id: SQLite gives a
/// new row the next one and miga never picks one, so the import's own rows and every row
/// asked about before are below those). Once true, it stays true.
struct ImportOverlap {
    private let earliest: Int64
    private let latest: Int64
    /// The highest id at the end of the import's last batch; nil before its first.
    private var seenUpTo: Int64?
    private var overlaps: Bool

    init(earliest: Int64, latest: Int64, fileRepeatsEvents: Bool) {
        self.earliest = earliest
        self.latest = latest
        overlaps = fileRepeatsEvents
    }

    mutating func othersMayHoldSpooledEvents(db: SQLiteConnection) throws -> Bool {
        if overlaps { return true }
        // `+ts` keeps SQLite from walking the time index over the import's own rows.
        overlaps = try db.value(seenUpTo == nil
            ? "SELECT EXISTS (SELECT 1 FROM events WHERE ts BETWEEN ?1 AND ?2)"
            : "SELECT EXISTS (SELECT 1 FROM events WHERE id > ?3 AND +ts BETWEEN ?1 AND ?2)",
            [.integer(earliest), .integer(latest)] + (seenUpTo.map { [.integer($0)] } ?? [])) == .integer(1)
        return overlaps
    }

    /// After the batch's inserts, in its transaction: every row up to here has been asked about.
    mutating func inserted(db: SQLiteConnection) throws {
        seenUpTo = StoredValue.integer(try db.value("SELECT max(id) FROM events")) ?? 0
    }
}
