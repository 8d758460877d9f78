extension EventStore {
    /// The SQL sum of the `focus` events' seconds in a query over `events`. The number is read
    /// from its place in the text every writer gives a focus event (`{"seconds":N}`: the
    /// recorder, and import and the journal fold, which write a detail as JSON of their own),
    /// not parsed as JSON: a gate's first frame sums a heavy day's 480 of them, and JSON
    /// functions there cost it a third more instructions. Each is taken within 0–60 whatever a
    /// file brought (a detail that is no JSON, a string, a day's worth in one event), so no
    /// import or other machine can make an hour of a minute.
    static let focusSecondsSum = "total(min(max(CAST(substr(detail, 12) AS REAL), 0), 60))"

    /// A sum as read back: whole seconds, never negative, never past a century.
    static func focusSeconds(_ sum: Double?) -> Int {
        Int(min(max(sum ?? 0, 0), 3_155_760_000))
    }

    /// Focused seconds per local day and app (each event's own offset) for the local days
    /// `from...to`; optionally for one app. Through the `(type, app, ts)` index, by time.
    public func focusSeconds(from: CivilDay, to: CivilDay, app: String?) throws -> [(day: CivilDay, app: String, seconds: Int)] {
        let margin: Int64 = 18 * 3_600_000 + 60_000
        let lower = Int64(from.daysSinceEpoch) * 86_400_000 - margin
        let upper = Int64(to.daysSinceEpoch + 1) * 86_400_000 + margin
        var arguments: [SQLiteValue] = [.integer(lower), .integer(upper)]
        if let app { arguments.append(.text(app)) }
        var sums: [(day: CivilDay, app: String, seconds: Int)] = []
        try db.forEachRow("""
            SELECT (ts + utc_offset_min * 60000) / 86400000 AS day, app, \(Self.focusSecondsSum)
            FROM events WHERE type = \(EventType.focus.sqlLiteral) AND ts BETWEEN ?1 AND ?2
                AND utc_offset_min BETWEEN -1080 AND 1080 \(app == nil ? "" : "AND app = ?3")
            GROUP BY day, app
            """, arguments) { row in
            guard let number = StoredValue.integer(row.value(0)), EventBounds.days.contains(number),
                  case let day = CivilDay(daysSinceEpoch: Int(number)), day >= from, day <= to,
                  let app = StoredValue.text(row.value(1)) else { return }
            let seconds = Self.focusSeconds(StoredValue.real(row.value(2)))
            if seconds > 0 { sums.append((day, app, seconds)) }
        }
        return sums
    }

    /// Whether `app` has had its daily budget's soft end on the local `day`
    /// (`timebox_ended` with `{"budget":true,…}`): it asks once a day.
    public func budgetEnded(app: String, on day: CivilDay) throws -> Bool {
        let margin: Int64 = 18 * 3_600_000 + 60_000
        let lower = Int64(day.daysSinceEpoch) * 86_400_000 - margin
        let upper = Int64(day.daysSinceEpoch + 1) * 86_400_000 + margin
        return try db.value("""
            SELECT EXISTS (SELECT 1 FROM events WHERE type = \(EventType.timeboxEnded.sqlLiteral) AND app = ?1 AND ts BETWEEN ?2 AND ?3
                AND utc_offset_min BETWEEN -1080 AND 1080 AND (ts + utc_offset_min * 60000) / 86400000 = ?4
                AND detail LIKE '%"budget":true%')
            """, [.text(app), .integer(lower), .integer(upper), SQLiteValue(day.daysSinceEpoch)]) == .integer(1)
    }
}
