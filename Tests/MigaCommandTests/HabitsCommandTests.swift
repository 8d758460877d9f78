import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// DESIGN "Habits beyond the pause" in-process: a site's own settings, `status`, `stats
/// --week` and the config's schedule checks (moved from MigaCLITests' HabitsCLITests, which
/// keeps what the gate shows on a terminal).
final class HabitsCommandTests: XCTestCase, HabitsCase {
    var home: CommandHome!

    override func setUpWithError() throws {
        home = try CommandHome()
    }

    /// `config set site.NAME.KEY`: the table is made, `get` and `show` read it, and a site
    /// that is not gated is one clear line.
    func testASitesOwnSettingsThroughConfig() throws {
        try home.writeConfig("sites = [\"reddit.com\"]\n")
        let set = try home.miga(["config", "set", "site.reddit.com.ask_minutes", "true"])
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertEqual(set.stdout, "site.reddit.com.ask_minutes = true\n")
        XCTAssertEqual(try home.miga(["config", "get", "site.reddit.com.ask_minutes"]).stdout, "true\n")
        XCTAssertTrue(try home.miga(["config", "show"]).stdout.hasSuffix("[site.\"reddit.com\"]\nask_minutes = true\n"))
        let refused = try home.miga(["config", "set", "site.x.com.ask_minutes", "true"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stderr, "miga: no site \"x.com\" in sites (reddit.com); add it with `miga config sites add x.com`\n")
    }

    func testStatusAndTheWeek() throws {
        try home.writeConfig("""
            [[schedule]]
            days = "daily"
            from = "00:00"
            to = "24:00"
            timer_seconds = 40
            """)
        let empty = try home.miga(["status", "--json"], environment: home.environment(["TZ": "UTC"]))
        XCTAssertEqual(empty.status, 0, empty.stderr)
        XCTAssertTrue(empty.stdout.contains(#""exits":0,"opens":0,"streak":0,"focus_minutes":0.0,"grace":[],"schedule":{"index":1,"from":"00:00","to":"24:00","timer_seconds":40}"#), empty.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.root + "/home/.local/share/miga/miga.sqlite3"), "status only reads")

        try importToday([(.exitSelected, "chat", 50, nil), (.openSelected, "chat", 20, #"{"intention":"say hi"}"#)])
        let status = try home.miga(["status"], environment: home.environment(["TZ": "UTC"]))
        XCTAssertEqual(status.stdout, "miga 1 exit · 1 open · streak 1 · grace chat 5 min · 00:00–24:00 40 s\n")
        let week = try home.miga(["stats", "--week", "--json"], environment: home.environment(["TZ": "UTC"]))
        XCTAssertEqual(week.status, 0, week.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(week.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((object["week"] as? [String: Any])?["exits"] as? Int, 1)
        XCTAssertEqual((object["intentions"] as? [[String: Any]])?.first?["text"] as? String, "say hi")
        let human = try home.miga(["stats", "--week"], environment: home.environment(["TZ": "UTC", "NO_COLOR": "1"]))
        XCTAssertTrue(human.stdout.contains("What you came to do") && human.stdout.contains("1× say hi"), human.stdout)
        // The exit share alone (the rate of choices beside it read as the same figure twice);
        // the rate stays in --json.
        XCTAssertFalse(human.stdout.contains("Exit rate"), human.stdout)
        let share = try XCTUnwrap(human.stdout.split(separator: "\n").first { $0.contains("Exit share") }, human.stdout)
        XCTAssertEqual(share.split(separator: " ").prefix(4), ["Exit", "share", "50%", "—"], "last week had no pause: no share, not 0%")
        XCTAssertEqual((object["week"] as? [String: Any])?["exit_rate"] as? Double, 0.5)
        let both = try home.miga(["stats", "--week", "--app", "chat"])
        XCTAssertEqual(both.status, 64)
        XCTAssertTrue(both.stderr.contains("--week shows every app"), both.stderr)
    }

    func testConfigSaysWhatIsWrongWithASchedule() throws {
        try home.writeConfig("""
            intention = true
            sites = []
            [[schedule]]
            days = "mon-fri"
            from = "9:00"
            to = "17:00"
            timer_seconds = 45
            """)
        let shown = try home.miga(["config", "show"])
        XCTAssertEqual(shown.status, 0)
        XCTAssertTrue(shown.stderr.contains("config.toml:5: [[schedule]] 1: from must be a local time like \"09:00\""), shown.stderr)
        XCTAssertTrue(shown.stdout.contains("intention = true\nescalate_seconds = 0\nopens_per_day = 0\nask_minutes = false\ndefault_minutes = 10\nchallenge = \"off\"\nweekly_summary = false\n"), shown.stdout)
        XCTAssertFalse(shown.stdout.contains("[[schedule]]"), "a table that cannot be read is not shown as if in force")
        let set = try home.miga(["config", "set", "escalate_seconds", "45"])
        XCTAssertEqual(set.status, 1)
        XCTAssertTrue(set.stderr.contains("escalate_seconds must be between 0 and 30"), set.stderr)
    }
}
