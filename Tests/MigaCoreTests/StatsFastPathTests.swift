import XCTest
@testable import MigaCore
import MigaTestSupport

/// The stats' fast reads against the plain SQL they stand for, on random histories with
/// everything a file may hold: events near the edges of the period under every offset up to
/// ±18 h (and past it), loosened settings, focus details that are no JSON, waits that are
/// text, reals, negative or huge, types and apps that are no text.
final class StatsFastPathTests: XCTestCase {
    let types = ["session_start", "content_read", "gateway_completed", "exit_selected", "open_selected", "abandoned",
                 "grace_pass", "focus", "focus", "setting_loosened", "timebox_ended"]
    let apps = ["discord", "reddit.com", "Discord", "signal", "é", ""]
    let today = CivilDay(daysSinceEpoch: 20_500)

    func randomStore(seed: UInt64, events: Int) throws -> (EventStore, TemporaryDirectory) {
        let folder = try TemporaryDirectory()
        let store = try EventStore(path: folder.path + "/miga.sqlite3")
        var random = SplitMix64(seed: seed)
        let waits: [SQLiteValue] = [.null, .integer(31_000), .integer(-5), .integer(200_000_000), .real(1_500.5), .text("12"), .integer(0)]
        let details: [SQLiteValue] = [.null, .text("{\"seconds\":30}"), .text("{\"seconds\":90}"), .text("{\"seconds\":-4}"),
                                      .text("{\"seconds\":12.5}"), .text("not json"), .text("{\"intention\":\"x\"}"), .integer(7)]
        let offsets = [0, 60, -300, 840, -840, 1_080, -1_080, 1_020, -1_020, 1_200]
        try store.db.transaction(immediate: true) {
            for index in 0..<events {
                let day = Int64(today.daysSinceEpoch - Int.random(in: 0...40, using: &random))
                let ts = day * 86_400_000 + Int64.random(in: -70_000_000...(86_400_000 + 70_000_000), using: &random)
                var type = SQLiteValue.text(types.randomElement(using: &random)!)
                var app = SQLiteValue.text(apps.randomElement(using: &random)!)
                if index % 97 == 0 { type = .blob([1, 2]) }
                if index % 89 == 0 { app = .blob([3]) }
                try store.db.execute("""
                    INSERT INTO events (ts, utc_offset_min, session, type, app, wait_ms, detail) VALUES (?, ?, 's', ?, ?, ?, ?)
                    """, [.integer(ts), .integer(Int64(offsets.randomElement(using: &random)!)), type, app,
                          waits.randomElement(using: &random)!, details.randomElement(using: &random)!])
            }
        }
        return (store, folder)
    }

    func testPeriodCountsAreTheDailyCountsAndFocusedSecondsOfThePlainQueries() throws {
        for seed in 1...6 as ClosedRange<UInt64> {
            let (store, folder) = try randomStore(seed: seed, events: 3_000)
            defer { _ = folder }
            for (from, to) in [(today.adding(days: -13), today), (today, today), (today.adding(days: -20), today.adding(days: -7)),
                               (today.adding(days: -60), today.adding(days: 3))] {
                for app in [nil, "discord", "é", "nobody"] as [String?] {
                    let fast = try store.periodCounts(from: from, to: to, app: app)
                    XCTAssertEqual(fast.counts, try store.dailyCounts(from: from, to: to, app: app), "seed \(seed) \(from)…\(to) \(app ?? "-")")
                    let plain = try store.focusSeconds(from: from, to: to, app: app)
                    XCTAssertEqual(fast.focus.map { "\($0.day) \($0.app) \($0.seconds)" }, plain.map { "\($0.day) \($0.app) \($0.seconds)" },
                                   "seed \(seed) \(from)…\(to) \(app ?? "-")")
                    XCTAssertFalse(fast.counts.isEmpty && app == nil && from == today.adding(days: -13), "a history to compare")
                }
            }
        }
    }

    func testMindfulDaysThroughTheExitDaysIndexAreThoseOfThePlainQuery() throws {
        for seed in 1...4 as ClosedRange<UInt64> {
            let (store, folder) = try randomStore(seed: seed, events: 2_000)
            defer { _ = folder }
            let plain = try store.db.column(EventStore.mindfulDaysSQL(indexed: false)).compactMap { StoredValue.integer($0) }.sorted()
            XCTAssertFalse(plain.isEmpty)
            XCTAssertEqual(try store.mindfulDays().map { Int64($0.daysSinceEpoch) }.sorted(), plain.filter(EventBounds.days.contains))
        }
    }

    /// A file whose index was dropped by hand still has its streak.
    func testMindfulDaysWithoutTheExitDaysIndex() throws {
        let (store, folder) = try randomStore(seed: 9, events: 500)
        defer { _ = folder }
        let before = try store.mindfulDays()
        try store.db.execute("DROP INDEX events_exit_days")
        XCTAssertFalse(before.isEmpty)
        XCTAssertEqual(try store.mindfulDays().sorted(), before.sorted()) // in another order: streaks take them as a set
    }

    /// The plan SQLite takes: the exit-days index alone, never the table.
    func testMindfulDaysReadTheExitDaysIndex() throws {
        let (store, folder) = try randomStore(seed: 3, events: 10)
        defer { _ = folder }
        let plan = try store.db.rows("EXPLAIN QUERY PLAN " + EventStore.mindfulDaysSQL(indexed: true)).map { "\($0)" }.joined()
        XCTAssertTrue(plan.contains("events_exit_days"), plan)
    }

    /// An intention already clean is given back as it is, without Unicode's tables; anything
    /// else is cleaned scalar by scalar, as before.
    func testCleanASCIIIntentionsAreWhatTheScalarCleaningGives() {
        var random = SplitMix64(seed: 49)
        let pieces = ["a", "Z", " ", "  ", "~", "\t", "\n", "\u{7F}", "\u{1F}", "é", "\u{202E}", "\u{00A0}", "1", "\r\n", "👍🏽"]
        var fast = 0
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0...130, using: &random)).map { _ in Int.random(in: 0..<4, using: &random) == 0
                ? pieces.randomElement(using: &random)! : String(UnicodeScalar(UInt8.random(in: 0x21...0x7E, using: &random))) }.joined()
            XCTAssertEqual(Intention.clean(text), Intention.cleanByScalars(text), text.debugDescription)
            if Intention.isCleanASCII(text) {
                fast += 1
                XCTAssertEqual(Intention.cleanByScalars(text), text, text.debugDescription)
            }
        }
        XCTAssertGreaterThan(fast, 100, "the fast answer is taken")
        XCTAssertTrue(Intention.isCleanASCII("reply to Sam"))
        XCTAssertFalse(Intention.isCleanASCII(String(repeating: "a", count: Intention.limit + 1)))
        XCTAssertTrue(Intention.isCleanASCII(String(repeating: "a", count: Intention.limit)))
    }
}
