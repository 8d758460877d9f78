extension EventStore {
    /// Events of one type for one app on one local day.
    public struct DailyCount: Equatable, Sendable {
        public var day: CivilDay
        public var type: String
        public var app: String
        public var count: Int
        public var waitMilliseconds: Int64
        /// Events of a snooze's own pause (`Event.snoozePauseApp`, marked `Event.snoozeDetail`):
        /// a pause, not an app's attempt, so they count in a period's totals and no app's row.
        /// Told apart by `periodCounts` only. (The passes a snooze lets through are marked too,
        /// and stay their app's.)
        public var snooze = false
    }

    /// Counts grouped by local day (each event's own offset), type and app, for the local days
    /// `from...to`; optionally for one app.
    public func dailyCounts(from: CivilDay, to: CivilDay, app: String?) throws -> [DailyCount] {
        // Offsets reach ±14 h: widen the UTC range by that, then keep the exact local days.
        let margin: Int64 = 14 * 3_600_000 + 60_000
        let lower = Int64(from.daysSinceEpoch) * 86_400_000 - margin
        let upper = Int64(to.daysSinceEpoch + 1) * 86_400_000 + margin
        var sql = """
            SELECT (ts + utc_offset_min * 60000) / 86400000 AS day, type, app, count(*),
                total(CASE WHEN typeof(wait_ms) IN ('integer', 'real') THEN min(max(wait_ms, 0), 86400000) END)
            FROM events WHERE ts BETWEEN ? AND ? AND utc_offset_min BETWEEN -1080 AND 1080
                AND type <> \(EventType.settingLoosened.sqlLiteral)
            """
        // (A loosened setting is no app's attempt: it is listed by the week on its own.)
        var arguments: [SQLiteValue] = [.integer(lower), .integer(upper)]
        if let app {
            sql += " AND app = ?"
            arguments.append(.text(app))
        }
        sql += " GROUP BY day, type, app"
        var counts: [DailyCount] = []
        try db.forEachRow(sql, arguments) { row in
            // Whatever the file holds (see StoredEvent.swift): a value no event has is passed over.
            guard let number = StoredValue.integer(row.value(0)), EventBounds.days.contains(number),
                  case let day = CivilDay(daysSinceEpoch: Int(number)), day >= from, day <= to,
                  let type = StoredValue.text(row.value(1)), let app = StoredValue.text(row.value(2)),
                  let count = StoredValue.integer(row.value(3)) else { return }
            let waited = min(StoredValue.real(row.value(4)) ?? 0, 1e15) // a million days of waiting, at most
            counts.append(DailyCount(day: day, type: type, app: app, count: Int(count), waitMilliseconds: Int64(waited.rounded())))
        }
        return counts
    }

    /// Every local day with at least one Exit, ever (streaks ignore filters).
    public func mindfulDays() throws -> [CivilDay] {
        let days: [SQLiteValue]
        do {
            days = try db.column(Self.mindfulDaysSQL(indexed: true))
        } catch {
            days = try db.column(Self.mindfulDaysSQL(indexed: false)) // a file without the index (changed by hand)
        }
        return days.compactMap { StoredValue.integer($0) }.filter(EventBounds.days.contains).map { CivilDay(daysSinceEpoch: Int($0)) }
    }

    /// The days of `mindfulDays`. Named, the index `events_exit_days` (exactly this expression
    /// for exactly the Exits) is read without the table, in order, days already distinct as
    /// they come; left to itself SQLite prefers the `(type, app, ts)` index, whose Exits each
    /// need a read of their row for the offset: every Exit ever, across the whole table (a
    /// dense history's 50,000 Exits: 70 ms against 6).
    static func mindfulDaysSQL(indexed: Bool) -> String {
        """
        SELECT DISTINCT (ts + utc_offset_min * 60000) / 86400000 FROM events \(indexed ? "INDEXED BY events_exit_days" : "")
        WHERE type = 'exit_selected'
        """
    }

    /// The earliest local day with an event, so a chart starts at a person's first pause
    /// rather than at thirteen empty days; nil with no event. Found by time through the index
    /// (not a scan of all history): the earliest instant, then the earliest local day of the
    /// 36 hours after it, as offsets (±18 h) can put a later event on an earlier day.
    public func firstDay() throws -> CivilDay? {
        let offsets = "utc_offset_min BETWEEN \(EventBounds.offsetMinutes.lowerBound) AND \(EventBounds.offsetMinutes.upperBound)"
        let day = try db.value("""
            WITH first AS (SELECT ts FROM events WHERE ts BETWEEN ? AND ? AND \(offsets) ORDER BY ts LIMIT 1)
            SELECT min((events.ts + utc_offset_min * 60000) / 86400000) FROM events, first
            WHERE events.ts BETWEEN first.ts AND first.ts + 129600000 AND \(offsets)
            """, [.integer(EventBounds.timestamps.lowerBound), .integer(EventBounds.timestamps.upperBound)])
        return StoredValue.integer(day).flatMap { EventBounds.days.contains($0) ? CivilDay(daysSinceEpoch: Int($0)) : nil }
    }

    /// Whether any event exists (cheaper than counting a million).
    public func hasEvents() throws -> Bool {
        try db.value("SELECT EXISTS (SELECT 1 FROM events)") == .integer(1)
    }

    /// The apps and sites that have events, for telling a typo from a quiet app.
    public func appsWithEvents() throws -> [String] {
        try db.column("SELECT DISTINCT app FROM events ORDER BY app").compactMap(StoredValue.text)
    }

    /// Every Exit ever recorded, any app.
    public func exitCount() throws -> Int {
        Int(StoredValue.integer(try db.value("SELECT count(*) FROM events WHERE type = \(EventType.exitSelected.sqlLiteral)")) ?? 0)
    }

    public func eventCount() throws -> Int {
        Int(StoredValue.integer(try db.value("SELECT count(*) FROM events")) ?? 0)
    }
}
