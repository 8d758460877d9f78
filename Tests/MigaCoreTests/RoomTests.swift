import Foundation
import XCTest
@testable import MigaCore
import MigaTestSupport

/// DESIGN "The room, not just the door", the rules: "N min today" beside the count, the daily
/// budget's longer gate and "Open anyway", a coming-back gate's start, and `focus` events read
/// in a line file's fast path.
final class RoomTests: XCTestCase {
    let noon = LocalMoment(day: CivilDay(year: 2026, month: 11, day: 18), minute: 720)

    func testTheGateSaysTheMinutesBesideTheCount() {
        let config = MigaConfig()
        XCTAssertEqual(GatePlan(config: config, app: "reddit.com", isSite: true, at: noon, history: AppHistory(focusSecondsToday: 59)).notes,
                       [], "less than a minute says nothing")
        XCTAssertEqual(GatePlan(config: config, app: "reddit.com", isSite: true, at: noon,
                                history: AppHistory(focusSecondsToday: 47 * 60 + 59)).notes, ["47 min today"])
        XCTAssertEqual(GatePlan(config: config, app: "reddit.com", isSite: true, at: noon,
                                history: AppHistory(sessionsToday: 2, focusSecondsToday: 47 * 60)).notes, ["3rd time today · 47 min today"])
        XCTAssertEqual(GatePlan.attemptNote(AppHistory(sessionsToday: 1)), "2nd time today")
    }

    func testPastTheBudgetTheGateWaitsLongestAndOpensAnyway() {
        var config = MigaConfig()
        config.timerSeconds = 20
        config.escalateSeconds = 5
        config.siteSettings["reddit.com"] = MigaConfig.App(name: "reddit.com", command: "", minutesPerDay: 30)
        var plan = GatePlan(config: config, app: "reddit.com", isSite: true, at: noon, history: AppHistory(opensToday: 1, focusSecondsToday: 29 * 60 + 59))
        XCTAssertFalse(plan.overMinutes)
        XCTAssertEqual(plan.timerSeconds, 25)
        plan = GatePlan(config: config, app: "reddit.com", isSite: true, at: noon, history: AppHistory(opensToday: 1, focusSecondsToday: 30 * 60))
        XCTAssertTrue(plan.overMinutes)
        XCTAssertEqual(plan.timerSeconds, 45)
        XCTAssertEqual(plan.escalationSeconds, 0)
        XCTAssertEqual(plan.notes, ["30 min today", "Today's 30 minutes are used: Open is still yours, after 45 s"])
        XCTAssertFalse(GatePlan(config: config, app: "x.com", isSite: true, at: noon, history: AppHistory(focusSecondsToday: 9999)).overMinutes,
                       "a site without a budget")

        var session = GateSession(app: "reddit.com", plan: plan, item: ContentItem.sample("a"), startedAt: 0)
        XCTAssertEqual(session.openLabel, "Open anyway")
        _ = session.tick(at: 45_000_000_000)
        XCTAssertEqual(session.choose(.open, at: 45_000_000_000).first,
                       .record(.openSelected, contentID: nil, waitMilliseconds: 45_000, detail: "{\"over_minutes\":true}"))
    }

    func testAComingBackGateSaysSoAtItsStart() {
        var plan = GatePlan(config: MigaConfig(), app: "discord", at: noon, history: AppHistory())
        XCTAssertEqual(GateSession(app: "discord", plan: plan, item: ContentItem.sample("a"), startedAt: 0).startEffects,
                       [.record(.sessionStart, contentID: ContentItem.sample("a").id, waitMilliseconds: nil)])
        plan.reentry = true
        XCTAssertEqual(GateSession(app: "discord", plan: plan, item: ContentItem.sample("a"), startedAt: 0).startEffects,
                       [.record(.sessionStart, contentID: ContentItem.sample("a").id, waitMilliseconds: nil, detail: "{\"reentry\":true}")])
    }

    func testFocusEventsRoundTripThroughLines() throws {
        let event = Event(timestamp: 1_795_000_000_000, utcOffsetMinutes: 60, session: "s", type: .focus, app: "reddit.com",
                          detail: "{\"seconds\":42}")
        let line = EventLine.jsonl(event)
        XCTAssertEqual(try EventLine.parse(Data(line.utf8)), event)
        XCTAssertEqual("focus".utf8.withContiguousStorageIfAvailable { EventType(bytes: UnsafeRawBufferPointer($0)) } ?? nil, .focus)
        XCTAssertNil("focal".utf8.withContiguousStorageIfAvailable { EventType(bytes: UnsafeRawBufferPointer($0)) } ?? nil)
    }

    /// The gate's one statement for today reads the minutes too, each event 0–60 s, today only.
    func testTodaysHistorySumsFocusedSecondsWithinBounds() throws {
        let (root, clock, context) = try TestContext.withFakeClock()
        _ = root
        let store = try EventStore(context: context)
        let now = clock.nowMilliseconds()
        let details = ["{\"seconds\":60}", "{\"seconds\":86400}", "{\"seconds\":-60}", "{\"seconds\":\"60\"}", "not json", "{\"seconds\":30}"]
        for (index, detail) in details.enumerated() {
            try store.record(Event(timestamp: now - Int64(index) * 60_000, utcOffsetMinutes: 60, session: "s\(index)", type: .focus,
                                   app: "reddit.com", detail: detail))
        }
        try store.record(Event(timestamp: now - 2 * 86_400_000, utcOffsetMinutes: 60, session: "old", type: .focus, app: "reddit.com",
                               detail: "{\"seconds\":60}"))
        try store.record(Event(timestamp: now, utcOffsetMinutes: 60, session: "other", type: .focus, app: "x.com", detail: "{\"seconds\":60}"))
        let history = try store.history(app: "reddit.com", on: LocalMoment(clock: clock).day)
        XCTAssertEqual(history.focusSecondsToday, 150, "60 + 60 (of 86400) + 0 + 30")
        XCTAssertEqual(history.sessionsToday, 0)
    }
}
