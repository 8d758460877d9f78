import Foundation
import XCTest
@testable import MigaCore
import MigaTestSupport

/// DESIGN "Stats definitions" against hand-computed fixtures (Tests/Fixtures/stats), imported
/// through the real import into a real SQLite file. Each test compares the whole JSON, so
/// every key is checked.
final class StatsTests: XCTestCase {
    static let fixtures = Fixtures.path("stats")

    var folder: TemporaryDirectory!

    override func setUpWithError() throws {
        folder = try TemporaryDirectory()
    }

    func store(_ fixture: String?) throws -> EventStore {
        let store = try EventStore(path: folder.path + "/miga.sqlite3")
        if let fixture {
            let data = try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/" + fixture))
            _ = try store.importLines(data, name: fixture)
        }
        return store
    }

    func report(_ fixture: String?, today: String, days: Int = 14, app: String? = nil) throws -> String {
        try StatsReport.build(store: store(fixture), today: XCTUnwrap(CivilDay(today)), days: days, app: app).json
    }

    /// `count` days from `from`, zero except the given (date: exits/opens/reads).
    func days(from: String, count: Int, _ values: [String: (Int, Int, Int)] = [:]) -> String {
        let start = CivilDay(from)!
        return (0..<count).map { offset -> String in
            let day = start.adding(days: offset)
            let (exits, opens, reads) = values["\(day)"] ?? (0, 0, 0)
            return "{\"date\":\"\(day)\",\"exits\":\(exits),\"opens\":\(opens),\"reads\":\(reads),\"minutes\":0.0}"
        }.joined(separator: ",")
    }

    func testStreakEndingTodayAfterAGap() throws {
        XCTAssertEqual(try report("streak-today.jsonl", today: "2026-11-21"), """
            {"from":"2026-11-08","to":"2026-11-21","sessions":3,"exits":7,"opens":1,"reads":1,"completed":2,\
            "exit_rate":0.875,"minutes_waited":4.02,"focus_minutes":0.0,"streak":{"current":3,"longest":4},\
            "apps":[{"app":"discord","sessions":2,"exits":7,"opens":0,"reads":1,"focus_minutes":0.0},{"app":"firefox","sessions":1,"exits":0,"opens":1,"reads":0,"focus_minutes":0.0}],\
            "days":[\(days(from: "2026-11-08", count: 14, ["2026-11-10": (1, 0, 0), "2026-11-11": (1, 0, 0), "2026-11-12": (1, 0, 0),
                                                           "2026-11-13": (1, 0, 0), "2026-11-19": (1, 0, 1), "2026-11-20": (1, 1, 0),
                                                           "2026-11-21": (1, 0, 0)]))]}
            """)
    }

    func testAppFilterNarrowsCountsButNotStreaks() throws {
        XCTAssertEqual(try report("streak-today.jsonl", today: "2026-11-21", app: "discord"), """
            {"from":"2026-11-08","to":"2026-11-21","sessions":2,"exits":7,"opens":0,"reads":1,"completed":1,\
            "exit_rate":1.0,"minutes_waited":3.5,"focus_minutes":0.0,"streak":{"current":3,"longest":4},\
            "apps":[{"app":"discord","sessions":2,"exits":7,"opens":0,"reads":1,"focus_minutes":0.0}],\
            "days":[\(days(from: "2026-11-08", count: 14, ["2026-11-10": (1, 0, 0), "2026-11-11": (1, 0, 0), "2026-11-12": (1, 0, 0),
                                                           "2026-11-13": (1, 0, 0), "2026-11-19": (1, 0, 1), "2026-11-20": (1, 0, 0),
                                                           "2026-11-21": (1, 0, 0)]))]}
            """)
    }

    func testDaysBoundsCountsToTheLastLocalDays() throws {
        XCTAssertEqual(try report("streak-today.jsonl", today: "2026-11-21", days: 3), """
            {"from":"2026-11-19","to":"2026-11-21","sessions":3,"exits":3,"opens":1,"reads":1,"completed":2,\
            "exit_rate":0.75,"minutes_waited":2.02,"focus_minutes":0.0,"streak":{"current":3,"longest":4},\
            "apps":[{"app":"discord","sessions":2,"exits":3,"opens":0,"reads":1,"focus_minutes":0.0},{"app":"firefox","sessions":1,"exits":0,"opens":1,"reads":0,"focus_minutes":0.0}],\
            "days":[\(days(from: "2026-11-19", count: 3, ["2026-11-19": (1, 0, 1), "2026-11-20": (1, 1, 0), "2026-11-21": (1, 0, 0)]))]}
            """)
    }

    func testStreakEndingYesterdayWhileTodayHasNoExitYet() throws {
        XCTAssertEqual(try report("streak-yesterday.jsonl", today: "2026-11-21"), """
            {"from":"2026-11-08","to":"2026-11-21","sessions":0,"exits":4,"opens":1,"reads":0,"completed":0,\
            "exit_rate":0.8,"minutes_waited":1.83,"focus_minutes":0.0,"streak":{"current":3,"longest":3},\
            "apps":[{"app":"chat","sessions":0,"exits":4,"opens":1,"reads":0,"focus_minutes":0.0}],\
            "days":[\(days(from: "2026-11-08", count: 14, ["2026-11-16": (1, 0, 0), "2026-11-18": (1, 0, 0), "2026-11-19": (1, 0, 0),
                                                           "2026-11-20": (1, 0, 0), "2026-11-21": (0, 1, 0)]))]}
            """)
        // Two days later the run is broken: nothing today, nothing yesterday.
        XCTAssertTrue(try report("streak-yesterday.jsonl", today: "2026-11-22").contains("\"streak\":{\"current\":0,\"longest\":3}"))
    }

    /// The chart's first day is the earliest local day of any event: a later event at a far
    /// western offset can fall on an earlier day than the first event's; impossible times
    /// (before 1970, offsets past ±18 h) are passed over.
    func testFirstDayIsTheEarliestLocalDay() throws {
        let store = try store(nil)
        XCTAssertNil(try store.firstDay())
        let noon = Int64(CivilDay("2026-11-20")!.daysSinceEpoch) * 86_400_000 + 12 * 3_600_000
        try store.record([
            Event(timestamp: Int64.min, utcOffsetMinutes: 0, session: "a", type: .exitSelected, app: "x"),
            Event(timestamp: noon - 86_400_000 * 5, utcOffsetMinutes: 5_000, session: "b", type: .exitSelected, app: "x"),
            Event(timestamp: noon, utcOffsetMinutes: 840, session: "c", type: .exitSelected, app: "x"), // the 21st at +14:00
            Event(timestamp: noon + 3_600_000, utcOffsetMinutes: -720, session: "d", type: .openSelected, app: "x"), // the 20th at -12:00
            Event(timestamp: noon + 86_400_000 * 3, utcOffsetMinutes: 0, session: "e", type: .exitSelected, app: "x"),
        ])
        XCTAssertEqual(try store.firstDay(), CivilDay("2026-11-20"))
    }

    func testEventsAcrossMidnightCountForTheirOwnLocalDay() throws {
        // 23:30 at +01:00 is the 20th; 00:30 at +09:00 is the 21st though it is the 20th in UTC;
        // the window's edges are local days too (+14:00 in, -10:00 out).
        XCTAssertEqual(try report("midnight-offsets.jsonl", today: "2026-11-21"), """
            {"from":"2026-11-08","to":"2026-11-21","sessions":0,"exits":3,"opens":1,"reads":0,"completed":0,\
            "exit_rate":0.75,"minutes_waited":2.5,"focus_minutes":0.0,"streak":{"current":3,"longest":3},\
            "apps":[{"app":"chat","sessions":0,"exits":3,"opens":1,"reads":0,"focus_minutes":0.0}],\
            "days":[\(days(from: "2026-11-08", count: 14, ["2026-11-08": (0, 1, 0), "2026-11-19": (1, 0, 0), "2026-11-20": (1, 0, 0),
                                                           "2026-11-21": (1, 0, 0)]))]}
            """)
    }

    func testADaylightSavingChangeDoesNotBreakARun() throws {
        // Europe/Berlin left summer time on 2026-10-25; the last two Exits share a UTC day.
        XCTAssertEqual(try report("dst.jsonl", today: "2026-10-26"), """
            {"from":"2026-10-13","to":"2026-10-26","sessions":0,"exits":4,"opens":0,"reads":0,"completed":0,\
            "exit_rate":1.0,"minutes_waited":2.0,"focus_minutes":0.0,"streak":{"current":4,"longest":4},\
            "apps":[{"app":"chat","sessions":0,"exits":4,"opens":0,"reads":0,"focus_minutes":0.0}],\
            "days":[\(days(from: "2026-10-13", count: 14, ["2026-10-23": (1, 0, 0), "2026-10-24": (1, 0, 0), "2026-10-25": (1, 0, 0),
                                                           "2026-10-26": (1, 0, 0)]))]}
            """)
    }

    func testExitRateIsZeroWithoutExitsOrOpens() throws {
        let empty = """
            {"from":"2026-11-21","to":"2026-11-21","sessions":0,"exits":0,"opens":0,"reads":0,"completed":0,\
            "exit_rate":0.0,"minutes_waited":0.0,"focus_minutes":0.0,"streak":{"current":0,"longest":0},"apps":[],\
            "days":[{"date":"2026-11-21","exits":0,"opens":0,"reads":0,"minutes":0.0}]}
            """
        XCTAssertEqual(try StatsReport.build(store: nil, today: CivilDay("2026-11-21")!, days: 1).json, empty)
        XCTAssertEqual(try report(nil, today: "2026-11-21", days: 1), empty)
        // Events, but neither an Exit nor an Open for this app today: still 0.0, and the streak stays.
        XCTAssertEqual(try report("streak-today.jsonl", today: "2026-11-21", days: 1, app: "firefox"), """
            {"from":"2026-11-21","to":"2026-11-21","sessions":0,"exits":0,"opens":0,"reads":0,"completed":0,\
            "exit_rate":0.0,"minutes_waited":0.0,"focus_minutes":0.0,"streak":{"current":3,"longest":4},\
            "apps":[{"app":"firefox","sessions":0,"exits":0,"opens":0,"reads":0,"focus_minutes":0.0}],\
            "days":[{"date":"2026-11-21","exits":0,"opens":0,"reads":0,"minutes":0.0}]}
            """)
    }

    func testExportThenDeleteThenImportGivesIdenticalStats() throws {
        let store = try store("streak-today.jsonl")
        _ = try store.importLines(Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/midnight-offsets.jsonl")), name: "m")
        let today = CivilDay("2026-11-21")!
        let before = try StatsReport.build(store: store, today: today).json
        var exported = Data()
        try store.export(format: .jsonl) { exported.append($0) }
        XCTAssertEqual(try store.deleteAll(), 22)
        XCTAssertEqual(try store.eventCount(), 0)
        let schema = "SELECT name, sql FROM sqlite_master WHERE tbl_name = 'events' ORDER BY name"
        let indexes = try store.db.rows(schema)
        XCTAssertEqual(indexes.count, 4, "the table and its three indexes")
        XCTAssertEqual(try store.importLines(exported, name: "export"), .init(imported: 22, alreadyPresent: 0))
        XCTAssertEqual(try store.db.rows(schema), indexes, "indexes rebuilt as they were")
        XCTAssertEqual(try StatsReport.build(store: store, today: today).json, before)
        var again = Data()
        try store.export(format: .jsonl) { again.append($0) }
        XCTAssertEqual(again, exported, "export is stable byte for byte")
        XCTAssertEqual(try store.importLines(exported, name: "export"), .init(imported: 0, alreadyPresent: 22))
    }

    /// Read from a descriptor in 1 MiB chunks, lines that straddle a chunk's end arrive whole,
    /// and a file without a final newline keeps its last line.
    func testImportFromADescriptorAcrossChunkBoundaries() throws {
        // About 3.5 MiB of lines whose lengths vary, so boundaries fall mid-line.
        let lines = (0..<20_000).map { index in
            #"{"ts":"2026-11-21T09:30:00.000+01:00","type":"exit_selected","app":"discord","session":"s\#(index)\#(String(repeating: "x", count: index % 97))","content_id":null,"wait_ms":31000,"detail":null}"#
        }
        let path = folder.path + "/events.jsonl"
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        let store = try store(nil)
        XCTAssertEqual(try store.importLines(from: .descriptor(fd), name: "f"), .init(imported: 20_000, alreadyPresent: 0))
        XCTAssertEqual(Set(try store.allEvents().map(\.session)).count, 20_000)
    }

    /// Two exports joined into one file (or one line pasted twice) count once, whether the
    /// database is empty (the fast path) or not.
    func testDuplicatesWithinOneFileAreSkipped() throws {
        let line = { (ts: String, type: String) in
            #"{"ts":"\#(ts)","type":"\#(type)","app":"discord","session":"a","content_id":null,"wait_ms":31000,"detail":null}"#
        }
        let file = [line("2026-11-21T09:30:00.000+01:00", "exit_selected"), line("2026-11-21T09:31:00.000+01:00", "open_selected"),
                    line("2026-11-21T09:30:00.000+01:00", "exit_selected"), line("2026-11-21T09:30:00.000+01:00", "open_selected"),
                    line("2026-11-21T09:30:00.000+01:00", "exit_selected")].joined(separator: "\n")
        let empty = try store(nil)
        XCTAssertEqual(try empty.importLines(Data(file.utf8), name: "f"), .init(imported: 3, alreadyPresent: 2))
        XCTAssertEqual(try empty.eventCount(), 3)
        XCTAssertEqual(try empty.db.value("SELECT count(*) FROM events WHERE type = 'exit_selected'"), .integer(1))

        let nonEmpty = try EventStore(path: folder.path + "/other.sqlite3")
        _ = try nonEmpty.importLines(Data(line("2026-11-20T09:30:00.000+01:00", "exit_selected").utf8), name: "first")
        XCTAssertEqual(try nonEmpty.importLines(Data(file.utf8), name: "f"), .init(imported: 3, alreadyPresent: 2))
        XCTAssertEqual(try nonEmpty.eventCount(), 4)
    }

    func testABadLineImportsNothingAndNamesItsLine() throws {
        let store = try store(nil)
        let good = #"{"ts":"2026-11-21T09:30:00.000+01:00","type":"exit_selected","app":"discord","session":"a","content_id":null,"wait_ms":31000,"detail":null}"#
        let cases: [(String, String)] = [
            (#"{"ts":"2026-11-21T09:30:00.000+01:00","type":"exit","app":"d","session":"a"}"#, "unknown event type \"exit\""),
            (#"{"ts":"2026-13-21T09:30:00.000+01:00","type":"exit_selected","app":"d","session":"a"}"#, "\"ts\" is not a time"),
            (#"{"ts":"2026-11-21T09:30:00.000+01:00","type":"exit_selected","app":"","session":"a"}"#, "\"app\" is missing or empty"),
            (#"{"ts":"2026-11-21T09:30:00.000+01:00","type":"exit_selected","app":"d","session":"a","wait_ms":1.5}"#, "whole number"),
            (#"{"ts":"2026-11-21T09:30:00.000+01:00","type":"exit_selected","app":"d","session":"a","wait_ms":true}"#, "whole number"),
            (#"{"ts":"2026-11-21T09:30:00.000+01:00","type":"exit_selected","app":"d","session":"a","extra":1}"#, "unknown key \"extra\""),
            ("[1,2]", "not a JSON object"),
            ("{\"ts\":", "not a JSON object"),
        ]
        for (bad, problem) in cases {
            // CRLF endings and a blank line of spaces still count as lines.
            let data = Data((good + "\r\n \t\r\n" + good.replacingOccurrences(of: "\"a\"", with: "\"b\"") + "\n" + bad + "\n").utf8)
            XCTAssertThrowsError(try store.importLines(data, name: "f.jsonl"), bad) { error in
                let message = "\(error)"
                XCTAssertTrue(message.hasPrefix("f.jsonl:4: ") && message.contains(problem), message)
            }
            XCTAssertEqual(try store.eventCount(), 0, "nothing half-imported: \(bad)")
        }
        let indexes = try store.db.column("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events' ORDER BY name")
        XCTAssertEqual(indexes, [.text("events_by_identity"), .text("events_by_type_app_ts"), .text("events_exit_days")], "the indexes as they were")
    }

    func testCivilDaysAndTimestamps() throws {
        XCTAssertEqual(CivilDay("1970-01-01")?.daysSinceEpoch, 0)
        XCTAssertEqual(CivilDay("2000-03-01")?.description, "2000-03-01")
        XCTAssertEqual(CivilDay("2024-02-29")?.adding(days: 1).description, "2024-03-01")
        XCTAssertNil(CivilDay("2026-02-29"))
        XCTAssertNil(CivilDay("2026-1-01"))
        XCTAssertEqual(CivilDay("2026-11-21")?.weekday, 5, "a Saturday")
        // 2026-11-20T22:30Z is the 20th in London and the 21st in Tokyo.
        let instant: Int64 = 1_795_213_800_000
        XCTAssertEqual(CivilDay(unixMilliseconds: instant, offsetMinutes: 0).description, "2026-11-20")
        XCTAssertEqual(CivilDay(unixMilliseconds: instant, offsetMinutes: 540).description, "2026-11-21")
        XCTAssertEqual(EventTimestamp.format(unixMilliseconds: instant + 7, offsetMinutes: -330), "2026-11-20T17:00:00.007-05:30")
        for offset in [-600, -330, 0, 60, 540, 840] {
            let text = EventTimestamp.format(unixMilliseconds: instant + 123, offsetMinutes: offset)
            XCTAssertEqual(EventTimestamp.parse(text)?.unixMilliseconds, instant + 123, text)
            XCTAssertEqual(EventTimestamp.parse(text)?.offsetMinutes, offset, text)
        }
        XCTAssertEqual(EventTimestamp.parse("2026-11-20T22:30:00Z")?.unixMilliseconds, instant)
        for bad in ["2026-11-20 22:30:00Z", "2026-11-20T25:30:00Z", "2026-11-20T22:30:00+15:00", "2026-11-20T22:30:00.1Z", "x",
                    "2026-02-30T10:00:00Z", "2026-13-01T10:00:00Z", "2026/11/20T22:30:00Z", "+026-11-20T22:30:00Z", "2026-11-2xT22:30:00Z"] {
            XCTAssertNil(EventTimestamp.parse(bad), bad)
        }
    }

    func testStreakRules() {
        func day(_ text: String) -> CivilDay { CivilDay(text)! }
        let today = day("2026-11-21")
        XCTAssertEqual(Streaks(mindfulDays: [], today: today), Streaks(current: 0, longest: 0))
        XCTAssertEqual(Streaks(mindfulDays: [today, today], today: today), Streaks(current: 1, longest: 1))
        XCTAssertEqual(Streaks(mindfulDays: [day("2026-11-20")], today: today), Streaks(current: 1, longest: 1))
        XCTAssertEqual(Streaks(mindfulDays: [day("2026-11-19")], today: today), Streaks(current: 0, longest: 1))
        XCTAssertEqual(Streaks(mindfulDays: ["2026-02-27", "2026-02-28", "2026-03-01", "2026-03-03"].map(day), today: today),
                       Streaks(current: 0, longest: 3), "across a month end")
    }
}
