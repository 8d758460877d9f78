import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// DESIGN "The room, not just the door" through the built binary: the terminal's plain gate
/// says today's minutes beside the count and, past `minutes_per_day`, that the budget is used,
/// with the longest wait (the window and the browser page take the same notes from the plan).
final class RoomCLITests: XCTestCase, HabitsCase {
    var home: MigaHome!

    override func setUpWithError() throws {
        home = try MigaHome()
    }

    func testThePlainGateSaysTheMinutesAndTheUsedBudget() throws {
        try home.writeConfig("timer_seconds = 15\n[apps.chat]\ncommand = \"true\"\nminutes_per_day = 2\n")
        try importToday([(.sessionStart, "chat", 300, nil), (.focus, "chat", 200, #"{"seconds":60}"#),
                         (.focus, "chat", 100, #"{"seconds":60}"#), (.focus, "chat", 90, #"{"seconds":50}"#)])
        let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) gate --plain --app chat -- true",
                                        environment: home.environment(["TZ": "UTC"]))
        let start = terminal.waitFor("Open unlocks in")
        XCTAssertTrue(start.contains("2nd time today · 2 min today"), start)
        XCTAssertTrue(start.contains("Today's 2 minutes are used: Open is still yours, after 45 s"), start)
        XCTAssertTrue(start.contains("Open unlocks in 45 s"), start)
        try terminal.enter("e")
        terminal.waitFor("STATUS=0")
        XCTAssertEqual(try home.events().last?.type, .exitSelected)
    }
}
