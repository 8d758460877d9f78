extension EventStore {
    /// What `app`'s gate needs to know about today (`day`, local): three lookups on the
    /// `(type, app, ts)` index, each bounded to the day (widened by the largest UTC offsets and
    /// narrowed again by each event's own offset), so a million events cost what a dozen do.
    public func history(app: String, on day: CivilDay) throws -> AppHistory {
        let margin: Int64 = 18 * 3_600_000 + 60_000
        let lower = Int64(day.daysSinceEpoch) * 86_400_000 - margin
        let upper = Int64(day.daysSinceEpoch + 1) * 86_400_000 + margin
        let count = """
            SELECT count(*) FROM events WHERE type = ? AND app = ? AND ts BETWEEN ? AND ?
                AND utc_offset_min BETWEEN -1080 AND 1080
                AND (ts + utc_offset_min * 60000) / 86400000 = ?
            """
        return try db.transaction(immediate: false) {
            func today(_ type: EventType) throws -> Int {
                Int(StoredValue.integer(try db.value(count, [.text(type.rawValue), .text(app), .integer(lower), .integer(upper),
                                                             SQLiteValue(day.daysSinceEpoch)])) ?? 0)
            }
            let detail = try db.value("""
                SELECT detail FROM events WHERE type = ? AND app = ? AND ts BETWEEN ? AND ?
                ORDER BY ts DESC LIMIT 1
                """, [.text(EventType.openSelected.rawValue), .text(app),
                      .integer(EventBounds.timestamps.lowerBound), .integer(EventBounds.timestamps.upperBound)])
            return AppHistory(sessionsToday: try today(.sessionStart), opensToday: try today(.openSelected),
                              lastIntention: Intention.from(detail: StoredValue.text(detail)))
        }
    }

    /// The intentions given at Opens between two instants (Unix ms) whose local day is in
    /// `days`, newest first.
    public func intentions(from lower: Int64, to upper: Int64, within days: ClosedRange<CivilDay>) throws -> [(app: String, text: String)] {
        try db.rows("""
            SELECT app, detail, (ts + utc_offset_min * 60000) / 86400000 FROM events
            WHERE type = ? AND ts BETWEEN ? AND ? AND detail IS NOT NULL
                AND utc_offset_min BETWEEN -1080 AND 1080 ORDER BY ts DESC
            """, [.text(EventType.openSelected.rawValue), .integer(lower), .integer(upper)]).compactMap { row in
            guard let day = StoredValue.integer(row[2]), EventBounds.days.contains(day), days.contains(CivilDay(daysSinceEpoch: Int(day))),
                  let app = StoredValue.text(row[0]), let text = Intention.from(detail: StoredValue.text(row[1])) else { return nil }
            return (app, text)
        }
    }

    /// For `miga status`: the apps and sites whose last Open is after `since` (Unix ms), with
    /// when that was.
    public func lastOpens(since: Int64) throws -> [(app: String, at: Int64)] {
        try db.rows("""
            SELECT app, max(ts) FROM events WHERE type = ? AND ts BETWEEN ? AND ? GROUP BY app ORDER BY app
            """, [.text(EventType.openSelected.rawValue), .integer(since), .integer(EventBounds.timestamps.upperBound)]).compactMap { row in
            guard let app = StoredValue.text(row[0]), let at = StoredValue.integer(row[1]) else { return nil }
            return (app, at)
        }
    }
}
