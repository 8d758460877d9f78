import XCTest
@testable import MigaCore
import MigaTestSupport

final class EventStoreTests: XCTestCase {
    func testRecordsEveryColumnAndQueries() throws {
        let folder = try TemporaryDirectory()
        let store = try EventStore(path: folder.path + "/data/miga/miga.sqlite3")
        let events = [
            Event(timestamp: 1_000, utcOffsetMinutes: 60, session: "s1", type: .sessionStart, app: "discord", contentID: "a"),
            Event(timestamp: 2_000, utcOffsetMinutes: 60, session: "s1", type: .exitSelected, app: "discord", waitMilliseconds: 999),
            Event(timestamp: 3_000, utcOffsetMinutes: -300, session: "s2", type: .openSelected, app: "discord", waitMilliseconds: 31_000),
            Event(timestamp: 4_000, utcOffsetMinutes: 0, session: "s3", type: .gatewaySkipped, app: "x",
                  detail: Event.reasonDetail("trial_expired")),
        ]
        try store.record(events)
        let stored = try store.allEvents()
        XCTAssertEqual(stored.map { var e = $0; e.id = nil; return e }, events)
        XCTAssertEqual(stored.last?.detail, #"{"reason":"trial_expired"}"#)
        XCTAssertEqual(try store.lastOpen(app: "discord")?.at, 3000)
        XCTAssertNil(try store.lastOpen(app: "x"))
        XCTAssertEqual(try store.exitCountInWeek(endingAt: Date(timeIntervalSince1970: 2)), 1)
        XCTAssertEqual(try store.exitCountInWeek(endingAt: Date(timeIntervalSince1970: 7 * 86_400 + 2.5)), 0, "a week later")
        try store.record(Event(timestamp: 30 * 86_400_000, utcOffsetMinutes: 0, session: "f", type: .exitSelected, app: "x"))
        XCTAssertEqual(try store.exitCountInWeek(endingAt: Date(timeIntervalSince1970: 2)), 1, "an Exit dated in the future is not this week's")
        XCTAssertEqual(try store.integrityCheck(), "ok")
    }

    func testUsesWALAndPrivateFolder() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path + "/new/miga.sqlite3"
        _ = try EventStore(path: path)
        let mode = try FileManager.default.attributesOfItem(atPath: folder.path + "/new")[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o700)
        var header = [UInt8](repeating: 0, count: 20)
        let handle = try XCTUnwrap(FileHandle(forReadingAtPath: path))
        header = Array(handle.readData(ofLength: 20))
        XCTAssertEqual(header[18], 2, "file format write version 2 means WAL")
    }

    /// Processes that exec while holding the database (every Open) leave the WAL behind; the
    /// gate checkpoints it away once it passes the limit, so it cannot grow without end.
    func testTheWALIsCheckpointedBeforeExecOnceItHasGrown() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path + "/miga.sqlite3"
        var size: Int { ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int) ?? 0 }
        func gate() throws -> EventStore {
            let store = try EventStore(path: path)
            try store.record(Event(timestamp: 1_795_000_000_000, utcOffsetMinutes: 0, session: "s", type: .gracePass, app: "x"))
            return store
        }
        var kept: [EventStore] = [] // a process that execs never closes its connection
        for _ in 0..<5 { let store = try gate(); store.closeBeforeExec(); kept.append(store) }
        XCTAssertGreaterThan(size, 0, "a small WAL is left for the next process (closing costs fsyncs)")
        while size <= EventStore.walLimit { kept.append(try gate()) }
        let store = try gate()
        store.closeBeforeExec()
        kept.forEach { $0.closeBeforeExec() }
        XCTAssertEqual(size, 0, "checkpointed into the database and removed")
        XCTAssertEqual(try EventStore(path: path).allEvents().count, kept.count + 1, "nothing lost")
    }

    func testAForeignFileIsReportedAndNeverOverwritten() throws {
        let folder = try TemporaryDirectory()
        let text = String(repeating: "my precious notes\n", count: 300)
        let path = try folder.write(text, to: "miga.sqlite3")
        XCTAssertThrowsError(try EventStore(path: path)) { error in
            XCTAssertEqual(error as? StoreError, .notADatabase(path: path))
            XCTAssertTrue("\(error)".contains("move it aside"))
        }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), text)
    }

    /// A foreign SQLite file in rollback mode stays in it: only miga's own files are put in WAL.
    func testAForeignDatabaseKeepsItsJournalMode() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path + "/miga.sqlite3"
        XCTAssertEqual(try runSQLite(path, "PRAGMA journal_mode = DELETE; CREATE TABLE notes (t); INSERT INTO notes VALUES ('x');").status, 0)
        XCTAssertThrowsError(try EventStore(path: path))
        XCTAssertEqual(try runSQLite(path, "PRAGMA journal_mode").output, "delete\n")
    }

    /// An import leaves the file in WAL, whether it ends or fails; and a file an earlier miga's
    /// import left in rollback mode, killed half-way (it wrote an empty database through a
    /// rollback journal), is rolled back and put in WAL again by the next open.
    func testAnImportLeavesTheFileInWALEvenWhenKilledHalfWay() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path + "/miga.sqlite3"
        let line = #"{"ts":"2026-11-21T09:30:00.000+01:00","type":"exit_selected","app":"d","session":"s","content_id":null,"wait_ms":1,"detail":null}"#
        do {
            let store = try EventStore(path: path)
            XCTAssertEqual(try store.importLines(Data((line + "\n").utf8), name: "f").imported, 1)
            XCTAssertEqual(try store.db.value("PRAGMA journal_mode"), .text("wal"))
            XCTAssertThrowsError(try EventStore(path: folder.path + "/b.sqlite3").importLines(Data("{\n".utf8), name: "bad"))
            XCTAssertEqual(try EventStore(path: folder.path + "/b.sqlite3").db.value("PRAGMA journal_mode"), .text("wal"), "after a bad line")
        }
        XCTAssertEqual(try runSQLite(path, "PRAGMA journal_mode").output, "wal\n")
        // What a killed import leaves: the file in rollback mode with a hot journal (a small
        // cache makes SQLite write pages into the file before the commit).
        let marker = folder.path + "/inside"
        let killed = Process()
        killed.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        killed.arguments = [path]
        let input = Pipe()
        killed.standardInput = input
        try killed.run()
        input.fileHandleForWriting.write(Data("""
            PRAGMA journal_mode = DELETE;
            PRAGMA cache_size = 2;
            BEGIN;
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
                INSERT INTO events (ts, utc_offset_min, session, type, app) SELECT i, 0, 'k', 'exit_selected', 'killed' FROM n;
            .shell touch \(marker)

            """.utf8)) // and then it waits for more input, inside the transaction
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: marker), Date() < deadline { usleep(10_000) }
        XCTAssertTrue(FileManager.default.fileExists(atPath: path + "-journal"), "a hot journal")
        kill(killed.processIdentifier, SIGKILL)
        killed.waitUntilExit()
        let store = try EventStore(path: path)
        XCTAssertEqual(try store.eventCount(), 1, "the killed transaction rolled back")
        XCTAssertEqual(try store.db.value("PRAGMA journal_mode"), .text("wal"))
        XCTAssertEqual(try store.integrityCheck(), "ok")
    }

    private func runSQLite(_ path: String, _ sql: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [path, sql]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

final class ClockTests: XCTestCase {
    /// The C library's offset must agree with Foundation's for the zone in $TZ (this process's).
    func testSystemClockOffsetMatchesFoundation() {
        let clock = SystemClock()
        for unixTime in [0.0, 1_774_000_000, 1_792_000_000, Date().timeIntervalSince1970] {
            let date = Date(timeIntervalSince1970: unixTime)
            XCTAssertEqual(clock.utcOffsetMinutes(at: date), TimeZone.current.secondsFromGMT(for: date) / 60, "\(date)")
        }
    }

    func testOffsetsAcrossADaylightSavingChange() {
        XCTAssertEqual(offsets(inZone: "Europe/Berlin"), "60 120") // 2026-01-15 is CET, 2026-07-15 CEST
        XCTAssertEqual(offsets(inZone: "America/New_York"), "-300 -240")
    }

    /// Offsets in winter and summer 2026 with $TZ set for the duration of the call.
    private func offsets(inZone zone: String) -> String {
        setenv("TZ", zone, 1)
        tzset()
        defer { unsetenv("TZ"); tzset() }
        let winter = LinuxSystem.utcOffsetSeconds(at: 1_768_435_200) / 60
        let summer = LinuxSystem.utcOffsetSeconds(at: 1_784_073_600) / 60
        return "\(winter) \(summer)"
    }
}

final class EventStoreRaceTests: XCTestCase {
    /// Many first-ever gates at once: each opens (creates, switches to WAL, migrates) the same
    /// new file and records one event. None may fail, none may be lost.
    func testConcurrentFirstOpensLoseNothing() throws {
        for round in 0..<15 {
            let folder = try TemporaryDirectory()
            let path = folder.path + "/miga.sqlite3"
            let workers = 16
            let failures = LockedList()
            DispatchQueue.concurrentPerform(iterations: workers) { index in
                do {
                    let store = try EventStore(path: path)
                    try store.record(Event(timestamp: Int64(index), utcOffsetMinutes: 0, session: "s\(index)",
                                           type: .sessionStart, app: "race"))
                } catch {
                    failures.append("\(error)")
                }
            }
            XCTAssertEqual(failures.items, [], "round \(round)")
            XCTAssertEqual(try EventStore(path: path).allEvents().count, workers, "round \(round)")
        }
    }
}

final class LockedList: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    var items: [String] { lock.withLock { storage } }
    func append(_ item: String) { lock.withLock { storage.append(item) } }
}
