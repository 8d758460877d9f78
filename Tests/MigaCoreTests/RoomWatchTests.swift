import Foundation
import XCTest
@testable import MigaCore
import MigaTestSupport

/// A desktop that says what a test scripted, moving the fake clock as time passes between its
/// events, and keeps what the watcher asked of it.
final class ScriptedDesktop: DesktopSession {
    /// Each event after so many milliseconds (from the one before).
    var script: [(after: Int, event: DesktopEvent)]
    let clock: FakeClock
    var actions: [String] = []
    /// What happens just before step N (0-based) is told, such as an edit of the config.
    var beforeStep: [Int: () -> Void] = [:]
    private var step = 0

    init(clock: FakeClock, _ script: [(after: Int, event: DesktopEvent)]) {
        self.clock = clock
        self.script = script
    }

    func next(milliseconds: Int32?) throws -> DesktopEvent? {
        guard let step = script.first else { throw DesktopSessionEnded("the script ended") }
        if let milliseconds, step.after > Int(milliseconds) {
            clock.advance(seconds: Double(milliseconds) / 1000)
            script[0].after -= Int(milliseconds)
            return nil
        }
        clock.advance(seconds: Double(step.after) / 1000)
        script.removeFirst()
        beforeStep[self.step]?()
        self.step += 1
        return step.event
    }

    func raise(_ window: String) { actions.append("raise \(window)") }
    func minimise(_ window: String) { actions.append("minimise \(window)") }
    func close(_ window: String) { actions.append("close \(window)") }
    func watchIdle(_ on: Bool, idleSeconds: Int) { actions.append(on ? "idle on \(idleSeconds)" : "idle off") }
    func activationEnvironment() -> [String: String] { ["DESKTOP_STARTUP_ID": "test"] }
}

/// The coming-back gate's answers, in order (nil: it failed), each taking `seconds`.
final class ScriptedGate: ReentryGateRunner {
    var answers: [Gatekeeper.ReentryAnswer?]
    var asked: [String] = []
    var environments: [[String: String]] = []
    let clock: FakeClock
    var seconds = 20.0

    init(clock: FakeClock, _ answers: [Gatekeeper.ReentryAnswer?]) {
        self.clock = clock
        self.answers = answers
    }

    func run(app: String, environment: [String: String]) -> Gatekeeper.ReentryAnswer? {
        asked.append(app)
        environments.append(environment)
        clock.advance(seconds: seconds)
        return answers.isEmpty ? .open : answers.removeFirst()
    }
}

/// DESIGN "The room, not just the door" on the desktop: `RoomWatch`'s rules, in-process, with
/// a scripted desktop and a fake clock.
final class RoomWatchTests: XCTestCase {
    var root: TemporaryDirectory!
    var clock: FakeClock!
    var context: MigaContext!

    override func setUpWithError() throws {
        (root, clock, context) = try TestContext.withFakeClock()
    }

    func writeConfig(_ text: String) throws {
        try FileManager.default.createDirectory(atPath: context.paths.configDirectory, withIntermediateDirectories: true)
        try text.write(toFile: context.paths.configFile, atomically: true, encoding: .utf8)
    }

    static let discord = WindowFacts(id: "17", wmClass: ["discord", "discord"], pid: nil)
    static let editor = WindowFacts(id: "5", applicationID: "org.gnome.TextEditor")

    func watch(_ script: [(after: Int, event: DesktopEvent)], answers: [Gatekeeper.ReentryAnswer?] = [])
        -> (desktop: ScriptedDesktop, gate: ScriptedGate, watch: RoomWatch) {
        let desktop = ScriptedDesktop(clock: clock, script), gate = ScriptedGate(clock: clock, answers)
        let watch = RoomWatch(context: context, session: desktop, gate: gate)
        return (desktop, gate, watch)
    }

    func events(_ type: EventType) throws -> [Event] {
        try EventStore(context: context).allEvents().filter { $0.type == type }
    }

    func focusSeconds() throws -> [String] {
        try events(.focus).map { "\($0.app) \($0.detail ?? "")" }
    }

    func testAWindowSeenForTheFirstTimeMeetsTheGateAndExitMinimisesIt() throws {
        try writeConfig("reentry_minutes = 10\n[apps.discord]\ncommand = \"discord\"\n")
        let (desktop, gate, watch) = watch([(0, .focused(Self.discord))], answers: [.exit])
        XCTAssertEqual(watch.run(), 0)
        XCTAssertEqual(gate.asked, ["discord"])
        XCTAssertEqual(gate.environments, [["DESKTOP_STARTUP_ID": "test"]], "the desktop's activation token goes to the gate")
        XCTAssertEqual(desktop.actions, ["minimise 17"])
        XCTAssertEqual(try focusSeconds(), [], "an Exit counts no minutes")
    }

    func testAwayLessThanReentryMinutesMeetsNoGateAndLongerDoes() throws {
        try writeConfig("reentry_minutes = 10\n[apps.discord]\ncommand = \"discord\"\n")
        let (desktop, gate, watch) = watch([(0, .focused(Self.discord)), (30_000, .focused(Self.editor)),
                                            (9 * 60_000, .focused(Self.discord)), (1000, .focused(nil)),
                                            (10 * 60_000, .focused(Self.discord))], answers: [.open, .exit])
        XCTAssertEqual(watch.run(), 0)
        XCTAssertEqual(gate.asked, ["discord", "discord"], "first seen, then 10 minutes away; 9 minutes is no return")
        XCTAssertEqual(desktop.actions, ["raise 17", "idle on 300", "idle off", "idle on 300", "idle off", "minimise 17"])
        XCTAssertEqual(try focusSeconds(), [#"discord {"seconds":30}"#, #"discord {"seconds":1}"#])
    }

    func testAGraceCoversAReturn() throws {
        try writeConfig("reentry_minutes = 10\ngrace_minutes = 10\n[apps.discord]\ncommand = \"discord\"\n")
        try GateRecorder(app: "discord", store: EventStore(context: context), clock: clock).record(.openSelected).map { XCTFail($0) }
        clock.advance(seconds: 60)
        let (desktop, gate, watch) = watch([(0, .focused(Self.discord))])
        XCTAssertEqual(watch.run(), 0)
        XCTAssertEqual(gate.asked, [])
        XCTAssertEqual(desktop.actions, ["idle on 300"])
    }

    /// Idle counts as away: the rest is counted to when idleness began, and coming back after
    /// reentry_minutes with the same window in front is a return.
    func testIdleIsAwayAndComingBackFromItMeetsTheGate() throws {
        try writeConfig("reentry_minutes = 10\ngrace_minutes = 0\n[apps.discord]\ncommand = \"discord\"\n")
        context = try TestContext.make(root: root, environment: ["MIGA_IDLE_SECONDS": "20"], clock: clock)
        // Counting from 20 s (the first gate took 20 s); idle reported at 120 s, so it began at 100 s.
        let (desktop, gate, watch) = watch([(0, .focused(Self.discord)), (100_000, .idle(true)), (11 * 60_000, .idle(false))],
                                           answers: [.open, .exit])
        XCTAssertEqual(watch.run(), 0)
        XCTAssertEqual(gate.asked, ["discord", "discord"], "away from 100 s (idle began) to 780 s")
        XCTAssertEqual(desktop.actions, ["raise 17", "idle on 20", "idle off", "minimise 17"])
        XCTAssertEqual(try focusSeconds(), [#"discord {"seconds":60}"#, #"discord {"seconds":20}"#],
                       "a tick at 80 s, then the rest to when idleness began")
    }

    func testMinutesAreWrittenEachFullMinuteAndTheRestWhenFocusLeaves() throws {
        try writeConfig("[apps.discord]\ncommand = \"discord\"\n")
        let (desktop, gate, watch) = watch([(0, .focused(Self.discord)), (150_000, .focused(Self.editor))])
        XCTAssertEqual(watch.run(), 0)
        XCTAssertEqual(gate.asked, [], "reentry_minutes is off")
        XCTAssertEqual(try focusSeconds(), [#"discord {"seconds":60}"#, #"discord {"seconds":60}"#, #"discord {"seconds":30}"#])
        XCTAssertEqual(desktop.actions, ["idle on 300", "idle off"], "idleness is watched only while a gated window is in front")
    }

    func testTheFocusTickMayBeShortenedForTests() throws {
        try writeConfig("[apps.discord]\ncommand = \"discord\"\n")
        context = try TestContext.make(root: root, environment: ["MIGA_FOCUS_TICK_SECONDS": "5", "MIGA_IDLE_SECONDS": "20"], clock: clock)
        let (desktop, _, watch) = watch([(0, .focused(Self.discord)), (12_000, .focused(nil))])
        XCTAssertEqual(watch.run(), 0)
        XCTAssertEqual(try focusSeconds(), [#"discord {"seconds":5}"#, #"discord {"seconds":5}"#, #"discord {"seconds":2}"#])
        XCTAssertEqual(desktop.actions, ["idle on 20", "idle off"])
        for bad in ["0", "61", "-1", "1e3", "99999999999"] {
            XCTAssertEqual(RoomTiming.tickSeconds(environment: ["MIGA_FOCUS_TICK_SECONDS": bad]), 60, bad)
        }
        XCTAssertEqual(RoomTiming.idleSeconds(environment: ["MIGA_IDLE_SECONDS": "14"]), 300)
    }

    /// The budget's soft end asks once a day; Close asks the window to close and is recorded.
    func testTheBudgetsSoftEndAsksOnceAndCloseClosesTheWindow() throws {
        try writeConfig("[apps.discord]\ncommand = \"discord\"\nminutes_per_day = 1\n")
        let (desktop, _, watch) = watch([(0, .focused(Self.discord)), (200_000, .focused(Self.editor))])
        var asked: [String] = []
        watch.askBudgetEnd = { app, minutes in
            asked.append("\(app) \(minutes)")
            return "close"
        }
        XCTAssertEqual(watch.run(), 0)
        XCTAssertEqual(asked, ["discord 1"])
        XCTAssertEqual(desktop.actions, ["idle on 300", "close 17", "idle off"])
        XCTAssertEqual(try events(.timeboxEnded).map(\.detail), [#"{"budget":true,"minutes":1,"choice":"close"}"#])
    }

    /// The time the question stays up is not the app's: Keep going counts on from the answer.
    func testTheTimeTheBudgetsQuestionTakesIsNotCounted() throws {
        try writeConfig("[apps.discord]\ncommand = \"discord\"\nminutes_per_day = 1\n")
        let (desktop, _, watch) = watch([(0, .focused(Self.discord)), (90_000, .focused(Self.editor))])
        watch.askBudgetEnd = { _, _ in
            self.clock.advance(seconds: 600)
            return "keep"
        }
        XCTAssertEqual(watch.run(), 0)
        XCTAssertEqual(try focusSeconds(), [#"discord {"seconds":60}"#, #"discord {"seconds":30}"#])
        XCTAssertEqual(desktop.actions, ["idle on 300", "idle off"])
        XCTAssertEqual(try events(.timeboxEnded).map(\.detail), [#"{"budget":true,"minutes":1,"choice":"keep"}"#])
    }

    /// An app added while the watcher runs is seen at the next change of window.
    func testTheConfigIsReadAfreshWhenTheWindowChanges() throws {
        try writeConfig("reentry_minutes = 10\n")
        let (desktop, gate, watch) = watch([(0, .focused(Self.discord)), (1000, .focused(Self.editor)), (1000, .focused(Self.discord))])
        desktop.beforeStep[2] = { try? self.writeConfig("reentry_minutes = 10\n[apps.discord]\ncommand = \"discord\"\n") }
        XCTAssertEqual(watch.run(), 0)
        XCTAssertEqual(gate.asked, ["discord"], "not gated at first; gated once added (and never in front since)")
    }

    /// A gate that fails (miga cannot be started, or it ends badly) raises the window: fail open.
    func testAFailingGateChildRaisesTheWindow() throws {
        try writeConfig("reentry_minutes = 10\n[apps.discord]\ncommand = \"discord\"\n")
        let messages = CollectingSink()
        context = try TestContext.make(root: root, clock: clock, messages: messages, executablePath: root.path + "/no-such-miga")
        let desktop = ScriptedDesktop(clock: clock, [(0, .focused(Self.discord))])
        XCTAssertEqual(RoomWatch(context: context, session: desktop).run(), 0)
        XCTAssertEqual(desktop.actions, ["raise 17", "idle on 300"])
        XCTAssertTrue(messages.lines.contains { $0.hasPrefix("miga watch: the gate for discord could not start") }, "\(messages.lines)")

        for (script, expected) in [("echo exit", "minimise 17"), ("echo exit; kill -9 $$", "raise 17"), ("echo maybe", "raise 17")] {
            let fake = root.path + "/fake-miga"
            try "#!/bin/sh\nprintf '%s ' \"$@\" > \(root.path)/argv\n\(script)\n".write(toFile: fake, atomically: true, encoding: .utf8)
            chmod(fake, 0o755)
            context = try TestContext.make(root: root, clock: clock, messages: messages, executablePath: fake)
            let desktop = ScriptedDesktop(clock: clock, [(0, .focused(Self.discord))])
            clock.advance(seconds: 3600)
            XCTAssertEqual(RoomWatch(context: context, session: desktop).run(), 0)
            XCTAssertEqual(desktop.actions.first, expected, script)
            XCTAssertEqual(try String(contentsOfFile: root.path + "/argv", encoding: .utf8), "gate --app discord --reentry --window ")
        }
    }

    /// miga's own windows are never an app's, whatever they are called.
    func testMigasOwnWindowsAreNeverGated() throws {
        try writeConfig("reentry_minutes = 10\n[apps.miga]\ncommand = \"miga\"\n")
        let gateWindow = WindowFacts(id: "9", applicationID: "app.miga.Gate", wmClass: ["miga", "app.miga.Gate"])
        let (desktop, gate, watch) = watch([(0, .focused(gateWindow))])
        XCTAssertEqual(watch.run(), 0)
        XCTAssertEqual(gate.asked, [])
        XCTAssertEqual(desktop.actions, [])
    }
}
