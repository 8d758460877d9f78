import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// `miga gate --app NAME --reentry` through the built binary, as the GNOME Shell extension's
/// watcher and `miga watch` run it: no command; the gate on the terminal (or the window),
/// recorded as a return; the answer on standard output, exit status 0 either way.
final class ReentryCLITests: XCTestCase, HabitsCase {
    var home: MigaHome!

    override func setUpWithError() throws {
        home = try MigaHome()
        try home.writeConfig("timer_seconds = 15\n[apps.chat]\ncommand = \"true\"\n")
    }

    /// The answer file of a gate run in tmux with its output redirected, as `sh -c` gives it.
    func runInTerminal(_ arguments: String) throws -> (terminal: TmuxTerminal, answer: String) {
        let answer = home.root + "/answer"
        let command = "\(shellQuote(home.binary)) gate \(arguments) > \(shellQuote(answer))"
        return (try TmuxTerminal(home: home, command: command, environment: home.environment(["TZ": "UTC"])), answer)
    }

    func testExitOnTheTerminalPrintsExitAndIsRecordedAsAReturn() throws {
        let (terminal, answer) = try runInTerminal("--app chat --reentry")
        terminal.waitFor("[e] Exit")
        try terminal.press("e")
        terminal.waitFor("STATUS=0")
        XCTAssertEqual(try String(contentsOfFile: answer, encoding: .utf8), "exit\n")
        let events = try home.events().filter { $0.type != .gatewayCompleted }
        XCTAssertEqual(events.map(\.type), [.sessionStart, .exitSelected])
        XCTAssertEqual(events.first?.detail, #"{"reentry":true}"#)
        XCTAssertNil(home.recordedInfo(), "a coming-back gate starts nothing")
    }

    func testOpenAfterTheCountdownPrintsOpen() throws {
        let (terminal, answer) = try runInTerminal("--app chat --reentry")
        terminal.waitFor("[e] Exit")
        terminal.waitFor("━  ready", timeout: 40)
        // Pressed once a second until the countdown has ended and Open takes it.
        try eventually(timeout: 40, "Open to be taken") {
            try terminal.press("o")
            usleep(1_000_000)
            return (try? String(contentsOfFile: answer, encoding: .utf8)) == "open\n"
        }
        terminal.waitFor("STATUS=0")
        XCTAssertEqual(try home.events().map(\.type).last, .openSelected)
    }

    /// A grace covers a return: `open` at once, no gate, no terminal needed.
    func testAGracePrintsOpenWithoutAGate() throws {
        try home.writeConfig("timer_seconds = 15\ngrace_minutes = 10\n[apps.chat]\ncommand = \"true\"\n")
        try importToday([(.sessionStart, "chat", 120, nil), (.openSelected, "chat", 60, nil)])
        let started = Date()
        let result = try home.miga(["gate", "--app", "chat", "--reentry"], environment: home.environment(["DISPLAY": ""]))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "open\n")
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
        XCTAssertEqual(try home.events().map(\.type).last, .gracePass)
        XCTAssertFalse(try home.events().contains { $0.type == .sessionStart && $0.detail != nil })
    }

    /// Nothing to show it on (no terminal, no display): `open`, said why, never a hang.
    func testNoWayToShowItPrintsOpen() throws {
        let result = try home.miga(["gate", "--app", "chat", "--reentry", "--window"],
                                   environment: home.environment(["DISPLAY": "", "WAYLAND_DISPLAY": ""]))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "open\n")
        XCTAssertTrue(result.stderr.contains("no gate window could show"), result.stderr)
    }

    /// miga's own failure (a broken config) answers `open`.
    func testABrokenConfigPrintsOpen() throws {
        try home.writeConfig("timer_seconds = [\n")
        let result = try home.miga(["gate", "--app", "chat", "--reentry"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "open\n")
    }

    func testUsageErrorsSayWhatToRun() throws {
        for (arguments, expected) in [(["gate", "--reentry"], "--reentry needs the app"),
                                      (["gate", "--app", "chat", "--reentry", "--", "true"], "--reentry runs nothing"),
                                      (["gate", "--app", "chat", "--window", "--", "true"], "--window is for a coming-back gate")] {
            let result = try home.miga(arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(expected), result.stderr)
            XCTAssertTrue(result.stderr.contains("miga gate --app NAME --reentry"), result.stderr)
            XCTAssertEqual(result.stdout, "")
        }
    }
}
