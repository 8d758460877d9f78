import Foundation
import XCTest
import MigaCore

/// The gate window for real: the built `miga` and `miga-gate-window` under Xvfb, no terminal,
/// keys pressed through XTEST (xdotool), the close button pressed as a window manager presses
/// it, and a screenshot of each state checked for "not blank".
final class GateWindowTests: XCTestCase {
    var home: MigaHome!
    var server: MigaHome.Child!
    var environment: [String: String] = [:]

    override func setUpWithError() throws {
        for tool in ["/usr/bin/Xvfb", "/usr/bin/xdotool", "/usr/bin/import", "/usr/bin/convert"]
            where !FileManager.default.isExecutableFile(atPath: tool) {
            XCTFail("\(tool) is missing: scripts/deps.sh installs xvfb, xdotool and imagemagick")
            throw XCTSkip("no \(tool)")
        }
        home = try MigaHome()
        let window = URL(fileURLWithPath: home.binary).deletingLastPathComponent().appendingPathComponent("miga-gate-window").path
        guard FileManager.default.isExecutableFile(atPath: window) else {
            XCTFail("\(window) is not built")
            throw XCTSkip("no window")
        }
        // Xvfb picks a free display and writes its number to stdout; -noreset keeps it up
        // when the last client goes.
        server = try home.start("/usr/bin/Xvfb", ["-displayfd", "1", "-noreset", "-screen", "0", "1024x768x24", "-nolisten", "tcp"])
        var display = ""
        eventually("Xvfb to start") {
            display = (try? String(contentsOfFile: self.server.stdoutPath, encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            return !display.isEmpty
        }
        environment = home.environment(["DISPLAY": ":" + display, "XDG_RUNTIME_DIR": home.root])
        try home.writeConfig("timer_seconds = 15\n")
    }

    override func tearDown() {
        if let server { kill(server.pid, SIGTERM); _ = server.wait() }
    }

    func xdotool(_ arguments: [String]) throws -> MigaHome.Output {
        try home.run("/usr/bin/xdotool", arguments, environment: environment)
    }

    /// The window titled "miga — APP", once it is there.
    func window(app: String = "chat") throws -> String {
        var id = ""
        try eventually("the window \"miga — \(app)\"") {
            id = try xdotool(["search", "--name", "^miga — \(app)$"]).stdout.split(separator: "\n").first.map(String.init) ?? ""
            return !id.isEmpty
        }
        return id
    }

    func press(_ key: String, in window: String) throws {
        XCTAssertEqual(try xdotool(["windowfocus", "--sync", window]).status, 0)
        XCTAssertEqual(try xdotool(["key", key]).status, 0)
    }

    func waitForEvents(_ types: [EventType], file: StaticString = #filePath, line: UInt = #line) throws {
        try eventually("events \(types)", file: file, line: line) { try home.events().map(\.type) == types }
    }

    func windowGone(_ id: String) throws -> Bool {
        try xdotool(["getwindowname", id]).status != 0
    }

    /// The whole screen, checked for a drawn window: many colours, not one flat fill.
    func screenshot(_ name: String) throws -> String {
        let path = home.root + "/\(name).png"
        XCTAssertEqual(try home.run("/usr/bin/import", ["-window", "root", path], environment: environment).status, 0)
        let colours = try home.run("/usr/bin/convert", [path, "-format", "%k", "info:"], environment: environment)
        XCTAssertGreaterThan(Int(colours.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, 20,
                             "\(name): the screen looks blank (\(colours.stdout))")
        if let keep = ProcessInfo.processInfo.environment["MIGA_SCREENSHOTS"] {
            try? FileManager.default.removeItem(atPath: keep + "/\(name).png")
            try? FileManager.default.copyItem(atPath: path, toPath: keep + "/\(name).png")
        }
        return path
    }

    func startGate(_ extra: [String] = ["--flag", "a b", ""]) throws -> MigaHome.Child {
        try home.start(home.binary, ["gate", "--app", "chat", "--detach", "--", home.recorder] + extra, environment: environment)
    }

    func testDoctorSaysHowDesktopLaunchesShowTheGate() throws {
        XCTAssertTrue(try home.miga(["doctor"], environment: environment).stdout
            .contains("ok       window: desktop launches show the pause in a window"))
        let unreachable = try home.miga(["doctor"], environment: environment.merging(["DISPLAY": ":1999"]) { $1 }).stdout
        XCTAssertTrue(unreachable.contains("problem  window: the gate window cannot reach the display :1999 from this shell; desktop launches show the pause in"),
                      unreachable)
    }

    func testReadNextOpenLockedThenOpenStartsTheAppWithItsArguments() throws {
        let gate = try startGate()
        let id = try window()
        try waitForEvents([.sessionStart])
        _ = try screenshot("window-counting")
        try press("n", in: id)
        try waitForEvents([.sessionStart, .contentRead])
        let shown = try home.events().map(\.contentID)
        XCTAssertNotEqual(shown[0], shown[1], "n shows another item")
        // Open during the countdown does nothing; the Read Next after it proves it was read.
        try press("o", in: id)
        try press("space", in: id)
        try waitForEvents([.sessionStart, .contentRead, .contentRead])
        XCTAssertNil(home.recordedArguments(), "Open is locked during the countdown")
        try eventually(timeout: 30, "the countdown to end") { try home.events().contains { $0.type == .gatewayCompleted } }
        _ = try screenshot("window-ready")
        try press("Return", in: id)
        eventually("the app to start") { home.recordedInfo() != nil }
        XCTAssertEqual(home.recordedArguments(), ["--flag", "a b", ""])
        XCTAssertTrue(home.recordedInfo()?.contains("stdin=/dev/null") == true, "detached: \(home.recordedInfo() ?? "")")
        XCTAssertEqual(gate.wait().status, 0)
        XCTAssertTrue(try windowGone(id))
        XCTAssertEqual(try home.events().map(\.type).suffix(2), [.gatewayCompleted, .openSelected])
    }

    func testExitAndTheCloseButtonOpenNothing() throws {
        for (index, way) in ["e", "close-button"].enumerated() {
            let gate = try startGate()
            let id = try window()
            try eventually("the gate to start") { try home.events().filter { $0.type == .sessionStart }.count == index + 1 }
            if way == "e" {
                try press("e", in: id)
                _ = try screenshot("window-exit")
            } else {
                let close = try home.run("/usr/bin/python3", [MigaHome.repository + "/Tests/Fixtures/x11/close-window.py", id],
                                         environment: environment)
                XCTAssertEqual(close.status, 0, close.stderr)
            }
            XCTAssertEqual(gate.wait().status, 0, way)
            XCTAssertTrue(try windowGone(id), way)
            XCTAssertEqual(try home.events().filter { $0.type == .exitSelected }.count, index + 1, way)
        }
        XCTAssertNil(home.recordedArguments())
        XCTAssertFalse(try home.events().contains { $0.type == .openSelected })
    }

    func testSIGTERMToTheGateOrAKilledWindowIsAnAbandon() throws {
        let gate = try startGate()
        let id = try window()
        try waitForEvents([.sessionStart])
        kill(gate.pid, SIGTERM)
        XCTAssertEqual(gate.wait().status, 128 + SIGTERM)
        try eventually("the window to go with the gate") { try windowGone(id) }
        try waitForEvents([.sessionStart, .abandoned])

        let second = try startGate()
        let other = try window()
        try eventually("the second gate to start") { try home.events().filter { $0.type == .sessionStart }.count == 2 }
        let pid = try xdotool(["getwindowpid", other]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(kill(pid_t(pid) ?? 0, SIGKILL), 0, "window pid \(pid)")
        _ = second.wait()
        XCTAssertEqual(try home.events().map(\.type).last, .abandoned)
        XCTAssertNil(home.recordedArguments(), "a lost window never opens the app")
    }
}
