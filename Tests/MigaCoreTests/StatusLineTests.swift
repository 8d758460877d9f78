import XCTest
@testable import MigaCore

/// `miga status`'s line is for a status bar: short whatever is in force; `--json` keeps
/// every part.
final class StatusLineTests: XCTestCase {
    let now: Int64 = 1_795_000_000_000

    func busyReport() -> StatusReport {
        var report = StatusReport(date: CivilDay(unixMilliseconds: now, offsetMinutes: 0), offsetMinutes: 0, nowMilliseconds: now)
        report.exits = 12
        report.opens = 7
        report.focusSeconds = 47 * 60
        report.streak = 15
        report.grace = [.init(app: "discord", until: now + 240_000), .init(app: "news.ycombinator.com", until: now + 600_000)]
        report.timeboxes = [.init(app: "reddit.com", minutes: 30, until: now + 1_200_000)]
        report.snooze = .init(until: now + 1_800_000, apps: ["slack", "telegram-desktop", "signal-desktop"])
        report.schedule = Schedule(index: 1, daysText: "mon-fri", days: 0x1F, from: 9 * 60, to: 17 * 60, timerSeconds: 45)
        report.pending = [.init(setting: .key("timer_seconds"), from: "30", to: "15", since: now, applies: now + 1_800_000),
                          .init(setting: .appKey("discord", "opens_per_day"), from: "3", to: "10", since: now, applies: now + 3_600_000)]
        return report
    }

    /// With everything in force at once the line stays short, the snooze (gates are off)
    /// first and the counts whole; the rest is in `--json`.
    func testABusyLineStaysShortAndKeepsWhatMattersMost() {
        let report = busyReport()
        let line = report.line
        XCTAssertLessThanOrEqual(DisplayWidth.of(line), StatusReport.lineLimit, line)
        XCTAssertLessThanOrEqual(StatusReport.lineLimit, 80)
        XCTAssertTrue(line.hasPrefix("miga 12 exits · 7 opens · 47 min · streak 15 · "), line)
        XCTAssertTrue(line.split(separator: "·")[4].contains("snoozed"), "the snooze first: \(line)")
        for part in ["telegram-desktop", "news.ycombinator.com", "timer_seconds", "opens_per_day"] {
            XCTAssertTrue(report.json.contains(part), "--json keeps \(part): \(report.json)")
        }
    }

    /// Without a snooze the next part in force takes its place; lists shorten to their first.
    func testEachPartShortensBeforeItIsLeftOut() {
        var report = busyReport()
        report.snooze = nil
        let line = report.line
        XCTAssertLessThanOrEqual(DisplayWidth.of(line), StatusReport.lineLimit, line)
        XCTAssertTrue(line.contains("streak 15 · reddit.com 20 "), line)
        report.timeboxes = []
        XCTAssertTrue(report.line.contains("grace discord 4 min +1"), report.line)
        XCTAssertLessThanOrEqual(DisplayWidth.of(report.line), StatusReport.lineLimit, report.line)
    }
}
