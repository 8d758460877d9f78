import CSQLite

extension EventStore {
    /// A period's counts and focused seconds: `dailyCounts` and `focusSeconds` of the same
    /// days, to the number, from one pass over the period's events.
    public struct PeriodCounts: Sendable {
        public var counts: [DailyCount] = []
        public var focus: [(day: CivilDay, app: String, seconds: Int)] = []
    }

    /// `dailyCounts(from:to:app:)` and `focusSeconds(from:to:app:)` in one read. Those two
    /// group by day, type and app in SQL, and SQLite groups by sorting: on a dense history
    /// (thousands of events a day) sorting a fortnight's rows by their text keys was most of
    /// `miga stats`. Here SQLite reads each row of the period once, by the time index, and
    /// the rows are added up by key as they come, without sorting them.
    public func periodCounts(from: CivilDay, to: CivilDay, app: String?) throws -> PeriodCounts {
        // The widest of the two margins (focus: ±18 h); the counts keep their own (±14 h).
        let margin: Int64 = 18 * 3_600_000 + 60_000, countsMargin: Int64 = 14 * 3_600_000 + 60_000
        let start = Int64(from.daysSinceEpoch) * 86_400_000, end = Int64(to.daysSinceEpoch + 1) * 86_400_000
        var arguments: [SQLiteValue] = [.integer(start - margin), .integer(end + margin), .integer(start - countsMargin), .integer(end + countsMargin)]
        if let app { arguments.append(.text(app)) }
        let statement = try db.prepare("""
            SELECT (ts + utc_offset_min * 60000) / 86400000, type, app,
                ts BETWEEN ?3 AND ?4 AND type <> \(EventType.settingLoosened.sqlLiteral),
                CASE WHEN typeof(wait_ms) IN ('integer', 'real') THEN min(max(wait_ms, 0), 86400000) END,
                CASE WHEN type = \(EventType.focus.sqlLiteral) THEN min(max(CAST(substr(detail, 12) AS REAL), 0), 60) END,
                \(Event.snoozePauseSQL)
            FROM events WHERE ts BETWEEN ?1 AND ?2 AND utc_offset_min BETWEEN -1080 AND 1080 \(app == nil ? "" : "AND app = ?5")
            """)
        try statement.bind(arguments)
        var totals = PeriodTotals()
        while try statement.step() {
            // Whatever the file holds (see StoredEvent.swift): a value no event has is passed over.
            guard let number = StoredValue.integer(statement.value(0)), EventBounds.days.contains(number),
                  case let day = Int(number), day >= from.daysSinceEpoch, day <= to.daysSinceEpoch,
                  let slot = totals.slot(statement) else { continue }
            totals.add(statement, slot: slot, day: day)
        }
        return totals.result
    }
}

/// The running sums of `periodCounts`, by day and (type, app, a snooze's or not). A type and
/// an app are told apart by their bytes, as SQLite's GROUP BY tells them apart, and made
/// Strings once each.
private struct PeriodTotals {
    private struct Key: Hashable { var slot: Int, day: Int }
    private struct Sums {
        var count = 0, waited = 0.0, focus = 0.0
        mutating func add(counted: Bool, waited: Double, focus: Double) {
            if counted { count += 1; self.waited += waited }
            self.focus += focus
        }
    }
    private var names: [(type: [UInt8], app: [UInt8], isFocus: Bool, snooze: Bool)] = []
    private var slots: [Int: [Int]] = [:]
    private var sums: [Key: Sums] = [:]

    /// A name kept against a row's bytes, by memcmp: the generic `elementsEqual` went byte by
    /// byte through its iterators, on every row (8% of `stats`).
    private static func same(_ kept: [UInt8], _ row: UnsafeBufferPointer<UInt8>) -> Bool {
        kept.withUnsafeBytes { ByteSearch.equal($0, UnsafeRawBufferPointer(row)) }
    }

    /// The (type, app, snooze's) of the current row: its number, or nil when either name is
    /// no text.
    mutating func slot(_ statement: SQLiteStatement) -> Int? {
        guard let type = statement.text(1), let app = statement.text(2) else { return nil }
        let snooze = statement.value(6) == .integer(1)
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(type))
        hasher.combine(type.count)
        hasher.combine(bytes: UnsafeRawBufferPointer(app))
        hasher.combine(snooze)
        let hash = hasher.finalize()
        for slot in slots[hash, default: []]
        where names[slot].snooze == snooze && Self.same(names[slot].type, type) && Self.same(names[slot].app, app) {
            return slot
        }
        names.append((Array(type), Array(app), type.elementsEqual(EventType.focus.rawValue.utf8), snooze))
        slots[hash, default: []].append(names.count - 1)
        return names.count - 1
    }

    /// The current row into its day's sums: counted (within the counts' margin, not a
    /// loosened setting), and its seconds when it is a `focus` event.
    mutating func add(_ statement: SQLiteStatement, slot: Int, day: Int) {
        let counted = statement.value(3) == .integer(1), isFocus = names[slot].isFocus
        guard counted || isFocus else { return }
        let waited = counted ? StoredValue.real(statement.value(4)) ?? 0 : 0
        let focus = isFocus ? StoredValue.real(statement.value(5)) ?? 0 : 0
        sums[Key(slot: slot, day: day), default: Sums()].add(counted: counted, waited: waited, focus: focus)
    }

    /// In the order of the SQL it stands for: by day, then type, then app (by their bytes),
    /// then an app's own before a snooze's.
    var result: EventStore.PeriodCounts {
        let text = names.map { (type: String(decoding: $0.type, as: UTF8.self), app: String(decoding: $0.app, as: UTF8.self)) }
        let keys = sums.keys.sorted { left, right in
            if left.day != right.day { return left.day < right.day }
            let (one, other) = (names[left.slot], names[right.slot])
            if one.type != other.type { return one.type.lexicographicallyPrecedes(other.type) }
            return one.app != other.app ? one.app.lexicographicallyPrecedes(other.app) : !one.snooze && other.snooze
        }
        var result = EventStore.PeriodCounts()
        for key in keys {
            guard let entry = sums[key] else { continue }
            let day = CivilDay(daysSinceEpoch: key.day)
            if entry.count > 0 {
                let waited = min(entry.waited, 1e15) // a million days of waiting, at most
                result.counts.append(.init(day: day, type: text[key.slot].type, app: text[key.slot].app,
                                           count: entry.count, waitMilliseconds: Int64(waited.rounded()), snooze: names[key.slot].snooze))
            }
            let seconds = EventStore.focusSeconds(entry.focus)
            if names[key.slot].isFocus, seconds > 0 { result.focus.append((day, text[key.slot].app, seconds)) }
        }
        return result
    }
}
