import CSQLite
import FoundationEssentials
import Glibc

/// The person's own data, out and back in, and erased (`miga events export/import`,
/// `miga data delete`).
extension EventStore {
    public enum ExportFormat: String, CaseIterable, Sendable { case jsonl, csv }

    /// Streams every event, oldest first, to `write` in pieces (a million events never sit
    /// in memory at once). Returns what it passed over or clamped (see StoredEvent.swift).
    @discardableResult
    public func export(format: ExportFormat, write: (Data) throws -> Void) throws -> StoredDataReport {
        var report = StoredDataReport()
        try db.transaction(immediate: false) {
            var buffer = Data()
            buffer.reserveCapacity(1 << 16)
            if format == .csv { buffer.append(contentsOf: (EventLine.csvHeader + "\n").utf8) }
            try db.forEachRow("SELECT \(Event.storedColumns) FROM events ORDER BY ts, id") { row in
                guard var event = Event(stored: row, report: &report) else { return }
                event.id = nil
                let line = format == .jsonl ? EventLine.jsonl(event) : EventLine.csv(event)
                buffer.append(contentsOf: line.utf8)
                buffer.append(0x0A)
                if buffer.count >= 1 << 16 {
                    try write(buffer)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            if !buffer.isEmpty { try write(buffer) }
        }
        return report
    }

    public struct ImportResult: Equatable, Sendable {
        public var imported: Int
        /// Events already in the database (same time, session, type and app): importing a file
        /// twice does not count anything twice.
        public var alreadyPresent: Int
    }

    /// Where imported lines come from: bytes in memory, or a descriptor read in chunks, so
    /// that `miga events import - </dev/zero` holds at most one line in memory, not the stream.
    public enum ImportSource {
        case data(Data)
        case descriptor(Int32)
    }

    /// An exported line is a few hundred bytes; a longer one is not an event (DESIGN).
    public static let maxLineLength = 1 << 20

    public func importLines(_ data: Data, name: String) throws -> ImportResult {
        try importLines(from: .data(data), name: name)
    }

    /// Imports JSONL or CSV (as `events export` writes them) in one transaction: the first bad
    /// line aborts it with its number and nothing is imported.
    public func importLines(from source: ImportSource, name: String) throws -> ImportResult {
        var result = ImportResult(imported: 0, alreadyPresent: 0)
        // A large import is one transaction: room for its pages keeps SQLite from spilling
        // them to the WAL again and again before the commit.
        // The indexes are rebuilt by sorting, in memory rather than through temporary files.
        try db.execute("PRAGMA cache_size = -131072; PRAGMA temp_store = MEMORY; PRAGMA threads = 4") // 128 MiB
        // Into an empty database, when no other process has it open: a rollback journal
        // instead of the WAL for this one transaction. The WAL would take every page of the
        // import and then copy each again into the file (a third of the import's time); the
        // journal holds only the few pages an empty database had. Crash-safe as WAL is (FULL:
        // the journal is synced before the file is written); a run stopped half-way is rolled
        // back by the next process to open the file, which also finds it out of WAL (the
        // header says so) and puts it back. Any other process keeps the WAL as it is.
        var rollbackJournal = false
        if try db.value("SELECT NOT EXISTS (SELECT 1 FROM events)") == .integer(1) {
            rollbackJournal = (try? db.value("PRAGMA journal_mode = DELETE")) == .text("delete")
            if rollbackJournal { try db.execute("PRAGMA synchronous = FULL") }
        }
        defer {
            if rollbackJournal { _ = try? db.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL") }
        }
        try db.transaction(immediate: true) {
            // Into an empty database (the usual restore) nothing can be a duplicate: a plain
            // insert, and the indexes are rebuilt once at the end (a sort) instead of being
            // updated a million times. DDL is transactional: a bad line rolls this back too.
            let empty = try db.value("SELECT NOT EXISTS (SELECT 1 FROM events)") == .integer(1)
            let indexes = empty ? try db.rows("""
                SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events' AND sql IS NOT NULL
                """).compactMap { row in StoredValue.text(row[0]).flatMap { name in StoredValue.text(row[1]).map { (name: name, sql: $0) } } } : []
            for index in indexes { try db.execute("DROP INDEX \"\(index.name.replacing("\"", with: "\"\""))\"") }
            let insertRow = ImportRow(statement: try db.prepare(empty ? """
                INSERT INTO events (ts, utc_offset_min, session, type, app, content_id, wait_ms, detail)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """ : """
                INSERT INTO events (ts, utc_offset_min, session, type, app, content_id, wait_ms, detail)
                SELECT ?, ?, ?, ?, ?, ?, ?, ?
                WHERE NOT EXISTS (SELECT 1 FROM events WHERE ts = ? AND session = ? AND +type = ? AND app = ?)
                """), checksDuplicates: !empty)
            // `+type`: with `type = ?` the planner asks, on every new binding, whether the partial
            // index for exits applies, and SQLite recompiles the statement each time (10x slower).
            // The empty-database path cannot ask SQLite about duplicates within the file (no
            // index yet), so it remembers a hash of each event's identity; only if two collide
            // does it pay for one de-duplicating pass at the end.
            var seen = ImportedIdentities()
            var mayHaveDuplicates = false
            func insertedIdentities() throws -> [UInt64] {
                var identities: [UInt64] = []
                try db.forEachRow("SELECT ts, session, type, app FROM events") { row in
                    guard case .integer(let timestamp) = row.value(0), case .text(var session) = row.value(1),
                          case .text(let name) = row.value(2), let type = EventType(rawValue: name), case .text(var app) = row.value(3)
                    else { return }
                    identities.append(session.withUTF8 { session in
                        app.withUTF8 { ImportRow.identity(timestamp, UnsafeRawBufferPointer(session), type, UnsafeRawBufferPointer($0)) }
                    })
                }
                return identities
            }
            // JSONL or CSV, by the first byte (`{` is JSONL); a CSV record may go on over
            // several lines inside quotes.
            var csv: Bool?
            var records = CSVRecordFraming(maxLength: Self.maxLineLength)
            try Self.forEachLine(of: source, name: name) { number, line in
                // A blank line is nothing; in a CSV file the framing says so, as inside a quoted
                // field it is text.
                if csv != true, CSVRecordFraming.isBlank(line) { return }
                if csv == nil {
                    csv = line.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }) != UInt8(ascii: "{")
                    if csv == true {
                        var header = String(decoding: line, as: UTF8.self)
                        if header.hasPrefix("\u{FEFF}") { header.removeFirst() }
                        guard header.trimming(.whitespacesAndNewlines) == EventLine.csvHeader else {
                            throw ImportError(file: name, line: number,
                                              problem: "neither a JSON object nor miga's CSV header (\(EventLine.csvHeader))")
                        }
                        return
                    }
                }
                // The export's own shape, straight from the bytes, bound without a String.
                if csv == false, let fields = EventLine.exportedFields(line) {
                    try insertRow.run(fields, db: db)
                    if db.changes > 0 { result.imported += 1 } else { result.alreadyPresent += 1 }
                    if empty, !mayHaveDuplicates {
                        mayHaveDuplicates = try !seen.insert(ImportRow.identity(fields.timestamp, fields.session, fields.type, fields.app),
                                                             at: fields.timestamp, inserted: insertedIdentities)
                    }
                    return
                }
                let event: Event
                do {
                    if csv == true {
                        switch records.add(line, number: number) {
                        case .blank, .partial: return
                        case .tooLong:
                            throw ImportError(file: name, line: records.firstLine, problem: "a record longer than \(Self.maxLineLength) bytes")
                        case .complete: event = try EventLine.parseCSV(String(decoding: records.record, as: UTF8.self))
                        }
                    } else {
                        event = try EventLine.parse(Data(line))
                    }
                } catch let error as ImportError {
                    throw error
                } catch {
                    throw ImportError(file: name, line: csv == true ? records.firstLine : number, problem: "\(error)")
                }
                try insertRow.run(event, db: db)
                if db.changes > 0 { result.imported += 1 } else { result.alreadyPresent += 1 }
                if empty, !mayHaveDuplicates {
                    mayHaveDuplicates = try !seen.insert(ImportRow.identity(event), at: event.timestamp, inserted: insertedIdentities)
                }
            }
            if records.isUnfinished {
                throw ImportError(file: name, line: records.firstLine, problem: "a quoted field that never ends")
            }
            if mayHaveDuplicates {
                try db.execute("""
                    DELETE FROM events WHERE id NOT IN (SELECT min(id) FROM events GROUP BY ts, session, type, app)
                    """)
                result.imported -= db.changes
                result.alreadyPresent += db.changes
            }
            for index in indexes { try db.execute(index.sql) }
        }
        return result
    }

    /// Calls `body` with each line and its 1-based number; a line longer
    /// than `maxLineLength` is an ImportError. The bytes are searched with memchr: walking a
    /// `Data` byte by byte took 3 s of a million-line import. `line` borrows the buffer's
    /// storage and is valid only during the call.
    static func forEachLine(of source: ImportSource, name: String, _ body: (_ number: Int, _ line: UnsafeRawBufferPointer) throws -> Void) throws {
        var number = 0
        /// Every complete line in `bytes`, then (at the end of input) the rest; returns where
        /// the unfinished last line starts.
        func lines(in bytes: UnsafeRawBufferPointer, final: Bool) throws -> Int {
            guard let base = bytes.baseAddress else { return 0 }
            var start = 0
            while start < bytes.count {
                guard let newline = memchr(base + start, 0x0A, bytes.count - start).map({ UnsafeRawPointer($0) - base }) ?? (final ? bytes.count : nil) else {
                    break
                }
                number += 1
                guard newline - start <= maxLineLength else {
                    throw ImportError(file: name, line: number, problem: "longer than \(maxLineLength >> 20) MiB, so not an exported event")
                }
                let line = UnsafeRawBufferPointer(rebasing: bytes[start..<newline])
                start = newline + 1
                try body(number, line)
            }
            guard bytes.count - start <= maxLineLength else {
                throw ImportError(file: name, line: number + 1, problem: "longer than \(maxLineLength >> 20) MiB, so not an exported event")
            }
            return min(start, bytes.count)
        }
        switch source {
        case .data(let data):
            _ = try data.withUnsafeBytes { try lines(in: $0, final: true) }
        case .descriptor(let fd):
            // Room for the longest allowed unfinished line plus the next chunk.
            let chunk = 1 << 20
            var buffer = [UInt8](repeating: 0, count: maxLineLength + chunk)
            var filled = 0
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw LinuxError(operation: "read \(fd == STDIN_FILENO ? "standard input" : name)", code: errno)
                }
                filled += count
                let consumed = try buffer.withUnsafeBytes { try lines(in: UnsafeRawBufferPointer(rebasing: $0[0..<filled]), final: count == 0) }
                if count == 0 { return }
                buffer.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[consumed..<filled])) }
                filled -= consumed
            }
        }
    }

    /// Erases every event and the rotation state, then rewrites the file so nothing deleted
    /// lingers in free pages or the WAL.
    public func deleteAll() throws -> Int {
        let count = try db.transaction(immediate: true) {
            let count = try eventCount()
            try db.execute("DELETE FROM events; DELETE FROM rotation_shown; DELETE FROM rotation_state;")
            return count
        }
        try db.execute("VACUUM")
        try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return count
    }
}

/// A line of an import file that cannot be read: nothing was imported.
public struct ImportError: Error, CustomStringConvertible, Equatable {
    public var file: String
    public var line: Int
    public var problem: String

    public var description: String {
        "\(file):\(line): \(problem); nothing was imported (fix that line and import the file again)"
    }
}

/// The import's INSERT, bound straight from the line's bytes: a million rows through arrays of
/// boxed values cost as much as the rest of the import.
struct ImportRow {
    let statement: SQLiteStatement
    /// The statement looks for the event first (parameters 9–12: its identity); into an
    /// empty database it is a plain insert of parameters 1–8.
    let checksDuplicates: Bool

    func run(_ fields: EventLine.ExportedFields, db: SQLiteConnection) throws {
        try run(timestamp: fields.timestamp, offsetMinutes: fields.offsetMinutes, session: fields.session, type: fields.type,
                app: fields.app, contentID: fields.contentID, waitMilliseconds: fields.waitMilliseconds, detail: nil, db: db)
    }

    func run(_ event: Event, db: SQLiteConnection) throws {
        try run(timestamp: event.timestamp, offsetMinutes: event.utcOffsetMinutes, session: event.session, type: event.type,
                app: event.app, contentID: event.contentID, waitMilliseconds: event.waitMilliseconds, detail: event.detail, db: db)
    }

    /// Parameters 1–8 are the row; 9–12, bound only when the statement looks, its identity.
    private func run<Text: ImportText>(timestamp: Int64, offsetMinutes: Int, session: Text, type: EventType, app: Text,
                                       contentID: Text?, waitMilliseconds: Int?, detail: Text?, db: SQLiteConnection) throws {
        let handle = statement.handle
        sqlite3_reset(handle)
        sqlite3_bind_int64(handle, 1, timestamp)
        sqlite3_bind_int64(handle, 2, Int64(offsetMinutes))
        session.bind(handle, 3)
        type.rawValue.bind(handle, 4)
        app.bind(handle, 5)
        if let contentID { contentID.bind(handle, 6) } else { sqlite3_bind_null(handle, 6) }
        if let waitMilliseconds { sqlite3_bind_int64(handle, 7, Int64(waitMilliseconds)) } else { sqlite3_bind_null(handle, 7) }
        if let detail { detail.bind(handle, 8) } else { sqlite3_bind_null(handle, 8) }
        if checksDuplicates {
            sqlite3_bind_int64(handle, 9, timestamp)
            session.bind(handle, 10)
            type.rawValue.bind(handle, 11)
            app.bind(handle, 12)
        }
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE else { throw db.error(code, statement.sql) }
    }

    /// One event's identity (time, session, type, app) as a 64-bit hash, the same for both
    /// paths (FNV-1a: a million of them, and a collision costs only a de-duplicating pass).
    static func identity(_ timestamp: Int64, _ session: UnsafeRawBufferPointer, _ type: EventType, _ app: UnsafeRawBufferPointer) -> UInt64 {
        // Plain loops: a nested `mix` function passed to forEach captured `hash` in a box
        // that Swift checked for exclusive access on every byte (6% of an import).
        let prime: UInt64 = 0x0000_0100_0000_01B3
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        var time = UInt64(bitPattern: timestamp) // its bytes, least significant first
        for _ in 0..<8 {
            hash = (hash ^ (time & 0xFF)) &* prime
            time >>= 8
        }
        for byte in session { hash = (hash ^ UInt64(byte)) &* prime }
        hash = (hash ^ 0xFF) &* prime // no session/app split can collide with another
        for byte in type.rawValue.utf8 { hash = (hash ^ UInt64(byte)) &* prime }
        hash = (hash ^ 0xFF) &* prime
        for byte in app { hash = (hash ^ UInt64(byte)) &* prime }
        return hash
    }

    static func identity(_ event: Event) -> UInt64 {
        var session = event.session, app = event.app
        return session.withUTF8 { session in
            app.withUTF8 { identity(event.timestamp, UnsafeRawBufferPointer(session), event.type, UnsafeRawBufferPointer($0)) }
        }
    }
}

/// Which events an import into an empty database has seen, to tell whether the file holds one
/// event twice (then one de-duplicating pass runs at the end). An export is in time order and
/// two copies of an event share their time, so while the times never go back only the
/// identities at the current time are kept: a million random inserts into a set the size of
/// the file were 8% of an import. A time that goes back, or more than a few events at one
/// time, switches to a set of every identity, filled first with those already inserted.
struct ImportedIdentities {
    private var time = Int64.min
    private var atTime: [UInt64] = []
    private var all: IdentitySet?
    /// Events at one millisecond before the set of every identity takes over: a file of a
    /// million events at one time must not make each look through all the others.
    static let maxAtOneTime = 16

    /// false when `identity`, of an event at `timestamp`, was seen before. `inserted` gives the
    /// identities of every event inserted so far, this one's included; it is asked at most once.
    mutating func insert(_ identity: UInt64, at timestamp: Int64, inserted: () throws -> [UInt64]) rethrows -> Bool {
        if all != nil { return all!.insert(identity) }
        if timestamp > time {
            time = timestamp
            atTime.removeAll(keepingCapacity: true)
            atTime.append(identity)
            return true
        }
        if timestamp == time, atTime.count < Self.maxAtOneTime {
            if atTime.contains(identity) { return false }
            atTime.append(identity)
            return true
        }
        // Every event inserted before this one was told apart from the others at its time,
        // which is where a copy would be; so a repeat while filling the set is this event's.
        var set = IdentitySet()
        var unique = true
        for key in try inserted() where !set.insert(key) { unique = false }
        all = set
        return unique
    }
}

/// The identities an import into an empty database has seen: open addressing over a flat
/// array, which a million inserts find cheaper than `Set` (its hashing and its resizes).
struct IdentitySet {
    private var slots = [UInt64](repeating: 0, count: 1 << 12)
    private var count = 0
    private var hasZero = false

    /// false when `key` was there already.
    mutating func insert(_ key: UInt64) -> Bool {
        if key == 0 { defer { hasZero = true }; return !hasZero }
        if (count + 1) * 2 > slots.count { grow() }
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 20) & mask
        while true {
            let slot = slots[index]
            if slot == 0 {
                slots[index] = key
                count += 1
                return true
            }
            if slot == key { return false }
            index = (index + 1) & mask
        }
    }

    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: old.count * 2)
        count = 0
        for key in old where key != 0 { _ = insert(key) }
    }
}

/// Text the import binds: bytes of the line being read, or a String (the full parser's).
protocol ImportText {
    func bind(_ statement: OpaquePointer, _ index: Int32)
}

extension UnsafeRawBufferPointer: ImportText {
    /// The line's bytes are bound without a copy (SQLITE_STATIC): they outlive the one `run`
    /// that binds and steps them, and every parameter is bound again before the next step.
    /// A copy per field was four mallocs a row.
    func bind(_ statement: OpaquePointer, _ index: Int32) { sqliteBindText(statement, index, self, copying: false) }
}

extension String: ImportText {
    /// Copied (SQLITE_TRANSIENT): the bytes are this String's, gone after the call.
    func bind(_ statement: OpaquePointer, _ index: Int32) {
        var text = self
        _ = text.withUTF8 { sqliteBindText(statement, index, UnsafeRawBufferPointer($0), copying: true) }
    }
}
