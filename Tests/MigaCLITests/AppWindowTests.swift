import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// The miga app for real: the built `miga-app` under Xvfb (openbox, a session bus of its own
/// for the accessibility tree), read and driven as a screen reader sees it (AT-SPI roles and
/// names: `atspi-names.py`, `atspi-do.py`), a screenshot of each state checked for "not
/// blank" (MIGA_SCREENSHOTS=DIR keeps them). `MIGA_REQUIRE_X11=1` fails instead of skipping
/// when a tool is missing.
final class AppWindowTests: XCTestCase, StatsCase {
    var home: MigaHome!
    var display: XDisplay!
    var bus: MigaHome.Child?
    var app: MigaHome.Child?
    var environment: [String: String] = [:]

    var appBinary: String { URL(fileURLWithPath: home.binary).deletingLastPathComponent().appendingPathComponent("miga-app").path }

    override func setUpWithError() throws {
        try XDisplay.requireTools(XDisplay.tools + ["/usr/bin/import", "/usr/bin/convert", "/usr/bin/dbus-daemon",
                                                    "/usr/bin/python3", "/usr/libexec/at-spi-bus-launcher"])
        home = try MigaHome()
        guard FileManager.default.isExecutableFile(atPath: appBinary) else {
            XCTFail("\(appBinary) is not built")
            throw XCTSkip("no miga-app")
        }
        display = try XDisplay(home: home)
        // The machine's desktop entries: real ones, chat apps and browsers among them.
        for entry in ["im.dino.Dino", "io.github.Hexchat", "pidgin", "nheko", "chromium", "firefox-esr", "thunderbird"] {
            let text = try String(contentsOfFile: Fixtures.path("desktop/\(entry).desktop"), encoding: .utf8)
            try home.writeFile("sys/applications/\(entry).desktop", text)
        }
        for program in ["hexchat", "pidgin", "dino-im", "nheko"] { try home.writeFile("bin/\(program)", mode: 0o755, "#!/bin/sh\n") }
        let address = "unix:path=" + home.root + "/session-bus"
        bus = try display.start("/usr/bin/dbus-daemon", ["--session", "--nofork", "--address=" + address])
        eventually("the session bus") { FileManager.default.fileExists(atPath: self.home.root + "/session-bus") }
        environment = display.environment(["DBUS_SESSION_BUS_ADDRESS": address, "TZ": "UTC", "XDG_DATA_DIRS": home.root + "/sys",
                                           "PATH": "\(home.root)/bin:/usr/bin:/bin"])
    }

    override func tearDown() {
        if let app { kill(app.pid, SIGTERM); _ = app.wait() }
        display?.stop()
    }

    func startApp() throws {
        app = try home.start(appBinary, [], environment: environment)
    }

    var accessible: AccessibleWindow { AccessibleWindow(home: home, environment: environment) }

    func showing() throws -> [String] { try accessible.showing() }

    @discardableResult
    func waitForShowing(_ part: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        try accessible.waitForShowing(part, "\(part) on screen", file: file, line: line)
    }

    /// Does `part`'s action (a click), or types `text` into it, through AT-SPI.
    func act(_ part: String, text: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
        for _ in 0..<12 {
            let done = try home.run("/usr/bin/python3", [MigaHome.repository + "/Tests/Fixtures/x11/atspi-do.py", "miga-app", "miga", part]
                                    + (text.map { ["--text", $0] } ?? []), environment: environment)
            guard done.status == 3 else { // 3: no action, so click its middle
                XCTAssertEqual(done.status, 0, "\(part): \(done.stderr)", file: file, line: line)
                return
            }
            let numbers = done.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            XCTAssertEqual(numbers.count, 3, done.stdout, file: file, line: line)
            guard numbers.count == 3 else { return }
            let window = try display.run("/usr/bin/xdotool", ["search", "--onlyvisible", "--name", "^miga$"]).stdout
                .split(separator: "\n").first.map(String.init) ?? ""
            let shell = try display.run("/usr/bin/xdotool", ["getwindowgeometry", "--shell", window]).stdout
            func value(_ key: String) -> Int { shell.split(separator: "\n").first { $0.hasPrefix(key + "=") }.flatMap { Int($0.dropFirst(key.count + 1)) } ?? 0 }
            // Below the window's lower part (where the welcome's buttons are) it is scrolled
            // out of sight: the wheel brings it up, as a person scrolls to it.
            let (x, y) = (value("X") + numbers[0], value("Y") + numbers[1])
            if numbers[1] > numbers[2] - 120 {
                XCTAssertEqual(try display.run("/usr/bin/xdotool", ["mousemove", "--sync", String(x), String(value("Y") + numbers[2] / 2)]).status, 0)
                XCTAssertEqual(try display.run("/usr/bin/xdotool", ["click", "--repeat", "3", "5"]).status, 0)
                usleep(300_000)
                continue
            }
            XCTAssertEqual(try display.run("/usr/bin/xdotool", ["mousemove", "--sync", String(x), String(y)]).status, 0)
            XCTAssertEqual(try display.run("/usr/bin/xdotool", ["click", "1"]).status, 0)
            return
        }
        XCTFail("\(part) stayed out of sight", file: file, line: line)
    }

    func press(_ key: String) throws {
        let window = try display.run("/usr/bin/xdotool", ["search", "--onlyvisible", "--name", "^miga$"]).stdout
            .split(separator: "\n").first.map(String.init) ?? ""
        XCTAssertEqual(try display.run("/usr/bin/xdotool", ["windowfocus", "--sync", window]).status, 0)
        XCTAssertEqual(try display.run("/usr/bin/xdotool", ["key", key]).status, 0)
    }

    func screenshot(_ name: String) throws { try accessible.screenshot(name) }

    var configText: String { (try? String(contentsOfFile: home.configFile, encoding: .utf8)) ?? "" }

    // MARK: the welcome

    /// Nothing gated: the window opens on the welcome; Next, Back and Escape move between its
    /// screens; the header's menu brings it back later.
    func testFirstRunOpensOnTheWelcome() throws {
        try home.writeConfig("sites = []\n")
        try startApp()
        let first = try waitForShowing("label: Welcome to miga")
        XCTAssertTrue(first.contains("push button: Next"), "\(first)")
        XCTAssertTrue(first.contains("push button: Main menu"), "\(first)")
        XCTAssertFalse(first.contains { $0.hasSuffix(": Hub") }, "no page switcher during the welcome: \(first)")
        try screenshot("app-welcome")
        try act("push button: Next")
        let second = try waitForShowing("label: What pulls you in?")
        XCTAssertTrue(second.contains("push button: Back"), "\(second)")
        try press("Escape")
        try waitForShowing("label: Welcome to miga")
        try act("push button: Next")
        try waitForShowing("label: What pulls you in?")
        try act("push button: Next")
        let pause = try waitForShowing("label: The pause")
        XCTAssertTrue(pause.contains("spin button: Pause length"), "\(pause)")
        XCTAssertTrue(pause.contains { $0.hasSuffix(": Pause when I come back") && !$0.hasPrefix("label") }, "the switch: \(pause)")
        XCTAssertTrue(pause.contains("push button: Set up"), "\(pause)")
        try screenshot("app-welcome-pause")
        try press("Escape")
        try waitForShowing("label: What pulls you in?")
    }

    /// The chat apps found among the machine's desktop entries are offered by their own names,
    /// browsers never; choosing two and a site, then Set up, writes them in config.toml, and
    /// the Hub shows them. (Needs the finder and `WelcomeSetup` of `Welcome/`.)
    func testTheWelcomeOffersTheAppsFoundAndSetsThemUp() throws {
        try home.writeConfig("sites = []\n")
        // An entry whose icon is a FIFO: shown with a stand-in icon, never read (it would hang).
        let fifo = home.root + "/icon.fifo"
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        try home.writeFile("sys/applications/fifochat.desktop",
                           "[Desktop Entry]\nType=Application\nName=FifoChat\nExec=fifochat\nIcon=\(fifo)\nCategories=Network;Chat;\n")
        try home.writeFile("bin/fifochat", mode: 0o755, "#!/bin/sh\n")
        try startApp()
        try act("push button: Next")
        let offered = try waitForShowing("check box: HexChat")
        for label in ["Dino", "Pidgin", "nheko", "FifoChat"] { XCTAssertTrue(offered.contains("check box: \(label)"), "\(label) in \(offered)") }
        for browser in ["Chromium", "Firefox ESR", "Thunderbird"] {
            XCTAssertFalse(offered.contains { $0.hasSuffix(": " + browser) }, "\(browser) is not a chat app: \(offered)")
        }
        try screenshot("app-welcome-apps")
        // Found apps start chosen: keep HexChat and Pidgin, leave Dino and nheko out.
        try act("check box: Dino")
        try act("check box: nheko")
        // The first seven sites start chosen, YouTube Shorts among them; twitch.tv does not.
        try act("check box: twitch.tv")
        try act("push button: Next")
        let pause = try waitForShowing("label: The pause")
        // Clinical content is off until turned on: one switch of the two.
        let unreal = ContentLibrary.extraCategories[0]
        let toggle = try XCTUnwrap(pause.first { $0.hasSuffix(": " + unreal.label) && !$0.hasPrefix("label") }, "\(pause)")
        try act(toggle)
        try act("push button: Set up")
        try waitForShowing("label: miga is ready")
        try screenshot("app-welcome-done")
        let config = configText
        for chosen in ["[apps.hexchat]", "[apps.pidgin]", "\"youtube.com/shorts\"", "\"twitch.tv\"", "extra_categories = [\"\(unreal.name)\"]"] { XCTAssertTrue(config.contains(chosen), "\(chosen) in \(config)") }
        for left in ["[apps.dino", "[apps.nheko]"] { XCTAssertFalse(config.contains(left), "\(left) in \(config)") }
        try act("push button: Open the hub")
        let hub = try waitForShowing("label: Open one through its pause")
        XCTAssertTrue(hub.contains { $0.hasPrefix("push button: hexchat: ") }, "\(hub)")
        XCTAssertTrue(hub.contains { $0.hasPrefix("push button: youtube.com/shorts: ") }, "\(hub)")
    }

    // MARK: the hub

    /// The gated apps and sites as tiles with today's count and minutes; activating one runs
    /// its gate (its window, no terminal here), which records the pause.
    func testTheHubShowsTodayAndOpensThroughTheGate() throws {
        try home.writeConfig("sites = [\"reddit.com\"]\ntimer_seconds = 15\n\n[apps.chat]\ncommand = \"\(home.recorder)\"\n")
        try importEvents([line(.sessionStart, daysAgo: 0, hour: 0, session: "a"), line(.exitSelected, daysAgo: 0, hour: 0, session: "a"),
                          line(.sessionStart, daysAgo: 0, hour: 0, session: "b"), line(.openSelected, daysAgo: 0, hour: 0, session: "b"),
                          line(.sessionStart, daysAgo: 1, session: "c")])
        let before = try home.events().filter { $0.type == .sessionStart }.count
        try startApp()
        let hub = try waitForShowing("push button: chat: 2 times today · 0.0 min")
        XCTAssertTrue(hub.contains("push button: reddit.com: 0 times today · 0.0 min"), "\(hub)")
        XCTAssertTrue(hub.contains("page tab: Stats"), "the page switcher: \(hub)")
        try screenshot("app-hub")
        try act("push button: chat: 2 times today · 0.0 min")
        try eventually("the gate's session_start") {
            try home.events().filter { $0.type == .sessionStart && $0.app == "chat" }.count == before
        }
    }

    /// Nothing gated and the welcome left: the Hub points to it.
    func testAnEmptyHubPointsToTheWelcome() throws {
        try home.writeConfig("sites = []\n")
        try startApp()
        try waitForShowing("label: Welcome to miga")
        try act("push button: Main menu")
        // Leaving the welcome is reaching the hub some other way: the menu's Quit is there too.
        try waitForShowing("menu item: Welcome…")
    }

    // MARK: stats

    /// The Stats page says the numbers `miga stats --days 7 --json` and `--week --json` give.
    func testTheStatsPageSaysTheNumbersOfStatsJSON() throws {
        try home.writeConfig("sites = [\"reddit.com\"]\n\n[apps.chat]\ncommand = \"\(home.recorder)\"\n")
        try importEvents([line(.sessionStart, daysAgo: 0, session: "a"), line(.exitSelected, daysAgo: 0, session: "a"),
                          line(.sessionStart, daysAgo: 1, session: "b"), line(.exitSelected, daysAgo: 1, session: "b"),
                          line(.sessionStart, daysAgo: 2, session: "c"), line(.openSelected, daysAgo: 2, session: "c"),
                          line(.sessionStart, daysAgo: 0, app: "reddit.com", session: "d"),
                          line(.openSelected, daysAgo: 0, app: "reddit.com", session: "d")])
        let days = try JSONSerialization.jsonObject(with: Data(try miga("stats", "--days", "7", "--json").stdout.utf8)) as! [String: Any]
        let week = try JSONSerialization.jsonObject(with: Data(try miga("stats", "--week", "--json").stdout.utf8)) as! [String: Any]
        let streak = days["streak"] as! [String: Int]
        try startApp()
        try waitForShowing("push button: chat: once today · 0.0 min")
        try act("page tab: Stats")
        let stats = try waitForShowing("label: The last seven days")
        func plural(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
        let share = Int(((week["exit_share"] as! Double) * 100).rounded())
        /// A row as a screen reader reads it: its title, then its subtitle.
        func says(_ title: String, _ subtitle: String) -> Bool {
            zip(stats, stats.dropFirst()).contains { $0 == "label: " + title && $1 == "label: " + subtitle }
        }
        for (title, subtitle) in [("Current streak", plural(streak["current"]!, "day")), ("Longest streak", plural(streak["longest"]!, "day")),
                                  ("Your exit share", "\(share) %"), ("one sec's users (a 2023 study)", "36 %")] {
            XCTAssertTrue(says(title, subtitle), "\(title): \(subtitle) in \(stats)")
        }
        for row in days["apps"] as! [[String: Any]] {
            let app = row["app"] as! String, sessions = row["sessions"] as! Int, exits = row["exits"] as! Int, opens = row["opens"] as! Int
            let expected = "\(plural(sessions, "pause")) · \(plural(exits, "exit")) · \(plural(opens, "open")) · 0.0 min"
            XCTAssertTrue(says(app, expected), "\(app): \(expected) in \(stats)")
        }
        XCTAssertTrue(stats.contains("image: Exits and opens, the last seven days"), "the chart, named: \(stats)")
        let description = try home.run("/usr/bin/python3", ["-c", """
            import gi; gi.require_version("Atspi", "2.0"); from gi.repository import Atspi
            def walk(n, d=0):
                if n is None or d > 40: return
                yield n
                for i in range(n.get_child_count()): yield from walk(n.get_child_at_index(i), d + 1)
            d = Atspi.get_desktop(0)
            for i in range(d.get_child_count()):
                for n in walk(d.get_child_at_index(i)):
                    if n.get_name() == "Exits and opens, the last seven days": print(n.get_description())
            """], environment: environment).stdout
        for day in days["days"] as! [[String: Any]] {
            let exits = day["exits"] as! Int, opens = day["opens"] as! Int
            XCTAssertTrue(description.contains("\(day["date"]!): \(plural(exits, "exit")), \(plural(opens, "open")), 0.0 min"),
                          "\(day) in \(description)")
        }
        try screenshot("app-stats")
    }
}
