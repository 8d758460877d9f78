import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// `miga setup` of the built binary in a real terminal (tmux) at 80×24 and 40×10, and in plain
/// mode, as a person picks apps, sites and the pause with one key each; then what it did, read
/// back from config.toml (`miga config …`) and the shims.
///
/// The machine: Debian's desktop entries (real files from the fixtures: five chat apps, and
/// browsers that are never offered) as the system's, a Flatpak Discord in the person's home
/// and a Snap Telegram in a Snap folder on XDG_DATA_DIRS. Everything setup installs lands in
/// the temporary HOME: no XDG folder points out of it, GSettings is a keyfile there, and the
/// terminal's environment holds nothing else (no session bus).
final class WelcomeTerminalTests: XCTestCase {
    var home: MigaHome!

    override func setUpWithError() throws {
        home = try MigaHome()
        for name in try FileManager.default.contentsOfDirectory(atPath: Fixtures.path("desktop")) where name.hasSuffix(".desktop") {
            try home.writeFile("share/applications/" + name, try String(contentsOfFile: Fixtures.path("desktop/" + name), encoding: .utf8))
        }
        try home.writeFile("home/.local/share/flatpak/exports/share/applications/com.discordapp.Discord.desktop", """
            [Desktop Entry]
            Name=Discord
            Exec=/usr/bin/flatpak run --branch=stable --arch=x86_64 --command=com.discordapp.Discord com.discordapp.Discord
            Icon=com.discordapp.Discord
            Type=Application
            Categories=Network;InstantMessaging;

            """)
        try home.writeFile("home/.local/share/flatpak/exports/bin/com.discordapp.Discord", mode: 0o755, "#!/bin/sh\nexit 0\n")
        // Snap's own layout, under the temporary folder: its program stands where the entry says.
        try home.writeFile("snap/var/lib/snapd/desktop/applications/telegram-desktop_telegram-desktop.desktop", """
            [Desktop Entry]
            X-SnapInstanceName=telegram-desktop
            Name=Telegram Desktop
            Exec=env BAMF_DESKTOP_FILE_HINT=\(snapEntries)/applications/telegram-desktop_telegram-desktop.desktop \(home.root)/snap/bin/telegram-desktop -- %u
            Icon=/snap/telegram-desktop/6000/meta/gui/icon.png
            Type=Application
            Categories=Chat;Network;InstantMessaging;Qt;

            """)
        try home.writeFile("snap/bin/telegram-desktop", mode: 0o755, "#!/bin/sh\nexit 0\n")
        // A program the person types by name, and a browser (so the install's browser step shows
        // on any machine).
        try home.writeFile("bin/signal-desktop", mode: 0o755, "#!/bin/sh\nexit 0\n")
        try home.writeFile("bin/chromium", mode: 0o755, "#!/bin/sh\nexit 0\n")
    }

    var snapEntries: String { home.root + "/snap/var/lib/snapd/desktop" }

    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        home.environment(["XDG_DATA_DIRS": home.root + "/share:" + snapEntries,
                          "PATH": home.root + "/bin:/usr/local/bin:/usr/bin:/bin"].merging(extra) { $1 })
    }

    var setup: String { shellQuote(home.binary) + " setup" }

    func miga(_ arguments: String...) throws -> TestHome.Output {
        try home.miga(arguments, environment: environment())
    }

    /// The gated apps' names, as `miga config apps list` shows them.
    func gatedApps() throws -> [String] {
        let listed = try miga("config", "apps", "list")
        XCTAssertEqual(listed.status, 0, listed.stderr)
        return listed.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") && !$0.hasPrefix("No apps") }.map(String.init)
    }

    func gatedSites() throws -> [String] {
        try miga("config", "sites", "list").stdout.split(separator: "\n").map(String.init)
    }

    func setting(_ key: String) throws -> String {
        try miga("config", "get", key).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    var shims: String { home.home + "/.local/share/miga/bin" }

    /// Each app has its PATH shim; an app with a menu entry, the entry that goes through the gate.
    func assertShims(_ apps: [String], entries: [String: String], file: StaticString = #filePath, line: UInt = #line) throws {
        for app in apps {
            XCTAssertTrue(FileManager.default.isExecutableFile(atPath: shims + "/" + app), "no shim for \(app)", file: file, line: line)
        }
        for (app, id) in entries {
            let entry = try String(contentsOfFile: home.home + "/.local/share/applications/" + id, encoding: .utf8)
            XCTAssertTrue(entry.contains(" gate --app '\(app)' ") && entry.contains("X-Miga-Shim=true"), entry, file: file, line: line)
        }
    }

    /// Nothing chosen, nothing installed: no config.toml, no shim, no line in a shell's rc.
    func assertNothingChanged(file: StaticString = #filePath, line: UInt = #line) {
        for path in [home.configFile, shims, home.home + "/.bashrc", home.home + "/.config/autostart"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: path), "\(path) was written", file: file, line: line)
        }
    }

    /// The install that follows the welcome said what it did, all of it in the temporary HOME.
    func assertInstalledInHome(_ said: String, file: StaticString = #filePath, line: UInt = #line) {
        let lines = said.split(separator: "\n").map(String.init)
        guard let start = lines.firstIndex(of: "Installed:") else { return XCTFail("no install:\n\(said)", file: file, line: line) }
        let installed = lines[(start + 1)...].prefix { $0.hasPrefix("  ") }
        XCTAssertFalse(installed.isEmpty, said, file: file, line: line)
        for change in installed {
            XCTAssertTrue(change.contains(" ~/"), "outside the home: \(change)", file: file, line: line)
        }
    }

    /// Every row of the pane fits its width, and the keys to go on are on screen.
    func assertFits(_ terminal: TmuxTerminal, columns: Int, keys: String, file: StaticString = #filePath, line: UInt = #line) {
        let screen = terminal.waitFor(keys, file: file, line: line)
        for row in screen.split(separator: "\n") {
            XCTAssertLessThanOrEqual(DisplayWidth.of(String(row)), columns, "too wide: \(row)", file: file, line: line)
        }
    }

    func testChoosingAppsASiteAndThePauseAt80x24() throws {
        let terminal = try TmuxTerminal(home: home, command: setup, environment: environment(), columns: 80, rows: 24)
        let about = terminal.waitFor("miga setup · 1 of 3")
        XCTAssertTrue(about.contains("miga puts a short pause in front of the apps and sites you choose."), about)
        XCTAssertEqual(terminal.display("#{alternate_on}"), "1")
        try terminal.press("Enter")
        let list = terminal.waitFor("What pulls you in?")
        // The apps found, by their own names, ticked; never a browser; the sites after them.
        for expected in ["1 [x] Dino", "2 [x] Discord", "3 [x] HexChat", "4 [x] Mumble", "5 [x] nheko", "6 [x] Pidgin",
                         "7 [x] Telegram Desktop", "8 [x] reddit.com", "9 [x] youtube.com", "a [x] youtube.com/shorts",
                         "1–i choose · + other app · Enter next · b back · q leave"] {
            XCTAssertTrue(list.contains(expected), "missing \(expected) in\n\(list)")
        }
        XCTAssertFalse(list.contains("Chromium") || list.contains("Firefox") || list.contains("Thunderbird"), list)
        // HexChat, Mumble and nheko off, reddit.com off, linkedin.com (below the fold) on.
        try terminal.press("3", "4", "5", "8", "g")
        terminal.waitFor("g [x] linkedin.com")
        try terminal.press("+")
        terminal.waitFor("App name: _")
        try terminal.press("-l", "signal-desktop")
        terminal.waitFor("App name: signal-desktop_")
        try terminal.press("Enter")
        terminal.waitFor("8 [x] signal-desktop")
        try terminal.press("Enter")
        terminal.waitFor("Timer: 30 s (15–45)")
        try terminal.press("+", "+", "1")
        terminal.waitFor("Timer: 40 s")
        terminal.waitFor("1 [ ] Pause when I come back after 10 minutes")
        try terminal.press("Enter")
        let said = terminal.waitForEnd()
        XCTAssertTrue(said.contains("signal-desktop is paused: it runs signal-desktop after the pause."), said)
        assertInstalledInHome(said)
        terminal.assertTerminalRestored()

        XCTAssertEqual(try gatedApps(), ["dino-im", "discord", "pidgin", "signal-desktop", "telegram"])
        XCTAssertEqual(try gatedSites(), ["youtube.com", "youtube.com/shorts", "x.com", "instagram.com", "facebook.com", "tiktok.com",
                                          "linkedin.com"])
        XCTAssertEqual(try setting("timer_seconds"), "40")
        XCTAssertEqual(try setting("reentry_minutes"), "0")
        try assertShims(["dino-im", "discord", "pidgin", "signal-desktop", "telegram"],
                        entries: ["pidgin": "pidgin.desktop", "discord": "com.discordapp.Discord.desktop",
                                  "telegram": "telegram-desktop_telegram-desktop.desktop"])
        let apps = try miga("config", "apps", "list").stdout
        XCTAssertTrue(apps.contains("discord\n  command       \(home.home)/.local/share/flatpak/exports/bin/com.discordapp.Discord\n"), apps)
        XCTAssertTrue(apps.contains("telegram\n  command       \(home.root)/snap/bin/telegram-desktop\n"), apps)
    }

    /// At 40×10 the list scrolls; each screen keeps its keys on screen, and a key for a site
    /// below the fold brings it into view ticked. What the install then says can be read there
    /// too: on the main screen, whole in its scrollback, the browser's clicks last.
    func testTheSmallTerminalScrollsAndKeepsTheKeys() throws {
        let terminal = try TmuxTerminal(home: home, command: setup, environment: environment(["NO_COLOR": "1"]), columns: 40, rows: 10)
        assertFits(terminal, columns: 40, keys: "Enter next · q leave")
        try terminal.press("Enter")
        assertFits(terminal, columns: 40, keys: "Enter next · b back")
        let top = terminal.screen()
        XCTAssertTrue(top.contains("↓ more below"), top)
        XCTAssertFalse(top.contains("news.ycombinator.com"), top)
        try terminal.press("i")
        let revealed = terminal.waitFor("i [x] news.ycombinator.com")
        XCTAssertTrue(revealed.contains("↑ more above"), revealed)
        XCTAssertFalse(terminal.recordedColours(), "NO_COLOR")
        try terminal.press("Home")
        terminal.waitFor("1 [x] Dino")
        try terminal.press("Enter")
        assertFits(terminal, columns: 40, keys: "Enter set up")
        try terminal.press("Escape")
        terminal.waitFor("What pulls you in?")
        // A larger window (SIGWINCH): the frame is laid out again, the keys on one row; and
        // back to the small one to set up there.
        try terminal.tmux(["resize-window", "-t", "t", "-x", "100", "-y", "30"])
        terminal.waitFor("1–i choose · + other app · Enter next · b back · q leave")
        try terminal.tmux(["resize-window", "-t", "t", "-x", "40", "-y", "10"])
        assertFits(terminal, columns: 40, keys: "Enter next · b back")
        try terminal.press("Enter", "Enter")
        let said = terminal.waitForEnd()
        // Last, just above the shell's next line: the browsers' clicks.
        let end = said.components(separatedBy: "\nSTATUS=0")[0].split(separator: "\n").last ?? ""
        XCTAssertTrue(end.hasSuffix("(for private windows)"), said)
        XCTAssertTrue(said.contains("So sites pause in Chromium too:\n  chrome://extensions → Developer mode → Load unpacked → "), said)
        for expected in ["discord is paused: it runs \(home.home)/.local/share/flatpak/exports/bin/com.discordapp.Discord after the pause.",
                         "news.ycombinator.com is paused: links to it pause first.", "reentry_minutes = 10"] {
            XCTAssertTrue(said.contains(expected), "missing \(expected) in\n\(said)")
        }
        XCTAssertFalse(said.contains("\u{1B}"), said)
        assertInstalledInHome(said)
        // Its settings line is longer than this small screen: read them in a larger one.
        try terminal.tmux(["resize-window", "-t", "t", "-x", "100", "-y", "30"])
        terminal.assertTerminalRestored()

        XCTAssertEqual(try gatedApps(), ["dino-im", "discord", "hexchat", "mumble", "nheko", "pidgin", "telegram"])
        XCTAssertEqual(try gatedSites(), Array(WelcomeOffer.commonSites.prefix(7)) + ["news.ycombinator.com"])
        XCTAssertEqual(try setting("reentry_minutes"), "10")
        XCTAssertFalse(try String(contentsOfFile: home.configFile, encoding: .utf8).contains("timer_seconds"), "the timer left as it was")
        try assertShims(["hexchat", "telegram"], entries: ["hexchat": "io.github.Hexchat.desktop"])
    }

    func testQAndCtrlCLeaveWithNothingChangedAndGiveTheTerminalBack() throws {
        for key in ["q", "C-c"] {
            let terminal = try TmuxTerminal(home: home, command: setup, environment: environment(), columns: 80, rows: 24)
            terminal.waitFor("miga setup · 1 of 3")
            try terminal.press("Enter")
            terminal.waitFor("What pulls you in?")
            try terminal.press("1", key)
            let after = terminal.waitFor("STATUS=0")
            XCTAssertTrue(after.contains("Nothing changed."), "\(key): \(after)")
            terminal.assertTerminalRestored()
            assertNothingChanged()
        }
    }

    /// Ctrl-Z gives the shell a sane terminal; `fg` draws the welcome again, where it was.
    func testCtrlZAndFgComeBackToTheSameScreen() throws {
        let terminal = try TmuxTerminal.interactiveBash(home: home, environment: environment())
        try terminal.enter(setup)
        terminal.waitFor("miga setup · 1 of 3")
        try terminal.press("Enter", "2")
        terminal.waitFor("2 [ ] Discord")
        try terminal.press("C-z")
        terminal.waitFor("Stopped")
        terminal.waitForPrompt("$ ")
        XCTAssertEqual(terminal.display("#{alternate_on} #{cursor_flag}"), "0 1")
        assertNothingChanged()
        try terminal.enter("fg")
        terminal.waitFor("2 [ ] Discord")
        try terminal.press("Enter", "Enter")
        terminal.waitFor("Allow in Incognito (for private windows)")
        terminal.waitForPrompt("$ ")
        try terminal.printSettings()
        terminal.assertTerminalRestored()
        XCTAssertEqual(try gatedApps(), ["dino-im", "hexchat", "mumble", "nheko", "pidgin", "telegram"])
    }

    /// TERM=dumb (a screen reader's terminal): numbered lines and a readline prompt.
    func testPlainModeForScreenReaders() throws {
        let terminal = try TmuxTerminal(home: home, command: setup, environment: environment(["TERM": "dumb"]), columns: 80, rows: 24)
        terminal.waitForPrompt("Enter to go on, q to leave > ")
        XCTAssertEqual(terminal.display("#{alternate_on}"), "0", "plain mode never switches screens")
        try terminal.press("Enter")
        let list = terminal.waitFor("17 (off) news.ycombinator.com")
        XCTAssertTrue(list.contains("2 (on) Discord") && list.contains("7 (on) Telegram Desktop") && list.contains("8 (on) reddit.com"), list)
        terminal.waitForPrompt("Numbers to switch, a name to add an app, Enter to go on, b back, q leave > ")
        try terminal.enter("3 4 5 6 7 8 9 11 12 13 14 signal-desktop")
        terminal.waitFor("Chosen: Dino, Discord, signal-desktop, youtube.com/shorts")
        try terminal.press("Enter")
        terminal.waitForPrompt("A number, Enter to set up, b back, q leave > ")
        try terminal.enter("25")
        terminal.waitFor("Timer: 25 s")
        try terminal.press("Enter")
        let said = terminal.waitForEnd()
        XCTAssertTrue(said.contains("youtube.com/shorts is paused: links to it pause first."), said)
        terminal.assertTerminalRestored()

        XCTAssertEqual(try gatedApps(), ["dino-im", "discord", "signal-desktop"])
        XCTAssertEqual(try gatedSites(), ["youtube.com/shorts"])
        XCTAssertEqual(try setting("timer_seconds"), "25")
        XCTAssertEqual(try setting("reentry_minutes"), "10")
        try assertShims(["dino-im", "discord", "signal-desktop"], entries: ["dino-im": "im.dino.Dino.desktop"])
    }
}

private extension TmuxTerminal {
    /// Whether the program drew in colour (an SGR colour code in what the pane shows).
    func recordedColours() -> Bool {
        let captured = (try? tmux(["capture-pane", "-p", "-e", "-t", "t"])) ?? ""
        return captured.contains("\u{1B}[32m")
    }

    /// The main screen's scrollback and screen, wrapped lines joined: all a person can scroll
    /// back to read.
    func scrollback() -> String {
        (try? tmux(["capture-pane", "-p", "-J", "-S", "-", "-t", "t"])) ?? ""
    }

    /// Once the command ended well: all it said (setup's lines run longer than a screen).
    func waitForEnd(file: StaticString = #filePath, line: UInt = #line) -> String {
        var said = ""
        eventually("STATUS=0 after the command; it said:\n\(said)", file: file, line: line) {
            said = scrollback()
            return said.contains("\nSTATUS=0")
        }
        return said
    }
}
