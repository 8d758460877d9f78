import JSON

extension EventStore {
    /// What `app`'s gate needs to know about today (`day`, local): one statement, four
    /// lookups on the `(type, app, ts)` index, each bounded to the day (widened by the largest
    /// UTC offsets and narrowed again by each event's own offset), so a million events cost
    /// what a dozen do. The focused seconds are the sum of today's `focus` events, each taken
    /// within 0–60 whatever a file brought.
    /// `excluding`: a session left out of the counts (a gate already running, counting what
    /// came before it).
    public func history(app: String, on day: CivilDay, excluding session: String? = nil) throws -> AppHistory {
        let margin: Int64 = 18 * 3_600_000 + 60_000
        let lower = Int64(day.daysSinceEpoch) * 86_400_000 - margin
        let upper = Int64(day.daysSinceEpoch + 1) * 86_400_000 + margin
        func today(_ type: EventType, _ value: String = "count(*)", excludingSession: Bool = true) -> String {
            """
            (SELECT \(value) FROM events WHERE type = \(type.sqlLiteral) AND app = ?1 AND ts BETWEEN ?2 AND ?3
                AND utc_offset_min BETWEEN -1080 AND 1080 AND (ts + utc_offset_min * 60000) / 86400000 = ?4
                \(excludingSession ? "AND session IS NOT ?7" : ""))
            """
        }
        let row = try db.rows("""
            SELECT \(today(.sessionStart)), \(today(.openSelected)),
                (SELECT detail FROM events WHERE type = \(EventType.openSelected.sqlLiteral) AND app = ?1 AND ts BETWEEN ?5 AND ?6
                    ORDER BY ts DESC LIMIT 1),
                \(today(.focus, Self.focusSecondsSum, excludingSession: false))
            """, [.text(app), .integer(lower), .integer(upper), SQLiteValue(day.daysSinceEpoch),
                  .integer(EventBounds.timestamps.lowerBound), .integer(EventBounds.timestamps.upperBound), SQLiteValue(session)]).first ?? []
        guard row.count == 4 else { return AppHistory() }
        return AppHistory(sessionsToday: Int(StoredValue.integer(row[0]) ?? 0), opensToday: Int(StoredValue.integer(row[1]) ?? 0),
                          lastIntention: Intention.from(detail: StoredValue.text(row[2])),
                          focusSecondsToday: Self.focusSeconds(StoredValue.real(row[3])))
    }

    /// The intentions given at Opens between two instants (Unix ms) whose local day is in
    /// `days`, newest first.
    public func intentions(from lower: Int64, to upper: Int64, within days: ClosedRange<CivilDay>) throws -> [(app: String, text: String)] {
        try opens(from: lower, to: upper, within: days).intentions
    }

    /// The Opens past a day's `opens_per_day` (`{"over_allowance":true}`) on those days, per app.
    public func opensOverAllowance(from lower: Int64, to upper: Int64, within days: ClosedRange<CivilDay>) throws -> [String: Int] {
        try opens(from: lower, to: upper, within: days).overAllowance
    }

    /// Both of the above from one read of the Opens, each detail parsed once (the week's report).
    public func opens(from lower: Int64, to upper: Int64, within days: ClosedRange<CivilDay>)
        throws -> (intentions: [(app: String, text: String)], overAllowance: [String: Int]) {
        var intentions: [(app: String, text: String)] = [], overAllowance: [String: Int] = [:]
        for entry in try openDetails(from: lower, to: upper, within: days) where entry.detail.utf8.count <= 64 * 1024 {
            let value = try? JSONValue.parse(entry.detail)
            if let text = Intention.from(json: value) { intentions.append((entry.app, text)) }
            if case .bool(true)? = value?["over_allowance"] { overAllowance[entry.app, default: 0] += 1 }
        }
        return (intentions, overAllowance)
    }

    /// The "Do this instead" choices made on those days: each label, how often.
    public func alternativesChosen(from lower: Int64, to upper: Int64, within days: ClosedRange<CivilDay>) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for entry in try details(of: .exitSelected, from: lower, to: upper, within: days) where entry.detail.utf8.count <= 64 * 1024 {
            if let label = (try? JSONValue.parse(entry.detail))?["alternative"]?.string { counts[label, default: 0] += 1 }
        }
        return counts
    }

    /// The settings loosened on those days (`setting_loosened`), newest first.
    public func loosenedSettings(from lower: Int64, to upper: Int64, within days: ClosedRange<CivilDay>)
        throws -> [(setting: String, from: String, to: String)] {
        try details(of: .settingLoosened, from: lower, to: upper, within: days).compactMap { entry in
            guard entry.detail.utf8.count <= 64 * 1024, let value = try? JSONValue.parse(entry.detail),
                  let setting = value["setting"]?.string, let from = value["from"]?.string, let to = value["to"]?.string else { return nil }
            return (setting, from, to)
        }
    }

    private func openDetails(from lower: Int64, to upper: Int64, within days: ClosedRange<CivilDay>) throws -> [(app: String, detail: String)] {
        try details(of: .openSelected, from: lower, to: upper, within: days)
    }

    /// The events of `type` with a detail, newest first, whose local day is in `days`. Each
    /// app's own stretch of the `(type, app, ts)` index, the apps found in it one seek each:
    /// SQLite, given `type = ?` alone, read every event of the type ever (a dense history's
    /// 100,000 Opens, for a week's 4,000), and by time alone every event of the week for a
    /// type that has none.
    private func details(of type: EventType, from lower: Int64, to upper: Int64, within days: ClosedRange<CivilDay>) throws -> [(app: String, detail: String)] {
        try db.rows("""
            WITH RECURSIVE apps(app) AS (
                SELECT (SELECT min(app) FROM events WHERE type = ?1)
                UNION ALL
                SELECT (SELECT min(app) FROM events WHERE type = ?1 AND app > apps.app) FROM apps WHERE apps.app IS NOT NULL)
            SELECT events.app, detail, (ts + utc_offset_min * 60000) / 86400000 FROM apps, events
            WHERE events.type = ?1 AND events.app = apps.app AND ts BETWEEN ?2 AND ?3 AND detail IS NOT NULL
                AND utc_offset_min BETWEEN -1080 AND 1080 ORDER BY ts DESC
            """, [.text(type.rawValue), .integer(lower), .integer(upper)]).compactMap { row in
            guard let day = StoredValue.integer(row[2]), EventBounds.days.contains(day), days.contains(CivilDay(daysSinceEpoch: Int(day))),
                  let app = StoredValue.text(row[0]), let detail = StoredValue.text(row[1]) else { return nil }
            return (app, detail)
        }
    }
}
