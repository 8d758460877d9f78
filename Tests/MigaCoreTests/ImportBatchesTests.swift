import Foundation
import XCTest
@testable import MigaCore
import MigaTestSupport

/// How `events import` stays out of the gates' way: its look at who else has the database
/// open, which decides whether it leaves the write lock free between batches.
final class ImportBatchesTests: XCTestCase {
    /// /proc/locks names each lock's holder and file: only another process's lock on the
    /// database (or its -shm) counts, a waiting request included.
    func testWhoElseHasTheDatabaseOpenIsReadFromProcLocks() {
        let table = Data("""
            1: POSIX  ADVISORY  READ 500 fe:00:16245176 128 128
            2: POSIX  ADVISORY  READ 500 fe:00:16245128 1073741826 1073742335
            3: POSIX  ADVISORY  WRITE 777 fe:00:5335183 1073741824 1073742335
            4: FLOCK  ADVISORY  WRITE 778 fe:00:16220931 0 EOF
            4: -> FLOCK  ADVISORY  WRITE 779 fe:00:16220931 0 EOF

            """.utf8)
        XCTAssertFalse(ImportPacing.heldByOthers(locks: table, inodes: [16245176, 16245128], me: 500), "its own locks")
        XCTAssertTrue(ImportPacing.heldByOthers(locks: table, inodes: [16245176, 16245128], me: 501))
        XCTAssertTrue(ImportPacing.heldByOthers(locks: table, inodes: [16220931], me: 778), "a request waiting")
        XCTAssertFalse(ImportPacing.heldByOthers(locks: table, inodes: [1], me: 500))
        XCTAssertFalse(ImportPacing.heldByOthers(locks: Data(), inodes: [16245176], me: 500))
    }

    /// The same through SQLite and the kernel: this process's own connection is not another's,
    /// a sqlite3 that has the file open is.
    func testAnotherProcessWithTheDatabaseOpenIsSeen() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path + "/miga.sqlite3"
        let store = try EventStore(path: path)
        XCTAssertEqual(try store.eventCount(), 0)
        XCTAssertFalse(ImportPacing.othersHaveOpen(path))
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        reader.arguments = [path]
        let input = Pipe(), output = Pipe()
        reader.standardInput = input
        reader.standardOutput = output
        try reader.run()
        defer { reader.terminate(); reader.waitUntilExit() }
        input.fileHandleForWriting.write(Data("SELECT count(*) FROM events;\n".utf8))
        _ = output.fileHandleForReading.availableData // it has read the file
        XCTAssertTrue(ImportPacing.othersHaveOpen(path))
    }
}

/// The import's look for an event already stored is one seek by its whole identity, so that
/// events sharing a millisecond cost it no more than events that do not (DESIGN "Bounded work
/// for every input"): with only the time indexed it read every row of that millisecond.
final class ImportLookupTests: XCTestCase {
    func testTheLookupForAStoredEventSeeksItsWholeIdentity() throws {
        let folder = try TemporaryDirectory()
        let store = try EventStore(path: folder.path + "/miga.sqlite3")
        let plan = try store.db.rows("EXPLAIN QUERY PLAN " + EventStore.storedEventLookup,
                                     [.integer(1), .text("s"), .text("exit_selected"), .text("chat")])
            .compactMap { StoredValue.text($0[3]) }
        XCTAssertEqual(plan, ["SEARCH events USING COVERING INDEX events_by_identity (ts=? AND session=? AND app=?)"])
    }

    /// The spool keeps a chunk and some room after it: events of nearly the longest line,
    /// longer than that room, and small ones between them come back whole and in order.
    func testEventsOfTheLongestLinesGoThroughTheSpoolWhole() throws {
        let folder = try TemporaryDirectory()
        let store = try EventStore(path: folder.path + "/miga.sqlite3")
        let big = String(repeating: "x", count: EventStore.maxLineLength - 300)
        var events: [Event] = []
        for index in 0..<5 {
            events.append(Event(timestamp: 1_790_000_000_000 + Int64(index * 2), utcOffsetMinutes: 60, session: "s\(index)", type: .openSelected,
                                app: "chat", detail: #"{"note":"\#(big.prefix(big.count - index))"}"#))
            events.append(Event(timestamp: 1_790_000_000_001 + Int64(index * 2), utcOffsetMinutes: 60, session: "t\(index)", type: .exitSelected, app: "chat"))
        }
        let file = Data(events.map { EventLine.jsonl($0) + "\n" }.joined().utf8)
        XCTAssertEqual(try store.importLines(file, name: "big.jsonl").imported, events.count)
        let stored = try store.allEvents().map { var event = $0; event.id = nil; return event }
        XCTAssertEqual(stored.map(\.session), events.map(\.session))
        XCTAssertEqual(stored.map(\.detail), events.map(\.detail))
    }
}
