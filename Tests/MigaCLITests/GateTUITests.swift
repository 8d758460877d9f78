import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// The full-screen gateway, driven through a real terminal (tmux) with the built binary.
final class GateTUITests: XCTestCase {
    var home: MigaHome!
    /// Drawn only by the celebration's frames.
    static let sparkle = "✦"

    override func setUpWithError() throws {
        home = try MigaHome()
        try home.writeConfig("timer_seconds = 15\n")
    }

    /// Starts `miga gate --app discord -- recorder ARGS` in a terminal.
    func startGate(_ arguments: [String] = ["--flag"], extra: [String: String] = [:], prefix: String = "") throws -> TmuxTerminal {
        let command = "\(prefix)\(shellQuote(home.binary)) gate --app discord -- \(shellQuote(home.recorder)) "
            + arguments.map(shellQuote).joined(separator: " ")
        let terminal = try TmuxTerminal(home: home, command: command, environment: home.environment(extra))
        terminal.waitFor("[e] Exit")
        // The gate writes its first events just after the first frame, never before it.
        try eventually("session_start recorded") { try home.events().last?.type == .sessionStart }
        return terminal
    }

    /// A gate never waits on another process: with another program in the middle of writing
    /// to the database (sqlite3 holding its write lock), the gate draws at once, takes the
    /// Exit at once, and its events wait in the spool until a later miga folds them in.
    func testTheGateNeverWaitsForTheDatabasesWriteLock() throws {
        _ = try home.miga(["gate", "--app", "discord", "--", "/bin/true"]) // creates the database
        let before = try home.events().count
        let (locker, released) = try home.lockDatabase("BEGIN IMMEDIATE; INSERT INTO rotation_shown (content_id) VALUES ('held');", for: 60)
        defer { kill(-locker.pid, SIGKILL); _ = locker.wait() }
        let command = "\(shellQuote(home.binary)) gate --app discord -- \(shellQuote(home.recorder))"
        let terminal = try TmuxTerminal(home: home, command: command, environment: home.environment())
        terminal.waitFor("[e] Exit", timeout: 3.5)
        try terminal.press("e")
        terminal.waitFor("STATUS=0", timeout: 3.5)
        XCTAssertFalse(FileManager.default.fileExists(atPath: released), "the gate waited for the lock")
        XCTAssertFalse(terminal.screen().contains("could not record"), terminal.screen())
        XCTAssertEqual(try home.events().count, before, "nothing could be written while the lock was held")
        kill(-locker.pid, SIGKILL) // sqlite3 gone: its transaction rolls back, the lock is free
        _ = locker.wait()
        XCTAssertEqual(try home.events().dropFirst(before).map(\.type), [.sessionStart, .exitSelected],
                       "the next miga to open the database folded the spooled events in")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: home.home + "/.local/share/miga/spool"), [])
    }

    /// The seconds left in "Open in N s" on `screen`. A test reads the screen some time after
    /// the gate drew it (seconds, on a busy machine), so callers allow for that much less.
    func secondsLeft(_ screen: String) -> Int? {
        guard let range = screen.range(of: #"Open in \d+ s"#, options: .regularExpression) else { return nil }
        return Int(screen[range].dropFirst("Open in ".count).dropLast(2))
    }

    func testExitJourney() throws {
        try home.writeConfig("timer_seconds = 15\n\n[apps.discord]\ntimer_seconds = 40\n")
        let terminal = try startGate()
        let screen = terminal.screen()
        XCTAssertTrue(screen.contains("miga · discord"), screen)
        XCTAssertTrue((16...40).contains(secondsLeft(screen) ?? 0), "the app's own timer (40 s), not the global 15 s:\n\(screen)")
        XCTAssertTrue(screen.contains("Breathe in"), "breathing cue shown:\n\(screen)")
        let shownID = try XCTUnwrap(home.events().first?.contentID)
        let shownItem = try XCTUnwrap(ContentLibrary.bundled().item(id: shownID))
        let firstWords = shownItem.text.split(separator: " ").prefix(3).joined(separator: " ")
        XCTAssertTrue(screen.contains(firstWords), "the recorded item (\(shownID)) is the one on screen:\n\(screen)")

        let output = try terminal.recordOutput()
        try terminal.press("e")
        terminal.waitFor("exit in the last 7 days")
        let after = terminal.waitFor("STATUS=0")
        eventually("the whole run in the output") { output().contains("STATUS=0") }
        XCTAssertTrue(output().contains(Self.sparkle), "the celebration plays on Exit")
        XCTAssertTrue(after.contains("That's your first exit"), after)
        terminal.assertTerminalRestored()

        XCTAssertNil(home.recordedArguments(), "Exit must not run the app")
        let events = try home.events()
        XCTAssertEqual(events.map(\.type), [.sessionStart, .exitSelected])
        XCTAssertEqual(Set(events.map(\.session)).count, 1)
        XCTAssertEqual(events.map(\.app), ["discord", "discord"])
        guard events.count == 2 else { return }
        let wait = try XCTUnwrap(events[1].waitMilliseconds)
        XCTAssertTrue((0..<15_000).contains(wait), "wait_ms \(wait)")
    }

    func testReadNextThenOpenLockedThenOpenAfterCountdownWithExactArguments() throws {
        let arguments = ["--flag", "two words", "", "-", "--", "ünïcødé ✓ 宽", "\"quoted\" 'single'", "$HOME", "a\\b", "*", " lead"]
        // Started as `nohup` would start it: the app must get SIGHUP ignored, as miga got it,
        // although the gate handles SIGHUP (and ignores SIGPIPE) itself; `sed` records what
        // the shell hands any program it starts.
        let withoutMiga = home.root + "/ignored-without-miga"
        let runtime = home.root + "/run"
        let terminal = try startGate(arguments, extra: ["XDG_RUNTIME_DIR": runtime],
                                     prefix: "trap '' HUP; sed -n 's/^SigIgn:[[:space:]]*//p' /proc/self/status > \(shellQuote(withoutMiga)); ")
        let first = try XCTUnwrap(home.events().first?.contentID)

        try terminal.press("n")
        try eventually("a content_read event") { try home.events().contains { $0.type == .contentRead } }
        let second = try XCTUnwrap(home.events().first { $0.type == .contentRead }?.contentID)
        XCTAssertNotEqual(first, second, "Read Next shows another item")

        try terminal.press("o")
        let locked = terminal.waitFor("Open unlocks in")
        XCTAssertNil(home.recordedArguments(), "Open is locked during the countdown")
        // The notice counts down with the bar, never a number that has stopped being true.
        let left = Int(locked.components(separatedBy: "Open unlocks in ").dropFirst().first?.prefix { $0.isNumber } ?? "") ?? 0
        if left > 1 { terminal.waitFor("Open unlocks in \(left - 1) s") }

        // The countdown's own "ready" at the end of a full bar: several items say "already".
        terminal.waitFor("━  ready", timeout: 40)
        XCTAssertFalse(terminal.screen().contains("Open unlocks in"), "the notice goes once Open unlocks")
        try terminal.press("Enter")
        terminal.waitFor("STATUS=0")
        terminal.assertTerminalRestored()

        XCTAssertEqual(home.recordedArguments(), arguments, "argv reaches the app byte for byte")
        // The Open's grace, stamped for the PATH shim: it ends grace_minutes (5) from now.
        let until = try FileManager.default.attributesOfItem(atPath: runtime + "/miga/grace/discord.until")[.modificationDate] as? Date
        XCTAssertEqual(until?.timeIntervalSinceNow ?? 0, 300, accuracy: 30)
        XCTAssertTrue(home.recordedInfo()?.hasPrefix("gated=discord ") == true, home.recordedInfo() ?? "")
        let expected = try String(contentsOfFile: withoutMiga, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(UInt64(expected, radix: 16).map { $0 & 1 == 1 } ?? false, "SIGHUP ignored by the shell: \(expected)")
        XCTAssertEqual(home.recordedIgnoredSignals(), expected, "the app's ignored signals are the shell's, not miga's")
        let events = try home.events()
        XCTAssertEqual(events.map(\.type), [.sessionStart, .contentRead, .gatewayCompleted, .openSelected])
        guard events.count == 4 else { return } // reported above; indexing would crash the run
        XCTAssertEqual(events[0].contentID, first)
        XCTAssertEqual(events[1].contentID, second)
        let wait = try XCTUnwrap(events[3].waitMilliseconds)
        XCTAssertGreaterThanOrEqual(wait, 15_000)
    }

    func testCtrlCIsExit() throws {
        let terminal = try startGate()
        try terminal.press("C-c")
        terminal.waitFor("STATUS=0")
        terminal.assertTerminalRestored()
        XCTAssertNil(home.recordedArguments())
        XCTAssertEqual(try home.events().map(\.type), [.sessionStart, .exitSelected])
    }

    func testEscIsExitAndReducedMotionSkipsTheCelebration() throws {
        try home.writeConfig("timer_seconds = 15\nanimations = false\nbreathing = \"off\"\n")
        let terminal = try startGate(extra: ["NO_COLOR": "1"])
        let cueLines = terminal.screen().split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { line in ["Breathe in", "Hold", "Breathe out"].contains { line.hasPrefix($0) && line.count <= $0.count + 5 } }
        XCTAssertEqual(cueLines, [], "breathing = off hides the cue")
        let output = try terminal.recordOutput()
        try terminal.press("Escape")
        let after = terminal.waitFor("STATUS=0")
        XCTAssertTrue(after.contains("exit in the last 7 days"), after)
        eventually("the whole run in the output") { output().contains("STATUS=0") }
        XCTAssertFalse(output().contains(Self.sparkle), "animations = false: no celebration frames")
        XCTAssertEqual(try home.events().map(\.type), [.sessionStart, .exitSelected])
    }

    /// The gate's process, found by the unique first argument it was started with.
    func gatePID(_ marker: String) throws -> pid_t {
        let pids = try home.run("/usr/bin/pgrep", ["-f", "gate --app discord -- \(home.recorder) \(marker)"]).stdout
        return try XCTUnwrap(Int32(pids.split(separator: "\n").first ?? ""), "gate pid from: \(pids)")
    }

    func testClosingTheTerminalRecordsAbandonedAndNeverOpens() throws {
        let terminal = try startGate(["hangup-test"])
        let pid = try gatePID("hangup-test")
        try terminal.tmux(["kill-server"]) // the window closes: SIGHUP
        try eventually("an abandoned event") { try home.events().contains { $0.type == .abandoned } }
        XCTAssertEqual(try home.events().map(\.type), [.sessionStart, .abandoned])
        // Had the gate run the app, it would have become the app (exec), which writes its
        // arguments before it ends: once the process is gone, no file means it never ran.
        eventually("the gate to end") { processEnded(pid) }
        XCTAssertNil(home.recordedArguments(), "a closed window never opens the app")
    }

    func testSIGTERMRecordsAbandonedAndRestoresTheTerminal() throws {
        let terminal = try startGate(["sigterm-test"])
        kill(try gatePID("sigterm-test"), SIGTERM)
        try eventually("an abandoned event") { try home.events().contains { $0.type == .abandoned } }
        let screen = terminal.waitFor("STATUS=")
        XCTAssertTrue(screen.contains("STATUS=143"), "dies by SIGTERM, as the shell sees it:\n\(screen)")
        terminal.assertTerminalRestored()
        XCTAssertNil(home.recordedArguments())
        XCTAssertEqual(try home.events().map(\.type), [.sessionStart, .abandoned])
    }

    /// A crash (here a SIGSEGV sent from outside, which takes the same path) still gives the
    /// person their terminal back, and the process still dies of the signal.
    func testACrashRestoresTheTerminal() throws {
        // Without Swift's backtracer (slow to symbolicate in a debug build) the default action follows.
        let terminal = try startGate(["crash-test"], extra: ["SWIFT_BACKTRACE": "enable=no"])
        kill(try gatePID("crash-test"), SIGSEGV)
        let screen = terminal.waitFor("STATUS=")
        XCTAssertTrue(screen.contains("STATUS=139"), "died of SIGSEGV:\n\(screen)")
        terminal.assertTerminalRestored()
        XCTAssertNil(home.recordedArguments())
    }

    /// `miga gate -- cmd | cat` and `< file`: the gate draws on the terminal itself (/dev/tty)
    /// and the pipes go to the app untouched.
    func testWithStdoutOrStdinAPipeTheGateDrawsOnTheTerminalAndTheAppGetsThePipes() throws {
        try home.writeFile("input.txt", "from a file\n")
        let command = "\(shellQuote(home.binary)) gate --app discord -- \(shellQuote(home.recorder)) piped < \(shellQuote(home.root + "/input.txt")) | cat"
        let terminal = try TmuxTerminal(home: home, command: command, environment: home.environment())
        terminal.waitFor("[e] Exit")
        terminal.waitFor("━  ready", timeout: 40)
        try terminal.press("Enter")
        terminal.waitFor("STATUS=0")
        XCTAssertEqual(home.recordedArguments(), ["piped"])
        let info = home.recordedInfo() ?? ""
        XCTAssertTrue(info.contains("stdin=\(home.root)/input.txt") && info.contains("stdout=pipe:"), info)
        XCTAssertEqual(try home.events().map(\.type), [.sessionStart, .gatewayCompleted, .openSelected])
        terminal.assertTerminalRestored()
    }

    /// Small terminals: whatever the size, one row keeps the keys and the seconds left; the
    /// article is what gets cut, with a sign that more is below; nothing runs off the screen.
    func testSmallTerminalsKeepTheKeysAndTheSecondsOnScreen() throws {
        try home.writeConfig("timer_seconds = 15\ncategories = [\"articles\"]\n")
        for (columns, rows, keys) in [(80, 13, "e exit · n next · o open · "), (40, 10, "e exit · n next · o open · "), (20, 5, "e/n/o ")] {
            let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) gate --app discord -- \(shellQuote(home.recorder))",
                                            environment: home.environment(), columns: columns, rows: rows)
            let screen = terminal.waitFor(keys)
            let rowsShown = screen.split(separator: "\n", omittingEmptySubsequences: false)
            XCTAssertTrue(rowsShown.contains { $0.contains(keys) && $0.range(of: #"\d+ ?s\b"#, options: .regularExpression) != nil },
                          "\(columns)×\(rows): the keys and the seconds:\n\(screen)")
            if rows <= 10 { // every article is longer than that
                XCTAssertTrue(screen.contains("↓"), "\(columns)×\(rows): a sign that more is below:\n\(screen)")
            }
            for row in rowsShown { XCTAssertLessThanOrEqual(DisplayWidth.of(String(row)), columns, "\(columns)×\(rows): \(row)") }
            let exits = try home.events().filter { $0.type == .exitSelected }.count
            try terminal.press("e")
            // (STATUS scrolls off so small a screen: the event says the gate ended.)
            try eventually("the Exit at \(columns)×\(rows)") { try home.events().filter { $0.type == .exitSelected }.count == exits + 1 }
        }
        XCTAssertEqual(try home.events().filter { $0.type == .exitSelected }.count, 3)
        XCTAssertNil(home.recordedArguments())
    }

    /// Under a locale that is not UTF-8 (`LANG=C`), the gate draws in ASCII: a terminal there
    /// would show box drawing and curly quotes as mojibake.
    func testWithoutAUTF8LocaleTheGateDrawsInASCII() throws {
        let terminal = try startGate(extra: ["LANG": "C", "LC_ALL": ""])
        let screen = terminal.waitFor("[e] Exit")
        let gate = screen.components(separatedBy: "STATUS=")[0]
        XCTAssertTrue(gate.unicodeScalars.allSatisfy { $0.isASCII }, "non-ASCII on a C-locale screen:\n\(gate)")
        XCTAssertTrue(gate.contains("==") || gate.contains("--"), "the countdown bar in ASCII:\n\(gate)")
        try terminal.press("e")
        terminal.waitFor("STATUS=0")
    }

    func testCtrlZSuspendsCleanlyAndFgResumes() throws {
        let terminal = try TmuxTerminal.interactiveBash(home: home)
        try terminal.enter("\(shellQuote(home.binary)) gate --app discord -- \(shellQuote(home.recorder)) x")
        func secondsLeft(_ screen: String) -> Int {
            Int(screen.components(separatedBy: "Open in ").dropFirst().first?.prefix { $0.isNumber } ?? "") ?? -1
        }
        let before = secondsLeft(terminal.waitFor("[e] Exit"))
        try terminal.press("C-z")
        terminal.waitFor("Stopped")
        terminal.waitForPrompt("$ ")
        // Time passes while the gate is stopped; it must not count toward the countdown.
        try terminal.enter("sleep 6; echo SLEPT")
        terminal.waitFor("SLEPT")
        terminal.waitForPrompt("$ ")
        XCTAssertEqual(terminal.display("#{alternate_on} #{cursor_flag}"), "0 1", "suspended: main screen, cursor back")
        try terminal.enter("stty -a | grep -o -- '-*icanon\\|-*echo ' | tr '\\n' ,; echo")
        let settings = terminal.waitFor("icanon,")
        XCTAssertTrue(settings.contains("icanon,echo ,") && !settings.contains("-icanon"), settings)

        terminal.waitForPrompt("$ ")
        try terminal.enter("fg")
        // A key pressed as soon as the gate is back must count (it once vanished in a second,
        // flushing switch to raw mode when the SIGCONT was handled after the redraw).
        eventually("the gateway to come back") { terminal.display("#{alternate_on}") == "1" && terminal.screen().contains("[e] Exit") }
        let after = secondsLeft(terminal.screen())
        XCTAssertGreaterThan(before, 8, "the 15 s countdown had just begun")
        XCTAssertGreaterThanOrEqual(after, before - 3, "suspended time was counted: \(before) s left before Ctrl-Z, \(after) s after fg")
        try terminal.press("e")
        eventually("back on the main screen") { terminal.display("#{alternate_on}") == "0" && terminal.screen().contains("exit in the last 7 days") }
        terminal.waitForPrompt("$ ")
        try terminal.enter("echo STATUS=$?")
        terminal.waitFor("STATUS=0")
        XCTAssertEqual(try home.events().map(\.type), [.sessionStart, .exitSelected])
    }

    func testMalformedConfigFailsOpenAtOnceInATerminalToo() throws {
        try home.writeConfig("timer_seconds = 15\ngrace_minutes = = 3\n")
        let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) gate --app discord -- \(shellQuote(home.recorder)) ok",
                                        environment: home.environment())
        let screen = terminal.waitFor("STATUS=0")
        XCTAssertTrue(screen.contains("config.toml:2:"), screen)
        XCTAssertTrue(screen.contains("opening discord without a pause"), screen)
        XCTAssertEqual(home.recordedArguments(), ["ok"])
        let events = try home.events()
        XCTAssertEqual(events.map(\.type), [.gatewaySkipped])
        XCTAssertEqual(events.first?.detail, #"{"reason":"config_error"}"#)
    }

    func testOutOfRangeTimerIsReportedAndClamped() throws {
        try home.writeConfig("timer_seconds = 50\n")
        let terminal = try startGate()
        let screen = terminal.screen()
        XCTAssertTrue((31...45).contains(secondsLeft(screen) ?? 0), "clamped to 45 s, not the default 30 s:\n\(screen)")
        try terminal.press("q")
        let after = terminal.waitFor("STATUS=0")
        XCTAssertTrue(after.contains("config.toml:1: timer_seconds = 50 is outside 15–45; using 45"), after)
    }

    func testResizeRelaysOut() throws {
        let terminal = try startGate()
        try terminal.tmux(["resize-window", "-t", "t", "-x", "44", "-y", "20"])
        eventually("a narrow layout") { terminal.screen().contains("[n] Read Next\n") || terminal.screen().split(separator: "\n").contains { $0.hasSuffix("[n] Read Next") } }
        for line in terminal.screen().split(separator: "\n") {
            XCTAssertLessThanOrEqual(DisplayWidth.of(String(line)), 44)
        }
        try terminal.press("e")
        terminal.waitFor("STATUS=0")
    }
}
