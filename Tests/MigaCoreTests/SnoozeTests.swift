import Foundation
import XCTest
@testable import MigaCore
import MigaTestSupport

/// `miga snooze`'s rules: what a duration may be, and that a snooze file can only ever mean
/// a gate passes until a near time, never for ever.
final class SnoozeTests: XCTestCase {
    func testDurationsAsPeopleTypeThem() {
        for (text, minutes) in [("20m", 20), ("1h", 60), ("1h30m", 90), ("90", 90), (" 5M ", 5), ("4h", 240), ("2h0m", 120)] {
            XCTAssertEqual(try Snooze.minutes(from: text).get(), minutes, text)
        }
        for text in ["0", "4m", "9h", "4h1m", "241"] {
            XCTAssertEqual(Snooze.minutes(from: text), .failure(.outOfRange(text)), text)
        }
        for text in ["", "m", "abc", "-5", "20 m", "1.5h", "٣٠m", "9999999h", "20s"] {
            XCTAssertEqual(Snooze.minutes(from: text), .failure(.notADuration(text)), text)
        }
        XCTAssertEqual(SnoozeError.outOfRange("9h").description,
                       "a snooze lasts 5 minutes to 4 hours, not 9h; `miga snooze 20m` snoozes every gate for 20 minutes")
    }

    func testOnlyAReadableNearSnoozeLetsGatesPass() throws {
        let folder = try TemporaryDirectory()
        let paths = MigaPaths(configDirectory: folder.path + "/c", dataDirectory: folder.path + "/d", stateDirectory: folder.path + "/s")
        let now: Int64 = 1_795_000_000_000
        XCTAssertNil(Snooze.active(paths: paths, nowMilliseconds: now))
        try Snooze(until: now + 20 * 60_000, apps: []).save(paths: paths)
        let all = try XCTUnwrap(Snooze.active(paths: paths, nowMilliseconds: now))
        XCTAssertTrue(all.covers("discord") && all.covers("reddit.com"))
        XCTAssertFalse(all.covers(Snooze.gateName), "a snooze never lets the next snooze skip its pause")
        XCTAssertNil(Snooze.active(paths: paths, nowMilliseconds: now + 20 * 60_000), "it ends by itself")
        try Snooze(until: now + 60_000, apps: ["discord"]).save(paths: paths)
        let one = try XCTUnwrap(Snooze.active(paths: paths, nowMilliseconds: now))
        XCTAssertTrue(one.covers("discord"))
        XCTAssertFalse(one.covers("slack"))
        for hostile in ["{\"until\":\(Int64.max),\"apps\":[]}", "{\"until\":\(now + 5 * 3_600_000)}", "{\"until\":\"soon\"}",
                        "not json", "{\"until\":1e400}", String(repeating: "[", count: 100_000)] {
            try hostile.write(toFile: Snooze.path(paths), atomically: true, encoding: .utf8)
            XCTAssertNil(Snooze.active(paths: paths, nowMilliseconds: now), hostile.prefix(40) + "")
        }
        try FileManager.default.removeItem(atPath: Snooze.path(paths))
        XCTAssertEqual(mkfifo(Snooze.path(paths), 0o600), 0)
        XCTAssertNil(Snooze.active(paths: paths, nowMilliseconds: now), "a FIFO is never opened for a blocking read")
        try "{\"until\":\(now + 60_000),\"apps\":[\"../x\",\"ok\",7]}".write(toFile: folder.path + "/s/other", atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: Snooze.path(paths))
        try FileManager.default.moveItem(atPath: folder.path + "/s/other", toPath: Snooze.path(paths))
        XCTAssertEqual(Snooze.active(paths: paths, nowMilliseconds: now)?.apps, ["ok"], "names that are no app's are dropped")
        XCTAssertTrue(try Snooze.end(paths: paths, nowMilliseconds: now))
        XCTAssertFalse(try Snooze.end(paths: paths, nowMilliseconds: now), "nothing to end")
        try "{\"until\":\(now + 60_000),\"apps\":[\"../x\"]}".write(toFile: Snooze.path(paths), atomically: true, encoding: .utf8)
        XCTAssertNil(Snooze.active(paths: paths, nowMilliseconds: now), "naming only what is no app never means every gate")
    }

    /// A snooze's own pause is no app: no app table, allowance, budget, escalation, count of
    /// today's times or "For how long?" applies to it; with `loosen_delay_minutes` its note says
    /// the wait before the countdown.
    func testASnoozesPausePlansAsAPauseNotAnApp() {
        var config = MigaConfig()
        config.timerSeconds = 20
        config.opensPerDay = 3
        config.minutesPerDay = 30
        config.escalateSeconds = 10
        config.askMinutes = true
        config.apps[Snooze.gateName] = MigaConfig.App(name: Snooze.gateName, command: "x", timerSeconds: 40, opensPerDay: 1)
        let noon = LocalMoment(day: CivilDay(year: 2026, month: 11, day: 18), minute: 720)
        let busy = AppHistory(sessionsToday: 4, opensToday: 3, lastIntention: "a break", focusSecondsToday: 3600)
        let plan = GatePlan(config: config, app: Snooze.gateName, at: noon, history: busy)
        XCTAssertTrue(plan.isSnoozePause)
        XCTAssertEqual(plan.timerSeconds, 20)
        XCTAssertEqual(plan.escalationSeconds, 0)
        XCTAssertEqual(plan.notes, [])
        XCTAssertEqual(plan.opensPerDay, 0)
        XCTAssertEqual(plan.minutesPerDay, 0)
        XCTAssertFalse(plan.asksMinutes || plan.overAllowance || plan.overMinutes)
        let app = GatePlan(config: config, app: "discord", at: noon, history: busy)
        XCTAssertFalse(app.isSnoozePause)
        XCTAssertTrue(app.asksMinutes && app.overAllowance, "an app's gate keeps every rule")
        XCTAssertFalse(GatePlan(config: config, app: Snooze.gateName, isSite: true, at: noon, history: busy).isSnoozePause)

        for (wait, note) in [(1, "The snooze starts 1 minute after Open (loosen_delay_minutes)"),
                             (45, "The snooze starts 45 minutes after Open (loosen_delay_minutes)")] {
            config.loosenDelayMinutes = wait
            XCTAssertEqual(GatePlan(config: config, app: Snooze.gateName, at: noon, history: busy).notes, [note])
            XCTAssertFalse(GatePlan(config: config, app: "discord", at: noon, history: busy).notes.contains(note))
        }
    }

    /// The pause's events carry the mark first, whatever else their detail holds.
    func testTheSnoozesMarkComesFirstInEveryDetail() {
        XCTAssertEqual(Event.snoozeMarked(nil), #"{"snooze":true}"#)
        XCTAssertEqual(Event.snoozeMarked("{}"), #"{"snooze":true}"#)
        XCTAssertEqual(Event.snoozeMarked(#"{"intention":"a \"snooze\":true"}"#), #"{"snooze":true,"intention":"a \"snooze\":true"}"#)
        XCTAssertEqual(Event.snoozeMarked(#"{"snooze":true}"#), #"{"snooze":true}"#)
    }

    /// "Your 1 minute in slack is up", never "1 minutes".
    func testTheSoftEndCountsItsMinutesInWords() {
        XCTAssertEqual(Timebox(app: "slack", session: "s", openedAt: 0, minutes: 1).endLine, "Your 1 minute in slack is up")
        XCTAssertEqual(Timebox(app: "discord", session: "s", openedAt: 0, minutes: 10).endLine, "Your 10 minutes in discord are up")
    }
}
