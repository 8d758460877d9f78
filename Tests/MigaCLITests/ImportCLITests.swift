import Foundation
import XCTest
import MigaCore

/// `events import` as the built binary, against DESIGN "Never in the way, never a way in": its
/// work is linear in the file (an unclosed quote included), a bad line anywhere leaves nothing
/// imported, and a large import never keeps another writer (a gate) from the database for long.
/// The cases that need no process of their own run in-process in MigaCommandTests' ImportCommandTests.
final class ImportCLITests: XCTestCase {
    var home: MigaHome!

    override func setUpWithError() throws {
        home = try MigaHome()
    }

    func miga(_ arguments: String...) throws -> MigaHome.Output {
        try home.miga(arguments, environment: home.environment(["TZ": "UTC"]))
    }

    /// `count` exported events, one a second, each in a session of its own named `f…` (the
    /// writer below names its own `w…`).
    func exportedFile(_ name: String, count: Int, then extra: String = "") throws -> String {
        var text = ""
        text.reserveCapacity(count * 150)
        for index in 0..<count {
            text += EventLine.jsonl(Event(timestamp: 1_790_000_000_000 + Int64(index) * 1000, utcOffsetMinutes: 60,
                                          session: "f\(index)", type: .exitSelected, app: "chat", waitMilliseconds: 31_000))
            text += "\n"
        }
        return try home.writeFile(name, text + extra)
    }

    func count(_ sessions: String) throws -> Int {
        Int(try home.sqlite("SELECT count(*) FROM events WHERE session GLOB '\(sessions)'")) ?? -1
    }

    /// The database, with no events, made by miga (an import of nothing): the writer below
    /// needs its table, and into an empty database is how a restore starts.
    func makeEmptyDatabase() throws {
        XCTAssertEqual(try miga("events", "import", try home.writeFile("empty.jsonl", "")).stdout, "Imported 0 events.\n")
    }

    /// A Python writer that does what a gate does, BEGIN IMMEDIATE, INSERT, COMMIT, every 20 ms
    /// while the process `pid` runs; it prints one line per write: the seconds the write took
    /// (waiting for the lock included) and how many of the file's events (`f…`) it found.
    func startWriter(against pid: pid_t) throws -> MigaHome.Child {
        let script = try home.writeFile("writer.py", """
            import sqlite3, sys, time
            database, pid = sys.argv[1], int(sys.argv[2])
            def running():
                try:
                    stat = open(f"/proc/{pid}/stat").read()
                except FileNotFoundError:
                    return False
                return stat[stat.rindex(")") + 2] != "Z"
            number = 0
            while running():
                connection = sqlite3.connect(database, timeout=120, isolation_level=None)
                started = time.monotonic()
                connection.execute("BEGIN IMMEDIATE")
                connection.execute("INSERT INTO events (ts, utc_offset_min, session, type, app) VALUES (?, 0, ?, 'session_start', 'gate')",
                                   (int(time.time() * 1000), f"w{number}"))
                connection.execute("COMMIT")
                took = time.monotonic() - started
                seen = connection.execute("SELECT count(*) FROM events WHERE session GLOB 'f*'").fetchone()[0]
                connection.close()
                print(f"{took:.3f} {seen}", flush=True)
                number += 1
                time.sleep(0.02)
            """)
        return try home.start("/usr/bin/python3", [script, home.database, "\(pid)"])
    }

    /// The writes the writer made: (seconds, file events seen), one per write.
    func writes(_ output: MigaHome.Output) -> [(seconds: Double, seen: Int)] {
        XCTAssertEqual(output.status, 0, output.stderr)
        return output.stdout.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 2, let seconds = Double(fields[0]), let seen = Int(fields[1]) else { return nil }
            return (seconds, seen)
        }
    }

    /// The property the gates need: an import of 200,000 events commits in short batches, and
    /// another connection's write gets in between them within a fraction of a second, however
    /// long the whole import takes. Every row that writer added stays; every event of the file
    /// arrives once.
    func testAnotherWriterGetsInBetweenTheBatchesOfALargeImport() throws {
        let events = 200_000
        try makeEmptyDatabase()
        let file = try exportedFile("big.jsonl", count: events)
        let importer = try home.start(home.binary, ["events", "import", file], environment: home.environment(["TZ": "UTC"]))
        let writer = try startWriter(against: importer.pid)
        let imported = importer.wait()
        let made = writes(writer.wait())
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(imported.stdout, "Imported 200000 events.\n")
        let during = made.filter { $0.seen > 0 && $0.seen < events }
        XCTAssertGreaterThanOrEqual(during.count, 3, "writes between the import's batches: \(made)")
        XCTAssertLessThan(made.map(\.seconds).max() ?? 0, 1, "every write got the lock within a second: \(made)")
        XCTAssertEqual(try count("f*"), events)
        XCTAssertEqual(try count("w*"), made.count, "the writer's rows are kept")
        XCTAssertEqual(try home.sqlite("SELECT count(*) FROM (SELECT 1 FROM events GROUP BY ts, session, type, app HAVING count(*) > 1)"), "0")
    }

    /// A bad last line of a file of many batches' worth: refused with its number and nothing of
    /// the file is imported; meanwhile (the file is checked before anything is written) other
    /// writers were never kept waiting, and what they wrote stays.
    func testABadLineLateInALargeFileLeavesNothingImportedAndNobodyWaiting() throws {
        try makeEmptyDatabase()
        let file = try exportedFile("bad.jsonl", count: 100_000, then: "{\"ts\":\"yesterday\"}\n")
        let importer = try home.start(home.binary, ["events", "import", file], environment: home.environment(["TZ": "UTC"]))
        let writer = try startWriter(against: importer.pid)
        let refused = importer.wait()
        let made = writes(writer.wait())
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("bad.jsonl:100001: \"ts\" is not a time") && refused.stderr.contains("nothing was imported"),
                      refused.stderr)
        XCTAssertEqual(try count("f*"), 0, "nothing of the file")
        XCTAssertGreaterThanOrEqual(made.count, 3, "the writer ran during the import")
        XCTAssertEqual(try count("w*"), made.count, "the writer's rows are kept")
        XCTAssertLessThan(made.map(\.seconds).max() ?? 0, 1, "every write got the lock within a second: \(made)")
    }

    /// An import killed half-way leaves whole batches and a sound database with its indexes;
    /// importing the same file again adds exactly the rest, and a third time nothing.
    func testAKilledImportIsCompletedByImportingTheFileAgain() throws {
        let events = 100_000
        try makeEmptyDatabase()
        let file = try exportedFile("big.jsonl", count: events)
        let importer = try home.start(home.binary, ["events", "import", file], environment: home.environment(["TZ": "UTC"]))
        var before = 0
        while !processEnded(importer.pid) {
            before = try count("f*")
            if before > 0 && before < events { break }
            usleep(10_000)
        }
        kill(importer.pid, SIGKILL)
        _ = importer.wait()
        XCTAssertGreaterThan(before, 0, "the import committed part of the file before it ended")
        XCTAssertLessThan(before, events, "the import was killed before it ended")
        let left = try count("f*")
        XCTAssertEqual(try home.sqlite("PRAGMA integrity_check"), "ok")
        XCTAssertEqual(try home.sqlite("SELECT group_concat(name, ' ') FROM (SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events' ORDER BY name)"),
                       "events_by_identity events_by_type_app_ts events_exit_days")
        XCTAssertEqual(try miga("events", "import", file).stdout,
                       left == 0 ? "Imported \(events) events.\n" : "Imported \(events - left) events (\(left) already present, skipped).\n")
        XCTAssertEqual(try count("f*"), events)
        XCTAssertEqual(try miga("events", "import", file).stdout, "Imported 0 events (\(events) already present, skipped).\n")
        XCTAssertEqual(try count("f*"), events)
    }
}
