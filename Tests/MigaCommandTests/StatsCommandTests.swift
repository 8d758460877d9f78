import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// `miga stats`, `events export/import` and `data delete` in-process, with TZ=UTC, on events
/// dated relative to today (moved from MigaCLITests' StatsCLITests, which keeps the terminal's
/// colours and width, the lock held by another process and the question on a terminal).
final class StatsCommandTests: XCTestCase, StatsCase {
    var home: CommandHome!

    override func setUpWithError() throws {
        home = try CommandHome()
    }

    func testFirstRunIsAFriendlyMessageAndCreatesNothing() throws {
        let human = try miga("stats")
        XCTAssertEqual(human.status, 0, human.stderr)
        XCTAssertTrue(human.stdout.hasPrefix("No pauses yet"), human.stdout)
        let json = try miga("stats", "--json")
        XCTAssertTrue(json.stdout.contains("\"sessions\":0,\"exits\":0,\"opens\":0,\"reads\":0,\"completed\":0,\"exit_rate\":0.0"), json.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.database), "reading stats creates no database")
    }

    /// A first day's chart is that day, not thirteen rows of 0/0 before it; once the history
    /// is older than the period, every day of it is charted. The JSON lists every day.
    func testTheChartStartsAtTheFirstPause() throws {
        try importEvents([line(.exitSelected, daysAgo: 1, hour: 23), line(.openSelected, daysAgo: 0)])
        let first = try miga("stats")
        let rows = first.stdout.split(separator: "\n").filter { $0.contains(" 1/0") || $0.contains(" 0/1") || $0.contains(" 0/0") }
        XCTAssertEqual(rows.count, 2, first.stdout)
        XCTAssertTrue(first.stdout.contains("  since your first pause "), first.stdout)
        XCTAssertEqual(try miga("stats", "--json").stdout.components(separatedBy: "\"date\"").count - 1, 14)
        try importEvents([line(.exitSelected, daysAgo: 30)])
        let later = try miga("stats")
        XCTAssertEqual(later.stdout.split(separator: "\n").filter { $0.hasSuffix("/0") || $0.hasSuffix("/1") }.count, 14, later.stdout)
        XCTAssertTrue(later.stdout.contains("  per day "), later.stdout)
    }

    func testExportDeleteImportGivesIdenticalStatsAndExport() throws {
        try importEvents((0..<30).flatMap { [line(.sessionStart, daysAgo: $0, session: "s\($0)"),
                                              line($0 % 3 == 0 ? .openSelected : .exitSelected, daysAgo: $0, session: "s\($0)", wait: 20_000)] })
        let stats = try miga("stats", "--json", "--days", "60").stdout
        let exported = try miga("events", "export")
        XCTAssertEqual(exported.stdout.split(separator: "\n").count, 60)
        let csv = try miga("events", "export", "--format", "csv")
        XCTAssertTrue(csv.stdout.hasPrefix(EventLine.csvHeader + "\n"))
        XCTAssertEqual(csv.stdout.split(separator: "\n").count, 61)

        let refused = try miga("data", "delete")
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("add --yes"), refused.stderr)
        try home.writeConfig("sites = []\ntimer_seconds = 20\n")
        let deleted = try miga("data", "delete", "--yes")
        XCTAssertEqual(deleted.stdout, "Deleted 60 events and the rotation state.\n")
        XCTAssertTrue(try miga("stats").stdout.hasPrefix("No pauses yet"))
        XCTAssertEqual(try String(contentsOfFile: home.configFile, encoding: .utf8), "sites = []\ntimer_seconds = 20\n", "config stays")

        let file = try home.writeFile("backup.jsonl", exported.stdout)
        XCTAssertEqual(try miga("events", "import", file).stdout, "Imported 60 events.\n")
        XCTAssertEqual(try miga("stats", "--json", "--days", "60").stdout, stats)
        XCTAssertEqual(try miga("events", "export").stdout, exported.stdout)

        // The CSV export comes back the same way, read by its header.
        XCTAssertEqual(try miga("data", "delete", "--yes").status, 0)
        let csvFile = try home.writeFile("backup.csv", csv.stdout)
        XCTAssertEqual(try miga("events", "import", csvFile).stdout, "Imported 60 events.\n")
        XCTAssertEqual(try miga("events", "export").stdout, exported.stdout)
        XCTAssertEqual(try miga("events", "import", csvFile).stdout, "Imported 0 events (60 already present, skipped).\n")
    }

    func testCSVFieldsWithCommasQuotesAndLineBreaksComeBackWhole() throws {
        // A blank line inside a quoted field is part of it, not a gap between records.
        let odd = Event(timestamp: 1_795_000_000_000, utcOffsetMinutes: 60, session: "a,\"b\"\nc\n\n  \nd", type: .gatewaySkipped,
                        app: "chat", contentID: "x,y", waitMilliseconds: nil, detail: #"{"reason":"config_error"}"#)
        let file = try home.writeFile("odd.csv", EventLine.csvHeader + "\r\n\n" + EventLine.csv(odd) + "\r\n\n")
        let imported = try miga("events", "import", file)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(try home.events().map { [$0.session, $0.contentID ?? "", $0.detail ?? ""] },
                       [["a,\"b\"\nc\n\n  \nd", "x,y", #"{"reason":"config_error"}"#]])
        for (text, problem) in [
            ("ts,type\n", "odd.csv:1: neither a JSON object nor miga's CSV header"),
            (EventLine.csvHeader + "\n2026-11-21T09:30:00.000+01:00,exit_selected,chat,s,,soon,\n", "bad.csv:2: \"wait_ms\" must be a whole number"),
            (EventLine.csvHeader + "\n2026-11-21T09:30:00.000+01:00,exit_selected,chat\n", "bad.csv:2: 3 fields where the header has 7"),
            (EventLine.csvHeader + "\n2026-11-21T09:30:00.000+01:00,exit_selected,chat,\"s,,,\n", "bad.csv:2: a quoted field that never ends"),
        ] {
            let bad = try home.writeFile(problem.hasPrefix("odd") ? "odd.csv" : "bad.csv", text)
            let output = try miga("events", "import", bad)
            XCTAssertEqual(output.status, 1, text)
            XCTAssertTrue(output.stderr.contains(problem), output.stderr)
        }
        XCTAssertEqual(try home.events().count, 1, "nothing half-imported")
    }

    func testBadInputIsRefusedClearlyAndChangesNothing() throws {
        for days in ["0", "-3", "100000", "ten"] {
            let output = try miga("stats", "--days", days)
            XCTAssertEqual(output.status, 64, days)
            XCTAssertFalse(output.stderr.isEmpty)
        }
        let fresh = try miga("stats", "--app", "discord")
        XCTAssertEqual(fresh.status, 1)
        XCTAssertTrue(fresh.stderr.contains("no events for \"discord\" (none are recorded yet)"), fresh.stderr)
        try importEvents([line(.exitSelected, daysAgo: 0)])
        // A name with no events is a typo more often than a quiet app: said, not an empty report.
        let typo = try miga("stats", "--app", "dicsord")
        XCTAssertEqual(typo.status, 1)
        XCTAssertEqual(typo.stdout, "")
        XCTAssertTrue(typo.stderr.contains("no events for an app or site named \"dicsord\"; these have some: "), typo.stderr)
        let bad = try home.writeFile("bad.jsonl", line(.exitSelected, daysAgo: 1) + "\n{\"ts\":\"yesterday\"}\n")
        let output = try miga("events", "import", bad)
        XCTAssertEqual(output.status, 1)
        XCTAssertTrue(output.stderr.contains("bad.jsonl:2: \"ts\" is not a time") && output.stderr.contains("nothing was imported"), output.stderr)
        XCTAssertEqual(try home.events().count, 1)
        XCTAssertEqual(try miga("events", "import", home.root).status, 1, "a directory")

        // A foreign file where the database should be: reported, never overwritten.
        let foreign = Data("this is not a database, it is my notes\n".utf8) + Data(repeating: 7, count: 4096)
        try foreign.write(to: URL(fileURLWithPath: home.database))
        try? FileManager.default.removeItem(atPath: home.database + "-wal")
        try? FileManager.default.removeItem(atPath: home.database + "-shm")
        for arguments in [["stats"], ["stats", "--json"], ["events", "export"], ["data", "delete", "--yes"]] {
            let result = try home.miga(arguments)
            XCTAssertEqual(result.status, 1, "\(arguments)")
            XCTAssertTrue(result.stderr.contains("not a miga database") && result.stderr.contains("move it aside"), result.stderr)
        }
        XCTAssertEqual(FileManager.default.contents(atPath: home.database), foreign)
    }
}
