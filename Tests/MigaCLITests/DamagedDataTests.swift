import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// A database someone changed by hand (sqlite3) holding values no gate records: a text or
/// NULL time, an offset of a billion minutes, a wait of 9.3e18 ms. Every command still runs,
/// passing over such rows (and saying so) or clamping them, and every gate still opens.
final class DamagedDataTests: XCTestCase {
    var home: MigaHome!

    override func setUpWithError() throws {
        home = try MigaHome()
    }

    func testImpossibleStoredValuesAreSkippedOrClampedNeverATrap() throws {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        XCTAssertEqual(try home.miga(["gate", "--app", "chat", "--", "/bin/true"]).status, 0) // creates the database
        // The table re-made without NOT NULL, as a hand edit could leave it, then filled with
        // what no gate writes; one real Open (now) makes the next gate a grace pass.
        _ = try home.sqlite("""
            CREATE TABLE loose (id INTEGER PRIMARY KEY, ts INTEGER, utc_offset_min INTEGER, session TEXT, type TEXT,
                                app TEXT, content_id TEXT, wait_ms INTEGER, detail TEXT, device TEXT);
            INSERT INTO loose SELECT * FROM events; DROP TABLE events; ALTER TABLE loose RENAME TO events;
            INSERT INTO events (ts, utc_offset_min, session, type, app) VALUES
                (NULL, 0, 's1', 'exit_selected', 'chat'),
                (\(now), 1000000000, 's2', 'exit_selected', 'chat'),
                ('soon', 0, 's3', 'exit_selected', 'chat'),
                ('zzz', 0, 's4', 'open_selected', 'chat'),
                (\(now), 0, NULL, 'exit_selected', 'chat');
            INSERT INTO events (ts, utc_offset_min, session, type, app, wait_ms) VALUES
                (\(now - 1000), 0, 's5', 'open_selected', 'chat', 9.3e18),
                (\(now - 2000), 0, 's6', 'exit_selected', 'chat', -5);
            """)

        let stats = try home.miga(["stats", "--json"])
        XCTAssertEqual(stats.status, 0, stats.stderr)
        // Counting needs only a time, an offset and a type: the row without a session counts.
        XCTAssertTrue(stats.stdout.contains("\"exits\":2,\"opens\":1,"), stats.stdout)
        XCTAssertTrue(stats.stdout.contains("\"minutes_waited\":1440.0"), "the huge wait counts as one day: \(stats.stdout)")
        XCTAssertEqual(try home.miga(["stats"]).status, 0)

        let export = try home.miga(["events", "export"])
        XCTAssertEqual(export.status, 0, export.stderr)
        XCTAssertEqual(export.stdout.split(separator: "\n").count, 3, "the three usable events:\n\(export.stdout)")
        XCTAssertEqual(export.stderr, "miga: warning: skipped 5 stored events with an impossible time or offset; "
                       + "clamped 2 impossible waits to 0–24 h (the database was changed outside miga)\n")
        XCTAssertTrue(export.stdout.contains("\"wait_ms\":86400000") && export.stdout.contains("\"wait_ms\":0,"), export.stdout)

        // The 'zzz' Open sorts above every number; the grace check must still find the real one.
        let gate = try home.miga(["gate", "--app", "chat", "--", home.recorder, "grace"])
        XCTAssertEqual(gate.status, 0, gate.stderr)
        XCTAssertEqual(home.recordedArguments(), ["grace"])
        XCTAssertEqual(try home.sqlite("SELECT type FROM events ORDER BY id DESC LIMIT 1"), "grace_pass")
    }

    /// `miga events import - </dev/zero`: one endless line. It is refused once it passes the
    /// line limit, not read into memory until the machine runs out.
    func testAnEndlessLineIsRefusedAtTheLineLimit() throws {
        let output = try home.run("/bin/sh", ["-c", "exec /usr/bin/timeout -s KILL 20 \(shellQuote(home.binary)) events import - </dev/zero"])
        XCTAssertEqual(output.status, 1, output.stderr)
        XCTAssertEqual(output.stderr, "miga: stdin:1: longer than 1 MiB, so not an exported event; nothing was imported (fix that line and import the file again)\n")
    }
}
