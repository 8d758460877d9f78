import Foundation
import XCTest
@testable import MigaCore
import MigaTestSupport

/// The line after an Exit varies among things that are true of the person's own history.
final class CelebrationTests: XCTestCase {
    /// Exits over four days (more on the last ones), each followed by the line a gate would
    /// show: after the first, no two in a row are the same, each is one that holds then, and
    /// between them they say the week, the run of days, the best run and today's count.
    func testExitsInARowHearDifferentTrueLines() throws {
        let folder = try TemporaryDirectory()
        let clock = FakeClock()
        let context = try TestContext.make(root: folder, clock: clock)
        let store = try EventStore(paths: context.paths)
        var said: [String] = []
        var exits = 0
        for (day, count) in [(0, 1), (1, 1), (2, 2), (3, 3)] {
            for exit in 0..<count {
                clock.wall = Date(timeIntervalSince1970: 1_795_000_000 + Double(day * 86_400 + exit * 600))
                try store.record(Event(timestamp: Int64(clock.wall.timeIntervalSince1970 * 1000), utcOffsetMinutes: 60,
                                       session: "s\(day)-\(exit)", type: .exitSelected, app: "chat"))
                exits += 1
                let line = GateService.celebration(store: store, context: context)
                let facts = Celebration.Facts(exitsThisWeek: exits, exitsToday: exit + 1, exitsInAll: exits,
                                              streak: Streaks(current: day + 1, longest: day + 1))
                XCTAssertTrue(Celebration.trueLines(facts).contains { $0.text == line }, "not true after exit \(exits): \(line)")
                said.append(line)
            }
        }
        XCTAssertEqual(said.first, "You chose not to open it. That's your first exit in the last 7 days.")
        for (earlier, later) in zip(said, said.dropFirst()) { XCTAssertNotEqual(earlier, later, "\(said)") }
        let all = said.joined(separator: "\n")
        for kind in ["exit in the last 7 days", "days in a row with an Exit.", "Your longest run yet", "time today"] {
            XCTAssertTrue(all.contains(kind), "never said \(kind): \(said)")
        }
    }

    /// Every line is said after any Exit (a key, Esc, Ctrl-C, Ctrl-D): none says an
    /// alternative was chosen; today's count says what it was.
    func testNoLineSaysSomethingElseWasChosen() {
        let facts = Celebration.Facts(exitsThisWeek: 9, exitsToday: 5, exitsInAll: 9, streak: Streaks(current: 4, longest: 4))
        let lines = Celebration.trueLines(facts).map(\.text)
        XCTAssertTrue(lines.contains("Not opened, for the 5th time today."), "\(lines)")
        XCTAssertFalse(lines.contains { $0.contains("something else") }, "\(lines)")
    }

    func testOnlyTrueLinesAreOffered() {
        XCTAssertEqual(Celebration.trueLines(.init(exitsThisWeek: 1)).map(\.text),
                       ["You chose not to open it. That's your first exit in the last 7 days."])
        let broken = Celebration.Facts(exitsThisWeek: 2, exitsToday: 1, exitsInAll: 40, streak: Streaks(current: 1, longest: 9))
        XCTAssertEqual(Celebration.trueLines(broken).map(\.text), ["You chose not to open it. That's your 2nd exit in the last 7 days.",
                                                                  "Your best run so far is 9 days with an Exit; this one is at 1.",
                                                                  "40 exits since you started. Each one was your choice."])
        XCTAssertEqual(Celebration.message(broken, after: .week).kind, .best, "the next true kind after the last said")
        XCTAssertEqual(Celebration.message(broken, after: .all).kind, .week, "round again")
        XCTAssertEqual(Celebration.message(.init(exitsThisWeek: 3), after: .week).kind, .week, "one true line: that one")
    }
}
