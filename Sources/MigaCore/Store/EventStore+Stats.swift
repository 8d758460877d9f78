import GRDB

extension EventStore {
    /// Events of one type for one app on one local day.
    public struct DailyCount: Equatable, Sendable {
        public var day: CivilDay
        public var type: String
        public var app: String
        public var count: Int
        public var waitMilliseconds: Int64
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
            """
        var arguments: StatementArguments = [lower, upper]
        if let app {
            sql += " AND app = ?"
            arguments += [app]
        }
        sql += " GROUP BY day, type, app"
        return try queue.read { db in
            try Row.fetchAll(db, sql: sql, arguments: arguments).compactMap { row in
                // Whatever the file holds (see StoredEvent.swift): a value no event has is passed over.
                guard let number = StoredValue.integer(row[0]), EventBounds.days.contains(number),
                      case let day = CivilDay(daysSinceEpoch: Int(number)), day >= from, day <= to,
                      let type = StoredValue.text(row[1]), let app = StoredValue.text(row[2]) else { return nil }
                let waited = min(StoredValue.real(row[4]) ?? 0, 1e15) // a million days of waiting, at most
                return DailyCount(day: day, type: type, app: app, count: row[3], waitMilliseconds: Int64(waited.rounded()))
            }
        }
    }

    /// Every local day with at least one Exit, ever (streaks ignore filters).
    public func mindfulDays() throws -> [CivilDay] {
        try queue.read { db in
            try DatabaseValue.fetchAll(db, sql: """
                SELECT DISTINCT (ts + utc_offset_min * 60000) / 86400000 FROM events
                WHERE type = 'exit_selected'
                """).compactMap { StoredValue.integer($0) }.filter(EventBounds.days.contains).map { CivilDay(daysSinceEpoch: Int($0)) }
        }
    }

    /// Whether any event exists (cheaper than counting a million).
    public func hasEvents() throws -> Bool {
        try queue.read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM events)") ?? false }
    }

    /// The apps and sites that have events, for telling a typo from a quiet app.
    public func appsWithEvents() throws -> [String] {
        try queue.read { db in
            try DatabaseValue.fetchAll(db, sql: "SELECT DISTINCT app FROM events ORDER BY app").compactMap(StoredValue.text)
        }
    }

    public func eventCount() throws -> Int {
        try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM events") ?? 0 }
    }
}
