import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// Plain mode (TERM=dumb or --plain): line-by-line output and a readline prompt, for screen
/// readers and dumb terminals, in a real terminal.
final class PlainModeTests: XCTestCase {
    var home: MigaHome!

    static let prompt = "Choose: e = Exit, n = Read Next, o = Open > "

    override func setUpWithError() throws {
        home = try MigaHome()
        try home.writeConfig("timer_seconds = 15\n")
    }

    func testExitDuringTheCountdownWithPlainFlag() throws {
        let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) gate --plain --app chat -- \(shellQuote(home.recorder)) x",
                                        environment: home.environment())
        let screen = terminal.waitFor("Open unlocks in 15 s")
        XCTAssertTrue(screen.contains("miga · chat"), screen)
        XCTAssertEqual(terminal.display("#{alternate_on}"), "0", "plain mode never switches screens")
        try terminal.enter("e")
        let after = terminal.waitFor("STATUS=0")
        XCTAssertTrue(after.contains("first exit in the last 7 days"), after)
        terminal.assertTerminalRestored()
        XCTAssertNil(home.recordedArguments())
        XCTAssertEqual(try home.events().map(\.type), [.sessionStart, .exitSelected])
    }

    /// Two Exits in a row, with an Exit yesterday: the second line is not the first again
    /// (the celebration takes turns among what is true), and says the two-day run.
    func testTheNextExitHearsAnotherTrueLine() throws {
        let yesterday = Int64(Date().timeIntervalSince1970 * 1000) - 86_400_000
        try EventStore(path: home.database).record(Event(timestamp: yesterday, utcOffsetMinutes: 0, session: "y", type: .exitSelected, app: "chat"))
        var lines: [String] = []
        for _ in 0..<2 {
            let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) gate --plain --app chat -- true",
                                            environment: home.environment(["TZ": "UTC"]))
            terminal.waitFor("Open unlocks in 15 s")
            try terminal.enter("e")
            let after = terminal.waitFor("STATUS=0")
            lines.append(after)
        }
        XCTAssertTrue(lines[0].contains("You chose not to open it. That's your 2nd exit in the last 7 days."), lines[0])
        XCTAssertTrue(lines[1].contains("Not this time. That's 2 days in a row with an Exit."), lines[1])
        XCTAssertFalse(lines[1].contains("exit in the last 7 days"), lines[1])
    }

    func testReadNextOpenLockedThenReadlinePromptOpens() throws {
        let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) gate --app chat -- \(shellQuote(home.recorder)) 'a b' ''",
                                        environment: home.environment(["TERM": "dumb"]))
        terminal.waitFor("Open unlocks in 15 s")
        try terminal.enter("o")
        terminal.waitFor("Take this moment; Exit is always free.")
        XCTAssertNil(home.recordedArguments())
        try terminal.enter("n")
        try eventually("a content_read event") { try home.events().contains { $0.type == .contentRead } }

        let ready = terminal.waitFor(Self.prompt, timeout: 40)
        XCTAssertTrue(ready.contains("10 s…") && ready.contains("5 s…") && ready.contains("Ready."), ready)
        terminal.waitForPrompt(Self.prompt)
        try terminal.enter("n")
        try eventually("a second content_read") { try home.events().filter { $0.type == .contentRead }.count == 2 }
        terminal.waitForPrompt(Self.prompt)
        try terminal.enter("o")
        terminal.waitFor("STATUS=0")
        terminal.assertTerminalRestored()

        XCTAssertEqual(home.recordedArguments(), ["a b", ""])
        let events = try home.events()
        XCTAssertEqual(events.map(\.type), [.sessionStart, .contentRead, .gatewayCompleted, .contentRead, .openSelected])
        let shown = events.compactMap(\.contentID)
        XCTAssertEqual(shown.count, 3)
        guard shown.count == 3 else { return } // reported above; indexing would crash the run
        XCTAssertNotEqual(shown[0], shown[1])
        XCTAssertNotEqual(shown[1], shown[2])
    }

    func testCtrlZSuspendsAndFgResumes() throws {
        let terminal = try TmuxTerminal.interactiveBash(home: home, environment: ["TERM": "dumb"])
        try terminal.enter("\(shellQuote(home.binary)) gate --app chat -- \(shellQuote(home.recorder)) x")
        terminal.waitFor("Open unlocks in 15 s")
        try terminal.press("C-z")
        terminal.waitFor("Stopped")
        terminal.waitForPrompt("$ ")
        try terminal.enter("fg")
        // The gate runs again once it counts on: its next line comes after the shell's `fg`.
        // (Typed before, the line would wait for it in the terminal's line mode, but the
        // shell's line editor may still hold the terminal, and nothing would echo it.)
        eventually("the countdown going on after fg; the screen:\n\(terminal.screen())") {
            terminal.screen().components(separatedBy: "$ fg").last?.contains("10 s…") == true
        }
        try terminal.enter("e")
        terminal.waitFor("exit in the last 7 days")
        XCTAssertNil(home.recordedArguments())
        XCTAssertEqual(try home.events().map(\.type), [.sessionStart, .exitSelected])
    }

    /// At the readline prompt: Ctrl-Z suspends and `fg` brings the prompt back; Ctrl-C is Exit.
    func testCtrlZAndCtrlCAtThePrompt() throws {
        let terminal = try TmuxTerminal.interactiveBash(home: home, environment: ["TERM": "dumb"])
        try terminal.enter("\(shellQuote(home.binary)) gate --app chat -- \(shellQuote(home.recorder)) x")
        terminal.waitForPrompt(Self.prompt, timeout: 40)
        try terminal.suspendAndResume(at: Self.prompt, typed: "o")
        try terminal.press("C-c")
        terminal.waitFor("exit in the last 7 days")
        XCTAssertNil(home.recordedArguments(), "the half-typed o was not an Open")
        XCTAssertEqual(try home.events().map(\.type), [.sessionStart, .gatewayCompleted, .exitSelected])
    }

    /// Without libreadline (loaded only for this prompt) plain mode still asks and answers:
    /// lines come from the terminal's own line editing, Ctrl-C is still Exit.
    func testThePromptWorksWithoutLibreadline() throws {
        let terminal = try TmuxTerminal.interactiveBash(home: home, environment: ["MIGA_LIBREADLINE": "libmiga-missing.so.0"])
        try terminal.enter("\(shellQuote(home.binary)) gate --plain --app chat -- \(shellQuote(home.recorder)) x")
        terminal.waitForPrompt(Self.prompt, timeout: 40)
        try terminal.type("x")
        try terminal.press("BSpace")
        try terminal.enter("n")
        try eventually("a content_read event") { try home.events().contains { $0.type == .contentRead } }
        terminal.waitForPrompt(Self.prompt)
        try terminal.type("o")
        try terminal.press("C-c")
        terminal.waitFor("exit in the last 7 days")
        terminal.waitForPrompt("$ ")
        try terminal.enter("echo STATUS=$?")
        terminal.waitFor("STATUS=0")
        XCTAssertNil(home.recordedArguments(), "the half-typed o was not an Open")
        XCTAssertEqual(try home.events().map(\.type), [.sessionStart, .gatewayCompleted, .contentRead, .exitSelected])
    }

    /// Ctrl-C in plain mode is an Exit, and the line after it says what it was: not opened,
    /// the day's count of exits; never "you chose something else" (no alternative was chosen).
    func testCtrlCIsWordedAsTheExitItWas() throws {
        let earlier = Int64(Date().timeIntervalSince1970 * 1000) - 1000
        for index in 0..<4 {
            try EventStore(path: home.database).record(Event(timestamp: earlier - Int64(index), utcOffsetMinutes: 0, session: "e\(index)",
                                                             type: .exitSelected, app: "chat"))
        }
        // The line after `best` takes its turn: today's count.
        let state = home.home + "/.local/state/miga"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        try "best".write(toFile: state + "/celebration-last", atomically: false, encoding: .utf8)
        let terminal = try TmuxTerminal.interactiveBash(home: home, environment: ["TZ": "UTC"])
        try terminal.enter("\(shellQuote(home.binary)) gate --plain --app chat -- \(shellQuote(home.recorder)) x")
        terminal.waitFor("Open unlocks in 15 s")
        try terminal.press("C-c")
        terminal.waitFor("time today.")
        terminal.waitForPrompt("$ ")
        try terminal.enter("echo STATUS=$?")
        let after = terminal.waitFor("STATUS=0")
        XCTAssertTrue(after.contains("Not opened, for the 5th time today."), after)
        XCTAssertFalse(after.contains("something else"), after)
        XCTAssertNil(home.recordedArguments())
        XCTAssertEqual(try home.events().last?.type, .exitSelected)
    }

    func testEndOfInputIsExit() throws {
        let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) gate --plain --app chat -- \(shellQuote(home.recorder))",
                                        environment: home.environment())
        terminal.waitFor("Open unlocks in 15 s")
        try terminal.press("C-d")
        terminal.waitFor("STATUS=0")
        XCTAssertNil(home.recordedArguments())
        XCTAssertEqual(try home.events().map(\.type), [.sessionStart, .exitSelected])
    }

    /// readline reads ~/.inputrc as it starts, with a blocking open: a FIFO there held the
    /// prompt, and so the app, for good. Now the gate says so and asks without it.
    func testAFIFOAtReadlinesInitFileNeitherHoldsThePromptNorTheApp() throws {
        let inputrc = home.home + "/.inputrc"
        XCTAssertEqual(mkfifo(inputrc, 0o600), 0)
        let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) gate --plain --app chat -- \(shellQuote(home.recorder)) x",
                                        environment: home.environment())
        terminal.waitForPrompt(Self.prompt, timeout: 40)
        XCTAssertTrue(terminal.screen().contains("readline's settings not read: \(inputrc): it is a FIFO"), terminal.screen())
        try terminal.enter("o")
        terminal.waitFor("STATUS=0")
        XCTAssertEqual(home.recordedArguments(), ["x"])
        var info = stat()
        XCTAssertTrue(lstat(inputrc, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the FIFO is left as it was")
    }
}
