import Foundation
import XCTest
import MigaCore

/// DESIGN "Never in the way, never a way in" in-process: a purge takes the overflow spool, and
/// an import's work is linear in the file (moved from MigaCLITests' NeverInTheWayTests, which
/// keeps the gates under another program's lock).
final class NeverInTheWayCommandTests: XCTestCase {
    var home: CommandHome!

    override func setUpWithError() throws {
        home = try CommandHome()
        try home.writeConfig("timer_seconds = 15\n")
    }

    /// `uninstall --purge` takes events waiting in the overflow with the rest of the events.
    func testAPurgeRemovesTheOverflowSpool() throws {
        let runtime = home.root + "/run"
        let environment = home.environment(["XDG_RUNTIME_DIR": runtime])
        XCTAssertEqual(try home.miga(["install"], environment: environment).status, 0)
        let overflow = try XCTUnwrap(MigaPaths(environment: environment).overflowSpool)
        XCTAssertTrue(overflow.hasPrefix(runtime + "/miga/spool-"), overflow)
        try FileManager.default.createDirectory(atPath: overflow, withIntermediateDirectories: true)
        let line = EventLine.jsonl(Event(timestamp: 1_790_000_000_000, utcOffsetMinutes: 0, session: "s", type: .gatewaySkipped, app: "chat"))
        try (line + "\n").write(toFile: overflow + "/events-1-1", atomically: true, encoding: .utf8)
        let purge = try home.miga(["uninstall", "--purge", "--yes"], environment: environment)
        XCTAssertEqual(purge.status, 0, purge.stderr)
        XCTAssertTrue(purge.stdout.contains("removed " + overflow), purge.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: overflow), purge.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.database))
    }

    /// A CSV quoted field left open over 20,000 short lines is refused with its first line,
    /// in time linear in the file (each line was once re-counted with every line after it:
    /// 15 s of a release build, minutes of a debug one, holding the write lock throughout).
    func testAnUnclosedCSVQuoteIsRefusedInLinearTime() throws {
        let file = home.root + "/open-quote.csv"
        let lines = [EventLine.csvHeader, "2026-01-01T00:00:00.000+00:00,exit_selected,a,\"s"] + Array(repeating: "x", count: 20_000)
        try lines.joined(separator: "\n").write(toFile: file, atomically: false, encoding: .utf8)
        let started = Date()
        let result = try home.miga(["events", "import", file])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("open-quote.csv:2: a quoted field that never ends"), result.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "a generous bound: linear takes well under a second")
        XCTAssertEqual(try home.events().count, 0)
    }
}
