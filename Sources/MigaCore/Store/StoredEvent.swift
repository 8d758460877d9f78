/// What can really be in the database file, read without trusting it. The file is the
/// person's: sqlite3, another program or a damaged disk can leave any value in any column
/// (SQLite keeps a text in an INTEGER column), and a typed accessor that traps on a value it
/// cannot convert would stop the process. Every read of events goes through here: a row no event could
/// have is skipped, a wait no gate could have is clamped, and the caller reports how many.
enum StoredValue {
    /// An integer, or a real that is a whole number within Int64; nil for anything else.
    static func integer(_ value: SQLiteValue) -> Int64? {
        switch value {
        case .integer(let number): return number
        case .real(let number): return Int64(exactly: number.rounded(.towardZero)) // nil for NaN, ±inf, > 2^63
        default: return nil
        }
    }

    static func real(_ value: SQLiteValue) -> Double? {
        switch value {
        case .integer(let number): return Double(number)
        case .real(let number): return number.isFinite ? number : nil
        default: return nil
        }
    }

    static func text(_ value: SQLiteValue) -> String? {
        if case .text(let text) = value { return text }
        return nil
    }
}

/// Counts of what a read passed over, for one line telling the person.
public struct StoredDataReport: Equatable, Sendable {
    public var skipped = 0
    public var clamped = 0

    /// nil when everything was usable.
    public var summary: String? {
        var parts: [String] = []
        if skipped > 0 { parts.append("skipped \(skipped) stored event\(skipped == 1 ? "" : "s") with an impossible time or offset") }
        if clamped > 0 { parts.append("clamped \(clamped) impossible wait\(clamped == 1 ? "" : "s") to 0–24 h") }
        return parts.isEmpty ? nil : parts.joined(separator: "; ") + " (the database was changed outside miga)"
    }
}

/// The positions of `Event.storedColumns`.
enum StoredColumn: Int {
    case id, ts, utcOffsetMinutes, session, type, app, contentID, waitMilliseconds, detail
}

extension Event {
    /// What `init(stored:)` reads, in this order (it reads the columns by position).
    static let storedColumns = "id, ts, utc_offset_min, session, type, app, content_id, wait_ms, detail"

    /// The event in the current row of `row` (a SELECT of `storedColumns`), or nil when the row
    /// cannot be one.
    init?(stored row: SQLiteStatement, report: inout StoredDataReport) {
        func column(_ column: StoredColumn) -> SQLiteValue { row.value(column.rawValue) }
        guard let timestamp = StoredValue.integer(column(.ts)), EventBounds.timestamps.contains(timestamp),
              let offset = StoredValue.integer(column(.utcOffsetMinutes)), EventBounds.offsetMinutes.contains(offset),
              let session = StoredValue.text(column(.session)), let typeName = StoredValue.text(column(.type)),
              let app = StoredValue.text(column(.app)) else {
            report.skipped += 1
            return nil
        }
        var wait: Int?
        let storedWait = column(.waitMilliseconds)
        if !storedWait.isNull {
            let value = StoredValue.real(storedWait) ?? -1
            let bounds = EventBounds.waitMilliseconds
            if value < Double(bounds.lowerBound) || value > Double(bounds.upperBound) || value != value.rounded() {
                report.clamped += 1
            }
            wait = Int(min(max(value.rounded(), Double(bounds.lowerBound)), Double(bounds.upperBound)))
        }
        self.init(id: StoredValue.integer(column(.id)), timestamp: timestamp, utcOffsetMinutes: Int(offset),
                  session: session, type: EventType(rawValue: typeName) ?? .gatewaySkipped, app: app,
                  contentID: StoredValue.text(column(.contentID)), waitMilliseconds: wait, detail: StoredValue.text(column(.detail)))
    }
}
