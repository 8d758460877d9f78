import Foundation
import GRDB

/// The person's own data, out and back in, and erased (`miga events export/import`,
/// `miga data delete`).
extension EventStore {
    public enum ExportFormat: String, CaseIterable, Sendable { case jsonl, csv }

    /// Streams every event, oldest first, to `write` in pieces (a million events never sit
    /// in memory at once).
    public func export(format: ExportFormat, write: (Data) throws -> Void) throws {
        try queue.read { db in
            var buffer = Data()
            buffer.reserveCapacity(1 << 16)
            if format == .csv { buffer.append(contentsOf: (EventLine.csvHeader + "\n").utf8) }
            let rows = try Row.fetchCursor(db, sql: """
                SELECT ts, utc_offset_min, session, type, app, content_id, wait_ms, detail FROM events ORDER BY ts, id
                """)
            while let row = try rows.next() {
                let event = Event(timestamp: row[0], utcOffsetMinutes: row[1], session: row[2],
                                  type: EventType(rawValue: row[3]) ?? .gatewaySkipped, app: row[4],
                                  contentID: row[5], waitMilliseconds: row[6], detail: row[7])
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
    }

    public struct ImportResult: Equatable, Sendable {
        public var imported: Int
        /// Events already in the database (same time, session, type and app): importing a file
        /// twice does not count anything twice.
        public var alreadyPresent: Int
    }

    /// Imports JSONL in one transaction: the first bad line aborts it with its number and
    /// nothing is imported.
    public func importLines(_ data: Data, name: String) throws -> ImportResult {
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
            try Self.forEachLine(of: data) { number, line in
                let event: Event
                do {
                    event = try EventLine.parse(line)
                } catch {
                    throw ImportError(file: name, line: number, problem: "\(error)")
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

    /// Calls `body` with each line that is not blank and its 1-based number. The bytes are
    /// searched with memchr: walking a `Data` byte by byte took 3 s of a million-line import.
    /// `line` borrows `data`'s storage and is valid only during the call.
    static func forEachLine(of data: Data, _ body: (_ number: Int, _ line: Data) throws -> Void) throws {
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            guard let base = bytes.baseAddress else { return }
            var start = 0
            var number = 0
            while start < bytes.count {
                let end = memchr(base + start, 0x0A, bytes.count - start).map { UnsafeRawPointer($0) - base } ?? bytes.count
                let line = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
                start = end + 1
                number += 1
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
                try body(number, Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: line.baseAddress!), count: line.count,
                                      deallocator: .none))
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
