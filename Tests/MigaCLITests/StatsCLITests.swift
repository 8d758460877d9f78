import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// `miga stats`, `events export/import` and `data delete` as the built binary, in a temp HOME
/// with TZ=UTC, on events dated relative to today.
/// The cases that need no process of their own run in-process in MigaCommandTests' StatsCommandTests.
final class StatsCLITests: XCTestCase, StatsCase {
    var home: MigaHome!

    override func setUpWithError() throws {
        home = try MigaHome()
    }

    func testStatsJSONAndViewOnTheBinary() throws {
        try importEvents([
            line(.sessionStart, daysAgo: 1), line(.exitSelected, daysAgo: 1, wait: 30_000),
            line(.exitSelected, daysAgo: 0, hour: 0, wait: 15_000), line(.openSelected, daysAgo: 0, app: "web", wait: 45_000),
            line(.contentRead, daysAgo: 0), line(.exitSelected, daysAgo: 20),
        ])
        let json = try miga("stats", "--json", "--days", "2")
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertTrue(json.stdout.contains("\"sessions\":1,\"exits\":2,\"opens\":1,\"reads\":1,\"completed\":0,\"exit_rate\":0.6667,\"minutes_waited\":1.5,\"focus_minutes\":0.0,\"streak\":{\"current\":2,\"longest\":2}"), json.stdout)
        XCTAssertTrue(json.stdout.contains("\"apps\":[{\"app\":\"chat\",\"sessions\":1,\"exits\":2,\"opens\":0,\"reads\":1,\"focus_minutes\":0.0},{\"app\":\"web\",\"sessions\":0,\"exits\":0,\"opens\":1,\"reads\":0,\"focus_minutes\":0.0}]"), json.stdout)

        let piped = try miga("stats")
        XCTAssertFalse(piped.stdout.contains("\u{1B}"), "no colour when not a terminal")
        XCTAssertTrue(piped.stdout.contains("Exits 2   Opens 1") && piped.stdout.contains("Streak 2 days (longest 2)"), piped.stdout)
        XCTAssertTrue(piped.stdout.contains("  chat         1      2      0      1\n"), piped.stdout)
        let app = try miga("stats", "--app", "web", "--json")
        XCTAssertTrue(app.stdout.contains("\"exits\":0,\"opens\":1") && app.stdout.contains("\"streak\":{\"current\":2,\"longest\":2}"), app.stdout)

        for (color, extra) in [(true, [String: String]()), (false, ["NO_COLOR": "1"])] {
            let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) stats",
                                            environment: home.environment(["TZ": "UTC"].merging(extra) { $1 }))
            terminal.waitFor("STATUS=0")
            let screen = try terminal.tmux(["capture-pane", "-p", "-e", "-t", "t"])
            // tmux says it has 256 colours, and the background is not known: the middle green.
            XCTAssertEqual(screen.contains("\u{1B}[38;5;28m"), color, screen)
        }
    }

    /// The chart and the totals fit the terminal, from 40 columns up (tmux joins wrapped
    /// lines on capture, so a line that did not fit shows as longer than the width).
    func testTheViewFitsTheTerminalWidth() throws {
        try importEvents((0..<14).flatMap { [line(.sessionStart, daysAgo: $0, app: "a-long-app-name", session: "s\($0)"),
                                              line(.exitSelected, daysAgo: $0, app: "a-long-app-name", session: "s\($0)", wait: 20_000)] }
                         + (0..<40).map { line(.openSelected, daysAgo: 0, session: "o\($0)") })
        for columns in [40, 57, 100] {
            let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) stats", environment: home.environment(["TZ": "UTC"]),
                                            columns: columns, rows: 50)
            let screen = terminal.waitFor("STATUS=0")
            let view = screen.components(separatedBy: "STATUS=0")[0].split(separator: "\n").map(String.init)
            XCTAssertTrue(view.contains { $0.contains("█") } && view.contains { $0.contains("Exit rate") }, screen)
            for row in view {
                XCTAssertLessThanOrEqual(DisplayWidth.of(row), columns, "at \(columns) columns: \(row)")
            }
        }
    }

    func testADatabaseLockedByAGateIsWaitedForNotReportedEmpty() throws {
        try importEvents([line(.exitSelected, daysAgo: 0), line(.exitSelected, daysAgo: 1)])
        let (locker, released) = try home.lockDatabase("PRAGMA locking_mode=EXCLUSIVE; BEGIN EXCLUSIVE; SELECT 1;", for: 1.5)
        defer { kill(-locker.pid, SIGKILL); _ = locker.wait() }
        let output = try miga("stats", "--json")
        XCTAssertTrue(FileManager.default.fileExists(atPath: released), "it waited for the lock")
        XCTAssertEqual(output.status, 0, output.stderr)
        XCTAssertTrue(output.stdout.contains("\"exits\":2") && output.stdout.contains("\"current\":2"), output.stdout)
    }

    func testDataDeleteAsksOnATerminal() throws {
        try importEvents([line(.exitSelected, daysAgo: 0)])
        let terminal = try TmuxTerminal.interactiveBash(home: home, environment: ["TZ": "UTC"])
        try terminal.enter("\(shellQuote(home.binary)) data delete")
        terminal.waitFor("[y/N]")
        try terminal.enter("n")
        terminal.waitFor("Nothing deleted.")
        XCTAssertEqual(try home.events().count, 1)
        terminal.waitForPrompt("$ ")
        try terminal.enter("\(shellQuote(home.binary)) data delete")
        terminal.waitFor("[y/N]", count: 2)
        try terminal.enter("y")
        terminal.waitFor("Deleted 1 event and the rotation state.")
        XCTAssertEqual(try home.events().count, 0)
    }
}
