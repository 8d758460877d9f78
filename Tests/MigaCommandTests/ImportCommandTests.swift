import Foundation
import XCTest
import MigaCore

/// `events import` in-process, against DESIGN "Never in the way, never a way in": its work is
/// linear in the file (moved from MigaCLITests' ImportCLITests, which keeps the imports that
/// race another writer or are killed half-way).
final class ImportCommandTests: XCTestCase {
    var home: CommandHome!

    override func setUpWithError() throws {
        home = try CommandHome()
    }

    func miga(_ arguments: String...) throws -> CommandHome.Output {
        try home.miga(arguments, environment: home.environment(["TZ": "UTC"]))
    }

    func count(_ sessions: String) throws -> Int {
        Int(try home.sqlite("SELECT count(*) FROM events WHERE session GLOB '\(sessions)'")) ?? -1
    }

    /// A CSV record is cut off at the line limit (1 MiB) with the line it started on, in time
    /// linear in the file (NeverInTheWayTests has a quote left open over 20,000 short lines):
    /// the old framing counted every quote of the record again on each of its lines.
    func testARecordPastTheLimitIsRefusedAtOnceWithItsLine() throws {
        let text = EventLine.csvHeader + "\n" + "2026-11-21T09:30:00.000+01:00,exit_selected,chat,s,,1,\n"
            + "2026-11-21T09:31:00.000+01:00,exit_selected,chat,\"s\n"
            + String(repeating: String(repeating: "x", count: 600) + "\n", count: 2_000)
        let file = try home.writeFile("long.csv", text)
        let started = Date()
        let output = try miga("events", "import", file)
        let seconds = Date().timeIntervalSince(started)
        XCTAssertEqual(output.status, 1)
        XCTAssertTrue(output.stderr.contains("long.csv:3: a record longer than 1048576 bytes") && output.stderr.contains("nothing was imported"),
                      output.stderr)
        XCTAssertLessThan(seconds, 5, "linear in the file, a debug build reads it in well under a second")
        XCTAssertEqual(try home.events().count, 0, "not even the good first record")
    }

    /// Events that share one millisecond (a hostile or broken file) cost the import no more
    /// than others, into a database already holding one of that time and again into their own
    /// copies: each is found by its whole identity. With only the time indexed each looked
    /// through every row of that millisecond (20,000 such events took 33 s, 40,000 over two
    /// minutes); now about 2 s each in a debug build.
    func testEventsSharingOneMillisecondAreImportedInTimeLinearInTheirNumber() throws {
        let events = 40_000
        let line = { (session: String) in
            EventLine.jsonl(Event(timestamp: 1_790_000_000_000, utcOffsetMinutes: 60, session: session, type: .exitSelected, app: "chat")) + "\n"
        }
        XCTAssertEqual(try miga("events", "import", try home.writeFile("one.jsonl", line("g"))).stdout, "Imported 1 event.\n")
        let file = try home.writeFile("same.jsonl", (0..<events).map { line("f\($0)") }.joined())
        for expected in ["Imported \(events) events.\n", "Imported 0 events (\(events) already present, skipped).\n"] {
            let started = Date()
            XCTAssertEqual(try miga("events", "import", file).stdout, expected)
            XCTAssertLessThan(Date().timeIntervalSince(started), 40, "one seek an event, not a scan of the millisecond")
        }
        XCTAssertEqual(try count("f*"), events)
    }
}
