import Foundation
import XCTest
@testable import MigaCore
import MigaTestSupport

/// "For how long?" (DESIGN "Time and friction"): the question in the session, the minutes in
/// the Open's detail, the grace they give, and the soft end's one rule (`endTimebox`), with a
/// fake clock where minutes must pass.
final class TimeboxTests: XCTestCase {
    let second: UInt64 = 1_000_000_000
    let start: UInt64 = 5_000_000_000
    var root: TemporaryDirectory!
    var clock: FakeClock!
    var context: MigaContext!

    override func setUpWithError() throws {
        (root, clock, context) = try TestContext.withFakeClock()
    }

    func session(intention: Bool = false, defaultMinutes: Int = 10, overAllowance: Bool = false) -> GateSession {
        GateSession(app: "discord", timerSeconds: 15, item: .sample("a"), startedAt: start, asksIntention: intention,
                    overAllowance: overAllowance, asksMinutes: true, defaultMinutes: defaultMinutes)
    }

    func openDetail(_ effects: [GateEffect]) -> String? {
        for case .record(.openSelected, _, _, let detail) in effects { return detail }
        return nil
    }

    func testOpenAsksHowLongAndKeepsTheAnswer() {
        let done = start + 15 * second
        var gate = session()
        XCTAssertEqual(gate.choose(.open, at: done), [.record(.gatewayCompleted, contentID: nil, waitMilliseconds: nil)])
        XCTAssertTrue(gate.askingMinutes)
        XCTAssertNil(gate.outcome, "nothing opens before the answer")
        XCTAssertEqual(openDetail(gate.answerMinutes(20, at: done)), #"{"minutes":20}"#)
        XCTAssertEqual(gate.outcome, .open)
        XCTAssertEqual(gate.chosenMinutes, 20)

        var byDefault = session(defaultMinutes: 45)
        _ = byDefault.choose(.open, at: done)
        XCTAssertEqual(openDetail(byDefault.answerMinutes(nil, at: done)), #"{"minutes":45}"#, "Enter: the default")
        for outOfRange in [0, -5, 241, Int.max] {
            var odd = session()
            _ = odd.choose(.open, at: done)
            XCTAssertEqual(openDetail(odd.answerMinutes(outOfRange, at: done)), #"{"minutes":10}"#, "not an answer: the default")
        }
        var typed = session()
        _ = typed.choose(.open, at: done)
        XCTAssertEqual(openDetail(typed.answerMinutes(7, at: done)), #"{"minutes":7}"#, "any minutes in range, as typed (7m)")
    }

    func testTheIntentionComesFirstAndBackWithdrawsBoth() {
        let done = start + 15 * second
        var gate = session(intention: true, overAllowance: true)
        _ = gate.choose(.open, at: done)
        XCTAssertTrue(gate.askingIntention)
        XCTAssertEqual(gate.answer("reply to Sam", at: done), [])
        XCTAssertTrue(gate.askingMinutes)
        XCTAssertFalse(gate.askingIntention)
        gate.withdrawQuestion()
        XCTAssertFalse(gate.isAsking)
        XCTAssertEqual(gate.answerMinutes(5, at: done), [], "withdrawn: nothing to answer")
        _ = gate.choose(.open, at: done)
        _ = gate.answer("check the event", at: done)
        XCTAssertEqual(openDetail(gate.answerMinutes(5, at: done)),
                       #"{"intention":"check the event","minutes":5,"over_allowance":true}"#)
        var exits = session()
        _ = exits.choose(.open, at: done)
        _ = exits.choose(.exit, at: done)
        XCTAssertEqual(exits.outcome, .exit, "Exit stays free while asked")
    }

    func testAnswersByKeyOrMinutes() {
        XCTAssertEqual(["1", "2", "3", "4", " 2 ", "10", "10m", "20 min", "30 minutes"].map(TimeboxQuestion.minutes(answer:)),
                       [5, 10, 20, 30, 10, 10, 10, 20, 30])
        // Any minutes in range, with their unit: `15m` as README says `10m` works.
        XCTAssertEqual(["15m", "1m", "45 min", " 7M ", "240m", "1 minute"].map(TimeboxQuestion.minutes(answer:)), [15, 1, 45, 7, 240, 1])
        XCTAssertEqual(["25 mins", "12min", "2h", "1 hour", "4 hours", "90 minutes"].map(TimeboxQuestion.minutes(answer:)), [25, 12, 120, 60, 240, 90])
        XCTAssertEqual(["5h", "0h", "-1h", "h", "99999999999999999h"].map(TimeboxQuestion.minutes(answer:)), [nil, nil, nil, nil, nil])
        for bad in ["0", "6", "15", "-1", "ten", "", "99999999999999999999", "0m", "241m", "-5m", "m", "99999999999999999999m"] {
            XCTAssertNil(TimeboxQuestion.minutes(answer: bad), bad)
        }
    }

    func testTheDetailIsReadBackOnlyWhenSane() {
        XCTAssertEqual(Timebox.minutes(inDetail: #"{"minutes":10}"#), 10)
        XCTAssertEqual(Timebox.minutes(inDetail: #"{"intention":"x","minutes":240}"#), 240)
        for bad in [nil, "", "{}", #"{"minutes":0}"#, #"{"minutes":241}"#, #"{"minutes":"10"}"#, #"{"minutes":1e400}"#,
                    #"{"minutes":-9223372036854775808}"#, #"{"minutes":10"#, #"["minutes",10]"#] {
            XCTAssertNil(Timebox.minutes(inDetail: bad), bad ?? "nil")
        }
    }

    func recordOpen(_ app: String, minutes: Int?, session: String, minutesAgo: Double, store: EventStore) throws {
        try store.record(GateRecorder.event(.openSelected, app: app, session: session, clock: clock,
                                            detail: minutes.map { #"{"minutes":\#($0)}"# },
                                            at: clock.now().addingTimeInterval(-minutesAgo * 60)))
    }

    /// The declared minutes are the grace, whatever `grace_minutes` says (even 0); "5 more
    /// minutes" adds five, once; the soft end's other choices close the timebox.
    func testGraceLastsTheDeclaredMinutesAndTheSoftEndIsRecordedOnce() throws {
        var config = MigaConfig()
        config.graceMinutes = 0
        let service = GateService(config: config, store: try EventStore(paths: context.paths), context: context)
        try recordOpen("chat", minutes: 10, session: "s1", minutesAgo: 0, store: service.store)
        XCTAssertEqual(service.graceUntil("chat"), clock.now().addingTimeInterval(600))
        clock.advance(seconds: 9 * 60)
        XCTAssertEqual(service.openTimeboxes().map(\.session), ["s1"])
        clock.advance(seconds: 61)
        XCTAssertNil(service.graceUntil("chat"), "ten minutes are up")
        XCTAssertEqual(service.openTimeboxes().map(\.session), ["s1"], "over, and not answered yet")

        let box = try XCTUnwrap(service.timebox(session: "s1"))
        let extended = try service.endTimebox(box, choice: "extend")
        XCTAssertTrue(extended.extended)
        XCTAssertEqual(service.graceUntil("chat"), clock.now().addingTimeInterval(300), "five more from the answer")
        XCTAssertThrowsError(try service.endTimebox(try XCTUnwrap(service.timebox(session: "s1")), choice: "extend")) {
            XCTAssertEqual($0 as? TimeboxProblem, .extendedOnce)
        }
        XCTAssertThrowsError(try service.endTimebox(box, choice: "later")) {
            XCTAssertEqual("\($0)", "unknown choice \"later\" (one of close, extend, keep, gone)")
        }
        clock.advance(seconds: 5 * 60)
        _ = try service.endTimebox(try XCTUnwrap(service.timebox(session: "s1")), choice: "keep")
        let ended = try XCTUnwrap(service.timebox(session: "s1"))
        XCTAssertEqual(ended.ending, "keep")
        XCTAssertEqual(service.openTimeboxes(), [], "answered: nothing left to ask")
        XCTAssertThrowsError(try service.endTimebox(ended, choice: "close")) {
            XCTAssertEqual($0 as? TimeboxProblem, .alreadyEnded("keep"))
        }
        let details = try service.store.allEvents().filter { $0.type == .timeboxEnded }.map(\.detail)
        XCTAssertEqual(details, [#"{"minutes":10,"choice":"extend","used":10}"#, #"{"minutes":15,"choice":"keep","used":15}"#])
        XCTAssertEqual(try service.store.allEvents().filter { $0.type == .timeboxEnded }.map(\.session), ["s1", "s1"])

        // An Open without minutes goes back to `grace_minutes`.
        try recordOpen("chat", minutes: nil, session: "s2", minutesAgo: 0, store: service.store)
        XCTAssertNil(service.graceUntil("chat"))
    }

    /// "5 more minutes" answered late still gives five; a later Open (with minutes or
    /// without) replaces a timebox; an unanswered one is let go an hour after its end.
    func testLateAnswersLaterOpensAndForgottenSoftEnds() throws {
        let service = GateService(config: MigaConfig(), store: try EventStore(paths: context.paths), context: context)
        try recordOpen("chat", minutes: 5, session: "s1", minutesAgo: 30, store: service.store)
        XCTAssertEqual(service.openTimeboxes().map(\.session), ["s1"], "over and unanswered")
        let box = try service.endTimebox(try XCTUnwrap(service.timebox(session: "s1")), choice: "extend")
        XCTAssertEqual(box.end, clock.nowMilliseconds() + 300_000)
        XCTAssertEqual(try XCTUnwrap(service.timebox(session: "s1")).end, clock.nowMilliseconds() + 300_000, "as the store reads it back")
        XCTAssertEqual(service.graceUntil("chat"), clock.now().addingTimeInterval(300))

        try recordOpen("chat", minutes: nil, session: "s2", minutesAgo: 0, store: service.store)
        XCTAssertEqual(service.openTimeboxes(), [], "a later Open without minutes replaces it")
        try recordOpen("chat", minutes: 10, session: "s3", minutesAgo: 0, store: service.store)
        XCTAssertEqual(service.openTimeboxes().map(\.session), ["s3"])

        clock.advance(seconds: 10 * 60 + 3599)
        XCTAssertEqual(service.openTimeboxes().map(\.session), ["s3"])
        clock.advance(seconds: 2)
        XCTAssertEqual(service.openTimeboxes(), [], "an hour past its end, unanswered: let go")
    }

    /// A laptop closed through a timebox wakes with it over: the end is wall-clock time from
    /// the Open, as grace is, so the soft end asks at once and the grace agrees with it.
    func testASuspendThroughTheTimeboxEndsIt() throws {
        let service = GateService(config: MigaConfig(), store: try EventStore(paths: context.paths), context: context)
        try recordOpen("chat", minutes: 10, session: "s1", minutesAgo: 0, store: service.store)
        clock.wall = clock.wall.addingTimeInterval(3600) // suspended: the monotonic clock stood still
        XCTAssertNil(service.graceUntil("chat"))
        let box = try XCTUnwrap(service.openTimeboxes().first)
        XCTAssertLessThan(box.end, clock.nowMilliseconds())
    }

    /// Damaged or hostile rows never make a timebox: they are skipped, and grace falls back.
    func testHostileRowsAreSkipped() throws {
        let service = GateService(config: MigaConfig(), store: try EventStore(paths: context.paths), context: context)
        for (index, detail) in [#"{"minutes":"x"}"#, #"{"minutes":100000}"#, "not json", String(repeating: "[", count: 10_000)].enumerated() {
            try service.store.record(GateRecorder.event(.openSelected, app: "chat", session: "h\(index)", clock: clock, detail: detail))
            try service.store.record(GateRecorder.event(.timeboxEnded, app: "chat", session: "h\(index)", clock: clock, detail: detail))
        }
        XCTAssertEqual(service.openTimeboxes(), [])
        XCTAssertEqual(service.graceUntil("chat"), clock.now().addingTimeInterval(300), "grace_minutes' 5")
    }
}
