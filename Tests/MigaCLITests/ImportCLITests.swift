import Foundation
import XCTest
import MigaCore

/// `events import` as the built binary, against DESIGN "Never in the way, never a way in": its
/// work is linear in the file (an unclosed quote included), a bad line anywhere leaves nothing
/// imported, and a large import never keeps another writer (a gate) from the database for long.
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

    /// Each line used to make the framing count every quote of the record so far again: an
    /// unclosed quote over 20,000 short lines took 15 s, longer at the record limit.
    func testAnUnclosedQuoteOverManyLinesIsRefusedAtOnceWithItsLine() throws {
        let start = EventLine.csvHeader + "\n" + "2026-11-21T09:30:00.000+01:00,exit_selected,chat,s,,1,\n"
            + "2026-11-21T09:31:00.000+01:00,exit_selected,chat,\"s\n"
        for (name, body, problem) in [
            ("open.csv", String(repeating: "x,y\n", count: 20_000), "open.csv:3: a quoted field that never ends"),
            ("long.csv", String(repeating: String(repeating: "x", count: 600) + "\n", count: 2_000),
             "long.csv:3: a record longer than 1048576 bytes"),
        ] {
            let file = try home.writeFile(name, start + body)
            let started = Date()
            let output = try miga("events", "import", file)
            let seconds = Date().timeIntervalSince(started)
            XCTAssertEqual(output.status, 1, name)
            XCTAssertTrue(output.stderr.contains(problem) && output.stderr.contains("nothing was imported"), output.stderr)
            XCTAssertLessThan(seconds, 5, "\(name): linear in the file, a debug build reads it in well under a second")
        }
        XCTAssertEqual(try home.events().count, 0, "not even the good first record")
    }
}
