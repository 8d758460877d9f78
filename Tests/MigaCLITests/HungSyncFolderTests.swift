import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// DESIGN "The sync folder is someone else's disk": the folder may hang (a dead network mount,
/// a stalled stick), and no gate's frame, keys, countdown or launch waits on it; what could
/// not be written while it hung reaches the journal through the next miga. The folder here is
/// on `HangingFilesystem`, set up while it answers (this machine's subfolder and journal exist)
/// and then told to stop answering.
///
/// Each step is timed: within `bound` it passes. Past it, the stall is held to `hold` s and
/// then released, so a failure says how long the step really waited (the whole stall, or
/// only part of it) and which of miga's calls were left waiting on the folder.
final class HungSyncFolderTests: XCTestCase {
    var disk: HangingFilesystem!
    var home: MigaHome!

    /// What a step may take with the folder hung: a debug-built miga starting on a busy machine.
    static let bound = 2.5
    /// How long a step that overran `bound` is left stalled before the folder answers again.
    static let hold = 6.0
    /// What Exit's celebration adds before the gate ends.
    static let celebration = 2.0

    var folder: String { disk.mountPoint + "/miga" }

    override func setUpWithError() throws {
        disk = try HangingFilesystem()
        home = try MigaHome()
        try home.writeConfig("timer_seconds = 15\ngrace_minutes = 0\n")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let on = try home.miga(["config", "set", "sync_folder", folder])
        XCTAssertEqual(on.status, 0, on.stderr)
        // One event, journaled: this machine's subfolder and this month's file are there.
        XCTAssertEqual(try home.miga(["gate", "--app", "before", "--", "/bin/true"]).status, 0)
        let status = try home.miga(["sync", "status"])
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertEqual(try journaled().map(\.app), ["before"])
    }

    override func tearDown() {
        // First, whatever still waits on the folder goes on; then nothing is mounted.
        disk?.stop()
        disk = nil
        home = nil
    }

    // MARK: The cases

    /// The stand-in itself: while stalled, a plain `stat` of the folder waits, and goes on
    /// once released. (Every other test here means something only if this one passes.)
    func testTheStandInStopsAnsweringAndAnswersAgain() throws {
        disk.stall()
        let probe = try home.start("/usr/bin/stat", [folder])
        usleep(500_000)
        XCTAssertFalse(processEnded(probe.pid), "stat answered while the folder was stalled")
        XCTAssertEqual(disk.stalledOperations().last, "getattr /miga")
        disk.release()
        let answered = probe.wait()
        XCTAssertEqual(answered.status, 0, answered.stderr)
    }

    /// A launch without a terminal or a window opens the app at once; its event is kept.
    func testALaunchWithoutATerminalDoesNotWaitForAHungFolder() throws {
        disk.stall()
        let start = Date()
        let launch = try home.start(home.binary, ["gate", "--app", "chat", "--", home.recorder, "opened"])
        defer { disk.release(); kill(launch.pid, SIGKILL); _ = launch.wait() } // (a process waiting on FUSE ignores SIGKILL)
        expectNoWait("the app to start (no terminal)", since: start, watching: launch.pid) { home.recordedArguments() != nil }
        XCTAssertEqual(home.recordedArguments(), ["opened"])
        expectNoWait("the launch to end", since: Date(), watching: launch.pid) { processEnded(launch.pid) }
        XCTAssertEqual(try home.events().last?.type, .gatewaySkipped, "recorded in the database while the folder hung")
    }

    /// A gate in a terminal: its first frame, its countdown and its keys go on while the folder
    /// hangs, though each key records an event (which today appends to the journal inside the
    /// write transaction).
    func testATerminalGateDrawsCountsAndTakesKeysWhileTheFolderHangs() throws {
        disk.stall()
        let start = Date()
        let terminal = try startGate("discord")
        expectNoWait("the gate's first frame", since: start, in: terminal) { terminal.screen().contains("[e] Exit") }
        let framed = Date()

        let shown = secondsLeft(terminal.screen()) ?? 15
        expectNoWait("the countdown to count on from \(shown) s", since: Date(), in: terminal) {
            secondsLeft(terminal.screen()).map { $0 < shown } ?? terminal.screen().contains("ready")
        }
        let before = try home.events().count
        try terminal.press("n")
        expectNoWait("Read next to be taken (content_read in the database)", since: Date(), in: terminal) {
            try home.events().dropFirst(before).contains { $0.type == .contentRead }
        }
        // (Only while Open is still locked: after a step that waited out a stall it may not be.)
        if let left = secondsLeft(terminal.screen()), left > 2 {
            try terminal.press("o")
            expectNoWait("locked Open to say when it unlocks", since: Date(), in: terminal) { terminal.screen().contains("Open unlocks in") }
        }
        // The countdown ends on time: 15 s after the first frame, and a little for a busy machine.
        let remaining = max(0, 15 - Date().timeIntervalSince(framed))
        expectNoWait("the countdown to reach ready", since: Date(), in: terminal, allowing: remaining) {
            terminal.screen().contains("━  ready")
        }
        try terminal.press("Enter")
        expectNoWait("Open to start the app", since: Date(), in: terminal) { home.recordedArguments() != nil }
        expectNoWait("the gate to end", since: Date(), in: terminal) { terminal.screen().contains("STATUS=0") }
        XCTAssertEqual(home.recordedArguments(), ["x"])
        XCTAssertEqual(try home.events().suffix(4).map(\.type), [.sessionStart, .contentRead, .gatewayCompleted, .openSelected])
    }

    /// `sync_config = true`: the shared copy of config.toml is in the hung folder, and the
    /// gate's first frame does not wait to read it.
    func testWithASharedConfigTheFirstFrameDoesNotWaitForAHungFolder() throws {
        let shared = try home.miga(["config", "set", "sync_config", "true"])
        XCTAssertEqual(shared.status, 0, shared.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: disk.backing + "/miga/config.toml"), "the shared copy is in the folder")
        disk.stall()
        let start = Date()
        let terminal = try startGate("discord")
        expectNoWait("the gate's first frame (sync_config)", since: start, in: terminal) { terminal.screen().contains("[e] Exit") }
        try exit(terminal, " (sync_config)")
        XCTAssertNil(home.recordedArguments(), "Exit opens nothing")
    }

    /// Nothing is lost: what was recorded while the folder hung reaches the journal through
    /// the next miga once the folder answers again, each event once.
    func testWhatTheHungFolderMissedReachesTheJournalOnceItAnswers() throws {
        disk.stall()
        var start = Date()
        let launch = try home.start(home.binary, ["gate", "--app", "chat", "--", "/bin/true"])
        defer { disk.release(); kill(launch.pid, SIGKILL); _ = launch.wait() } // (a process waiting on FUSE ignores SIGKILL)
        expectNoWait("a launch without a terminal to end", since: start, watching: launch.pid) { processEnded(launch.pid) }
        start = Date()
        let terminal = try startGate("discord")
        expectNoWait("the gate's first frame", since: start, in: terminal) { terminal.screen().contains("[e] Exit") }
        expectNoWait("session_start in the database", since: start, in: terminal) { try home.events().last?.type == .sessionStart }
        try exit(terminal)
        let recorded = try home.events() // this machine's alone: no other machine writes here
        XCTAssertEqual(recorded.map(\.type), [.gatewaySkipped, .gatewaySkipped, .sessionStart, .exitSelected])
        // Each of those launches asked for a push; one waits on the folder, the others gave up
        // (the journal's lock) rather than pile up behind it.
        eventually(timeout: 5, "the pushes beyond the first to give up") { self.waitingPushes() <= 1 }
        XCTAssertEqual(waitingPushes(), 1, "the one holding the journal's lock waits on the folder")

        disk.release()
        let status = try home.miga(["sync", "status"])
        XCTAssertEqual(status.status, 0, status.stderr)
        let journal = try journaled()
        XCTAssertEqual(journal.map(\.session), recorded.map(\.session), "every event once, in order:\n\(journal)")
        XCTAssertEqual(journal.map(\.type), recorded.map(\.type))
        XCTAssertEqual(try home.miga(["sync", "status", "--json"]).stdout.contains("\"behind\":false"), true)
    }

    // MARK: Helpers

    /// `miga sync push` processes of this home still running.
    func waitingPushes() -> Int {
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { Int32($0) } ?? []
        return pids.filter { pid in
            guard let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
                  String(decoding: command, as: UTF8.self).split(separator: "\0").suffix(2) == ["sync", "push"],
                  let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return false }
            return String(decoding: environ, as: UTF8.self).split(separator: "\0").contains { $0 == "HOME=\(home.home)" }
        }.count
    }

    /// `miga gate --app APP -- recorder x` in a terminal, the folder's state as it is.
    func startGate(_ app: String) throws -> TmuxTerminal {
        try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) gate --app \(app) -- \(shellQuote(home.recorder)) x",
                         environment: home.environment())
    }

    /// Exit: taken at once (exit_selected in the database), and the gate ends after its
    /// celebration (about 1.5 s) without waiting for the folder.
    func exit(_ terminal: TmuxTerminal, _ note: String = "", file: StaticString = #filePath, line: UInt = #line) throws {
        let pressed = Date()
        try terminal.press("e")
        let taken = expectNoWait("Exit to be taken (exit_selected in the database)\(note)", since: pressed, in: terminal, file: file, line: line) {
            try home.events().last?.type == .exitSelected
        }
        // Timed from the key, or, after a step that waited out a stall, from now.
        expectNoWait("the gate to end after Exit\(note)", since: taken ? pressed : Date(), in: terminal, allowing: Self.celebration,
                     file: file, line: line) { terminal.screen().contains("STATUS=0") }
    }

    /// This machine's journal as the disk behind the mount holds it (read beside the mount,
    /// so a test never waits on it): its events, the header line left out.
    func journaled() throws -> [Event] {
        let id = try String(contentsOfFile: home.home + "/.local/state/miga/device", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let text = try String(contentsOfFile: disk.backing + "/miga/\(id)/" + FilePathName.month(), encoding: .utf8)
        return text.split(separator: "\n").compactMap { try? EventLine.parse(Data($0.utf8)) }
    }

    func secondsLeft(_ screen: String) -> Int? {
        guard let range = screen.range(of: #"Open in \d+ s"#, options: .regularExpression) else { return nil }
        return Int(screen[range].dropFirst("Open in ".count).dropLast(2))
    }

    /// `expectNoWait` for the miga running in `terminal` (the child of its shell).
    @discardableResult
    func expectNoWait(_ what: String, since start: Date, in terminal: TmuxTerminal, allowing extra: Double = 0,
                      file: StaticString = #filePath, line: UInt = #line, _ condition: () throws -> Bool) -> Bool {
        let shell = pid_t(terminal.display("#{pane_pid}")) ?? 0
        return expectNoWait(what, since: start, watching: { Self.children(of: shell).first }, allowing: extra,
                            file: file, line: line, condition)
    }

    @discardableResult
    func expectNoWait(_ what: String, since start: Date, watching pid: pid_t, allowing extra: Double = 0,
                      file: StaticString = #filePath, line: UInt = #line, _ condition: () throws -> Bool) -> Bool {
        expectNoWait(what, since: start, watching: { pid }, allowing: extra, file: file, line: line, condition)
    }

    /// Waits for `condition`, which must hold within `bound` (+ `extra`) s of `start` with the
    /// folder hung. Past that: notes where `watching` waits (its threads' kernel stacks, the
    /// operations left waiting on the mount), holds the stall to `hold` s, releases it, and
    /// fails with the time the step really took; the stall is then set again for the next step.
    /// Returns whether it held in time.
    @discardableResult
    func expectNoWait(_ what: String, since start: Date, watching: () -> pid_t?, allowing extra: Double,
                      file: StaticString, line: UInt, _ condition: () throws -> Bool) -> Bool {
        let holds = { (try? condition()) ?? false }
        let bound = Self.bound + extra
        if let took = wait(until: start.addingTimeInterval(bound), holds) {
            print("HungSyncFolderTests: \(what): \(format(took, since: start)) (folder hung)")
            return true
        }
        let stacks = watching().map { "miga \($0), in the kernel:\n" + HangingFilesystem.kernelStacks(of: $0) } ?? "(no miga process found)"
        let waiting = disk.stalledOperations()
        var story: String
        if wait(until: start.addingTimeInterval(bound + Self.hold), holds) != nil {
            story = "took \(format(Date(), since: start)) with the folder still hung"
        } else {
            let released = Date()
            disk.release()
            if wait(until: released.addingTimeInterval(30), holds) != nil {
                story = "waited the whole stall: went on only when the folder answered again, "
                    + "\(format(released, since: start)) after it began, then took \(format(Date(), since: released)) more"
            } else {
                story = "did not happen within 30 s even after the folder answered again"
            }
            disk.stall()
        }
        print("HungSyncFolderTests: \(what): \(story)")
        XCTFail("\(what) \(story) (allowed: \(bound) s).\nOperations left waiting on the folder: "
                + "\(waiting.suffix(12))\n\(stacks)", file: file, line: line)
        return false
    }

    /// The time at which `condition` first held, polled every 20 ms, or nil past `deadline`.
    func wait(until deadline: Date, _ condition: () -> Bool) -> Date? {
        while true {
            if condition() { return Date() }
            if Date() > deadline { return nil }
            usleep(20_000)
        }
    }

    func format(_ end: Date, since start: Date) -> String {
        String(format: "%.2f s", end.timeIntervalSince(start))
    }

    /// The processes whose parent is `pid`, lowest first.
    static func children(of pid: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(pid_t.init).filter { candidate in
            guard let stat = try? String(contentsOfFile: "/proc/\(candidate)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == pid
        }.sorted()
    }
}
