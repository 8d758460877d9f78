import GRDB

/// What can really be in the database file, read without trusting it. The file is the
/// person's: sqlite3, another program or a damaged disk can leave any value in any column
/// (SQLite keeps a text in an INTEGER column), and GRDB's typed accessors stop the process on
/// a value they cannot convert. Every read of events goes through here: a row no event could
/// have is skipped, a wait no gate could have is clamped, and the caller reports how many.
enum StoredValue {
    /// An integer, or a real that is a whole number within Int64; nil for anything else.
    static func integer(_ value: DatabaseValue) -> Int64? {
        switch value.storage {
        case .int64(let number): return number
        case .double(let number): return Int64(exactly: number.rounded(.towardZero)) // nil for NaN, ±inf, > 2^63
        default: return nil
        }
    }

    static func real(_ value: DatabaseValue) -> Double? {
        switch value.storage {
        case .int64(let number): return Double(number)
        case .double(let number): return number.isFinite ? number : nil
        default: return nil
        }
    }

    static func text(_ value: DatabaseValue) -> String? {
        if case .string(let text) = value.storage { return text }
        return nil
    }
}

/// The bounds of any event a gate can record.
public enum EventBounds {
    /// From 1970 to the end of year 9999, in milliseconds.
    public static let timestamps: ClosedRange<Int64> = 0...253_402_300_799_999
    /// ISO 8601's widest offsets, ±18 h.
    public static let offsetMinutes: ClosedRange<Int64> = -1080...1080
    /// No choice takes longer than a day (the countdown is at most 45 s).
    public static let waitMilliseconds: ClosedRange<Int64> = 0...86_400_000
    /// The local days those timestamps can fall on.
    public static let days: ClosedRange<Int64> = -1...2_932_897
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

extension Event {
    /// The event in `row` (columns named as in the table), or nil when the row cannot be one.
    init?(stored row: Row, report: inout StoredDataReport) {
        func column(_ name: String) -> DatabaseValue { (row[name] as DatabaseValue?) ?? .null }
        guard let timestamp = StoredValue.integer(column("ts")), EventBounds.timestamps.contains(timestamp),
              let offset = StoredValue.integer(column("utc_offset_min")), EventBounds.offsetMinutes.contains(offset),
              let session = StoredValue.text(column("session")), let typeName = StoredValue.text(column("type")),
              let app = StoredValue.text(column("app")) else {
            report.skipped += 1
            return nil
        }
        var wait: Int?
        let storedWait = column("wait_ms")
        if !storedWait.isNull {
            let value = StoredValue.real(storedWait) ?? -1
            let bounds = EventBounds.waitMilliseconds
            if value < Double(bounds.lowerBound) || value > Double(bounds.upperBound) || value != value.rounded() {
                report.clamped += 1
            }
            wait = Int(min(max(value.rounded(), Double(bounds.lowerBound)), Double(bounds.upperBound)))
        }
        self.init(id: StoredValue.integer(column("id")), timestamp: timestamp, utcOffsetMinutes: Int(offset),
                  session: session, type: EventType(rawValue: typeName) ?? .gatewaySkipped, app: app,
                  contentID: StoredValue.text(column("content_id")), waitMilliseconds: wait, detail: StoredValue.text(column("detail")))
    }
}
