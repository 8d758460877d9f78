import Foundation
import XCTest
@testable import MigaCore
import MigaTestSupport

/// The room, not just the door, through the browser's host: coming back to a tab (decided by
/// the gate service, recording nothing), focused time, and the daily budget, with a fake clock
/// in a temporary home.
final class NativeHostRoomTests: XCTestCase {
    var root: TemporaryDirectory!
    var clock: FakeClock!
    var paths: MigaPaths!
    var service: NativeHostService!

    override func setUpWithError() throws {
        let context: MigaContext
        (root, clock, context) = try TestContext.withFakeClock()
        paths = context.paths
        service = NativeHostService(context: context)
    }

    func config(_ text: String) throws {
        _ = try root.write(text, to: "home/.config/miga/config.toml")
    }

    func ask(_ message: [String: Any]) throws -> [String: Any] {
        let body = try JSONSerialization.data(withJSONObject: message)
        let reply = service.reply(to: body)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: reply) as? [String: Any], String(decoding: reply, as: UTF8.self))
    }

    func events() throws -> [Event] {
        guard FileManager.default.fileExists(atPath: paths.database) else { return [] }
        return try EventStore(path: paths.database).allEvents()
    }

    func comingBack(_ url: String = "https://www.reddit.com/r/linux", away: Any? = nil) throws -> [String: Any] {
        var message: [String: Any] = ["type": "reentry", "id": 1, "url": url]
        if let away { message["away_seconds"] = away }
        return try ask(message)
    }

    /// Runs a gate to its Open (the countdown waited on the fake clock); its Open's reply.
    func openGate(_ gate: [String: Any]) throws -> [String: Any] {
        let session = try XCTUnwrap(gate["session"] as? String, "\(gate)")
        clock.advance(seconds: Double(try XCTUnwrap(gate["timer_seconds"] as? Int)))
        return try ask(["type": "open", "id": 9, "session": session])
    }

    func testComingBackMeetsAGateOnlyAfterTheTimeAwayAndRecordsNothing() throws {
        try config("sites = [\"reddit.com\"]\n")
        var answer = try comingBack()
        XCTAssertEqual(answer["type"] as? String, "reentry")
        XCTAssertEqual(answer["action"] as? String, "go", "reentry_minutes is off by default")
        XCTAssertEqual(answer["site"] as? String, "reddit.com")

        try config("sites = [\"reddit.com\"]\nreentry_minutes = 10\n")
        XCTAssertEqual(try comingBack(away: 599)["action"] as? String, "go", "flicking between tabs")
        XCTAssertEqual(try comingBack(away: 600)["action"] as? String, "gate")
        XCTAssertEqual(try comingBack(away: 86_400 * 365)["action"] as? String, "gate")
        XCTAssertEqual(try comingBack()["action"] as? String, "gate", "a tab seen for the first time counts as a return")
        // Hostile times away are absent: a first sight, which counts as a return.
        for away: Any in [-1, Int64.min, Int64.max, 1e300, "600", 12.5] {
            XCTAssertEqual(try comingBack(away: away)["action"] as? String, "gate", "\(away)")
        }
        answer = try comingBack("https://example.org/", away: 10_000)
        XCTAssertEqual(answer["action"] as? String, "go")
        XCTAssertTrue(answer["site"] is NSNull, "an address of no gated site")
        XCTAssertEqual(try comingBack("not a url at all", away: 10_000)["action"] as? String, "go")
        XCTAssertEqual(try events(), [], "a return decides; it records no pass")

        // A site's own table: longer for reddit; 0 turns it off there.
        try config("sites = [\"reddit.com\", \"x.com\"]\nreentry_minutes = 10\n[site.\"reddit.com\"]\nreentry_minutes = 30\n[site.\"x.com\"]\nreentry_minutes = 0\n")
        XCTAssertEqual(try comingBack(away: 1200)["action"] as? String, "go")
        XCTAssertEqual(try comingBack(away: 1800)["action"] as? String, "gate")
        XCTAssertEqual(try comingBack("https://x.com/home", away: 100_000)["action"] as? String, "go")
    }

    func testAGraceSnoozeOrHoursWithoutAGateCoverAReturn() throws {
        try config("sites = [\"reddit.com\"]\nreentry_minutes = 10\ntimer_seconds = 15\ngrace_minutes = 5\n")
        let gate = try ask(["type": "gate", "id": 1, "url": "https://reddit.com/", "reentry": true])
        XCTAssertEqual(gate["action"] as? String, "gate")
        XCTAssertEqual(try openGate(gate)["type"] as? String, "open")
        let start = try XCTUnwrap(try events().first { $0.type == .sessionStart })
        XCTAssertEqual(start.detail, "{\"reentry\":true}", "a coming-back gate says so")
        let recorded = try events().count

        XCTAssertEqual(try comingBack(away: 3600)["action"] as? String, "go", "grace covers it")
        clock.advance(seconds: 301)
        XCTAssertEqual(try comingBack(away: 3600)["action"] as? String, "gate", "grace over")
        XCTAssertEqual(try events().count, recorded, "no grace_pass for a tab switch")

        try config("sites = [\"reddit.com\"]\nreentry_minutes = 10\n[[schedule]]\ndays = \"daily\"\nfrom = \"00:00\"\nto = \"23:59\"\ngate = false\n")
        XCTAssertEqual(try comingBack(away: 3600)["action"] as? String, "go", "hours without a gate")

        try config("sites = [\"reddit.com\"]\nreentry_minutes = 10\n")
        let until = clock.nowMilliseconds() + 20 * 60_000
        try FileManager.default.createDirectory(atPath: paths.stateDirectory, withIntermediateDirectories: true)
        try "{\"until\":\(until),\"apps\":[\"reddit.com\"]}".write(toFile: Snooze.path(paths), atomically: true, encoding: .utf8)
        XCTAssertEqual(try comingBack(away: 3600)["action"] as? String, "go", "a snooze")
        XCTAssertEqual(try events().count, recorded)
    }

    func testAnOrdinaryGateIsNoReturn() throws {
        try config("sites = [\"reddit.com\"]\nreentry_minutes = 10\n")
        let gate = try ask(["type": "gate", "id": 1, "url": "https://reddit.com/"])
        XCTAssertEqual(gate["action"] as? String, "gate")
        XCTAssertNil(try events().first { $0.type == .sessionStart }?.detail)
    }

    func testFocusedTimeIsRecordedAndCountedAtTheGate() throws {
        try config("sites = [\"reddit.com\"]\n")
        var answer = try ask(["type": "focus", "id": 1, "url": "https://old.reddit.com/r/linux", "seconds": 60])
        XCTAssertEqual(answer["type"] as? String, "focus")
        XCTAssertEqual(answer["site"] as? String, "reddit.com")
        XCTAssertEqual(answer["minutes_today"] as? Double, 1.0)
        XCTAssertTrue(answer["budget_end"] is NSNull)
        clock.advance(seconds: 60)
        answer = try ask(["type": "focus", "id": 2, "url": "https://reddit.com/", "seconds": 45])
        XCTAssertEqual(answer["minutes_today"] as? Double, 1.7, "105 s, to one decimal")
        let focus = try events().filter { $0.type == .focus }
        XCTAssertEqual(focus.map(\.detail), ["{\"seconds\":60}", "{\"seconds\":45}"])
        XCTAssertEqual(Set(focus.map(\.app)), ["reddit.com"])

        // Nothing for an address of no gated site, or seconds out of range.
        answer = try ask(["type": "focus", "id": 3, "url": "https://example.org/", "seconds": 60])
        XCTAssertTrue(answer["site"] is NSNull)
        XCTAssertEqual(answer["minutes_today"] as? Double, 0)
        for seconds: Any in [0, 61, -60, Int64.max, 1e300, "60"] {
            let refused = try ask(["type": "focus", "id": 4, "url": "https://reddit.com/", "seconds": seconds])
            XCTAssertEqual(refused["type"] as? String, "error", "\(seconds)")
            XCTAssertEqual(refused["id"] as? Int, 4)
        }
        XCTAssertEqual(try events().filter { $0.type == .focus }.count, 2)

        let gate = try ask(["type": "gate", "id": 5, "url": "https://reddit.com/"])
        XCTAssertEqual(gate["notes"] as? [String], ["1 min today"])
        let stats = try ask(["type": "stats", "id": 6])
        XCTAssertEqual(stats["focus_minutes"] as? Double, 1.7)
        clock.advance(seconds: 30)
        _ = try ask(["type": "exit", "id": 7, "session": try XCTUnwrap(gate["session"] as? String)])
        XCTAssertEqual(try ask(["type": "gate", "id": 8, "url": "https://reddit.com/"])["notes"] as? [String],
                       ["2nd time today · 1 min today"])
    }

    func testTheDailyBudgetEndsSoftlyOnceAndLengthensTheGate() throws {
        try config("sites = [\"reddit.com\", \"x.com\"]\ntimer_seconds = 15\n[site.\"reddit.com\"]\nminutes_per_day = 2\n")
        XCTAssertTrue(try ask(["type": "focus", "url": "https://reddit.com/", "seconds": 60])["budget_end"] is NSNull)
        clock.advance(seconds: 60)
        var answer = try ask(["type": "focus", "url": "https://reddit.com/", "seconds": 60])
        let end = try XCTUnwrap(answer["budget_end"] as? [String: Any], "\(answer)")
        XCTAssertEqual(end["site"] as? String, "reddit.com")
        XCTAssertEqual(end["minutes"] as? Int, 2)
        XCTAssertEqual(end["message"] as? String, "Your 2 minutes on reddit.com for today are used")
        XCTAssertEqual((end["choices"] as? [[String: String]])?.map { $0["choice"] ?? "" }, ["close", "keep"])
        XCTAssertEqual((end["choices"] as? [[String: String]])?.map { $0["label"] ?? "" }, ["Close tab", "Keep going"])
        XCTAssertTrue(try ask(["type": "focus", "url": "https://x.com/", "seconds": 60])["budget_end"] is NSNull, "x.com has no budget")

        let refused = try ask(["type": "budget_end", "id": 3, "url": "https://reddit.com/", "choice": "extend"])
        XCTAssertEqual(refused["type"] as? String, "error")
        XCTAssertEqual(try ask(["type": "budget_end", "url": "https://x.com/", "choice": "close"])["recorded"] as? Bool, false)
        XCTAssertEqual(try ask(["type": "budget_end", "url": "https://reddit.com/", "choice": "keep"])["recorded"] as? Bool, true)
        XCTAssertEqual(try ask(["type": "budget_end", "url": "https://reddit.com/", "choice": "close"])["recorded"] as? Bool, false,
                       "once a day")
        let ended = try events().filter { $0.type == .timeboxEnded }
        XCTAssertEqual(ended.map(\.detail), ["{\"budget\":true,\"minutes\":2,\"choice\":\"keep\"}"])
        XCTAssertEqual(ended.map(\.app), ["reddit.com"])
        clock.advance(seconds: 60)
        answer = try ask(["type": "focus", "url": "https://reddit.com/", "seconds": 60])
        XCTAssertTrue(answer["budget_end"] is NSNull, "it asks once")
        XCTAssertEqual(answer["minutes_today"] as? Double, 3.0)

        // Past the budget the gate says so before the countdown, waits the longest and opens "anyway".
        let gate = try ask(["type": "gate", "id": 4, "url": "https://reddit.com/"])
        XCTAssertEqual(gate["timer_seconds"] as? Int, 45)
        XCTAssertEqual(gate["open_label"] as? String, "Open anyway")
        XCTAssertEqual(gate["notes"] as? [String], ["3 min today", "Today's 2 minutes are used: Open is still yours, after 45 s"])
        XCTAssertEqual(try openGate(gate)["type"] as? String, "open")
        XCTAssertEqual(try events().last { $0.type == .openSelected }?.detail, "{\"over_minutes\":true}")
        let other = try ask(["type": "gate", "id": 5, "url": "https://x.com/"])
        XCTAssertEqual(other["timer_seconds"] as? Int, 15)
        XCTAssertEqual(other["open_label"] as? String, "Open")

        // The next day starts afresh.
        clock.advance(seconds: 86_400)
        answer = try ask(["type": "focus", "url": "https://reddit.com/", "seconds": 60])
        XCTAssertEqual(answer["minutes_today"] as? Double, 1.0)
        XCTAssertTrue(answer["budget_end"] is NSNull)
    }

    func testStateSaysHowLongIdleIs() throws {
        try config("sites = [\"reddit.com\"]\n")
        XCTAssertEqual(try ask(["type": "state"])["idle_seconds"] as? Int, 300)
        let (root, _, context) = try TestContext.withFakeClock(environment: ["MIGA_IDLE_SECONDS": "15"])
        _ = try root.write("sites = [\"reddit.com\"]\n", to: "home/.config/miga/config.toml")
        let reply = NativeHostService(context: context).reply(to: Data(#"{"type":"state"}"#.utf8))
        XCTAssertEqual((try JSONSerialization.jsonObject(with: reply) as? [String: Any])?["idle_seconds"] as? Int, 15)
    }
}
