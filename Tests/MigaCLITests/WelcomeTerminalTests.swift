import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// The terminal welcome in a real terminal (tmux) at 80×24 and 40×10, and in plain mode, as a
/// person picks apps, sites and the pause with one key each.
///
/// The welcome runs through the hidden `miga welcome-try`, which prints the choice instead of
/// applying it, on an offer given by flags (as if found). Once `miga setup` runs the welcome,
/// these drive `miga setup` with desktop entries in a temporary XDG_DATA_DIRS and read
/// config.toml instead.
final class WelcomeTerminalTests: XCTestCase {
    var home: MigaHome!

    override func setUpWithError() throws {
        home = try MigaHome()
    }

    var welcome: String {
        [shellQuote(home.binary), "welcome-try", "--app", "discord=Discord", "--app", "slack=Slack", "--app", "telegram-desktop=Telegram",
         "--site", "reddit.com*", "--site", "youtube.com/shorts*", "--site", "x.com", "--site", "twitch.tv", "--site", "news.ycombinator.com"]
            .joined(separator: " ")
    }

    /// Every row of the pane fits its width, and the keys to go on are on screen.
    func assertFits(_ terminal: TmuxTerminal, columns: Int, keys: String, file: StaticString = #filePath, line: UInt = #line) {
        let screen = terminal.waitFor(keys, file: file, line: line)
        for row in screen.split(separator: "\n") {
            XCTAssertLessThanOrEqual(DisplayWidth.of(String(row)), columns, "too wide: \(row)", file: file, line: line)
        }
    }

    func testChoosingAppsASiteAndThePauseAt80x24() throws {
        let terminal = try TmuxTerminal(home: home, command: welcome, environment: home.environment(), columns: 80, rows: 24)
        let about = terminal.waitFor("miga setup · 1 of 3")
        XCTAssertTrue(about.contains("miga puts a short pause in front of the apps and sites you choose."), about)
        XCTAssertEqual(terminal.display("#{alternate_on}"), "1")
        try terminal.press("Enter")
        let list = terminal.waitFor("What pulls you in?")
        for expected in ["1 [x] Discord", "2 [x] Slack", "3 [x] Telegram", "4 [x] reddit.com", "5 [x] youtube.com/shorts", "6 [ ] x.com",
                         "8 [ ] news.ycombinator.com", "1–8 choose · + other app · Enter next · b back · q leave"] {
            XCTAssertTrue(list.contains(expected), "missing \(expected) in\n\(list)")
        }
        try terminal.press("3", "4", "6")
        terminal.waitFor("6 [x] x.com")
        try terminal.press("+")
        terminal.waitFor("App name: _")
        try terminal.press("-l", "signal-desktop")
        terminal.waitFor("App name: signal-desktop_")
        try terminal.press("Enter")
        terminal.waitFor("4 [x] signal-desktop")
        try terminal.press("Enter")
        terminal.waitFor("Timer: 30 s (15–45)")
        try terminal.press("+", "+", "1")
        terminal.waitFor("Timer: 40 s")
        terminal.waitFor("1 [ ] Pause when I come back after 10 minutes")
        try terminal.press("Enter")
        let after = terminal.waitFor("STATUS=0")
        XCTAssertTrue(after.contains("CHOICE: apps=discord,slack,signal-desktop sites=youtube.com/shorts,x.com timer=40 reentry=0 extra="), after)
        terminal.assertTerminalRestored()
    }

    /// At 40×10 the list scrolls; each screen keeps its keys on screen, and a key for a site
    /// below the fold brings it into view ticked.
    func testTheSmallTerminalScrollsAndKeepsTheKeys() throws {
        let terminal = try TmuxTerminal(home: home, command: welcome, environment: home.environment(["NO_COLOR": "1"]), columns: 40, rows: 10)
        assertFits(terminal, columns: 40, keys: "Enter next · q leave")
        try terminal.press("Enter")
        assertFits(terminal, columns: 40, keys: "Enter next · b back")
        let top = terminal.screen()
        XCTAssertTrue(top.contains("↓ more below"), top)
        XCTAssertFalse(top.contains("news.ycombinator.com"), top)
        try terminal.press("8")
        let revealed = terminal.waitFor("8 [x] news.ycombinator.com")
        XCTAssertTrue(revealed.contains("↑ more above"), revealed)
        XCTAssertFalse(terminal.recordedColours(), "NO_COLOR")
        try terminal.press("Up", "Up", "Up", "Up", "Up", "Up", "Up", "Up", "Up", "Up")
        terminal.waitFor("1 [x] Discord")
        try terminal.press("Enter")
        assertFits(terminal, columns: 40, keys: "Enter set up")
        try terminal.press("Escape")
        terminal.waitFor("What pulls you in?")
        // A larger window (SIGWINCH): the frame is laid out again, the keys on one row.
        try terminal.tmux(["resize-window", "-t", "t", "-x", "100", "-y", "30"])
        terminal.waitFor("1–8 choose · + other app · Enter next · b back · q leave")
        try terminal.press("Enter", "Enter")
        let after = terminal.waitFor("STATUS=0")
        XCTAssertTrue(after.contains("CHOICE: apps=discord,slack,telegram-desktop sites=reddit.com,youtube.com/shorts,news.ycombinator.com"), after)
        terminal.assertTerminalRestored()
    }

    func testQAndCtrlCLeaveWithoutAChoiceAndGiveTheTerminalBack() throws {
        for key in ["q", "C-c"] {
            let terminal = try TmuxTerminal(home: home, command: welcome, environment: home.environment(), columns: 80, rows: 24)
            terminal.waitFor("miga setup · 1 of 3")
            try terminal.press("Enter")
            terminal.waitFor("What pulls you in?")
            try terminal.press("1", key)
            let after = terminal.waitFor("STATUS=0")
            XCTAssertTrue(after.contains("CHOICE: none"), "\(key): \(after)")
            terminal.assertTerminalRestored()
        }
    }

    /// Ctrl-Z gives the shell a sane terminal; `fg` draws the welcome again, where it was.
    func testCtrlZAndFgComeBackToTheSameScreen() throws {
        let terminal = try TmuxTerminal.interactiveBash(home: home)
        try terminal.enter(welcome)
        terminal.waitFor("miga setup · 1 of 3")
        try terminal.press("Enter", "2")
        terminal.waitFor("2 [ ] Slack")
        try terminal.press("C-z")
        terminal.waitFor("Stopped")
        terminal.waitForPrompt("$ ")
        XCTAssertEqual(terminal.display("#{alternate_on} #{cursor_flag}"), "0 1")
        try terminal.enter("fg")
        terminal.waitFor("2 [ ] Slack")
        try terminal.press("Enter", "Enter")
        terminal.waitFor("CHOICE: apps=discord,telegram-desktop")
        try terminal.printSettings()
        terminal.assertTerminalRestored()
    }

    /// TERM=dumb (a screen reader's terminal): numbered lines and a readline prompt.
    func testPlainModeForScreenReaders() throws {
        let terminal = try TmuxTerminal(home: home, command: welcome, environment: home.environment(["TERM": "dumb"]), columns: 80, rows: 24)
        terminal.waitForPrompt("Enter to go on, q to leave > ")
        XCTAssertEqual(terminal.display("#{alternate_on}"), "0", "plain mode never switches screens")
        try terminal.press("Enter")
        let list = terminal.waitFor("8 (off) news.ycombinator.com")
        XCTAssertTrue(list.contains("1 (on) Discord") && list.contains("4 (on) reddit.com"), list)
        terminal.waitForPrompt("Numbers to switch, a name to add an app, Enter to go on, b back, q leave > ")
        try terminal.enter("3 4 6")
        terminal.waitFor("Chosen: Discord, Slack, youtube.com/shorts, x.com")
        try terminal.press("Enter")
        terminal.waitForPrompt("A number, Enter to set up, b back, q leave > ")
        try terminal.enter("25")
        terminal.waitFor("Timer: 25 s")
        try terminal.press("Enter")
        let after = terminal.waitFor("STATUS=0")
        XCTAssertTrue(after.contains("CHOICE: apps=discord,slack sites=youtube.com/shorts,x.com timer=25 reentry=10"), after)
        terminal.assertTerminalRestored()
    }
}

private extension TmuxTerminal {
    /// Whether the program drew in colour (an SGR colour code in what the pane shows).
    func recordedColours() -> Bool {
        let captured = (try? tmux(["capture-pane", "-p", "-e", "-t", "t"])) ?? ""
        return captured.contains("\u{1B}[32m")
    }
}
