import Foundation
import GRDB

/// The person's own data, out and back in, and erased (`miga events export/import`,
/// `miga data delete`).
extension EventStore {
    public enum ExportFormat: String, CaseIterable, Sendable { case jsonl, csv }

    /// Streams every event, oldest first, to `write` in pieces (a million events never sit
    /// in memory at once). Returns what it passed over or clamped (see StoredEvent.swift).
    @discardableResult
    public func export(format: ExportFormat, write: (Data) throws -> Void) throws -> StoredDataReport {
        var report = StoredDataReport()
        try queue.read { db in
            var buffer = Data()
            buffer.reserveCapacity(1 << 16)
            if format == .csv { buffer.append(contentsOf: (EventLine.csvHeader + "\n").utf8) }
            let rows = try Row.fetchCursor(db, sql: """
                SELECT ts, utc_offset_min, session, type, app, content_id, wait_ms, detail FROM events ORDER BY ts, id
                """)
            while let row = try rows.next() {
                guard var event = Event(stored: row, report: &report) else { continue }
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
        try queue.inDatabase { db in try db.execute(sql: "PRAGMA cache_size = -131072") } // 128 MiB
        try queue.inTransaction(.immediate) { db in
            // Into an empty database (the usual restore) nothing can be a duplicate: a plain
            // insert, and the indexes are rebuilt once at the end (a sort) instead of being
            // updated a million times. DDL is transactional: a bad line rolls this back too.
            let empty = try Int.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM events)") == 1
            let indexes = empty ? try Row.fetchAll(db, sql: """
                SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events' AND sql IS NOT NULL
                """).map { (name: $0[0] as String, sql: $0[1] as String) } : []
            for index in indexes { try db.execute(sql: "DROP INDEX \(index.name)") }
            let insert = try db.makeStatement(sql: """
                INSERT INTO events (ts, utc_offset_min, session, type, app, content_id, wait_ms, detail)
                SELECT ?, ?, ?, ?, ?, ?, ?, ?
                WHERE ? OR NOT EXISTS (SELECT 1 FROM events WHERE ts = ? AND session = ? AND +type = ? AND app = ?)
                """)
            // `+type`: with `type = ?` the planner asks, on every new binding, whether the partial
            // index for exits applies, and SQLite recompiles the statement each time (10x slower).
            // The empty-database path cannot ask SQLite about duplicates within the file (no
            // index yet), so it remembers a hash of each event's identity; only if two collide
            // does it pay for one de-duplicating pass at the end.
            var seen = Set<Int>()
            var mayHaveDuplicates = false
            // JSONL or CSV, by the first byte (`{` is JSONL); a CSV record may go on over
            // several lines inside quotes.
            var csv: Bool?
            var record = "", recordStart = 0
            try Self.forEachLine(of: source, name: name) { number, line in
                if csv == nil {
                    csv = line.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }) != UInt8(ascii: "{")
                    if csv == true {
                        var header = String(decoding: line, as: UTF8.self)
                        if header.hasPrefix("\u{FEFF}") { header.removeFirst() }
                        guard header.trimmingCharacters(in: .whitespacesAndNewlines) == EventLine.csvHeader else {
                            throw ImportError(file: name, line: number,
                                              problem: "neither a JSON object nor miga's CSV header (\(EventLine.csvHeader))")
                        }
                        return
                    }
                }
                let event: Event
                do {
                    if csv == true {
                        if record.isEmpty { recordStart = number } else { record += "\n" }
                        record += String(decoding: line, as: UTF8.self)
                        guard record.utf8.count <= Self.maxLineLength else {
                            throw ImportError(file: name, line: recordStart, problem: "a record longer than \(Self.maxLineLength) bytes")
                        }
                        guard record.utf8.reduce(0, { $0 + ($1 == UInt8(ascii: "\"") ? 1 : 0) }) % 2 == 0 else { return }
                        defer { record = "" }
                        event = try EventLine.parseCSV(record)
                    } else {
                        event = try EventLine.parse(line)
                    }
                } catch let error as ImportError {
                    throw error
                } catch {
                    throw ImportError(file: name, line: csv == true ? recordStart : number, problem: "\(error)")
                }
                try insert.execute(arguments: [event.timestamp, event.utcOffsetMinutes, event.session, event.type.rawValue,
                                               event.app, event.contentID, event.waitMilliseconds, event.detail,
                                               empty, event.timestamp, event.session, event.type.rawValue, event.app])
                if db.changesCount > 0 { result.imported += 1 } else { result.alreadyPresent += 1 }
                if empty, !mayHaveDuplicates {
                    var hasher = Hasher()
                    hasher.combine(event.timestamp)
                    hasher.combine(event.session)
                    hasher.combine(event.type.rawValue)
                    hasher.combine(event.app)
                    mayHaveDuplicates = !seen.insert(hasher.finalize()).inserted
                }
            }
            if !record.isEmpty {
                throw ImportError(file: name, line: recordStart, problem: "a quoted field that never ends")
            }
            if mayHaveDuplicates {
                try db.execute(sql: """
                    DELETE FROM events WHERE id NOT IN (SELECT min(id) FROM events GROUP BY ts, session, type, app)
                    """)
                result.imported -= db.changesCount
                result.alreadyPresent += db.changesCount
            }
            for index in indexes { try db.execute(sql: index.sql) }
            return .commit
        }
        return result
    }

    /// Calls `body` with each line that is not blank and its 1-based number; a line longer
    /// than `maxLineLength` is an ImportError. The bytes are searched with memchr: walking a
    /// `Data` byte by byte took 3 s of a million-line import. `line` borrows the buffer's
    /// storage and is valid only during the call.
    static func forEachLine(of source: ImportSource, name: String, _ body: (_ number: Int, _ line: Data) throws -> Void) throws {
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
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
                try body(number, Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: line.baseAddress!), count: line.count,
                                      deallocator: .none))
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
        var count = 0
        try queue.inTransaction(.immediate) { db in
            count = try Int.fetchOne(db, sql: "SELECT count(*) FROM events") ?? 0
            try db.execute(sql: "DELETE FROM events; DELETE FROM rotation_shown; DELETE FROM rotation_state;")
            return .commit
        }
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "VACUUM")
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
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
