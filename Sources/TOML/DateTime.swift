/// A calendar date as written in TOML (`1979-05-27`); always a real day of the Gregorian calendar.
public struct TOMLDate: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var year: Int    // 0...9999
    public var month: Int   // 1...12
    public var day: Int     // 1...28/29/30/31 depending on month and leap year

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// RFC 3339 form, `YYYY-MM-DD`.
    public var description: String { "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))" }

    /// Days in `month` of `year`; 0 for a month outside 1...12 so validation can compare with it.
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 1, 3, 5, 7, 8, 10, 12: return 31
        case 4, 6, 9, 11: return 30
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        default: return 0
        }
    }
}

/// A time of day as written in TOML (`07:32:00.999`).
///
/// `second` may be 60: RFC 3339 allows a leap second and toml-test accepts it.
/// Fractions finer than a nanosecond are truncated, as the TOML spec asks.
public struct TOMLTime: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var hour: Int        // 0...23
    public var minute: Int      // 0...59
    public var second: Int      // 0...60
    public var nanosecond: Int  // 0...999_999_999

    public init(hour: Int, minute: Int, second: Int, nanosecond: Int = 0) {
        self.hour = hour
        self.minute = minute
        self.second = second
        self.nanosecond = nanosecond
    }

    /// RFC 3339 form, `HH:MM:SS` plus `.fraction` (trailing zeros dropped) when there is one.
    public var description: String {
        var text = "\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
        if nanosecond > 0 {
            var digits = pad(nanosecond, 9)
            while digits.last == "0" { digits.removeLast() }
            text += "." + digits
        }
        return text
    }
}

/// A date with a time, and for offset date-times the UTC offset.
///
/// `TOMLValue.localDateTime` carries one with `offsetMinutes == nil`;
/// `TOMLValue.offsetDateTime` one with an offset (`Z` is 0).
public struct TOMLDateTime: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var date: TOMLDate
    public var time: TOMLTime
    /// Minutes east of UTC, -1439...1439; nil for a local date-time.
    public var offsetMinutes: Int?

    public init(date: TOMLDate, time: TOMLTime, offsetMinutes: Int? = nil) {
        self.date = date
        self.time = time
        self.offsetMinutes = offsetMinutes
    }

    /// RFC 3339 form with a `T` separator; a zero offset is written `Z`.
    public var description: String {
        var text = "\(date)T\(time)"
        if let offset = offsetMinutes {
            if offset == 0 {
                text += "Z"
            } else {
                let magnitude = offset < 0 ? -offset : offset
                text += (offset < 0 ? "-" : "+") + pad(magnitude / 60, 2) + ":" + pad(magnitude % 60, 2)
            }
        }
        return text
    }
}

/// Zero-padded decimal, for the RFC 3339 descriptions (no Foundation `String(format:)`).
private func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}
