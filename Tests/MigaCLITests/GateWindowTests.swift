import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// The gate window for real: the built `miga` and `miga-gate-window` under Xvfb, no terminal,
/// keys pressed through XTEST (xdotool), the close button pressed as a window manager presses
/// it, and a screenshot of each state checked for "not blank".
final class GateWindowTests: XCTestCase {
    var home: MigaHome!
    var server: MigaHome.Child!
    var bus: MigaHome.Child?
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
        // MIGA_TEST_DISPLAY (a number) pins the display where other X servers share the machine.
        let pinned = ProcessInfo.processInfo.environment["MIGA_TEST_DISPLAY"].flatMap(Int.init)
        server = try home.start("/usr/bin/Xvfb", (pinned.map { [":\($0)"] } ?? ["-displayfd", "1"])
                                + ["-noreset", "-screen", "0", "1024x768x24", "-nolisten", "tcp"])
        var display = pinned.map(String.init) ?? ""
        eventually("Xvfb to start") {
            if pinned != nil { return FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(display)") }
            display = (try? String(contentsOfFile: self.server.stdoutPath, encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            return !display.isEmpty
        }
        environment = home.environment(["DISPLAY": ":" + display, "XDG_RUNTIME_DIR": home.root])
        try startSessionBus()
        try home.writeConfig("timer_seconds = 15\n")
    }

    override func tearDown() {
        if let bus { kill(bus.pid, SIGTERM); _ = bus.wait() }
        if let server { kill(server.pid, SIGTERM); _ = server.wait() }
    }

    /// A session bus of the test's own (the accessibility bus is started from it), so the
    /// tests read what is on screen as a screen reader does, over AT-SPI.
    func startSessionBus() throws {
        for tool in ["/usr/bin/dbus-daemon", "/usr/bin/python3", "/usr/libexec/at-spi-bus-launcher"]
            where !FileManager.default.isExecutableFile(atPath: tool) {
            XCTFail("\(tool) is missing: scripts/deps.sh installs dbus, at-spi2-core and python3-gi")
            throw XCTSkip("no \(tool)")
        }
        let address = "unix:path=" + home.root + "/session-bus"
        bus = try home.start("/usr/bin/dbus-daemon", ["--session", "--nofork", "--address=" + address], environment: environment)
        eventually("the session bus") { FileManager.default.fileExists(atPath: self.home.root + "/session-bus") }
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
    }

    func xdotool(_ arguments: [String]) throws -> MigaHome.Output {
        try home.run("/usr/bin/xdotool", arguments, environment: environment)
    }

    /// The gate's window, titled "miga" (the app's name is in its header), once it is there
    /// (`visible`: once it is mapped, so it can take the focus: the soft end's window is a new
    /// one, asked for while it appears).
    func window(visible: Bool = false) throws -> String {
        var id = ""
        try eventually("the window \"miga\"") {
            id = try xdotool(["search"] + (visible ? ["--onlyvisible"] : []) + ["--name", "^miga$"]).stdout
                .split(separator: "\n").first.map(String.init) ?? ""
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

    var accessible: AccessibleWindow { AccessibleWindow(home: home, environment: environment) }

    func screenshot(_ name: String) throws -> String { try accessible.screenshot(name) }

    /// Runs `body` with these processes stopped (SIGSTOP): a state that ends by itself (the
    /// celebration closes the window after 1.5 s, the gate gives it 3 s) stays on screen
    /// while it is photographed, however slow the machine is today.
    func holdingStill<T>(_ pids: [pid_t], _ body: () throws -> T) rethrows -> T {
        pids.forEach { kill($0, SIGSTOP) }
        defer { pids.forEach { kill($0, SIGCONT) } }
        return try body()
    }

    func windowPID(_ id: String) throws -> pid_t {
        pid_t(try xdotool(["getwindowpid", id]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    func startGate(_ extra: [String] = ["--flag", "a b", ""], environment extra2: [String: String] = [:]) throws -> MigaHome.Child {
        try home.start(home.binary, ["gate", "--app", "chat", "--detach", "--", home.recorder] + extra,
                       environment: environment.merging(extra2) { $1 })
    }

    func showing(places: Bool = false) throws -> [String] { try accessible.showing(places: places) }

    func waitForShowing(_ part: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try accessible.waitForShowing(part, what, file: file, line: line)
    }

    /// The countdown's three choices on screen (not a question's Exit, Back, Open).
    static let choices = "push button: Read Next (n)"

    /// Where `part` (a line of `showing()`) is on the screen: its frame as X, Y, width, height.
    func place(of part: String, in id: String, file: StaticString = #filePath, line: UInt = #line) throws -> (x: Int, y: Int, width: Int, height: Int) {
        var found: [Int] = []
        try eventually("\(part) on screen", file: file, line: line) {
            let row = try self.showing(places: true).first { $0.hasPrefix(part + " @") } ?? ""
            found = row.split(separator: "@").last?.split(whereSeparator: { $0 == "," || $0 == "x" }).compactMap { Int($0) } ?? []
            return found.count == 4
        }
        // Not found in time (said above): a failure of this test, not a trap of the process.
        let frame = try XCTUnwrap(found.count == 4 ? found : nil, "\(part) has no place on screen", file: file, line: line)
        let window = try geometry(id)
        return (window.x + frame[0], window.y + frame[1], frame[2], frame[3])
    }

    /// The window's place and size (xdotool getwindowgeometry).
    func geometry(_ id: String) throws -> (x: Int, y: Int, width: Int, height: Int) {
        let shell = try xdotool(["getwindowgeometry", "--shell", id]).stdout
        func value(_ key: String) -> Int {
            shell.split(separator: "\n").first { $0.hasPrefix(key + "=") }.flatMap { Int($0.dropFirst(key.count + 1)) } ?? 0
        }
        return (value("X"), value("Y"), value("WIDTH"), value("HEIGHT"))
    }

    /// Clicks (button 1, or 2: X's paste) in the middle of `part`, found as a screen reader finds it.
    func click(_ part: String, in id: String, button: String = "1", file: StaticString = #filePath, line: UInt = #line) throws {
        let box = try place(of: part, in: id, file: file, line: line)
        XCTAssertEqual(try xdotool(["mousemove", "--sync", String(box.x + box.width / 2), String(box.y + box.height / 2)]).status, 0)
        XCTAssertEqual(try xdotool(["click", button]).status, 0)
    }

    /// Whether the bottom row (Exit, Read Next, Open) is drawn: its band of the screen has the
    /// many shades of buttons and their text, not the one of a bare background. Pixels, not
    /// AT-SPI: the celebration that takes their place lasts 1.5 s.
    func buttonsDrawn(_ id: String) throws -> Bool {
        let window = try geometry(id)
        let path = home.root + "/bottom-row.png"
        XCTAssertEqual(try home.run("/usr/bin/import", ["-window", "root", path], environment: environment).status, 0)
        // The page's padding is 32 px each side and 20 px below; the buttons are 34 px high.
        let band = "\(window.width - 64)x30+\(window.x + 32)+\(window.y + window.height - 52)"
        let shades = try home.run("/usr/bin/convert", [path, "-crop", band, "+repage", "-format", "%k", "info:"],
                                  environment: environment).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return (Int(shades) ?? 0) > 8
    }

    /// The open_selected rows' detail, as stored (`NULL` for none).
    func openDetails() throws -> String {
        try home.sqlite("SELECT quote(detail) FROM events WHERE type = 'open_selected' ORDER BY id")
    }

    func testDoctorSaysHowDesktopLaunchesShowTheGate() throws {
        XCTAssertTrue(DoctorText.unwrapped(try home.miga(["doctor"], environment: environment).stdout)
            .contains("ok       window: desktop launches show the pause in a window"))
        let unreachable = DoctorText.unwrapped(try home.miga(["doctor"], environment: environment.merging(["DISPLAY": ":1999"]) { $1 }).stdout)
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

    // MARK: A desktop app

    func xprop(_ id: String, _ property: String) throws -> String {
        try home.run("/usr/bin/xprop", ["-id", id, property], environment: environment).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The window is the desktop's `app.miga.Gate` (docks find app.miga.Gate.desktop by it and
    /// say "miga"), titled "miga"; two gates at once are two windows of two processes.
    func testTheWindowIsAppMigaGateAndTwoGatesAreTwoProcesses() throws {
        let first = try startGate()
        let one = try window()
        try waitForEvents([.sessionStart])
        let second = try startGate()
        var ids: [String] = []
        try eventually("the second window") {
            ids = try xdotool(["search", "--name", "^miga$"]).stdout.split(separator: "\n").map(String.init)
            return ids.count == 2
        }
        let other = try XCTUnwrap(ids.first { $0 != one })
        XCTAssertEqual(try xprop(one, "WM_CLASS"), #"WM_CLASS(STRING) = "app.miga.Gate", "app.miga.Gate""#)
        XCTAssertEqual(try xprop(one, "WM_NAME"), #"WM_NAME(STRING) = "miga""#)
        XCTAssertNotEqual(try windowPID(one), try windowPID(other), "two gates, two processes")
        XCTAssertGreaterThan(try windowPID(other), 0)
        for (gate, id) in [(first, one), (second, other)] {
            try press("e", in: id)
            XCTAssertEqual(gate.wait().status, 0)
        }
    }

    /// A launcher's token is the window's: XDG_ACTIVATION_TOKEN (which GTK 4.8 itself does not
    /// read) becomes its startup id. On Open the window asks for a new one and the app gets it
    /// in both variables; the launcher's, spent and older than the Open, never reaches the app.
    func testOpenHandsTheAppANewActivationTokenAndNeverTheLaunchers() throws {
        let app = try home.writeFile("bin/envapp", mode: 0o755,
                                     "#!/bin/sh\nenv > \"$0.env.tmp\" && mv \"$0.env.tmp\" \"$0.env\"\n")
        let gate = try home.start(home.binary, ["gate", "--app", "chat", "--detach", "--", app],
                                  environment: environment.merging(["XDG_ACTIVATION_TOKEN": "launchers-token"]) { $1 })
        let id = try window()
        try waitForEvents([.sessionStart])
        let leader = try xprop(id, "WM_CLIENT_LEADER").split(separator: " ").last.map(String.init) ?? ""
        XCTAssertEqual(try xprop(leader, "_NET_STARTUP_ID"), #"_NET_STARTUP_ID(UTF8_STRING) = "launchers-token""#)
        try eventually(timeout: 30, "the countdown to end") { try home.events().contains { $0.type == .gatewayCompleted } }
        try press("Return", in: id)
        XCTAssertEqual(gate.wait().status, 0)
        var variables: [String: String] = [:]
        eventually("the app to start") {
            guard let text = try? String(contentsOfFile: app + ".env", encoding: .utf8) else { return false }
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: "=", maxSplits: 1)
                if parts.count == 2 { variables[String(parts[0])] = String(parts[1]) }
            }
            return true
        }
        let token = try XCTUnwrap(variables["DESKTOP_STARTUP_ID"], "\(variables)")
        XCTAssertEqual(variables["XDG_ACTIVATION_TOKEN"], token)
        XCTAssertNotEqual(token, "launchers-token")
        XCTAssertTrue(token.contains("_TIME"), "an X11 startup id with the Open's time: \(token)")
    }

    /// What a screen reader is told: the window's name "miga" and each button's name, over
    /// AT-SPI on a session bus of the test's own (the accessibility bus is started from it).
    func testAScreenReaderReadsTheWindowsNameAndItsButtons() throws {
        let gate = try startGate()
        let id = try window()
        try waitForEvents([.sessionStart])
        let read = try home.run("/usr/bin/python3", [MigaHome.repository + "/Tests/Fixtures/x11/atspi-names.py", "miga"],
                                environment: environment)
        XCTAssertEqual(read.status, 0, read.stderr)
        let lines = read.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "frame: miga")
        XCTAssertEqual(lines.filter { $0.hasPrefix("button: ") }.map { $0.replacing(#/ in \d+ s/#, with: "") },
                       ["button: Exit (e)", "button: Read Next (n)", "button: Open (o)"], read.stdout)
        try press("e", in: id)
        XCTAssertEqual(gate.wait().status, 0)
    }

    /// Read Next never makes the window jump: a one-line quote and a long article sit in the
    /// same card (the article scrolls inside it), so the window keeps its size.
    func testTheWindowKeepsItsSizeFromItemToItem() throws {
        let gate = try startGate()
        let id = try window()
        try waitForEvents([.sessionStart])
        func size() throws -> String {
            usleep(400_000) // a resize after the new item lands within a frame or two
            let shell = try xdotool(["getwindowgeometry", "--shell", id]).stdout
            return shell.split(separator: "\n").filter { $0.hasPrefix("WIDTH=") || $0.hasPrefix("HEIGHT=") }.joined(separator: " ")
        }
        var sizes = [try size()]
        for reads in 1...7 {
            try press("n", in: id)
            try waitForEvents([.sessionStart] + Array(repeating: .contentRead, count: reads))
            sizes.append(try size())
        }
        let shown = Set(try home.events().compactMap(\.contentID))
        XCTAssertEqual(shown.count, 8, "eight different items")
        XCTAssertEqual(Set(sizes).count, 1, "the window changed size: \(sizes)")
        try press("e", in: id)
        XCTAssertEqual(gate.wait().status, 0)
    }

    func testExitAndTheCloseButtonOpenNothing() throws {
        for (index, way) in ["e", "close-button"].enumerated() {
            let gate = try startGate()
            let id = try window()
            try eventually("the gate to start") { try home.events().filter { $0.type == .sessionStart }.count == index + 1 }
            if way == "e" {
                let window = try windowPID(id)
                try eventually("the buttons drawn") { try self.buttonsDrawn(id) }
                try press("e", in: id)
                // The celebration is up once the buttons have made way for it.
                try eventually("the celebration to show") { try !self.buttonsDrawn(id) }
                _ = try holdingStill([gate.pid, window]) { try screenshot("window-exit") }
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
        let pid = try windowPID(other)
        XCTAssertEqual(kill(pid, SIGKILL), 0, "window pid \(pid)")
        _ = second.wait()
        XCTAssertEqual(try home.events().map(\.type).last, .abandoned)
        XCTAssertNil(home.recordedArguments(), "a lost window never opens the app")
    }

    // MARK: Habits: the question before Open, the notes

    /// What each question shows first (its prompt), as `showing()` lists it.
    static let intention = "label: What are you here to do?"
    static let howLong = "label: For how long?"
    static let typeThis = "label: Type this to open:"

    /// Once the countdown is over, Open pressed in window `id` and its question (`prompt`, a
    /// line of `showing()`) on screen.
    func openUntilAsked(_ id: String, _ prompt: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try eventually(timeout: 30, "the countdown to end", file: file, line: line) {
            try home.events().contains { $0.type == .gatewayCompleted }
        }
        try press("o", in: id)
        try waitForShowing(prompt, "the question to show", file: file, line: line)
    }

    /// With `intention = true`: the gate's window once the countdown is over and Open was
    /// pressed, its question on screen.
    func openTheQuestion() throws -> (MigaHome.Child, String) {
        try home.writeConfig("intention = true\ntimer_seconds = 15\n")
        let gate = try startGate()
        let id = try window()
        try openUntilAsked(id, Self.intention)
        return (gate, id)
    }

    func testWithIntentionOnKeysAreTypedIntoTheQuestionAndEnterOpensWithTheAnswer() throws {
        let (gate, id) = try openTheQuestion()
        _ = try screenshot("window-question")
        // e, n, o, q and Space are letters here, not Exit, Read Next, Open: the tail is typed
        // and then erased, and nothing but the answer may come of it.
        XCTAssertEqual(try xdotool(["type", "--delay", "20", "reply to Sam on queue"]).status, 0)
        XCTAssertEqual(try xdotool(["key", "--delay", "20"] + Array(repeating: "BackSpace", count: " on queue".count)).status, 0)
        XCTAssertFalse(processEnded(gate.pid), "typing is not a choice")
        XCTAssertNil(home.recordedArguments())
        XCTAssertFalse(try home.events().contains { [.exitSelected, .contentRead, .openSelected].contains($0.type) })
        try press("Return", in: id)
        eventually("the app to start") { home.recordedInfo() != nil }
        XCTAssertEqual(home.recordedArguments(), ["--flag", "a b", ""])
        XCTAssertEqual(gate.wait().status, 0)
        XCTAssertTrue(try windowGone(id))
        XCTAssertEqual(try openDetails(), "'{\"intention\":\"reply to Sam\"}'")
    }

    /// A person who uses only the mouse: the question shows Exit, Back and Open as buttons;
    /// Back brings the choices again and Open, clicked, opens with the typed answer.
    func testTheQuestionCanBeAnsweredWithTheMouse() throws {
        let (gate, id) = try openTheQuestion()
        _ = try screenshot("window-question-buttons")
        XCTAssertEqual(try xdotool(["type", "--delay", "20", "read the news"]).status, 0)
        try click("push button: Back (Esc)", in: id)
        try waitForShowing(Self.choices, "the three choices again")
        XCTAssertNil(home.recordedArguments())
        try click("push button: Open (o)", in: id) // Open, again: the question
        try waitForShowing(Self.intention, "the question asked again")
        XCTAssertEqual(try xdotool(["type", "--delay", "20", "read the news"]).status, 0)
        try click("push button: Open (Enter)", in: id)
        eventually("the app to start") { home.recordedInfo() != nil }
        XCTAssertEqual(gate.wait().status, 0)
        XCTAssertEqual(try openDetails(), "'{\"intention\":\"read the news\"}'")
    }

    /// `ask_minutes`: after the intention, "For how long?" with a button per answer; Esc goes
    /// back, `3` answers by key, and a click on a button answers too; each is the Open.
    func testForHowLongAfterTheIntentionByKeyAndByClick() throws {
        try home.writeConfig("intention = true\nask_minutes = true\ntimer_seconds = 15\n")
        let gate = try startGate()
        let id = try window()
        try openUntilAsked(id, Self.intention)
        XCTAssertEqual(try xdotool(["type", "--delay", "20", "one reply"]).status, 0)
        try press("Return", in: id)
        try waitForShowing(Self.howLong, "the minutes question")
        _ = try screenshot("window-how-long")
        XCTAssertNil(home.recordedArguments(), "nothing opens before the answer")
        try press("Escape", in: id)
        try waitForShowing(Self.choices, "the three choices again")
        try press("o", in: id)
        try waitForShowing(Self.intention, "the intention question again")
        XCTAssertEqual(try xdotool(["type", "--delay", "20", "one reply"]).status, 0) // going back dropped the answer
        try press("Return", in: id)
        try waitForShowing(Self.howLong, "the minutes question again")
        try press("3", in: id)
        eventually("the app to start") { home.recordedInfo() != nil }
        XCTAssertEqual(gate.wait().status, 0)
        XCTAssertEqual(try openDetails(), "'{\"intention\":\"one reply\",\"minutes\":20}'")

        // By the mouse: the first of the four buttons, 5 minutes. (The twenty minutes just
        // declared are chat's grace: the history goes, so the next launch meets a gate.)
        try home.writeConfig("ask_minutes = true\ntimer_seconds = 15\ngrace_minutes = 0\n")
        _ = try home.sqlite("DELETE FROM events")
        for file in ["recorded.argv", "recorded.info"] { try FileManager.default.removeItem(atPath: home.root + "/" + file) }
        let clicked = try startGate()
        let second = try window()
        try openUntilAsked(second, Self.howLong)
        try click("push button: 5 min (1)", in: second)
        eventually("the app to start") { home.recordedInfo() != nil }
        XCTAssertEqual(clicked.wait().status, 0)
        let details = try openDetails()
        XCTAssertTrue(details.hasSuffix("'{\"minutes\":5}'"), details)
    }

    /// A desktop app opened for five minutes, still running, with the watch beside it;
    /// the app's pid.
    func openForFiveMinutes() throws -> Int32 {
        try home.writeConfig("ask_minutes = true\ntimer_seconds = 15\ngrace_minutes = 0\n")
        let gate = try startGate(environment: ["RECORDER_SLEEP": "300"])
        let id = try window()
        try openUntilAsked(id, Self.howLong)
        try press("1", in: id)
        eventually("the app to start") { home.recordedInfo() != nil }
        XCTAssertEqual(gate.wait().status, 0, "the gate is done; the watch is not the gate")
        let info = try XCTUnwrap(home.recordedInfo())
        return try XCTUnwrap(info.split(separator: " ").first { $0.hasPrefix("pid=") }.flatMap { Int32($0.dropFirst(4)) })
    }

    /// Moves the Open (and any answer to its soft end) back by `minutes`, as if they had
    /// passed (the watch reads the store, and measures by the wall clock, a suspend included).
    func pass(minutes: Int) throws {
        _ = try home.sqlite("UPDATE events SET ts = ts - \(minutes * 60_000) WHERE type IN ('open_selected', 'timebox_ended')")
    }

    func timeboxEndings() throws -> [String] {
        try home.events().filter { $0.type == .timeboxEnded }.compactMap(\.detail)
    }

    /// The soft end in the window: "5 more minutes" once (the second soft end has no such
    /// button), then Close, which sends SIGTERM to the app's process group.
    func testTheSoftEndAsksInTheWindowThenClosesTheApp() throws {
        let pid = try openForFiveMinutes()
        defer { kill(pid, SIGKILL) }
        XCTAssertEqual(try home.events().last { $0.type == .openSelected }?.detail, #"{"minutes":5}"#)
        try pass(minutes: 5)
        let first = try window(visible: true)
        let picture = try screenshot("window-soft-end")
        _ = picture
        try press("m", in: first)
        try eventually("5 more minutes recorded") { try self.timeboxEndings().count == 1 }
        let extended = try timeboxEndings()[0]
        XCTAssertTrue(extended.hasPrefix(#"{"minutes":5,"choice":"extend","used":5"#), extended)
        try eventually("the window to close") { try self.windowGone(first) }
        XCTAssertFalse(processEnded(pid), "the app runs on")
        try pass(minutes: 5)
        let second = try window(visible: true)
        _ = try screenshot("window-soft-end-again")
        try press("m", in: second)
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertEqual(try timeboxEndings().count, 1, "5 more minutes is offered once")
        try press("c", in: second)
        eventually("the app to close") { processEnded(pid) }
        try eventually("Close recorded") { try self.timeboxEndings().count == 2 }
        let closed = try timeboxEndings()[1]
        XCTAssertTrue(closed.hasPrefix(#"{"minutes":10,"choice":"close","used":10"#), closed)
    }

    /// A minute before the end, a quiet notification; and an app that ignores SIGTERM is not
    /// forced: the person is told it is still running. (notify-send is a stand-in that keeps
    /// what it was asked to say.)
    func testANoticeAMinuteBeforeAndAnAppThatWillNotClose() throws {
        let said = home.root + "/notified"
        try home.writeFile("notify/notify-send", mode: 0o755, "#!/bin/sh\nprintf '%s\\n' \"$*\" >> \(shellQuote(said))\n")
        try home.writeFile("bin/stubborn", mode: 0o755, """
            #!/bin/sh
            trap '' TERM
            echo $$ > "$(dirname "$0")/../stubborn.pid"
            while :; do sleep 1; done
            """)
        environment["PATH"] = home.root + "/notify:" + (environment["PATH"] ?? "/usr/bin:/bin")
        try home.writeConfig("ask_minutes = true\ntimer_seconds = 15\ngrace_minutes = 0\n")
        let gate = try home.start(home.binary, ["gate", "--app", "chat", "--detach", "--", home.root + "/bin/stubborn"], environment: environment)
        let id = try window()
        try openUntilAsked(id, Self.howLong)
        try press("1", in: id)
        XCTAssertEqual(gate.wait().status, 0)
        var pid: Int32 = 0
        eventually("the app to start") {
            pid = Int32((try? String(contentsOfFile: self.home.root + "/stubborn.pid", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
            return pid > 0
        }
        defer { kill(-pid, SIGKILL) }
        try pass(minutes: 4)
        eventually("the notice a minute before") {
            ((try? String(contentsOfFile: said, encoding: .utf8)) ?? "").contains("1 minute left of your 5 in chat")
        }
        try pass(minutes: 1)
        try press("c", in: try window(visible: true))
        eventually(timeout: 20, "word that it did not close") {
            ((try? String(contentsOfFile: said, encoding: .utf8)) ?? "").contains("chat did not close when asked; it is still running")
        }
        XCTAssertFalse(processEnded(pid), "never forced")
        XCTAssertTrue(try timeboxEndings().last?.contains(#""choice":"close""#) ?? false)
    }

    /// Keep going leaves the app alone; an app closed before its end is recorded as `gone`,
    /// with no window.
    func testKeepGoingAndAnAppAlreadyGone() throws {
        let pid = try openForFiveMinutes()
        defer { kill(pid, SIGKILL) }
        try pass(minutes: 5)
        try press("k", in: try window(visible: true))
        try eventually("Keep going recorded") { try self.timeboxEndings().count == 1 }
        XCTAssertTrue(try timeboxEndings()[0].contains(#""choice":"keep""#))
        XCTAssertFalse(processEnded(pid))
        kill(pid, SIGKILL)

        for file in ["recorded.argv", "recorded.info"] { try FileManager.default.removeItem(atPath: home.root + "/" + file) }
        _ = try home.sqlite("DELETE FROM events")
        let second = try openForFiveMinutes()
        kill(-second, SIGTERM)
        try eventually("gone recorded") { try self.timeboxEndings().count == 1 }
        let gone = try timeboxEndings()[0]
        XCTAssertTrue(gone.contains(#""choice":"gone""#), gone)
    }

    func testEscInTheQuestionGoesBackAndAnEmptyAnswerStillOpens() throws {
        let (gate, id) = try openTheQuestion()
        try press("Escape", in: id)
        try waitForShowing(Self.choices, "the three choices again")
        XCTAssertFalse(try windowGone(id), "Esc in the question is not Exit")
        XCTAssertFalse(processEnded(gate.pid))
        XCTAssertFalse(try home.events().contains { [.exitSelected, .openSelected].contains($0.type) })
        XCTAssertNil(home.recordedArguments())
        try press("o", in: id)
        try waitForShowing(Self.intention, "the question asked again")
        try press("Return", in: id)
        eventually("the app to start") { home.recordedInfo() != nil }
        XCTAssertEqual(gate.wait().status, 0)
        XCTAssertEqual(try openDetails(), "NULL", "an empty answer opens and stores nothing")
    }

    /// "3rd time today" for real: two gates exited, then a third. The window is started through
    /// a recorder (`MIGA_GATE_WINDOW`, the documented way to name the window program) that keeps
    /// what the gate told it; the window shows the notes under the header, a line of text with
    /// room of its own: drawn, not only sent. The recorder keeps what the window answered
    /// too, so the screenshot waits for the window's `shown` (its first frame painted), not
    /// only for the lines sent.
    func testTheThirdGateTodaySaysSoUnderTheHeader() throws {
        for attempt in 1...2 {
            let gate = try startGate()
            let id = try window()
            try eventually("gate \(attempt) to start") { try home.events().filter { $0.type == .sessionStart }.count == attempt }
            try press("e", in: id)
            XCTAssertEqual(gate.wait().status, 0)
            try eventually("window \(attempt) to go") { try windowGone(id) }
        }
        let real = URL(fileURLWithPath: home.binary).deletingLastPathComponent().appendingPathComponent("miga-gate-window").path
        let log = home.root + "/window-input.log", answers = home.root + "/window-output.log"
        let recorder = try home.writeFile("bin/recording-window", mode: 0o755,
                                          "#!/bin/sh\ntee \(shellQuote(log)) | \(shellQuote(real)) | tee \(shellQuote(answers))\n")
        let gate = try startGate(environment: ["MIGA_GATE_WINDOW": recorder])
        let id = try window()
        var lines: [String] = []
        eventually("the gate's first lines to the window") {
            lines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            return lines.contains { $0.hasPrefix("item\t") } && lines.contains { $0.hasPrefix("tick\t") }
        }
        XCTAssertTrue(lines.contains("notes\t3rd time today"), "\(lines.filter { !$0.hasPrefix("tick") })")
        eventually("the window to paint its first frame") {
            ((try? String(contentsOfFile: answers, encoding: .utf8)) ?? "").contains("shown\n")
        }
        _ = try screenshot("window-notes")
        let header = try place(of: "label: miga · chat", in: id)
        let notes = try place(of: "label: 3rd time today", in: id)
        XCTAssertGreaterThanOrEqual(notes.height, 12, "a line of notes takes room: \(notes)")
        XCTAssertGreaterThanOrEqual(notes.y, header.y + header.height, "under the header: \(notes) against \(header)")
        // The next thing a screen reader reads, the item, is drawn below them.
        let next = try showing().drop { $0 != "label: 3rd time today" }.dropFirst().first { $0.hasPrefix("label: ") }
        let item = try place(of: try XCTUnwrap(next), in: id)
        XCTAssertGreaterThanOrEqual(item.y, notes.y + notes.height, "above the item: \(notes) against \(item)")
        try press("e", in: id)
        XCTAssertEqual(gate.wait().status, 0)
        try eventually("the gate's window to go") { try windowGone(id) }
    }
}
