import FoundationEssentials

extension EventStore {
    /// One step of a gate session as it was stored.
    struct SessionStep {
        var type: EventType?
        var timestamp: Int64
        var offsetMinutes: Int
        var contentID: String?
    }

    /// The events of one gate session of `app` stored between two instants (Unix ms), oldest
    /// first: a seek on the `(ts, session, …)` index over that window alone. This machine's
    /// only: a gate resumed here started here (another machine's journal may name any session).
    func sessionSteps(_ session: String, app: String, from lower: Int64, to upper: Int64) throws -> [SessionStep] {
        try db.rows("""
            SELECT type, ts, utc_offset_min, content_id FROM events
            WHERE ts BETWEEN ? AND ? AND session = ? AND app = ? AND device IS NULL ORDER BY ts, id
            """, [.integer(lower), .integer(upper), .text(session), .text(app)]).compactMap { row in
            guard row.count == 4, let timestamp = StoredValue.integer(row[1]), let offset = StoredValue.integer(row[2]),
                  EventBounds.offsetMinutes.contains(offset) else { return nil }
            return SessionStep(type: StoredValue.text(row[0]).flatMap(EventType.init(rawValue:)), timestamp: timestamp,
                               offsetMinutes: Int(offset), contentID: StoredValue.text(row[3]))
        }
    }
}
