/// A calendar day (proleptic Gregorian), counted in days since 1970-01-01. Local days are
/// computed from each event's own UTC offset with plain arithmetic: no time-zone database is
/// consulted, so a trip or a daylight-saving change cannot move an event to another day.
public struct CivilDay: Comparable, Hashable, CustomStringConvertible, Sendable {
    public var daysSinceEpoch: Int

    public init(daysSinceEpoch: Int) {
        self.daysSinceEpoch = daysSinceEpoch
    }

    /// The local day of an instant at a given offset from UTC.
    public init(unixMilliseconds: Int64, offsetMinutes: Int) {
        let local = unixMilliseconds + Int64(offsetMinutes) * 60_000
        let (quotient, remainder) = local.quotientAndRemainder(dividingBy: 86_400_000)
        daysSinceEpoch = Int(remainder < 0 ? quotient - 1 : quotient)
    }

    public init(year: Int, month: Int, day: Int) {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        daysSinceEpoch = era * 146_097 + dayOfEra - 719_468
    }

    /// `YYYY-MM-DD`.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else { return nil }
        self.init(validYear: year, month: month, day: day)
    }

    /// nil for a day the calendar does not have (2026-02-30).
    init?(validYear year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        self.init(year: year, month: month, day: day)
        guard components.day == day else { return nil }
    }

    public var components: (year: Int, month: Int, day: Int) {
        // Howard Hinnant's civil_from_days.
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// 0 = Monday … 6 = Sunday.
    public var weekday: Int { ((daysSinceEpoch % 7) + 7 + 3) % 7 }

    public var description: String {
        let (year, month, day) = components
        return "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))"
    }

    public func adding(days: Int) -> CivilDay { CivilDay(daysSinceEpoch: daysSinceEpoch + days) }

    public static func < (lhs: CivilDay, rhs: CivilDay) -> Bool { lhs.daysSinceEpoch < rhs.daysSinceEpoch }

    static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}

/// The `ts` of an exported event: local time with its offset and milliseconds,
/// `2026-11-21T09:30:00.000+01:00`, which keeps both the instant and the local day.
public enum EventTimestamp {
    public static func format(unixMilliseconds: Int64, offsetMinutes: Int) -> String {
        let local = unixMilliseconds + Int64(offsetMinutes) * 60_000
        let millisecondOfDay = ((local % 86_400_000) + 86_400_000) % 86_400_000
        let day = CivilDay(unixMilliseconds: local, offsetMinutes: 0)
        let seconds = Int(millisecondOfDay / 1000)
        let sign = offsetMinutes < 0 ? "-" : "+"
        let offset = abs(offsetMinutes)
        return "\(day)T\(CivilDay.pad(seconds / 3600, 2)):\(CivilDay.pad(seconds / 60 % 60, 2)):\(CivilDay.pad(seconds % 60, 2))"
            + ".\(CivilDay.pad(Int(millisecondOfDay % 1000), 3))\(sign)\(CivilDay.pad(offset / 60, 2)):\(CivilDay.pad(offset % 60, 2))"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)`; nil for anything else.
    public static func parse(_ text: String) -> (unixMilliseconds: Int64, offsetMinutes: Int)? {
        var text = text
        return text.withUTF8 { parse(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// The same, on the bytes of a line being imported.
    static func parse(bytes: UnsafeRawBufferPointer) -> (unixMilliseconds: Int64, offsetMinutes: Int)? {
        guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        // Digits straight from the bytes: `events import` parses a million of these.
        guard let year = number(0..<4), let month = number(5..<7), let dayOfMonth = number(8..<10),
              let day = CivilDay(validYear: year, month: month, day: dayOfMonth),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              hour < 24, minute < 60, second < 60 else { return nil }
        var index = 19
        var milliseconds = 0
        if bytes[index] == UInt8(ascii: ".") {
            guard let fraction = number(20..<23) else { return nil }
            milliseconds = fraction
            index = 23
        }
        var offset = 0
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "Z"), index == bytes.count - 1 {
            offset = 0
        } else {
            guard bytes.count == index + 6, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"),
                  bytes[index + 3] == UInt8(ascii: ":"), let hours = number(index + 1..<index + 3),
                  let minutes = number(index + 4..<index + 6), hours <= 14, minutes < 60 else { return nil }
            offset = (hours * 60 + minutes) * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
        }
        let local = Int64(day.daysSinceEpoch) * 86_400_000 + Int64(((hour * 60 + minute) * 60 + second) * 1000 + milliseconds)
        return (local - Int64(offset) * 60_000, offset)
    }
}
