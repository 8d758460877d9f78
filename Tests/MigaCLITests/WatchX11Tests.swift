import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// `miga watch` for real on X11: the built binary under Xvfb with openbox (EWMH), a gated
/// app's window (an xterm whose WM_CLASS is the app's name) coming to the front for the first
/// time, the real gate window over it, keys through XTEST, and a screenshot.
final class WatchX11Tests: XCTestCase {
    var home: MigaHome!
    var display: XDisplay!

    override func setUpWithError() throws {
        try XDisplay.requireTools(XDisplay.tools + ["/usr/bin/import"])
        home = try MigaHome()
        display = try XDisplay(home: home)
        try home.writeConfig("timer_seconds = 15\nreentry_minutes = 10\nsites = []\n[apps.chat]\ncommand = \"true\"\n")
    }

    override func tearDown() {
        display?.stop()
    }

    func startWatcher() throws -> TestHome.Child {
        try display.start(home.binary, ["watch"], environment: ["MIGA_FOCUS_TICK_SECONDS": "1", "MIGA_IDLE_SECONDS": "60"])
    }

    func xdotool(_ arguments: [String]) throws -> TestHome.Output {
        try display.run("/usr/bin/xdotool", arguments)
    }

    /// The gate window (titled "miga", or "miga — chat" before the gate window became a
    /// desktop app), once it is mapped.
    func gateWindow() throws -> UInt32 {
        var id: UInt32 = 0
        try eventually("the gate window") {
            id = try xdotool(["search", "--onlyvisible", "--name", "^miga( — chat)?$"]).stdout.split(separator: "\n").first.flatMap { UInt32($0) } ?? 0
            return id != 0
        }
        return id
    }

    func press(_ key: String, in window: UInt32) throws {
        XCTAssertEqual(try xdotool(["windowfocus", "--sync", String(window)]).status, 0)
        XCTAssertEqual(try xdotool(["key", key]).status, 0)
    }

    func screenshot(_ name: String) throws -> String {
        let path = home.root + "/\(name).png"
        XCTAssertEqual(try display.run("/usr/bin/import", ["-window", "root", path]).status, 0)
        if let keep = ProcessInfo.processInfo.environment["MIGA_SCREENSHOTS"] {
            try? FileManager.default.removeItem(atPath: keep + "/\(name).png")
            try? FileManager.default.copyItem(atPath: path, toPath: keep + "/\(name).png")
        }
        return path
    }

    func testAGatedAppsWindowFirstInFrontMeetsTheGateAndExitMinimisesIt() throws {
        let watcher = try startWatcher()
        let chat = try display.xterm(instance: "chat", class: "Chat", title: "chat")
        let gate = try gateWindow()
        eventually("the gate window in front, focused") { self.display.activeWindow() == gate }
        try eventually("the gate counting") { try home.events().map(\.type) == [.sessionStart] }
        XCTAssertEqual(try home.events().first?.detail, #"{"reentry":true}"#)
        _ = try screenshot("watch-gate-over-app")

        try press("e", in: gate)
        eventually("the app's window minimised") { self.display.property("WM_STATE", of: chat.window).contains("Iconic") }
        XCTAssertEqual(kill(chat.process.pid, 0), 0, "Exit never ends the app")
        XCTAssertEqual(try home.events().filter { $0.type != .gatewayCompleted }.map(\.type), [.sessionStart, .exitSelected])
        XCTAssertEqual(kill(watcher.pid, 0), 0, "the watcher keeps watching")

        // Nothing changes now: the watcher sleeps in poll(2) and spends no CPU.
        usleep(500_000)
        let before = try cpuTicks(watcher.pid)
        sleep(2)
        XCTAssertLessThanOrEqual(try cpuTicks(watcher.pid) - before, 1, "the watcher is idle while nothing changes")
    }

    /// A process's user + system CPU time in clock ticks (/proc/PID/stat's 14th and 15th fields).
    func cpuTicks(_ pid: pid_t) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        let fields = stat[stat.range(of: ")")!.upperBound...].split(separator: " ")
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }

    func testOpenAfterTheCountdownRaisesTheAppAndItsMinutesAreCounted() throws {
        _ = try startWatcher()
        let chat = try display.xterm(instance: "chat", class: "Chat", title: "chat")
        let gate = try gateWindow()
        try eventually(timeout: 40, "the countdown to end") { try home.events().contains { $0.type == .gatewayCompleted } }
        try press("o", in: gate)
        eventually("the app's window in front again") { self.display.activeWindow() == chat.window }
        XCTAssertTrue(display.property("WM_STATE", of: chat.window).contains("Normal"))
        eventually("the gate window gone") { (try? self.xdotool(["getwindowname", String(gate)]))?.status != 0 }
        _ = try screenshot("watch-app-raised-after-open")
        try eventually("focused seconds counted for chat") {
            try home.events().filter { $0.type == .focus && $0.app == "chat" }.count >= 2
        }
        XCTAssertTrue(try home.events().filter { $0.type == .focus }.allSatisfy { $0.detail == #"{"seconds":1}"# })
        XCTAssertTrue(try home.events().contains { $0.type == .openSelected })
    }

    /// A gated window in front and the person idle: the watcher sleeps until input (an alarm
    /// on the X server's IDLETIME counter), not a look every 2 s (bench/idle.sh counts the
    /// same over a minute); and the person back is seen at once: their seconds counted again.
    func testAnIdlePersonsWatcherSleepsUntilInputAndSeesThemBackAtOnce() throws {
        let (wakeups, back) = try idleThenBack()
        XCTAssertLessThanOrEqual(wakeups, 1, "a watcher over an idle person woke while nothing happened (it polled?)")
        XCTAssertLessThan(back, 2.5, "back from idle seen late")
    }

    /// Without libxcb-sync the watcher still sees the person back, by its look every 2 s.
    func testWithoutLibxcbSyncAnIdlePersonIsStillSeenBack() throws {
        let (_, back) = try idleThenBack(["MIGA_LIBXCB_SYNC": "/nonexistent/libxcb-sync.so.1"])
        XCTAssertLessThan(back, 4.5, "back from idle seen late")
    }

    /// chat's xterm in front with a one-second tick and the least idle threshold (15 s), the
    /// person idle, then back (a mouse move): the watcher's wake-ups in 4 s while idle, and
    /// how long after the move a second was counted again.
    func idleThenBack(_ extra: [String: String] = [:]) throws -> (wakeups: Int, back: Double) {
        try home.writeConfig("timer_seconds = 15\nsites = []\n[apps.chat]\ncommand = \"true\"\n")
        let watcher = try display.start(home.binary, ["watch"], environment: ["MIGA_FOCUS_TICK_SECONDS": "1", "MIGA_IDLE_SECONDS": "15"].merging(extra) { $1 })
        let chat = try display.xterm(instance: "chat", class: "Chat", title: "chat")
        eventually("chat in front") { self.display.activeWindow() == chat.window }
        let seconds = { try self.home.events().filter { $0.type == .focus && $0.app == "chat" }.count }
        try eventually("chat's seconds counted") { try seconds() >= 1 }

        XCTAssertEqual(try xdotool(["mousemove", "10", "10"]).status, 0)
        Thread.sleep(until: Date().addingTimeInterval(17))
        let counted = try seconds()
        let before = voluntaryWakeups(watcher.pid)
        Thread.sleep(forTimeInterval: 4)
        let wakeups = voluntaryWakeups(watcher.pid) - before
        XCTAssertEqual(try seconds(), counted, "idle: no seconds counted")

        XCTAssertEqual(try xdotool(["mousemove", "200", "200"]).status, 0)
        let moved = Date()
        try eventually(timeout: 10, "chat's seconds counted again") { try seconds() > counted }
        XCTAssertEqual(kill(watcher.pid, 0), 0)
        return (wakeups, Date().timeIntervalSince(moved))
    }

    func testNoLibxcbNoDisplayOrAWaylandSessionIsOneLineAndExitOne() throws {
        // libxcb is loaded by `miga watch` alone: no other start of miga links or loads it.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/readelf") {
            let needed = try home.run("/usr/bin/readelf", ["-d", home.binary]).stdout
            XCTAssertTrue(needed.contains("(NEEDED)"))
            XCTAssertFalse(needed.contains("xcb"), needed)
        }
        for (extra, start) in [(["MIGA_LIBXCB": "/nonexistent/libxcb.so.1"], "miga watch: libxcb could not be loaded: /nonexistent/libxcb.so.1"),
                               (["DISPLAY": ":1999"], "miga watch: no X display: cannot connect to :1999"),
                               (["DISPLAY": ""], "miga watch: no X display: DISPLAY is not set"),
                               // A Wayland session that is not GNOME's, though an X display is there (Xwayland).
                               (["WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "KDE"], "miga watch: this is a Wayland session (KDE)")] {
            let result = try home.miga(["watch"], environment: display.environment(extra))
            XCTAssertEqual(result.status, 1, result.stderr)
            XCTAssertTrue(result.stderr.hasPrefix(start), result.stderr)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        }
    }
}
