import CSQLite
import FoundationEssentials

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

    /// Imports JSONL or CSV (as `events export` writes them) in two steps, so that a bad line
    /// leaves nothing imported and yet no gate ever waits long on the import:
    /// 1. every line is read and checked into a spool (`ImportSpool`, a temporary file), which
    ///    takes no lock on the database at all; the first bad line throws with its number
    ///    before anything is written. Checking first, rather than writing as it reads and
    ///    deleting what it wrote when a bad line comes, means an import never deletes a row:
    ///    none of a gate's can be taken for one of its own, and nobody sees events come and go.
    /// 2. the spooled events are inserted in short transactions (`insertSpooled`), each
    ///    skipping events already there; between two, other processes write.
    /// A run stopped during step 2 leaves the batches it committed, whole; importing the file
    /// again adds the rest, since what is already there is skipped.
    public func importLines(from source: ImportSource, name: String) throws -> ImportResult {
        let spool = try ImportSpool(beside: path)
        let checked = try check(source, name: name, into: spool)
        let imported = try insertSpooled(spool, name: name, fileRepeatsEvents: checked.mayRepeatEvents)
        return ImportResult(imported: imported, alreadyPresent: checked.events - imported)
    }

    /// Step 1 of `importLines`: reads and checks every line into `spool` (`ImportCheck`).
    /// Returns how many events the file holds, and whether it may hold one twice.
    private func check(_ source: ImportSource, name: String, into spool: ImportSpool) throws -> (events: Int, mayRepeatEvents: Bool) {
        var check = ImportCheck(name: name, spool: spool)
        try Self.forEachLine(of: source, name: name, terminal: terminal) { number, line in try check.take(line, number: number) }
        try check.finish()
        return (check.events, check.mayRepeatEvents)
    }

    /// Calls `body` with each line and its 1-based number; a line longer
    /// than `maxLineLength` is an ImportError. The bytes are searched with memchr: walking a
    /// `Data` byte by byte took 3 s of a million-line import. `line` borrows the buffer's
    /// storage and is valid only during the call.
    static func forEachLine(of source: ImportSource, name: String, terminal: any TerminalService,
                            _ body: (_ number: Int, _ line: UnsafeRawBufferPointer) throws -> Void) throws {
        var number = 0
        /// Every complete line in `bytes`, then (at the end of input) the rest; returns where
        /// the unfinished last line starts.
        func lines(in bytes: UnsafeRawBufferPointer, final: Bool) throws -> Int {
            guard bytes.baseAddress != nil else { return 0 }
            var start = 0
            while start < bytes.count {
                guard let newline = ByteSearch.firstIndex(of: 0x0A, in: bytes, from: start) ?? (final ? bytes.count : nil) else {
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
                let count = try buffer.withUnsafeMutableBytes {
                    try terminal.read(from: FileDescriptor(rawValue: fd), into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...]),
                                         name: FileDescriptor(rawValue: fd) == .standardInput ? "standard input" : name)
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
            // With them what the sync folder was told and read: ids start again, and the other
            // machines' files are read again from their start.
            try db.execute("DELETE FROM events; DELETE FROM rotation_shown; DELETE FROM rotation_state; DELETE FROM sync_written; DELETE FROM sync_read;")
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

/// The import stopped while it wrote events it had checked (the database stayed locked for a
/// minute, the disk filled): the batches it committed stay, whole, and importing the same file
/// again adds the rest, since events already present are skipped.
public struct ImportInterrupted: Error, CustomStringConvertible {
    public var file: String
    public var imported: Int
    public var reason: String

    public var description: String {
        "\(file): stopped after importing \(imported) event\(imported == 1 ? "" : "s"): \(reason); "
            + "import the file again to add the rest (events already present are skipped)"
    }
}

/// The import's INSERT, bound straight from the spool's bytes: a million rows through arrays
/// of boxed values cost as much as the rest of the import.
struct ImportRow {
    let statement: SQLiteStatement
    /// The statement looks for the event first (parameters 9–12: its identity), or is a plain
    /// insert of parameters 1–8 for each of its rows.
    let checksDuplicates: Bool

    /// Inserts `events`, as many as the statement has rows.
    func run(_ events: ArraySlice<ImportSpool.Record>, db: SQLiteConnection) throws {
        let handle = statement.handle
        sqlite3_reset(handle)
        var first: Int32 = 1
        for event in events {
            bind(event, from: first)
            first += 8
        }
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE else { throw db.error(code, statement.sql) }
    }

    /// Parameters `first`… are the row; the next 4, bound only when the statement looks, its
    /// identity.
    private func bind(_ event: ImportSpool.Record, from first: Int32) {
        let handle = statement.handle
        sqlite3_bind_int64(handle, first, event.timestamp)
        sqlite3_bind_int64(handle, first + 1, Int64(event.offsetMinutes))
        event.session.bind(handle, first + 2)
        event.typeName.bind(handle, first + 3)
        event.app.bind(handle, first + 4)
        if let contentID = event.contentID { contentID.bind(handle, first + 5) } else { sqlite3_bind_null(handle, first + 5) }
        if let wait = event.waitMilliseconds { sqlite3_bind_int64(handle, first + 6, Int64(wait)) } else { sqlite3_bind_null(handle, first + 6) }
        if let detail = event.detail { detail.bind(handle, first + 7) } else { sqlite3_bind_null(handle, first + 7) }
        if checksDuplicates {
            sqlite3_bind_int64(handle, first + 8, event.timestamp)
            event.session.bind(handle, first + 9)
            event.typeName.bind(handle, first + 10)
            event.app.bind(handle, first + 11)
        }
    }

    /// One event's identity (time, session, type, app) as a 64-bit hash, the same for a line
    /// read straight from its bytes and for a parsed one, within one import (a million of
    /// them, and a collision costs only looking every event up as it is inserted). Eight bytes
    /// a step, each mixed by a full-width multiply: a byte a step (FNV-1a) was 3% of an import.
    static func identity(_ timestamp: Int64, _ session: UnsafeRawBufferPointer, _ type: EventType, _ app: UnsafeRawBufferPointer) -> UInt64 {
        var hash = mix(0x243F_6A88_85A3_08D3, UInt64(bitPattern: timestamp))
        // The lengths go in, so that no session/app split can make another's bytes.
        hash = mix(hash, UInt64(ImportSpool.code(of: type)) | UInt64(truncatingIfNeeded: session.count) << 8
                   | UInt64(truncatingIfNeeded: app.count) << 32)
        hash = mix(hash, words: session)
        return mix(hash, words: app)
    }

    private static func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
        let product = (hash ^ word).multipliedFullWidth(by: 0x9E37_79B9_7F4A_7C15)
        return product.high ^ product.low
    }

    private static func mix(_ hash: UInt64, words bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash = hash, index = 0
        while bytes.count - index >= 8 {
            hash = mix(hash, bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            index += 8
        }
        guard index < bytes.count else { return hash }
        var tail: UInt64 = 0
        for offset in index..<bytes.count { tail |= UInt64(bytes[offset]) << (8 * UInt64(offset - index)) }
        return mix(hash, tail) // its length is in the field's, mixed in before
    }

    static func identity(_ event: Event) -> UInt64 {
        var session = event.session, app = event.app
        return session.withUTF8 { session in
            app.withUTF8 { identity(event.timestamp, UnsafeRawBufferPointer(session), event.type, UnsafeRawBufferPointer($0)) }
        }
    }
}

/// Which events an import has read, to tell whether the file holds one event twice (then
/// every event is looked up in the database as it is inserted). An export is in time order and
/// two copies of an event share their time, so while the times never go back only the
/// identities at the current time are kept: a million random inserts into a set the size of
/// the file were 8% of an import. A time that goes back, or more than a few events at one
/// time, switches to a set of every identity, filled first with those already read.
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

/// The identities an import has read: open addressing over a flat
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

extension UnsafeRawBufferPointer {
    /// Binds these bytes as text without a copy (SQLITE_STATIC): they outlive the one `run`
    /// that binds and steps them, and every parameter is bound again before the next step.
    /// A copy per field was four mallocs a row.
    func bind(_ statement: OpaquePointer, _ index: Int32) { sqliteBindText(statement, index, self, copying: false) }
}
