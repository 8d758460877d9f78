import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// The miga app's Settings for real: the built `miga-app` under Xvfb with a session bus of
/// its own, read as a screen reader reads it (AT-SPI, `atspi-names.py`), driven by the
/// keyboard and the mouse (xdotool), and config.toml checked after each change. Screenshots
/// go to MIGA_SCREENSHOTS when it names a folder.
final class AppSettingsTests: XCTestCase {
    var home: MigaHome!
    var server: MigaHome.Child?
    var bus: MigaHome.Child?
    var app: MigaHome.Child?
    var environment: [String: String] = [:]

    override func setUpWithError() throws {
        for tool in ["/usr/bin/Xvfb", "/usr/bin/xdotool", "/usr/bin/import", "/usr/bin/convert", "/usr/bin/dbus-daemon",
                     "/usr/bin/python3", "/usr/libexec/at-spi-bus-launcher"]
            where !FileManager.default.isExecutableFile(atPath: tool) {
            XCTFail("\(tool) is missing: scripts/deps.sh installs it")
            throw XCTSkip("no \(tool)")
        }
        home = try MigaHome()
        let pinned = ProcessInfo.processInfo.environment["MIGA_TEST_DISPLAY"].flatMap(Int.init)
        let server = try home.start("/usr/bin/Xvfb", (pinned.map { [":\($0)"] } ?? ["-displayfd", "1"])
                                    + ["-noreset", "-screen", "0", "1024x768x24", "-nolisten", "tcp"])
        self.server = server
        var display = pinned.map(String.init) ?? ""
        eventually("Xvfb to start") {
            if pinned != nil { return FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(display)") }
            display = (try? String(contentsOfFile: server.stdoutPath, encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            return !display.isEmpty
        }
        environment = home.environment(["DISPLAY": ":" + display, "XDG_RUNTIME_DIR": home.root, "GSK_RENDERER": "cairo"])
        let address = "unix:path=" + home.root + "/session-bus"
        bus = try home.start("/usr/bin/dbus-daemon", ["--session", "--nofork", "--address=" + address], environment: environment)
        eventually("the session bus") { FileManager.default.fileExists(atPath: self.home.root + "/session-bus") }
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
    }

    override func tearDown() {
        for child in [app, bus, server].compactMap({ $0 }) where kill(child.pid, 0) == 0 {
            kill(child.pid, SIGTERM)
            _ = child.wait()
        }
    }

    var appBinary: String { URL(fileURLWithPath: home.binary).deletingLastPathComponent().appendingPathComponent("miga-app").path }

    /// Starts the app on the Settings page (a site is gated, so it opens on the hub, not the
    /// welcome) and returns its window.
    func openSettings(config: String) throws -> String {
        try home.writeConfig(config)
        app = try home.start(appBinary, [], environment: environment)
        let window = try self.window()
        try click(try first(endingWith: ": Settings", "the Settings switch"), in: window)
        try waitForShowing("spin button: Timer seconds", "the Settings page")
        return window
    }

    func xdotool(_ arguments: [String]) throws -> MigaHome.Output {
        try home.run("/usr/bin/xdotool", arguments, environment: environment)
    }

    func window() throws -> String {
        var id = ""
        try eventually("the window \"miga\"") {
            id = try xdotool(["search", "--onlyvisible", "--name", "^miga$"]).stdout.split(separator: "\n").first.map(String.init) ?? ""
            return !id.isEmpty
        }
        return id
    }

    var accessible: AccessibleWindow { AccessibleWindow(home: home, environment: environment) }

    func showing(places: Bool = false) throws -> [String] { try accessible.showing(places: places) }

    func waitForShowing(_ part: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try accessible.waitForShowing(part, what, file: file, line: line)
    }

    func first(endingWith suffix: String, _ what: String, containing: Bool = false) throws -> String {
        var found = ""
        try eventually(what) {
            found = try self.showing().first { containing ? $0.contains(suffix) : $0.hasSuffix(suffix) } ?? ""
            return !found.isEmpty
        }
        return found
    }

    /// `part`'s box on the screen (X, Y, width, height), from its extents in the window.
    func place(of part: String, in id: String) throws -> (x: Int, y: Int, width: Int, height: Int)? {
        guard let row = try showing(places: true).first(where: { $0.hasPrefix(part + " @") }) else { return nil }
        let box = row.split(separator: "@").last?.split(whereSeparator: { $0 == "," || $0 == "x" }).compactMap { Int($0) } ?? []
        guard box.count == 4 else { return nil }
        let shell = try xdotool(["getwindowgeometry", "--shell", id]).stdout
        func value(_ key: String) -> Int {
            shell.split(separator: "\n").first { $0.hasPrefix(key + "=") }.flatMap { Int($0.dropFirst(key.count + 1)) } ?? 0
        }
        return (value("X") + box[0], value("Y") + box[1], box[2], box[3])
    }

    /// Clicks `part` (at `dx` from its left edge, else its middle), scrolling the page down
    /// with the wheel until it is inside the window.
    func click(_ part: String, in id: String, dx: Int? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
        let shell = try xdotool(["getwindowgeometry", "--shell", id]).stdout
        func value(_ key: String) -> Int {
            shell.split(separator: "\n").first { $0.hasPrefix(key + "=") }.flatMap { Int($0.dropFirst(key.count + 1)) } ?? 0
        }
        // Above the window's lower edge, less the line below the page that says what changed.
        let bottom = value("Y") + value("HEIGHT") - 40
        var box: (x: Int, y: Int, width: Int, height: Int)?
        try eventually("\(part) on screen", file: file, line: line) {
            box = try self.place(of: part, in: id)
            guard let found = box else { return false }
            if found.y + found.height > bottom {
                _ = try self.xdotool(["mousemove", "--sync", "500", "300", "click", "--repeat", "3", "5"])
                return false
            }
            // The page scrolls on for a moment after the wheel: the same place twice is where it stays.
            usleep(300_000)
            guard let again = try self.place(of: part, in: id), again == found else { return false }
            return found.y > 0
        }
        guard let box else { return XCTFail("\(part) is not on screen", file: file, line: line) }
        XCTAssertEqual(try xdotool(["mousemove", "--sync", String(box.x + (dx ?? box.width / 2)), String(box.y + box.height / 2)]).status, 0)
        XCTAssertEqual(try xdotool(["click", "1"]).status, 0)
    }

    func configText() -> String { (try? String(contentsOfFile: home.configFile, encoding: .utf8)) ?? "" }

    func screenshot(_ name: String) throws { try accessible.screenshot(name) }

    // MARK: - Tests

    /// Up on the timer's spin button tightens at once; Down loosens, which waits
    /// `loosen_delay_minutes`: the row says so, and the gate keeps the value in force.
    func testTheTimerChangesByKeyboardAndALooseningShowsAsWaiting() throws {
        let id = try openSettings(config: "sites = [\"reddit.com\"]\ntimer_seconds = 30\nloosen_delay_minutes = 60\n")
        try click("spin button: Timer seconds", in: id, dx: 12)
        XCTAssertEqual(try xdotool(["key", "Up"]).status, 0)
        eventually("timer_seconds = 31 in config.toml") { self.configText().contains("timer_seconds = 31") }
        XCTAssertFalse(try showing().contains { $0.contains("Waiting: timer_seconds") }, "a tightening does not wait")
        XCTAssertEqual(try xdotool(["key", "Down", "Down"]).status, 0)
        eventually("timer_seconds = 29 in config.toml") { self.configText().contains("timer_seconds = 29") }
        var waiting: [String] = []
        try eventually("the row says the change waits") {
            waiting = try self.showing().filter { $0.contains("Waiting: timer_seconds: 31 → 29 at ") }
            return !waiting.isEmpty
        }
        try screenshot("app-settings-waiting")
        XCTAssertEqual(try home.miga(["config", "get", "timer_seconds"]).stdout, "31\n", "what applies until the wait ends")
    }

    func testASiteAddedInTheEntryRowIsGatedAndListed() throws {
        let id = try openSettings(config: "sites = [\"reddit.com\"]\n")
        try waitForShowing("push button: Remove reddit.com", "the gated site's row")
        try click("text: Add a site", in: id)
        XCTAssertEqual(try xdotool(["type", "--delay", "20", "News.YCombinator.com"]).status, 0)
        XCTAssertEqual(try xdotool(["key", "Return"]).status, 0)
        eventually("the site in config.toml") { self.configText().contains("\"news.ycombinator.com\"") }
        try waitForShowing("push button: Remove news.ycombinator.com", "the new site's row")
        XCTAssertEqual(try home.miga(["config", "sites", "list"]).stdout, "reddit.com\nnews.ycombinator.com\n")
        try screenshot("app-settings-site")
        // A site miga refuses is said, and nothing is written.
        try click("text: Add a site", in: id)
        XCTAssertEqual(try xdotool(["type", "--delay", "20", "not a site"]).status, 0)
        XCTAssertEqual(try xdotool(["key", "Return"]).status, 0)
        _ = try first(endingWith: "; give a site like reddit.com", "the refusal below the page")
        XCTAssertEqual(try home.miga(["config", "sites", "list"]).stdout, "reddit.com\nnews.ycombinator.com\n")
    }

    /// Every key `miga config show` writes at the top level has its row, named for a screen
    /// reader (sites have a group of their own); a key only an app has does not.
    func testEveryKeyOfTheTableHasANamedRow() throws {
        _ = try openSettings(config: "sites = [\"reddit.com\"]\n")
        let shown = try home.miga(["config", "show"]).stdout.split(separator: "\n")
            .prefix { !$0.hasPrefix("[") }
            .compactMap { line -> String? in
                guard !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { return nil }
                return line[..<equals].trimmingCharacters(in: .whitespaces)
            }
        XCTAssertTrue(shown.contains("timer_seconds") && shown.contains("sync_folder"), "\(shown)")
        let names = try showing().compactMap { $0.split(separator: ": ", maxSplits: 1).last.map(String.init) }
        for key in shown where key != "sites" {
            let words = key.split(separator: "_").joined(separator: " ")
            let title = words.prefix(1).uppercased() + words.dropFirst()
            XCTAssertTrue(names.contains(title), "no row named \"\(title)\" for \(key)")
        }
        XCTAssertTrue(names.contains("Sites") && names.contains("Add a site"), "the Sites group")
        XCTAssertFalse(names.contains("Command"), "a command belongs to an app")
        try screenshot("app-settings")
    }

    /// A config.toml that does not parse is said on the page; the app stays up.
    func testABrokenConfigIsSaidNotACrash() throws {
        try home.writeConfig("timer_seconds = [\n")
        app = try home.start(appBinary, [], environment: environment)
        let id = try window()
        try click(try first(endingWith: ": Settings", "the Settings switch"), in: id)
        _ = try first(endingWith: "config.toml", "the problem said", containing: true)
        XCTAssertEqual(kill(app!.pid, 0), 0, "the app is still running")
    }
}
