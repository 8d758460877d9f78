import Foundation
import XCTest
@testable import MigaCore
import MigaTestSupport

/// A clock whose wall time can jump while the time since boot goes on as it would: NTP,
/// `date -s` or faketime moving the one and never the other.
final class JumpingClock: MigaClock, @unchecked Sendable {
    var wall = Date(timeIntervalSince1970: 1_795_000_000)
    var uptime: Int64 = 3_600_000
    var boot = "boot-1"
    var offsetMinutes = 0

    func now() -> Date { wall }
    func monotonicNanoseconds() -> UInt64 { UInt64(uptime) * 1_000_000 }
    func utcOffsetMinutes(at date: Date) -> Int { offsetMinutes }
    func sinceBoot() -> BootTime? { BootTime(boot: boot, milliseconds: uptime) }

    /// Time passes: both clocks move.
    func pass(minutes: Int) {
        wall = wall.addingTimeInterval(Double(minutes) * 60)
        uptime += Int64(minutes) * 60_000
    }

    /// The wall clock alone moves.
    func jump(minutes: Int) { wall = wall.addingTimeInterval(Double(minutes) * 60) }
}

/// DESIGN "State files are input too": snooze.json and loosening.json with numbers out of
/// range, a garbled or deleted loosening record, a clock that jumps, a TZ that moves hours
/// without a gate, and the browser's `exit` with an alternative's number out of range.
final class StateFileTests: XCTestCase {
    var root: TemporaryDirectory!
    var clock: JumpingClock!
    var context: MigaContext!

    override func setUpWithError() throws {
        root = try TemporaryDirectory()
        clock = JumpingClock()
        context = try TestContext.make(root: root, environment: ["TERM": "dumb"], clock: clock)
    }

    func write(_ text: String) throws {
        try FileManager.default.createDirectory(atPath: context.paths.configDirectory, withIntermediateDirectories: true)
        try text.write(toFile: context.paths.configFile, atomically: true, encoding: .utf8)
    }

    func timer() throws -> Int { try ConfigInForce.load(context: context).config.timerSeconds }

    func testSnoozeTimesOutOfRangeAreNoSnoozeNeverATrap() throws {
        let folder = context.paths.stateDirectory
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let now = clock.milliseconds(clock.now())
        for text in [#"{"until":9223372036854775807,"from":-9223372036854775808}"#,
                     #"{"until":9223372036854775807,"from":9223372036854775000}"#,
                     #"{"until":-9223372036854775808}"#,
                     #"{"until":\#(now + 60_000),"from":-1}"#,
                     #"{"until":\#(now + 60_000),"requested":-9223372036854775808,"from":\#(now - 1)}"#,
                     #"{"until":1e300,"from":-1e300}"#] {
            try text.write(toFile: Snooze.path(context.paths), atomically: true, encoding: .utf8)
            XCTAssertNil(Snooze.active(paths: context.paths, nowMilliseconds: now), text)
            XCTAssertNil(Snooze.waiting(paths: context.paths, nowMilliseconds: now)?.asPending, text)
        }
        try #"{"until":\#(now + 60_000),"apps":[]}"#.write(toFile: Snooze.path(context.paths), atomically: true, encoding: .utf8)
        XCTAssertNotNil(Snooze.active(paths: context.paths, nowMilliseconds: now), "a believable one still runs")
    }

    func testLooseningNumbersOutOfRangeWaitAnew() throws {
        try write("timer_seconds = 40\nloosen_delay_minutes = 30\n")
        XCTAssertEqual(try timer(), 40)
        try write("timer_seconds = 20\nloosen_delay_minutes = 30\n")
        XCTAssertEqual(try timer(), 20 + 20, "waits")
        let path = ConfigInForce.statePath(context.paths)
        for (since, applies) in [("-9223372036854775808", "-9223372036854775808"), ("0", "0"), ("1", "9223372036854775807")] {
            var text = try String(contentsOfFile: path, encoding: .utf8)
            text = text.replacingOccurrences(of: #""since":\d+,"applies":\d+"#, with: "\"since\":\(since),\"applies\":\(applies)",
                                             options: .regularExpression)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            try text.write(toFile: ConfigInForce.copyPath(context.paths), atomically: true, encoding: .utf8)
            let loaded = try ConfigInForce.load(context: context)
            XCTAssertEqual(loaded.config.timerSeconds, 40, "\(since), \(applies): still waiting")
            XCTAssertEqual(loaded.pending.first?.applies, clock.milliseconds(clock.now()) + 30 * 60_000, "a wait anew, from now")
        }
    }

    func testADeletedOrGarbledRecordKeepsWhatWaits() throws {
        try write("timer_seconds = 40\nloosen_delay_minutes = 30\n[apps.discord]\ncommand = \"true\"\n")
        XCTAssertEqual(try timer(), 40)
        try write("timer_seconds = 20\nloosen_delay_minutes = 30\n")
        XCTAssertEqual(try timer(), 40)
        clock.pass(minutes: 10)
        try FileManager.default.removeItem(atPath: ConfigInForce.statePath(context.paths))
        let afterDelete = try ConfigInForce.load(context: context)
        XCTAssertEqual(afterDelete.config.timerSeconds, 40)
        XCTAssertNotNil(afterDelete.config.apps["discord"], "still gated")
        try "garbage".write(toFile: ConfigInForce.statePath(context.paths), atomically: true, encoding: .utf8)
        XCTAssertEqual(try timer(), 40)
        try "{\"version\":1}".write(toFile: ConfigInForce.copyPath(context.paths), atomically: true, encoding: .utf8)
        XCTAssertEqual(try timer(), 40, "either copy is enough")
        clock.pass(minutes: 21)
        XCTAssertEqual(try timer(), 20, "and the wait ends when it would have")
    }

    /// Every value a key can take, as its text, for a key whose values can be listed.
    func values(of key: ConfigKey) -> [String] {
        switch key.kind {
        case .integer(let range, _): return range.map(String.init)
        case .flag: return ["true", "false"]
        case .choice(let choices): return choices
        default: return []
        }
    }

    func testTheStrictestBaselineHoldsEveryKeyThatLoosensAtItsStrictest() throws {
        // Every key at its loosest or near it, globally, for an app and for a site.
        let perApp = "timer_seconds = 15\nintention = false\nescalate_seconds = 0\nopens_per_day = 0\nask_minutes = false\n"
            + "default_minutes = 240\nchallenge = \"off\"\n"
        let text = "timer_seconds = 20\ngrace_minutes = 120\nbreathing = \"off\"\nanimations = false\nterminal = \"xterm\"\n"
            + "categories = [\"quotes\"]\nsites = [\"reddit.com\", \"x.com\"]\nintention = false\nescalate_seconds = 3\nopens_per_day = 50\n"
            + "ask_minutes = false\ndefault_minutes = 30\nchallenge = \"off\"\nweekly_summary = true\nloosen_delay_minutes = 45\n"
            + "sync_folder = \"~/Sync\"\nsync_config = true\n"
            + "[apps.discord]\ncommand = \"true\"\n" + perApp + "[apps.slack]\ncommand = \"true\"\n"
            + "[site.\"reddit.com\"]\n" + perApp
            + "[[schedule]]\ndays = \"daily\"\nfrom = \"09:00\"\nto = \"17:00\"\ngate = false\n"
            + "[[schedule]]\ndays = \"daily\"\nfrom = \"18:00\"\nto = \"19:00\"\ntimer_seconds = 15\n"
            + "[[schedule]]\ndays = \"daily\"\nfrom = \"20:00\"\nto = \"21:00\"\ntimer_seconds = \(MigaConfig.timerRange.upperBound)\n"
        let loaded = try ConfigLoader().parse(text, path: "config.toml")
        XCTAssertEqual(loaded.warnings, [])
        let written = loaded.config
        let strict = Loosening.strictest(written)
        let places: [(String, MigaConfig.App?, MigaConfig.App?)] = [
            ("global", nil, nil), ("apps.discord", written.apps["discord"], strict.apps["discord"]),
            ("apps.slack", written.apps["slack"], strict.apps["slack"]),
            ("site.reddit.com", written.siteSettings["reddit.com"], strict.siteSettings["reddit.com"]),
        ]
        var tightened = 0
        for key in ConfigKeys.table {
            XCTAssertEqual(key.strictest == nil, key.looser == nil || key.looser == .delay, "\(key.name): every key that loosens has a strictest")
            for (place, before, after) in places where place == "global" || key.copyApp != nil {
                let was = key.text(written, before), now = key.text(strict, after)
                guard key.strictest != nil else {
                    XCTAssertEqual(now, was, "\(place) \(key.name): kept as written")
                    continue
                }
                tightened += 1
                for value in values(of: key) {
                    XCTAssertFalse(Loosening.loosens(key, from: value, to: now), "\(place) \(key.name): \(value) → \(now) tightens")
                    if value != now {
                        XCTAssertTrue(Loosening.loosens(key, from: now, to: value), "\(place) \(key.name): \(now) → \(value) loosens")
                    }
                }
            }
        }
        XCTAssertEqual(tightened, 10 + 9 * 3, "10 keys loosen; 9 of them per app and site")
        XCTAssertEqual(strict.apps["slack"], written.apps["slack"], "an app that sets nothing itself takes the global values")
        XCTAssertEqual(strict.apps.keys.sorted(), ["discord", "slack"])
        XCTAssertEqual(strict.sites, written.sites)
        XCTAssertEqual(strict.schedules.map(\.hours), ["20:00–21:00"], "neither hours without a gate nor a gentler timer")
        // Nothing in the file is stricter than it: from it, every difference is a loosening.
        let changes = Loosening.changes(from: strict, to: written)
        XCTAssertFalse(changes.isEmpty)
        XCTAssertEqual(changes.filter { !$0.loosens }.map(\.setting.name), [])
        XCTAssertEqual(Loosening.strictest(strict), strict, "the strictest is its own")
    }

    func testBothRecordsGarbledMakeEveryLooseningWaitAnew() throws {
        try write("timer_seconds = 40\nloosen_delay_minutes = 30\n[[schedule]]\ndays = \"daily\"\nfrom = \"00:00\"\nto = \"24:00\"\ngate = false\n")
        XCTAssertEqual(try timer(), 40)
        try write("timer_seconds = 20\nloosen_delay_minutes = 30\n[[schedule]]\ndays = \"daily\"\nfrom = \"00:00\"\nto = \"24:00\"\ngate = false\n")
        XCTAssertEqual(try timer(), 40, "waits")
        for path in [ConfigInForce.statePath(context.paths), ConfigInForce.copyPath(context.paths)] {
            try "{{{".write(toFile: path, atomically: true, encoding: .utf8)
        }
        let loaded = try ConfigInForce.load(context: context)
        XCTAssertEqual(loaded.config.timerSeconds, MigaConfig.timerRange.upperBound, "the strictest the file can be read as")
        XCTAssertEqual(loaded.config.schedules, [], "hours without a gate wait too")
        XCTAssertEqual(loaded.config.loosenDelayMinutes, 30)
        let now = clock.milliseconds(clock.now())
        XCTAssertTrue(loaded.pending.contains { $0.setting == .key("timer_seconds") && $0.to == "20" })
        XCTAssertTrue(loaded.pending.contains { $0.setting == .schedules })
        XCTAssertEqual(Set(loaded.pending.map(\.applies)), [now + 30 * 60_000], "the whole delay, from now")
        let lines = (context.messages as? CollectingSink)?.lines ?? []
        XCTAssertTrue(lines.contains { $0.contains("waits again") && $0.contains("miga config pending") }, "\(lines)")
        XCTAssertEqual(try timer(), MigaConfig.timerRange.upperBound, "kept: both copies written again")
        XCTAssertEqual(try String(contentsOfFile: ConfigInForce.copyPath(context.paths), encoding: .utf8),
                       try String(contentsOfFile: ConfigInForce.statePath(context.paths), encoding: .utf8))
        clock.pass(minutes: 29)
        XCTAssertEqual(try timer(), MigaConfig.timerRange.upperBound)
        clock.pass(minutes: 1)
        XCTAssertEqual(try timer(), 20, "and the file applies when the wait ends")
        XCTAssertEqual(try ConfigInForce.load(context: context).config.schedules.count, 1)
    }

    func testBothRecordsGarbledWithoutADelayLeaveTheFileAsItIs() throws {
        try write("timer_seconds = 20\n")
        try FileManager.default.createDirectory(atPath: context.paths.stateDirectory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: context.paths.dataDirectory, withIntermediateDirectories: true)
        for path in [ConfigInForce.statePath(context.paths), ConfigInForce.copyPath(context.paths)] {
            try "{{{".write(toFile: path, atomically: true, encoding: .utf8)
        }
        XCTAssertEqual(try timer(), 20, "nothing waits with no delay")
        XCTAssertFalse(FileManager.default.fileExists(atPath: ConfigInForce.statePath(context.paths)))
        XCTAssertFalse(FileManager.default.fileExists(atPath: ConfigInForce.copyPath(context.paths)))
    }

    func testAClockThatJumpsAheadAppliesNothingForGood() throws {
        try write("timer_seconds = 40\nloosen_delay_minutes = 30\n")
        XCTAssertEqual(try timer(), 40)
        try write("timer_seconds = 20\nloosen_delay_minutes = 30\n")
        XCTAssertEqual(try timer(), 40)
        clock.jump(minutes: 24 * 60) // faketime '+1d', or NTP stepping a wrong clock
        XCTAssertEqual(try timer(), 40, "the wall clock says the wait is over; the time since boot does not")
        clock.jump(minutes: -24 * 60)
        clock.pass(minutes: 5)
        XCTAssertEqual(try timer(), 40, "back on time: still waiting")
        clock.pass(minutes: 26)
        XCTAssertEqual(try timer(), 20, "waited for real")
    }

    func testAClockSetBackMakesTheWaitStartAnewNeverSooner() throws {
        try write("timer_seconds = 40\nloosen_delay_minutes = 30\n")
        XCTAssertEqual(try timer(), 40)
        clock.jump(minutes: 24 * 60)
        try write("timer_seconds = 20\nloosen_delay_minutes = 30\n")
        XCTAssertEqual(try timer(), 40, "asked for while the clock was a day ahead")
        clock.jump(minutes: -24 * 60)
        XCTAssertEqual(try ConfigInForce.load(context: context).pending.first?.applies, clock.milliseconds(clock.now()) + 30 * 60_000)
    }

    func testANewTimeZoneDoesNotMoveHoursWithoutAGateOntoNow() throws {
        // Now is 11:06 UTC; the hours without a gate are 06:00–08:00 local.
        let table = "[[schedule]]\ndays = \"daily\"\nfrom = \"06:00\"\nto = \"08:00\"\ngate = false\n"
        try write("loosen_delay_minutes = 30\n[apps.discord]\ncommand = \"true\"\n" + table)
        let store = try EventStore(paths: context.paths)
        func gateFree() throws -> Bool {
            GateService(config: try ConfigInForce.load(context: context).config, store: store, context: context).inGateFreeHours("discord")
        }
        XCTAssertFalse(try gateFree())
        clock.offsetMinutes = -4 * 60 // TZ=America/New_York in summer: 07:06 local
        XCTAssertFalse(try gateFree(), "a new offset waits like any loosening")
        XCTAssertEqual(try ConfigInForce.load(context: context).pending.map(\.setting.name), ["time zone"])
        clock.pass(minutes: 31)
        XCTAssertTrue(try gateFree(), "after the wait the person's local hours are theirs")
    }

    func testAScheduleTimerEqualToTheGlobalButBelowAnAppsOwnWaits() throws {
        let base = "timer_seconds = 20\nloosen_delay_minutes = 30\n[apps.discord]\ncommand = \"true\"\ntimer_seconds = 40\n"
        try write(base)
        _ = try ConfigInForce.load(context: context)
        try write(base + "[[schedule]]\ndays = \"daily\"\nfrom = \"00:00\"\nto = \"24:00\"\ntimer_seconds = 20\n")
        let loaded = try ConfigInForce.load(context: context)
        XCTAssertEqual(loaded.pending.map(\.setting.name), ["[[schedule]]"])
        XCTAssertEqual(loaded.config.schedules, [])
    }

    func testTheHostsExitWithAnAlternativeOutOfRangeIsAnExit() throws {
        try write("timer_seconds = 5\nsites = [\"reddit.com\"]\n[[alternative]]\nlabel = \"Walk\"\nurl = \"https://example.org/\"\n")
        for number in [Int64.min, -1, 0, 4, Int64.max] {
            let service = NativeHostService(context: context)
            func ask(_ message: [String: Any]) throws -> [String: Any] {
                let reply = service.reply(to: try JSONSerialization.data(withJSONObject: message))
                return try XCTUnwrap(JSONSerialization.jsonObject(with: reply) as? [String: Any])
            }
            let gate = try ask(["type": "gate", "url": "https://reddit.com/"])
            let session = try XCTUnwrap(gate["session"] as? String)
            let exit = try ask(["type": "exit", "session": session, "alternative": NSNumber(value: number)])
            XCTAssertEqual(exit["type"] as? String, "exit", "\(number)")
            XCTAssertNil(exit["alternative"], "\(number): no alternative")
        }
    }
}
