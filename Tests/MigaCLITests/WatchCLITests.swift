import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// What a program wrote to a pipe so far, read as it comes.
final class PipeLines: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    init(_ pipe: Pipe) {
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in self?.append(handle.availableData) }
    }

    private func append(_ more: Data) {
        lock.lock()
        data.append(more)
        lock.unlock()
    }

    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}

/// `miga watch --shell` through the built binary, as the GNOME Shell extension runs it: the
/// test speaks the extension's side of the line protocol; the gate it starts shows in a
/// stand-in window program (`MIGA_GATE_WINDOW`) that answers Exit at once.
final class WatchCLITests: XCTestCase, HabitsCase {
    var home: MigaHome!
    var environment: [String: String] = [:]

    override func setUpWithError() throws {
        home = try MigaHome()
        // Exit once the countdown has moved (a second tick), so the gate has taken `shown`
        // first; then it keeps its stdout open until the gate closes its stdin.
        let window = try home.writeFile("bin/exiting-window", mode: 0o755, """
            #!/bin/sh
            echo shown
            ticks=0
            while IFS= read -r line; do
              case "$line" in tick*) ticks=$((ticks + 1)); if [ "$ticks" -ge 2 ]; then echo exit; break; fi ;; esac
            done
            cat >/dev/null

            """)
        environment = home.environment(["DISPLAY": ":99", "MIGA_GATE_WINDOW": window, "XDG_RUNTIME_DIR": home.root,
                                        "MIGA_IDLE_SECONDS": "20", "MIGA_FOCUS_TICK_SECONDS": "1"])
    }

    /// The watcher, its stdin to write to and its stdout's lines.
    func startWatcher(_ arguments: [String] = ["watch", "--shell"]) throws -> (process: Process, input: FileHandle, output: PipeLines) {
        let process = Process(), input = Pipe(), output = Pipe()
        process.executableURL = URL(fileURLWithPath: home.binary)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        let lines = PipeLines(output)
        try process.run()
        eventually("hello") { lines.lines.first == #"{"type":"hello","version":1}"# }
        return (process, input.fileHandleForWriting, lines)
    }

    func finish(_ watcher: (process: Process, input: FileHandle, output: PipeLines)) {
        try? watcher.input.close()
        eventually("the watcher to end at the end of its input") { !watcher.process.isRunning }
        XCTAssertEqual(watcher.process.terminationStatus, 0)
    }

    func testAGatedWindowFirstSeenMeetsTheGateAndExitMinimisesIt() throws {
        try home.writeConfig("timer_seconds = 15\nreentry_minutes = 10\n[apps.chat]\ncommand = \"true\"\n")
        let watcher = try startWatcher()
        watcher.input.write(Data((#"{"type":"focus","window":"17","desktop_id":null,"wm_class":["chat","Chat"],"pid":1}"# + "\n").utf8))
        eventually("the window minimised") { watcher.output.lines.contains(#"{"type":"minimise","window":"17"}"#) }
        let events = try home.events().filter { $0.type != .gatewayCompleted }
        XCTAssertEqual(events.map(\.type), [.sessionStart, .exitSelected])
        XCTAssertEqual(events.first?.detail, #"{"reentry":true}"#)
        XCTAssertFalse(watcher.output.lines.contains { $0.contains("raise") })
        finish(watcher)
    }

    /// Focused time, with the test's one-second tick; idleness watched only while a gated
    /// window is in front.
    func testFocusedSecondsAreRecordedWhileAGatedWindowIsInFront() throws {
        try home.writeConfig("[apps.chat]\ncommand = \"true\"\n")
        let watcher = try startWatcher()
        watcher.input.write(Data((#"{"type":"focus","window":"3","app_id":"chat"}"# + "\n").utf8))
        eventually("idleness watched") { watcher.output.lines.contains(#"{"type":"watch_idle","on":true,"idle_seconds":20}"#) }
        try eventually("two focused seconds") { try home.events().filter { $0.type == .focus }.count >= 2 }
        watcher.input.write(Data((#"{"type":"focus","window":"4","app_id":"org.gnome.TextEditor"}"# + "\n").utf8))
        eventually("idleness no longer watched") { watcher.output.lines.contains(#"{"type":"watch_idle","on":false}"#) }
        finish(watcher)
        XCTAssertTrue(try home.events().filter { $0.type == .focus }.allSatisfy { $0.app == "chat" && $0.detail == #"{"seconds":1}"# })
    }

    /// With a gated window in front and the person not idle, the watcher wakes once a tick
    /// (a minute) to write it, and otherwise sleeps; with nothing gated in front it sleeps
    /// outright (bench/idle.sh counts the same over a minute).
    func testTheWatcherSleepsBetweenTicksAndWhileNothingIsGated() throws {
        try home.writeConfig("[apps.chat]\ncommand = \"true\"\n")
        environment["MIGA_FOCUS_TICK_SECONDS"] = "60"
        let watcher = try startWatcher()
        watcher.input.write(Data((#"{"type":"focus","window":"3","app_id":"chat"}"# + "\n").utf8))
        eventually("idleness watched") { watcher.output.lines.contains(#"{"type":"watch_idle","on":true,"idle_seconds":20}"#) }
        usleep(300_000)
        var before = voluntaryWakeups(watcher.process.processIdentifier)
        Thread.sleep(forTimeInterval: 3)
        XCTAssertLessThanOrEqual(voluntaryWakeups(watcher.process.processIdentifier) - before, 1, "a watcher counting a minute woke before it (it polled?)")

        watcher.input.write(Data((#"{"type":"focus","window":"4","app_id":"org.gnome.TextEditor"}"# + "\n").utf8))
        eventually("idleness no longer watched") { watcher.output.lines.contains(#"{"type":"watch_idle","on":false}"#) }
        usleep(300_000)
        before = voluntaryWakeups(watcher.process.processIdentifier)
        Thread.sleep(forTimeInterval: 3)
        XCTAssertLessThanOrEqual(voluntaryWakeups(watcher.process.processIdentifier) - before, 1, "a watcher with nothing gated in front woke (it polled?)")
        finish(watcher)
    }

    /// The budget's soft end for a window miga did not start: asked in the gate window (a
    /// stand-in that answers Close), recorded once, and Close asks the window to close.
    func testTheBudgetsSoftEndAsksOnceAndCloseAsksTheWindowToClose() throws {
        let window = try home.writeFile("bin/closing-window", mode: 0o755, """
            #!/bin/sh
            while IFS= read -r line; do
              case "$line" in soft-end*) echo shown; printf 'soft-end-choice\\tclose\\n' ;; esac
            done

            """)
        environment["MIGA_GATE_WINDOW"] = window
        try home.writeConfig("[apps.chat]\ncommand = \"true\"\nminutes_per_day = 1\n")
        try importToday([(.focus, "chat", 30, #"{"seconds":58}"#)])
        let watcher = try startWatcher()
        watcher.input.write(Data((#"{"type":"focus","window":"8","wm_class":["chat","chat"]}"# + "\n").utf8))
        eventually("the window asked to close") { watcher.output.lines.contains(#"{"type":"close","window":"8"}"#) }
        try eventually("a few more seconds") { try home.events().filter { $0.type == .focus }.count >= 5 }
        finish(watcher)
        XCTAssertEqual(try home.events().filter { $0.type == .timeboxEnded }.map(\.detail), [#"{"budget":true,"minutes":1,"choice":"close"}"#])
        XCTAssertEqual(watcher.output.lines.filter { $0.contains("close") }.count, 1, "asked once")
    }

    func testOneWatcherPerUser() throws {
        try home.writeConfig("[apps.chat]\ncommand = \"true\"\n")
        let watcher = try startWatcher()
        let second = try home.miga(["watch"], environment: environment.merging(["DISPLAY": "", "XDG_SESSION_TYPE": "x11"]) { $1 })
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stderr.contains("a watcher is already running for you"), second.stderr)
        finish(watcher)
    }

    func testAWaylandSessionThatIsNotGNOMEIsSaidAndLeft() throws {
        let result = try home.miga(["watch"], environment: environment.merging(["WAYLAND_DISPLAY": "wayland-0",
                                                                                "XDG_CURRENT_DESKTOP": "KDE"]) { $1 })
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.hasPrefix("miga watch: this is a Wayland session (KDE)"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
    }
}
