#if canImport(Glibc)
import Glibc
#endif
import GateWindowProtocol
import MigaTestSupport
import XCTest
@testable import MigaCore

/// The gate side of the window: what it sends, how it reads keys, and what it records, with a
/// scripted window and a fake clock. The real window under Xvfb is in MigaCLITests.
final class WindowGateTests: XCTestCase {
    /// Plays the window: each step (after moving the clock) is what the window says next;
    /// after the last one it goes away (end of file).
    final class ScriptedWindow: GateWindowChannel {
        let readFD: Int32
        private let writeFD: Int32
        var steps: [(seconds: Double, messages: [WindowToGate])]
        let clock: FakeClock
        var sent: [GateToWindow] = []
        var finished: Double?

        init(clock: FakeClock, steps: [(Double, [WindowToGate])]) {
            var fds: [Int32] = [-1, -1]
            pipe(&fds)
            readFD = fds[0]
            writeFD = fds[1]
            var byte: UInt8 = 1
            _ = write(writeFD, &byte, 1) // always readable: the script answers at once
            self.clock = clock
            self.steps = steps.map { (seconds: $0.0, messages: $0.1) }
        }

        deinit { close(readFD); close(writeFD) }

        func send(_ message: GateToWindow) -> Bool {
            sent.append(message)
            return true
        }

        func receive() -> [WindowToGate]? {
            guard !steps.isEmpty else { return nil }
            let step = steps.removeFirst()
            clock.advance(seconds: step.seconds)
            return step.messages
        }

        func finish(within seconds: Double) { finished = seconds }
    }

    var clock: FakeClock!
    var recorded: [(EventType, String?, Int?)] = []
    var details: [String?] = []

    override func setUp() {
        clock = FakeClock()
        recorded = []
    }

    func run(_ steps: [(Double, [WindowToGate])], animations: Bool = true, shown: Bool = true,
             overAllowance: Bool = false) throws -> (GateEnding, ScriptedWindow) {
        let items = (1...3).map { ContentItem(id: "item-\($0)", kind: .quote, category: "calm", text: "Text \($0)\twith a tab", author: "A") }
        var next = 0
        let session = GateSession(app: "chat", timerSeconds: 15, item: items[0], startedAt: clock.monotonicNanoseconds(),
                                  overAllowance: overAllowance)
        let driver = GateDriver(session: session, record: { [self] in recorded.append(($0, $1, $2)); details.append($3) }, nextItem: {
            next += 1
            return items[next % items.count]
        })
        let window = ScriptedWindow(clock: clock, steps: steps)
        let signals = try SignalPipe()
        let style = GateStyle(color: false, breathing: true, animations: animations)
        let ending = try WindowGate(driver: driver, channel: window, signals: signals, clock: clock, style: style)
            .run(celebration: { "You chose not to open it." }, shown: { shown })
        return (ending, window)
    }

    /// "3rd time today" brought up to date once the window is up (the other machines' gates,
    /// folded after the first frame) reaches the window: the notes are sent again.
    func testNotesChangedWhileTheWindowCameUpAreSentAgain() throws {
        let item = ContentItem(id: "item", kind: .quote, category: "calm", text: "Text", author: "A")
        let session = GateSession(app: "chat", timerSeconds: 15, item: item, startedAt: clock.monotonicNanoseconds(),
                                  notes: ["2nd time today", "Last time: reply to Sam"])
        let driver = GateDriver(session: session, record: { _, _, _, _ in }, nextItem: { item })
        let window = ScriptedWindow(clock: clock, steps: [(0.1, [.shown]), (0.5, [.exit])])
        let style = GateStyle(color: false, breathing: true, animations: false)
        _ = try WindowGate(driver: driver, channel: window, signals: try SignalPipe(), clock: clock, style: style)
            .run(celebration: { "" }, shown: { driver.replaceNotes(["3rd time today", "Last time: reply to Sam"]); return true })
        let notes = window.sent.compactMap { message -> String? in
            if case .notes(let text) = message { return text }
            return nil
        }
        XCTAssertEqual(notes, ["2nd time today\nLast time: reply to Sam", "3rd time today\nLast time: reply to Sam"])
    }

    func testReadNextThenOpenLockedThenOpenAfterTheCountdown() throws {
        let (ending, window) = try run([(0.1, [.shown]), (2, [.readNext]), (1, [.open]), (12, []), (0.5, [.open])])
        XCTAssertEqual(ending.outcome, .open)
        XCTAssertEqual(window.sent.first, .setUp(app: "chat", animations: true, breathing: true))
        XCTAssertEqual(window.sent[1], .item(kind: "quote", text: "Text 1\twith a tab", author: "A", title: ""))
        XCTAssertTrue(window.sent.contains(.item(kind: "quote", text: "Text 2\twith a tab", author: "A", title: "")), "Read Next")
        XCTAssertTrue(window.sent.contains(.notice("Open unlocks in 12 s. Take this moment; Exit is always free.")), "\(window.sent)")
        XCTAssertTrue(window.sent.contains { if case .tick(0, 1000, _) = $0 { return true } else { return false } }, "unlocked")
        XCTAssertEqual(window.sent.last, .close)
        XCTAssertEqual(recorded.map(\.0), [.sessionStart, .contentRead, .gatewayCompleted, .openSelected])
        XCTAssertEqual(recorded.last?.2, 15_600, "the wait is on the gate's monotonic clock")
    }

    /// Past today's opens the window is told to call Open "Open anyway"; otherwise it is told
    /// nothing (an older window ignores the line either way).
    func testPastTheAllowanceTheWindowSaysOpenAnyway() throws {
        let (ending, window) = try run([(0.1, [.shown]), (15, [.open])], overAllowance: true)
        XCTAssertEqual(ending.outcome, .open)
        XCTAssertEqual(window.sent[1], .openLabel("Open anyway"))
        XCTAssertEqual(details.last, #"{"over_allowance":true}"#)
        let (_, usual) = try run([(0.1, [.shown]), (1, [.exit])])
        XCTAssertFalse(usual.sent.contains { if case .openLabel = $0 { return true } else { return false } })
        XCTAssertEqual(WindowLine.gateMessage(WindowLine.encode(.openLabel("Open anyway")).dropLast()), .openLabel("Open anyway"))
    }

    func testTheCloseButtonIsExitAndTheWindowCelebrates() throws {
        let (ending, window) = try run([(0, [.shown]), (3, [.closeButton])], animations: false)
        XCTAssertEqual(ending.outcome, .exit)
        XCTAssertEqual(window.sent.first, .setUp(app: "chat", animations: false, breathing: true))
        XCTAssertEqual(window.sent.last, .celebrate("You chose not to open it."))
        XCTAssertEqual(window.finished, 3, "the celebration is let play out")
        XCTAssertEqual(recorded.map(\.0), [.sessionStart, .exitSelected])
        XCTAssertEqual(recorded.last?.2, 3000)
    }

    func testAWindowThatGoesAwayIsAnAbandonAndOpensNothing() throws {
        let (ending, _) = try run([(0, [.shown]), (5, [])])
        XCTAssertEqual(ending.outcome, .abandoned)
        XCTAssertEqual(recorded.map(\.0), [.sessionStart, .abandoned])
    }

    func testAWindowThatNeverShowsRecordsNothingSoATerminalCanBeTried() throws {
        XCTAssertThrowsError(try run([(0.2, [])])) { error in
            XCTAssertTrue(error is WindowUnavailable, "\(error)")
        }
        XCTAssertTrue(recorded.isEmpty)
    }

    /// A gate started by a hand-off that was given up meanwhile (its report file gone) ends
    /// once the window shows, opening nothing and recording nothing: the app is open already.
    func testAWithdrawnHandOffEndsWithoutAChoice() throws {
        let (ending, window) = try run([(0, [.shown]), (1, [.open])], shown: false)
        XCTAssertTrue(ending.withdrawn)
        XCTAssertEqual(ending.outcome, .exit)
        XCTAssertTrue(recorded.isEmpty)
        XCTAssertEqual(window.finished, 0.5)
    }

    func testTheLineProtocolKeepsEveryCharacter() {
        let messages: [GateToWindow] = [
            .setUp(app: "My-App", animations: false, breathing: true),
            .item(kind: "article", text: "Para one.\n\nPara\ttwo \\ back\\slash\r", author: "", title: "T"),
            .tick(secondsLeft: 12, permille: 200, breath: "Hold ●●○○"), .notice(""), .celebrate("✦ yes"), .close,
            .askMinutes(choices: [5, 10, 20, 30], defaultMinutes: 45),
            .softEnd(text: "Your 10 minutes in chat are up", closeLabel: "Close chat", canExtend: false),
        ]
        var splitter = LineSplitter()
        let bytes = messages.map(WindowLine.encode).joined().utf8
        var decoded: [GateToWindow] = []
        for byte in bytes { decoded += splitter.append([byte]).compactMap(WindowLine.gateMessage) }
        XCTAssertEqual(decoded, messages)
        for message in [WindowToGate.shown, .exit, .readNext, .open, .closeButton, .minutes(20), .softEndChoice("extend")] {
            XCTAssertEqual(WindowLine.windowMessage(WindowLine.encode(message).dropLast()), message)
        }
        XCTAssertNil(WindowLine.gateMessage("tick\tx\t1\t"))
        XCTAssertNil(WindowLine.gateMessage("launch-missiles"))
        for bad in ["minutes\t0", "minutes\t241", "minutes\tx", "minutes\t1\t2", "soft-end-choice\tnuke", "soft-end-choice\t"] {
            XCTAssertNil(WindowLine.windowMessage(Substring(bad)), bad)
        }
        XCTAssertNil(WindowLine.gateMessage("ask-minutes\t\t10"), "no choices")
        XCTAssertNil(WindowLine.gateMessage("ask-minutes\t5,10\t0"), "no default")
    }

    /// Open: the window is asked for a new activation token for the app, named by its program,
    /// before it ends; what it answers (after it has gone) is the ending's, for the app's launch.
    func testOpenAsksTheWindowForTheAppsTokenAndTheEndingCarriesIt() throws {
        let (ending, window) = try run([(0.1, [.shown]), (15, [.open]), (0, [.activationToken("miga-gate-1_TIME42")])])
        XCTAssertEqual(ending.outcome, .open)
        XCTAssertEqual(Array(window.sent.suffix(2)), [.launch(app: "chat", executable: ""), .close])
        XCTAssertEqual(ending.activationToken, "miga-gate-1_TIME42")
        let (quiet, _) = try run([(0.1, [.shown]), (15, [.open])])
        XCTAssertNil(quiet.activationToken, "a window that gives none: the app starts without one")
        let (exit, exited) = try run([(0.1, [.shown]), (1, [.exit]), (0, [.activationToken("t")])])
        XCTAssertNil(exit.activationToken)
        XCTAssertFalse(exited.sent.contains { if case .launch = $0 { return true } else { return false } }, "Exit asks for no token")
    }

    /// After a gate the launcher's token is spent: the app gets the window's new one in both
    /// variables, or neither when there is none.
    func testTheAppGetsTheNewTokenAndNeverTheLaunchersStaleOne() {
        let stale = ["DESKTOP_STARTUP_ID": "launcher_TIME1", "XDG_ACTIVATION_TOKEN": "launcher", "HOME": "/h"]
        let launch = Launch(command: ResolvedCommand(executable: "/bin/true", arguments: ["true"]), app: "chat", detach: true,
                            environment: stale, launcher: FakeLauncher(), messages: StandardErrorSink(), ownProgram: "/bin/miga")
        XCTAssertEqual(launch.handingOn(activationToken: "new_TIME9").environment,
                       ["DESKTOP_STARTUP_ID": "new_TIME9", "XDG_ACTIVATION_TOKEN": "new_TIME9", "HOME": "/h"])
        XCTAssertEqual(launch.handingOn(activationToken: nil).environment, ["HOME": "/h"])
    }

    func testTheActivationTokenLinesAndWhatTheyRefuse() {
        let launch = GateToWindow.launch(app: "My App", executable: "/opt/my app/bin\\x\ttab")
        XCTAssertEqual(WindowLine.gateMessage(WindowLine.encode(launch).dropLast()), launch)
        let token = WindowToGate.activationToken("app.miga.Gate-42-host-discord-0_TIME123")
        XCTAssertEqual(WindowLine.windowMessage(WindowLine.encode(token).dropLast()), token)
        let long = String(repeating: "a", count: ActivationToken.maximumLength + 1)
        for bad in ["activation-token\t", "activation-token\ta b", "activation-token\ta\\nb", "activation-token\tä",
                    "activation-token\t" + long, "activation-token\ta\tb", "activation-token"] {
            XCTAssertNil(WindowLine.windowMessage(Substring(bad)), bad)
        }
        XCTAssertNil(WindowLine.gateMessage("launch\tchat"), "no program field")
    }

    /// "For how long?" in the window: asked after Open, answered with a choice; Back withdraws.
    func testTheWindowAsksHowLongAndTheAnswerOpens() throws {
        let items = [ContentItem(id: "a", kind: .quote, category: "calm", text: "A", author: nil)]
        let session = GateSession(app: "chat", timerSeconds: 15, item: items[0], startedAt: clock.monotonicNanoseconds(), asksMinutes: true,
                                  defaultMinutes: 30)
        let driver = GateDriver(session: session, record: { [self] in recorded.append(($0, $1, $2)); details.append($3) }, nextItem: { nil })
        let window = ScriptedWindow(clock: clock, steps: [(0.1, [.shown]), (15, [.open]), (1, [.back]), (1, [.open]), (1, [.minutes(10)])])
        let ending = try WindowGate(driver: driver, channel: window, signals: try SignalPipe(), clock: clock,
                                    style: GateStyle(color: false, breathing: false, animations: false)).run(celebration: { "" })
        XCTAssertEqual(ending.outcome, .open)
        XCTAssertEqual(window.sent.filter { $0 == .askMinutes(choices: [5, 10, 20, 30], defaultMinutes: 30) }.count, 2)
        XCTAssertEqual(details.last, #"{"minutes":10}"#)
    }
}
