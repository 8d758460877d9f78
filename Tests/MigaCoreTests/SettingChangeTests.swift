import Foundation
import XCTest
@testable import MigaCore
import MigaTestSupport

/// `SettingChange` is what `miga config set` does, for every front end (the command and the
/// miga app's Settings): the same checks, the same write, the same lines.
final class SettingChangeTests: XCTestCase {
    func configText(_ context: MigaContext) -> String {
        (try? String(contentsOfFile: context.paths.configFile, encoding: .utf8)) ?? ""
    }

    func testASetIsWrittenAndSaidAsConfigSetSaysIt() throws {
        let (root, _, context) = try TestContext.withFakeClock()
        _ = root
        XCTAssertEqual(try SettingChange(context: context).set("timer_seconds", to: "20"), ["timer_seconds = 20"])
        XCTAssertTrue(configText(context).contains("timer_seconds = 20"), configText(context))
        XCTAssertEqual(try SettingChange(context: context).set("breathing", to: "off"), ["breathing = \"off\""])
        XCTAssertThrowsError(try SettingChange(context: context).set("timer_seconds", to: "500")) { error in
            XCTAssertEqual("\(error)", "timer_seconds must be between \(MigaConfig.timerRange.lowerBound) and \(MigaConfig.timerRange.upperBound)")
        }
        XCTAssertTrue(configText(context).contains("timer_seconds = 20"), "a refused value writes nothing")
    }

    func testALooseningSaysItWaitsAndTheRowCanAskWhatWaits() throws {
        let (root, _, context) = try TestContext.withFakeClock()
        _ = root
        _ = try SettingChange(context: context).set("timer_seconds", to: "30")
        _ = try SettingChange(context: context).set("loosen_delay_minutes", to: "30")
        let lines = try SettingChange(context: context).set("timer_seconds", to: "20")
        XCTAssertEqual(lines.first, "timer_seconds = 20")
        XCTAssertTrue(lines.dropFirst().first?.hasPrefix("  waiting: timer_seconds: 30 → 20 at ") == true, "\(lines)")
        let waiting = SettingChange.waiting(for: "timer_seconds", context: context)
        XCTAssertEqual(waiting.count, 1)
        XCTAssertTrue(waiting.first?.hasPrefix("timer_seconds: 30 → 20 at ") == true, "\(waiting)")
        XCTAssertEqual(SettingChange.waiting(for: "grace_minutes", context: context), [])
        XCTAssertEqual(try ConfigInForce.load(context: context).config.timerSeconds, 30, "the value in force until the wait ends")
    }

    /// While one loosening waits, the next `set` says its own wait only (with how many
    /// others wait), not every waiting one again; a set that loosens nothing says no wait.
    func testASetSaysOnlyItsOwnWait() throws {
        let (root, _, context) = try TestContext.withFakeClock()
        _ = root
        _ = try SettingChange(context: context).set("timer_seconds", to: "30")
        _ = try SettingChange(context: context).set("loosen_delay_minutes", to: "30")
        _ = try SettingChange(context: context).set("timer_seconds", to: "20")
        let grace = try SettingChange(context: context).set("grace_minutes", to: "60")
        XCTAssertEqual(grace.count, 3, "\(grace)")
        XCTAssertTrue(grace[1].hasPrefix("  waiting: grace_minutes: 5 → 60 at "), "\(grace)")
        XCTAssertTrue(grace[2].hasSuffix("; 1 other waiting: `miga config pending`)"), "\(grace)")
        XCTAssertFalse(grace.contains { $0.contains("timer_seconds") }, "\(grace)")
        let tighter = try SettingChange(context: context).set("escalate_seconds", to: "10")
        XCTAssertEqual(tighter, ["escalate_seconds = 10"], "a tightening waits not, and says no other wait")
        // The same key again says its wait again.
        let again = try SettingChange(context: context).set("timer_seconds", to: "20")
        XCTAssertTrue(again.contains { $0.hasPrefix("  waiting: timer_seconds: 30 → 20 at ") }, "\(again)")
        XCTAssertFalse(again.contains { $0.contains("grace_minutes") }, "\(again)")
    }

    func testSettingTheSiteListSaysWhatItDroppedInTheCallersWords() throws {
        let (root, _, context) = try TestContext.withFakeClock()
        _ = root
        _ = try SettingChange(context: context).set("sites", to: "reddit.com, x.com")
        let lines = try SettingChange(context: context, addingSite: "add it in Sites").set("sites", to: "reddit.com")
        XCTAssertEqual(lines, ["sites = [\"reddit.com\"]",
                               "  no longer gated: x.com (`set` replaces the list; `add it in Sites` adds one and keeps the rest)"])
    }

    func testSchedulesAreAddedAndRemovedAsTablesTheLoaderReads() throws {
        let (root, _, context) = try TestContext.withFakeClock()
        _ = root
        try FileManager.default.createDirectory(atPath: context.paths.configDirectory, withIntermediateDirectories: true)
        try "# mine\ntimer_seconds = 30\n".write(toFile: context.paths.configFile, atomically: true, encoding: .utf8)
        let schedules = GatedSchedules(context: context)
        XCTAssertEqual(try schedules.add(days: "mon-fri", from: "09:00", to: "17:00", timerSeconds: 45, gate: true), [])
        try schedules.add(days: "weekends", from: "22:00", to: "24:00", timerSeconds: nil, gate: false)
        let tables = try schedules.list()
        XCTAssertEqual(tables.map(\.daysText), ["mon-fri", "weekends"])
        XCTAssertEqual(tables.map(\.timerSeconds), [45, nil])
        XCTAssertEqual(tables.map(\.gate), [true, false])
        XCTAssertTrue(configText(context).hasPrefix("# mine\ntimer_seconds = 30\n"), "the person's lines stay")
        try schedules.remove(1)
        XCTAssertEqual(try schedules.list().map(\.daysText), ["weekends"])
        XCTAssertThrowsError(try schedules.remove(7))
        XCTAssertThrowsError(try schedules.add(days: "someday", from: "09:00", to: "10:00", timerSeconds: nil, gate: true))
        XCTAssertThrowsError(try schedules.add(days: "daily", from: "9", to: "10:00", timerSeconds: nil, gate: true))
        XCTAssertThrowsError(try schedules.add(days: "daily", from: "09:00", to: "10:00", timerSeconds: 999, gate: true))
        XCTAssertEqual(try schedules.list().count, 1, "a refused table writes nothing")
    }

    func testAScheduleWithoutAPauseWaitsWhenLooseningWaits() throws {
        let (root, _, context) = try TestContext.withFakeClock()
        _ = root
        _ = try SettingChange(context: context).set("loosen_delay_minutes", to: "60")
        let lines = try GatedSchedules(context: context).add(days: "daily", from: "00:00", to: "24:00", timerSeconds: nil, gate: false)
        XCTAssertTrue(lines.contains { $0.hasPrefix("waiting: [[schedule]]") || $0.hasPrefix("waiting: schedules") }, "\(lines)")
    }
}
