import Foundation
import XCTest
@testable import MigaCore
import MigaTestSupport

/// DESIGN "Habits beyond the pause": schedules, the timer rule, escalation, how often today,
/// intentions, the week and the status line — with a fake clock and real SQLite.
final class HabitsTests: XCTestCase {
    /// Noon on Wednesday 2026-11-18, when the gate plans are made.
    let noon = LocalMoment(day: CivilDay(year: 2026, month: 11, day: 18), minute: 720)
    var root: TemporaryDirectory!

    override func setUpWithError() throws {
        root = try TemporaryDirectory()
    }

    /// Unix ms of a local wall time at `offset` minutes east of UTC.
    func ms(_ local: String, offset: Int = 60) -> Int64 {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate]
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        let date = formatter.date(from: local)!
        return Int64(date.timeIntervalSince1970 * 1000) - Int64(offset) * 60_000
    }

    func event(_ type: EventType, _ app: String, at local: String, offset: Int = 60, wait: Int? = nil,
               detail: String? = nil) -> Event {
        Event(timestamp: ms(local, offset: offset), utcOffsetMinutes: offset, session: UUID().uuidString,
              type: type, app: app, waitMilliseconds: wait, detail: detail)
    }

    func store() throws -> EventStore { try EventStore(path: root.path + "/miga.sqlite3") }

    // MARK: - Schedules

    func testDaysAndTimesAsPeopleWriteThem() {
        XCTAssertEqual(Schedule.days("mon-fri"), 0b001_1111)
        XCTAssertEqual(Schedule.days("sat,sun"), 0b110_0000)
        XCTAssertEqual(Schedule.days("Sat, Sun"), 0b110_0000)
        XCTAssertEqual(Schedule.days("daily"), 0b111_1111)
        XCTAssertEqual(Schedule.days("fri-mon"), 0b111_0001, "a range may wrap round the week")
        XCTAssertEqual(Schedule.days("mon,wed-thu"), 0b000_1101)
        XCTAssertEqual(Schedule.days("weekends"), 0b110_0000)
        for bad in ["", "funday", "mon-", "mon,,tue", "mon-tue-wed", "1-5"] { XCTAssertNil(Schedule.days(bad), bad) }
        XCTAssertEqual(Schedule.minutes("09:00", allowEndOfDay: false), 540)
        XCTAssertEqual(Schedule.minutes("23:59", allowEndOfDay: false), 1439)
        XCTAssertEqual(Schedule.minutes("24:00", allowEndOfDay: true), 1440)
        for bad in ["24:00", "9:00", "09:60", "25:00", "0900", "09:00:00", "+9:00", "٠٩:٠٠"] {
            XCTAssertNil(Schedule.minutes(bad, allowEndOfDay: false), bad)
        }
    }

    func testARangeCrossingMidnightBelongsToTheDayItStarts() {
        // Friday 22:00 to 02:00: Friday night and Saturday's small hours, nothing else.
        let friday = Schedule(index: 1, daysText: "fri", days: Schedule.days("fri")!, from: 22 * 60, to: 2 * 60, gate: false)
        XCTAssertTrue(friday.isActive(weekday: 4, minute: 23 * 60))
        XCTAssertTrue(friday.isActive(weekday: 5, minute: 60))
        XCTAssertFalse(friday.isActive(weekday: 5, minute: 120), "the end is not included")
        XCTAssertFalse(friday.isActive(weekday: 5, minute: 23 * 60), "Saturday night is not listed")
        XCTAssertFalse(friday.isActive(weekday: 4, minute: 60), "Friday's small hours belong to Thursday")
        XCTAssertFalse(friday.isActive(weekday: 4, minute: 21 * 60 + 59))
        // Sunday night runs into Monday morning (the week wraps).
        let sunday = Schedule(index: 1, daysText: "sun", days: Schedule.days("sun")!, from: 23 * 60, to: 60, timerSeconds: 45)
        XCTAssertTrue(sunday.isActive(weekday: 0, minute: 30))
        XCTAssertFalse(sunday.isActive(weekday: 6, minute: 30))
        let office = Schedule(index: 1, daysText: "mon-fri", days: 0x1F, from: 540, to: 1020, timerSeconds: 45)
        XCTAssertTrue(office.isActive(weekday: 0, minute: 540))
        XCTAssertFalse(office.isActive(weekday: 0, minute: 1020))
        XCTAssertFalse(office.isActive(weekday: 5, minute: 600), "Saturday")
    }

    func testTheLoaderReadsSchedulesAndSaysWhatIsWrongWithLineNumbers() throws {
        let text = """
            [apps.discord]
            command = "discord"

            [[schedule]]
            days = "mon-fri"
            from = "09:00"
            to = "17:00"
            timer_seconds = 45
            apps = ["discord"]

            [[schedule]]
            days = "sat,sun"
            from = "9:00"
            to = "12:00"
            gate = false

            [[schedule]]
            days = "daily"
            from = "22:00"
            to = "02:00"
            gate = false

            [[schedule]]
            days = "daily"
            from = "08:00"
            to = "09:00"
            timer_seconds = 20
            gate = false

            [[schedule]]
            days = "someday"
            from = "08:00"
            to = "09:00"
            gate = false

            [[schedule]]
            days = "daily"
            from = "08:00"
            to = "09:00"

            [[schedule]]
            from = "10:00"
            to = "10:00"
            gate = false

            [[schedule]]
            from = "10:00"
            to = "11:00"
            timer_seconds = 30
            apps = ["dicsord"]
            """
        let result = try ConfigLoader().parse(text, path: "config.toml")
        XCTAssertEqual(result.config.schedules.map(\.index), [1, 3, 8])
        XCTAssertEqual(result.config.schedules[0], Schedule(index: 1, daysText: "mon-fri", days: 0x1F, from: 540, to: 1020,
                                                             timerSeconds: 45, apps: ["discord"]))
        XCTAssertEqual(result.config.schedules[1].gate, false)
        XCTAssertEqual(result.warnings, [
            "config.toml:13: [[schedule]] 2: from must be a local time like \"09:00\" (24-hour, in quotes); ignoring this table",
            "config.toml:28: [[schedule]] 4: give timer_seconds or gate = false, not both; ignoring this table",
            "config.toml:31: [[schedule]] 5: days must be like \"daily\", \"mon-fri\" or \"sat,sun\"; ignoring this table",
            "config.toml:37: [[schedule]] 6: give timer_seconds (a stricter or gentler timer) or gate = false (no gate in these hours); ignoring this table",
            "config.toml:43: [[schedule]] 7: from and to are the same time; for the whole day write from = \"00:00\", to = \"24:00\"; ignoring this table",
            "config.toml:47: [[schedule]] 8: \"dicsord\" is neither an app in [apps] nor a site; it will never match",
        ])
        XCTAssertEqual(try ConfigLoader().parse("schedule = 3\n", path: "c").warnings, ["c:1: schedule must be [[schedule]] tables; ignoring it"])
    }

    func testTheFirstMatchingScheduleWinsAndAppsNarrowIt() {
        let tables = [
            Schedule(index: 1, daysText: "daily", days: 0x7F, from: 540, to: 1020, timerSeconds: 45, apps: ["discord"]),
            Schedule(index: 2, daysText: "daily", days: 0x7F, from: 600, to: 700, gate: false),
            Schedule(index: 3, daysText: "daily", days: 0x7F, from: 0, to: 1440, timerSeconds: 20),
        ]
        let day = CivilDay(year: 2026, month: 11, day: 18)
        XCTAssertEqual(Schedule.matching(tables, app: "discord", at: LocalMoment(day: day, minute: 620))?.index, 1)
        XCTAssertEqual(Schedule.matching(tables, app: "slack", at: LocalMoment(day: day, minute: 620))?.index, 2)
        XCTAssertEqual(Schedule.matching(tables, app: "slack", at: LocalMoment(day: day, minute: 800))?.index, 3)
        XCTAssertEqual(LocalMoment(unixMilliseconds: ms("2026-11-18T23:59:00"), offsetMinutes: 60),
                       LocalMoment(day: day, minute: 1439))
    }

    // MARK: - The timer rule and escalation

    func testTheTimerIsTheAppsThenTheSchedulesPlusEscalationCappedAt45() throws {
        var config = MigaConfig()
        config.timerSeconds = 30
        config.escalateSeconds = 10
        config.apps["discord"] = MigaConfig.App(name: "discord", command: "discord", timerSeconds: 20)
        config.apps["slack"] = MigaConfig.App(name: "slack", command: "slack", escalateSeconds: 0)

        var plan = GatePlan(config: config, app: "discord", at: noon, history: AppHistory())
        XCTAssertEqual(plan.timerSeconds, 20)
        XCTAssertEqual(plan.notes, [], "the first gate of the day says nothing")
        plan = GatePlan(config: config, app: "discord", at: noon, history: AppHistory(sessionsToday: 1, opensToday: 1))
        XCTAssertEqual(plan.timerSeconds, 30)
        XCTAssertEqual(plan.escalationSeconds, 10)
        XCTAssertEqual(plan.notes, ["2nd time today", "10 s longer: opened once today"])
        plan = GatePlan(config: config, app: "discord", at: noon, history: AppHistory(sessionsToday: 4, opensToday: 3))
        XCTAssertEqual(plan.timerSeconds, 45, "20 + 3 × 10 is capped at 45")
        XCTAssertEqual(plan.escalationSeconds, 25)
        XCTAssertEqual(plan.notes, ["5th time today", "25 s longer: opened 3 times today (45 s at most)"])
        XCTAssertEqual(GatePlan(config: config, app: "slack", at: noon, history: AppHistory(opensToday: 5)).timerSeconds, 30,
                       "an app's own escalate_seconds = 0 turns it off")

        config.schedules = [Schedule(index: 1, daysText: "mon-fri", days: 0x1F, from: 540, to: 1020, timerSeconds: 40)]
        plan = GatePlan(config: config, app: "discord", at: noon, history: AppHistory(opensToday: 1))
        XCTAssertEqual(plan.timerSeconds, 45, "the schedule's 40 replaces the app's 20; escalation adds to it")
        XCTAssertEqual(plan.notes, ["40 s during 09:00–17:00 (schedule 1)", "5 s longer: opened once today (45 s at most)"])
        let saturday = LocalMoment(day: CivilDay(year: 2026, month: 11, day: 21), minute: 720)
        XCTAssertEqual(GatePlan(config: config, app: "discord", at: saturday, history: AppHistory()).timerSeconds, 20)

        config.intention = true
        config.apps["slack"]?.intention = false
        XCTAssertTrue(GatePlan(config: config, app: "discord", at: noon, history: AppHistory()).asksIntention)
        XCTAssertFalse(GatePlan(config: config, app: "slack", at: noon, history: AppHistory()).asksIntention)
        XCTAssertTrue(GatePlan(config: config, app: "reddit.com", isSite: true, at: noon, history: AppHistory()).asksIntention)
    }

    // MARK: - Opens per day

    /// `opens_per_day`: the count left before the countdown; past it the note says so, the
    /// timer is the longest (escalation aside), and Open is "Open anyway", recorded as such.
    func testOpensPerDayCountsDownThenAsksTheLongestWaitButNeverLocks() throws {
        var config = MigaConfig()
        config.opensPerDay = 3
        config.escalateSeconds = 5
        config.apps["slack"] = MigaConfig.App(name: "slack", command: "slack", opensPerDay: 1)
        config.apps["notes"] = MigaConfig.App(name: "notes", command: "notes", opensPerDay: 0)
        var plan = GatePlan(config: config, app: "discord", at: noon, history: AppHistory())
        XCTAssertEqual(plan.notes, ["3 of 3 opens left today"])
        XCTAssertFalse(plan.overAllowance)
        plan = GatePlan(config: config, app: "discord", at: noon, history: AppHistory(sessionsToday: 2, opensToday: 2))
        XCTAssertEqual(plan.notes, ["3rd time today", "1 of 3 opens left today", "10 s longer: opened twice today"])
        XCTAssertEqual(plan.timerSeconds, 40)
        plan = GatePlan(config: config, app: "discord", at: noon, history: AppHistory(sessionsToday: 3, opensToday: 3))
        XCTAssertTrue(plan.overAllowance)
        XCTAssertEqual(plan.timerSeconds, 45)
        XCTAssertEqual(plan.notes, ["4th time today", "Today's 3 opens are used: Open is still yours, after 45 s"])
        plan = GatePlan(config: config, app: "slack", at: noon, history: AppHistory(opensToday: 1))
        XCTAssertEqual(plan.notes, ["Today's 1 open is used: Open is still yours, after 45 s"], "an app's own allowance")
        XCTAssertEqual(GatePlan(config: config, app: "notes", at: noon, history: AppHistory(opensToday: 9)).notes.count, 1,
                       "0 turns it off for an app: only the escalation note")
        XCTAssertTrue(GatePlan(config: config, app: "reddit.com", isSite: true, at: noon, history: AppHistory(opensToday: 3)).overAllowance,
                      "sites take the global allowance")

        let item = ContentItem(id: "a", kind: .quote, category: "calm", text: "t")
        var session = GateSession(app: "discord", plan: plan, item: item, startedAt: 0)
        XCTAssertEqual(session.openLabel, "Open anyway")
        XCTAssertEqual(session.choose(.open, at: 45_000_000_000).dropFirst().first,
                       .record(.openSelected, contentID: nil, waitMilliseconds: 45_000, detail: #"{"over_allowance":true}"#))
        config.intention = true
        var asking = GateSession(app: "slack", plan: GatePlan(config: config, app: "slack", at: noon, history: AppHistory(opensToday: 1)),
                                 item: item, startedAt: 0)
        _ = asking.choose(.open, at: 45_000_000_000)
        XCTAssertEqual(asking.answer("one message", at: 46_000_000_000).first,
                       .record(.openSelected, contentID: nil, waitMilliseconds: 46_000, detail: #"{"intention":"one message","over_allowance":true}"#))
        XCTAssertEqual(GateSession(app: "x", timerSeconds: 15, item: item, startedAt: 0).openLabel, "Open")
    }

    func testOrdinals() {
        let expected = [1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 22: "22nd",
                        23: "23rd", 101: "101st", 111: "111th", 112: "112th", 1000: "1000th"]
        for (number, text) in expected { XCTAssertEqual(Ordinal.english(number), text) }
    }

    // MARK: - How often today, by each event's own local day

    func testTodaysCountsFollowEachEventsOwnOffsetAcrossMidnightAndDST() throws {
        let store = try store()
        // 2026-03-29, the night Europe moves from +01:00 to +02:00.
        try store.record([
            event(.sessionStart, "chat", at: "2026-03-28T23:59:00", offset: 60), // yesterday, local
            event(.sessionStart, "chat", at: "2026-03-29T00:30:00", offset: 60), // today, before the change
            event(.sessionStart, "chat", at: "2026-03-29T23:30:00", offset: 120), // today, after it
            event(.sessionStart, "chat", at: "2026-03-30T00:10:00", offset: 120), // tomorrow, local
            event(.openSelected, "chat", at: "2026-03-29T09:00:00", offset: 120, detail: #"{"intention":"say hi"}"#),
            event(.gracePass, "chat", at: "2026-03-29T09:01:00", offset: 120), // not an attempt
            event(.gatewaySkipped, "chat", at: "2026-03-29T09:02:00", offset: 120, detail: #"{"reason":"schedule"}"#),
            event(.sessionStart, "other", at: "2026-03-29T10:00:00", offset: 120),
            event(.sessionStart, "chat", at: "2026-03-29T06:00:00", offset: -300), // a trip west: still the 29th there
        ])
        let day = CivilDay(year: 2026, month: 3, day: 29)
        XCTAssertEqual(try store.history(app: "chat", on: day), AppHistory(sessionsToday: 3, opensToday: 1, lastIntention: "say hi"))
        XCTAssertEqual(try store.history(app: "chat", on: day.adding(days: 1)), AppHistory(sessionsToday: 1, opensToday: 0, lastIntention: "say hi"),
                       "the last intention is the last Open's, whatever the day")
        XCTAssertEqual(try store.history(app: "nobody", on: day), AppHistory())
        // The last Open without an intention clears it.
        try store.record(event(.openSelected, "chat", at: "2026-03-29T12:00:00", offset: 120))
        XCTAssertNil(try store.history(app: "chat", on: day).lastIntention)
    }

    // MARK: - Intentions

    func testIntentionsAreCleanedAndCutTo120Characters() {
        XCTAssertEqual(Intention.clean("  reply\tto\n\nSam \u{1B}[31m "), "reply to Sam [31m")
        XCTAssertEqual(Intention.clean("\u{202E}evil\u{200B}"), "evil", "bidi overrides and zero-width characters go")
        XCTAssertEqual(Intention.clean("👨‍👩‍👧 family"), "👨‍👩‍👧 family", "an emoji sequence keeps its joiners")
        XCTAssertEqual(Intention.clean(String(repeating: "é", count: 200)).count, 120)
        XCTAssertEqual(Intention.clean(String(repeating: "👍🏽", count: 130)).count, 120, "grapheme clusters, not bytes")
        XCTAssertNil(Intention.detail(" \n "))
        XCTAssertEqual(Intention.detail("say \"hi\""), #"{"intention":"say \"hi\""}"#)
        XCTAssertEqual(Intention.from(detail: #"{"intention":"a\u0007b"}"#), "ab")
        for hostile in ["", "{", "[]", #"{"intention":3}"#, #"{"reason":"x"}"#, "null"] { XCTAssertNil(Intention.from(detail: hostile), hostile) }
    }

    func testAnIntentionSurvivesExportAndImport() throws {
        let first = try store()
        try first.record(event(.openSelected, "chat", at: "2026-11-18T10:00:00", wait: 31_000, detail: Intention.detail("reply to Sam, ✓")))
        for format in [EventStore.ExportFormat.jsonl, .csv] {
            var exported = Data()
            _ = try first.export(format: format) { exported.append($0) }
            let second = try EventStore(path: root.path + "/import-\(format).sqlite3")
            _ = try second.importLines(exported, name: "export")
            XCTAssertEqual(try second.history(app: "chat", on: CivilDay(year: 2026, month: 11, day: 18)).lastIntention, "reply to Sam, ✓")
            XCTAssertEqual(try second.allEvents().map(\.detail), [#"{"intention":"reply to Sam, ✓"}"#])
        }
    }

    func testTheSessionAsksBeforeOpenAndKeepsTheAnswer() {
        let item = ContentItem(id: "a", kind: .quote, category: "calm", text: "t")
        var session = GateSession(app: "chat", timerSeconds: 15, item: item, startedAt: 0, notes: ["2nd time today"], asksIntention: true)
        XCTAssertEqual(session.choose(.open, at: 5_000_000_000), [], "still locked")
        XCTAssertFalse(session.askingIntention)
        XCTAssertEqual(session.choose(.open, at: 15_000_000_000), [.record(.gatewayCompleted, contentID: nil, waitMilliseconds: nil)])
        XCTAssertTrue(session.askingIntention)
        XCTAssertNil(session.outcome)
        session.withdrawQuestion()
        XCTAssertFalse(session.askingIntention)
        XCTAssertEqual(session.answer("ignored", at: 16_000_000_000), [], "no answer without the question")
        _ = session.choose(.open, at: 17_000_000_000)
        XCTAssertEqual(session.answer(" reply to Sam\n", at: 18_000_000_000), [
            .record(.openSelected, contentID: nil, waitMilliseconds: 18_000, detail: #"{"intention":"reply to Sam"}"#), .finish(.open),
        ])
        var quiet = GateSession(app: "chat", timerSeconds: 15, item: item, startedAt: 0, asksIntention: true)
        _ = quiet.choose(.open, at: 15_000_000_000)
        XCTAssertEqual(quiet.answer("", at: 15_000_000_000).first, .record(.openSelected, contentID: nil, waitMilliseconds: 15_000, detail: nil),
                       "an empty answer opens and stores nothing")
    }

    func testTheAnswerFieldTakesRawTerminalBytes() {
        var field = IntentionField()
        XCTAssertEqual(field.feed(Array("héllo".utf8.prefix(2))), [])
        XCTAssertEqual(field.text, "h", "half of é waits for the rest")
        XCTAssertEqual(field.feed(Array("héllo".utf8.dropFirst(2)) + Array(" 👋".utf8)), [])
        XCTAssertEqual(field.text, "héllo 👋")
        _ = field.feed([0x7F])
        XCTAssertEqual(field.text, "héllo ", "Backspace takes a whole character")
        _ = field.feed(Array("\u{1B}[A\u{1B}[1;5Dx".utf8))
        XCTAssertEqual(field.text, "héllo x", "arrows are not typed")
        _ = field.feed([0x17])
        XCTAssertEqual(field.text, "héllo ", "Ctrl-W deletes a word")
        _ = field.feed([0x15])
        XCTAssertEqual(field.text, "")
        XCTAssertEqual(field.feed(Array("ok\rmore".utf8)), [.submit])
        XCTAssertEqual(field.text, "ok", "what follows Enter is not the answer")
        var other = IntentionField()
        XCTAssertEqual(other.feed([0x1B]), [.back])
        XCTAssertEqual(other.feed([0x03]), [.exit])
        XCTAssertEqual(other.feed(Array(String(repeating: "x", count: 200).utf8)), [])
        XCTAssertEqual(other.text.count, Intention.limit)
    }

    // MARK: - The week, against a hand-computed fixture

    func testTheWeekAgainstLastWeek() throws {
        let store = try store()
        try store.record([
            // Last week (Mon 9 – Sun 15 November).
            event(.sessionStart, "discord", at: "2026-11-10T10:00:00"),
            event(.exitSelected, "discord", at: "2026-11-10T10:00:20", wait: 20_000),
            event(.sessionStart, "reddit.com", at: "2026-11-14T10:00:00"),
            event(.openSelected, "reddit.com", at: "2026-11-14T10:00:30", wait: 30_000, detail: #"{"intention":"old one","over_allowance":true}"#),
            event(.exitSelected, "discord", at: "2026-11-15T23:50:00", wait: 10_000), // Sunday night, local
            // This week (Mon 16 – today, Wed 18).
            event(.sessionStart, "discord", at: "2026-11-16T00:30:00"), // 15 Nov in UTC, 16th here
            event(.exitSelected, "discord", at: "2026-11-16T00:30:15", wait: 15_000),
            event(.sessionStart, "discord", at: "2026-11-17T09:00:00"),
            event(.openSelected, "discord", at: "2026-11-17T09:00:31", wait: 31_000, detail: Intention.detail("Reply to Sam")),
            event(.sessionStart, "discord", at: "2026-11-18T09:00:00"),
            event(.contentRead, "discord", at: "2026-11-18T09:00:05"),
            event(.openSelected, "discord", at: "2026-11-18T09:00:40", wait: 40_000, detail: #"{"intention":"reply to sam","over_allowance":true}"#),
            event(.sessionStart, "discord", at: "2026-11-18T10:00:00"),
            event(.abandoned, "discord", at: "2026-11-18T10:00:05", wait: 5_000),
            event(.sessionStart, "reddit.com", at: "2026-11-18T11:00:00"),
            event(.exitSelected, "reddit.com", at: "2026-11-18T11:00:25", wait: 25_000),
            event(.gracePass, "discord", at: "2026-11-18T09:02:00"),
        ])
        let today = CivilDay(year: 2026, month: 11, day: 18)
        let report = try WeekReport.build(store: store, weekOf: today, today: today)
        XCTAssertEqual(report.from.description, "2026-11-16")
        XCTAssertEqual(report.week, WeekReport.Totals(sessions: 5, exits: 2, opens: 2, reads: 1, waitedMilliseconds: 116_000))
        XCTAssertEqual(report.lastWeek, WeekReport.Totals(sessions: 2, exits: 2, opens: 1, reads: 0, waitedMilliseconds: 60_000))
        XCTAssertEqual(report.apps.map(\.app), ["discord", "reddit.com"])
        XCTAssertEqual(report.apps[0].week, WeekReport.Totals(sessions: 4, exits: 1, opens: 2, reads: 1, waitedMilliseconds: 91_000))
        XCTAssertEqual(report.apps[0].lastWeek, WeekReport.Totals(sessions: 1, exits: 2, opens: 0, reads: 0, waitedMilliseconds: 30_000))
        XCTAssertEqual(report.intentions, [WeekReport.IntentionCount(text: "reply to sam", count: 2)],
                       "told apart from case; last week's is not this week's")
        XCTAssertEqual(report.streak, Streaks(current: 1, longest: 2))
        XCTAssertEqual(report.json, """
            {"week":{"from":"2026-11-16","to":"2026-11-22","sessions":5,"exits":2,"opens":2,"reads":1,"exit_rate":0.5,"exit_share":0.4,"minutes_waited":1.93,"focus_minutes":0.0},\
            "last_week":{"from":"2026-11-09","to":"2026-11-15","sessions":2,"exits":2,"opens":1,"reads":0,"exit_rate":0.6667,"exit_share":0.6667,"minutes_waited":1.0,"focus_minutes":0.0},\
            "apps":[{"app":"discord","week":{"sessions":4,"exits":1,"opens":2,"reads":1,"exit_rate":0.3333,"exit_share":0.25,"minutes_waited":1.52,"focus_minutes":0.0},\
            "last_week":{"sessions":1,"exits":2,"opens":0,"reads":0,"exit_rate":1.0,"exit_share":1.0,"minutes_waited":0.5,"focus_minutes":0.0}},\
            {"app":"reddit.com","week":{"sessions":1,"exits":1,"opens":0,"reads":0,"exit_rate":1.0,"exit_share":1.0,"minutes_waited":0.42,"focus_minutes":0.0},\
            "last_week":{"sessions":1,"exits":0,"opens":1,"reads":0,"exit_rate":0.0,"exit_share":0.0,"minutes_waited":0.5,"focus_minutes":0.0}}],\
            "intentions":[{"text":"reply to sam","count":2}],"over_allowance":1,"timeboxes":0,"minutes_declared":0,"minutes_used":0,\
            "exit_share":0.4,"one_sec_exit_share":0.36,"alternatives":[],"loosened":[],"streak":{"current":1,"longest":2}}
            """)
        XCTAssertTrue(WeekView(color: false).render(report, today: today).contains("  Opens past a day's allowance: 1\n"))
        let lastWeek = try WeekReport.build(store: store, weekOf: today.adding(days: -7), today: today)
        XCTAssertEqual(lastWeek.week, report.lastWeek)
        XCTAssertEqual(lastWeek.intentions.map(\.text), ["old one"])
    }

    // MARK: - The status line

    func testStatusSaysTodayGraceAndTheScheduleInForce() throws {
        let store = try store()
        try store.record([
            event(.exitSelected, "discord", at: "2026-11-17T09:00:00"),
            event(.exitSelected, "discord", at: "2026-11-18T09:00:00"),
            event(.exitSelected, "reddit.com", at: "2026-11-18T09:30:00"),
            event(.openSelected, "discord", at: "2026-11-18T11:58:00"),
            event(.openSelected, "slack", at: "2026-11-18T11:00:00"), // grace long over
        ])
        var config = MigaConfig()
        config.schedules = [Schedule(index: 1, daysText: "mon-fri", days: 0x1F, from: 540, to: 1020, timerSeconds: 45, apps: ["x"]),
                            Schedule(index: 2, daysText: "daily", days: 0x7F, from: 660, to: 780, gate: false)]
        let now = ms("2026-11-18T12:00:00")
        let report = try StatusReport.build(store: store, config: config, nowMilliseconds: now, offsetMinutes: 60)
        XCTAssertEqual(report.json, #"{"date":"2026-11-18","exits":2,"opens":2,"streak":2,"focus_minutes":0.0,"grace":[{"app":"discord","until":"2026-11-18T12:03:00.000+01:00"}],"schedule":{"index":2,"from":"11:00","to":"13:00","gate":false},"snooze":null,"timeboxes":[],"pending":[]}"#)
        XCTAssertEqual(report.line, "miga 2 exits · 2 opens · streak 2 · grace discord 3 min · 11:00–13:00 no gate")
        let empty = try StatusReport.build(store: nil, config: MigaConfig(), nowMilliseconds: now, offsetMinutes: 60)
        XCTAssertEqual(empty.json, #"{"date":"2026-11-18","exits":0,"opens":0,"streak":0,"focus_minutes":0.0,"grace":[],"schedule":null,"snooze":null,"timeboxes":[],"pending":[]}"#)
    }

    /// "For how long?" in the week: the timeboxes that ended this week (by the Open's local
    /// day), the minutes they declared with any extension, and the minutes to each end.
    func testTheWeekCountsMinutesDeclaredAndUsed() throws {
        let store = try store()
        func box(_ session: String, _ app: String, opened: String, minutes: Int, ends: [(String, String)]) -> [Event] {
            var open = event(.openSelected, app, at: opened, wait: 15_000, detail: #"{"minutes":\#(minutes)}"#)
            open.session = session
            return [open] + ends.map { end in
                var ended = event(.timeboxEnded, app, at: end.0, detail: #"{"choice":"\#(end.1)"}"#)
                ended.session = session
                return ended
            }
        }
        try store.record(box("a", "discord", opened: "2026-11-15T23:00:00", minutes: 30, ends: [("2026-11-15T23:40:00", "close")]) // last week
            + box("b", "discord", opened: "2026-11-16T09:00:00", minutes: 10, ends: [("2026-11-16T09:10:00", "extend"), ("2026-11-16T09:17:00", "close")])
            + box("c", "reddit.com", opened: "2026-11-17T21:00:00", minutes: 20, ends: [("2026-11-17T21:08:00", "gone")])
            + box("d", "reddit.com", opened: "2026-11-18T11:50:00", minutes: 30, ends: [])) // running: not counted yet
        let today = CivilDay(year: 2026, month: 11, day: 18)
        let report = try WeekReport.build(store: store, weekOf: today, today: today)
        XCTAssertEqual([report.timeboxes, report.minutesDeclared, report.minutesUsed], [2, 35, 25])
        XCTAssertTrue(report.json.contains(#""timeboxes":2,"minutes_declared":35,"minutes_used":25"#), report.json)
        XCTAssertTrue(WeekView(color: false).render(report, today: today).contains("  Minutes you said: 35, minutes used: 25 (2 timeboxes)\n"))

        // And `status`: the running one, its grace, and the line.
        var config = MigaConfig()
        config.graceMinutes = 5
        let status = try StatusReport.build(store: store, config: config, nowMilliseconds: ms("2026-11-18T12:00:00"), offsetMinutes: 60)
        XCTAssertTrue(status.json.hasSuffix(#""grace":[{"app":"reddit.com","until":"2026-11-18T12:20:00.000+01:00"}],"schedule":null,"snooze":null,"timeboxes":[{"app":"reddit.com","minutes":30,"until":"2026-11-18T12:20:00.000+01:00"}],"pending":[]}"#), status.json)
        XCTAssertTrue(status.line.hasSuffix("streak 0 · reddit.com 20 of 30 min left"), status.line)
    }

    // MARK: - Hostile input

    /// A few thousand random inputs through each small parser of the habits: nothing traps,
    /// and what comes out keeps its promises (no control characters, at most 120 characters).
    func testRandomInputKeepsThePromises() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let alphabet = Array("monwedfrisatsun,- :0123456789daily\t\n")
        for _ in 0..<3_000 {
            let text = String((0..<Int(next() % 24)).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] })
            if let mask = Schedule.days(text) { XCTAssertTrue(mask > 0 && mask < 0x80, text) }
            if let minutes = Schedule.minutes(text, allowEndOfDay: true) { XCTAssertTrue((0...1440).contains(minutes), text) }
            let bytes = (0..<Int(next() % 300)).map { _ in UInt8(truncatingIfNeeded: next()) }
            var field = IntentionField()
            _ = field.feed(bytes)
            XCTAssertLessThanOrEqual(field.text.count, Intention.limit)
            let scalars = String(decoding: bytes, as: UTF8.self).unicodeScalars + (0..<Int(next() % 200)).compactMap { _ in
                Unicode.Scalar(UInt32(next() % 0x3_0000))
            }
            let cleaned = Intention.clean(String(String.UnicodeScalarView(scalars)))
            XCTAssertLessThanOrEqual(cleaned.count, Intention.limit)
            XCTAssertFalse(cleaned.unicodeScalars.contains { $0.properties.generalCategory == .control }, cleaned.debugDescription)
            XCTAssertEqual(Intention.clean(cleaned), cleaned, "cleaning is idempotent")
        }
    }
}
