import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// DESIGN "The room, not just the door" in-process: focused time in `stats`, `stats --week`
/// and `status` (text and `--json`), hostile `focus` events from a file, and the keys
/// `reentry_minutes` and `minutes_per_day`.
final class RoomCommandTests: XCTestCase, HabitsCase {
    var home: CommandHome!

    override func setUpWithError() throws {
        home = try CommandHome()
    }

    func json(_ arguments: [String]) throws -> [String: Any] {
        let output = try home.miga(arguments, environment: home.environment(["TZ": "UTC"]))
        XCTAssertEqual(output.status, 0, output.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any], output.stdout)
    }

    func testFocusedMinutesInStatsTheWeekAndStatus() throws {
        try home.writeConfig("sites = [\"reddit.com\"]\n")
        try importToday([(.focus, "reddit.com", 300, #"{"seconds":60}"#), (.focus, "reddit.com", 200, #"{"seconds":60}"#),
                         (.focus, "reddit.com", 100, #"{"seconds":42}"#), (.focus, "x.com", 90, #"{"seconds":30}"#),
                         (.exitSelected, "reddit.com", 50, nil)])
        let stats = try json(["stats", "--json"])
        XCTAssertEqual(stats["focus_minutes"] as? Double, 3.2, "192 s to one decimal")
        let apps = try XCTUnwrap(stats["apps"] as? [[String: Any]])
        XCTAssertEqual(apps.first { $0["app"] as? String == "reddit.com" }?["focus_minutes"] as? Double, 2.7)
        XCTAssertEqual(apps.first { $0["app"] as? String == "x.com" }?["focus_minutes"] as? Double, 0.5)
        let days = try XCTUnwrap(stats["days"] as? [[String: Any]])
        XCTAssertEqual(days.last?["minutes"] as? Double, 3.2)
        XCTAssertEqual(days.first?["minutes"] as? Double, 0)
        XCTAssertEqual(stats["sessions"] as? Int, 0, "focused time is no attempt")

        let status = try json(["status", "--json"])
        XCTAssertEqual(status["focus_minutes"] as? Double, 3.2)
        let line = try home.miga(["status"], environment: home.environment(["TZ": "UTC"]))
        XCTAssertTrue(line.stdout.hasPrefix("miga 1 exit · 0 opens · 3 min · streak 1"), line.stdout)

        let week = try json(["stats", "--week", "--json"])
        XCTAssertEqual((week["week"] as? [String: Any])?["focus_minutes"] as? Double, 3.2)
        XCTAssertEqual((week["last_week"] as? [String: Any])?["focus_minutes"] as? Double, 0)
        let human = try home.miga(["stats"], environment: home.environment(["TZ": "UTC", "NO_COLOR": "1"]))
        XCTAssertTrue(human.stdout.contains("Spent 3.2 min"), human.stdout)
        let weekly = try home.miga(["stats", "--week"], environment: home.environment(["TZ": "UTC", "NO_COLOR": "1"]))
        XCTAssertTrue(weekly.stdout.contains("Minutes spent"), weekly.stdout)
    }

    /// A file may say anything: each event counts 0–60 seconds, whatever its detail holds.
    func testHostileFocusEventsCountAtMostAMinuteEach() throws {
        try importToday([(.focus, "reddit.com", 300, #"{"seconds":86400}"#), (.focus, "reddit.com", 290, #"{"seconds":-600}"#),
                         (.focus, "reddit.com", 280, #"{"seconds":"60"}"#), (.focus, "reddit.com", 270, #"{"seconds":1e308}"#),
                         (.focus, "reddit.com", 260, #"{"seconds":[60]}"#), (.focus, "reddit.com", 250, #"{}"#),
                         (.focus, "reddit.com", 240, nil), (.focus, "reddit.com", 230, #"{"seconds":12.5}"#)])
        let stats = try json(["stats", "--json"])
        XCTAssertEqual(stats["focus_minutes"] as? Double, 2.2, "86400 and 1e308 count 60 each, -600 none, 12.5 itself, the rest nothing")
        XCTAssertEqual(try json(["status", "--json"])["focus_minutes"] as? Double, 2.2)
    }

    /// Without focused time the JSON is as before: no key with nothing to say.
    func testNoFocusedTimeAddsNoKeys() throws {
        try importToday([(.exitSelected, "chat", 50, nil)])
        let text = try home.miga(["stats", "--json"], environment: home.environment(["TZ": "UTC"])).stdout
        XCTAssertFalse(text.contains("focus_minutes") || text.contains("\"minutes\""), text)
        XCTAssertFalse(try home.miga(["status", "--json"]).stdout.contains("focus_minutes"))
    }

    func testTheRoomsKeysAreCheckedLikeEveryOther() throws {
        try home.writeConfig("sites = [\"reddit.com\"]\n")
        XCTAssertEqual(try home.miga(["config", "set", "reentry_minutes", "10"]).stdout, "reentry_minutes = 10\n")
        let refused = try home.miga(["config", "set", "reentry_minutes", "1441"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stderr, "miga: reentry_minutes must be between 0 and 1440\n")
        XCTAssertEqual(try home.miga(["config", "set", "site.reddit.com.minutes_per_day", "30"]).stdout,
                       "site.reddit.com.minutes_per_day = 30\n")
        XCTAssertEqual(try home.miga(["config", "get", "site.reddit.com.minutes_per_day"]).stdout, "30\n")
        XCTAssertEqual(try home.miga(["config", "set", "minutes_per_day", "-1"]).status, 1)
        // A value out of range in the file is taken at the nearest end, as every key's is.
        try home.writeConfig("sites = [\"reddit.com\"]\nreentry_minutes = 99999\nminutes_per_day = -5\n")
        XCTAssertEqual(try home.miga(["config", "get", "reentry_minutes"]).stdout, "1440\n")
        XCTAssertEqual(try home.miga(["config", "get", "minutes_per_day"]).stdout, "0\n")
    }
}
