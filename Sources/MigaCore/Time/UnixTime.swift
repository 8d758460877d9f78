import FoundationEssentials

/// Instants turned into whole Unix milliseconds or seconds. A `Date` holds instants whose
/// milliseconds do not fit an Int64 (a file's mtime set to 9.2e15 s, a trial start in the
/// year -1199), and `Int64(_:)` traps on those; so every conversion of a time miga did not
/// make itself goes through here, and an impossible one is treated as absent.
public enum UnixTime {
    /// `seconds` as milliseconds when they fall within the times events can hold (1970 to
    /// the end of 9999, `EventBounds.timestamps`); nil for anything else, NaN included.
    public static func milliseconds(seconds: Double, rounding rule: FloatingPointRoundingRule = .down) -> Int64? {
        let milliseconds = (seconds * 1000).rounded(rule)
        guard milliseconds.isFinite, milliseconds >= Double(EventBounds.timestamps.lowerBound),
              milliseconds <= Double(EventBounds.timestamps.upperBound) else { return nil }
        return Int64(milliseconds)
    }

    public static func milliseconds(_ date: Date, rounding rule: FloatingPointRoundingRule = .down) -> Int64? {
        milliseconds(seconds: date.timeIntervalSince1970, rounding: rule)
    }

    /// The clock's own reading, which miga trusts to be in range; a clock set beyond it (or
    /// before 1970) is read as the nearest end rather than trapped on.
    public static func clampedMilliseconds(_ date: Date, rounding rule: FloatingPointRoundingRule = .down) -> Int64 {
        if let value = milliseconds(date, rounding: rule) { return value }
        return date.timeIntervalSince1970 > 0 ? EventBounds.timestamps.upperBound : EventBounds.timestamps.lowerBound
    }

    /// A file's modification time, or nil when it is outside the times above.
    public static func date(of time: FileTime) -> Date? {
        let seconds = Double(time.seconds) + Double(time.nanoseconds) / 1e9
        return milliseconds(seconds: seconds) == nil ? nil : Date(timeIntervalSince1970: seconds)
    }
}

extension MigaClock {
    /// A reading of this clock in whole Unix milliseconds, rounded to the nearest as events
    /// are stamped: the one conversion for times miga takes from its own clock.
    public func milliseconds(_ date: Date) -> Int64 { UnixTime.clampedMilliseconds(date, rounding: .toNearestOrAwayFromZero) }

    /// Now, in whole Unix milliseconds.
    public func nowMilliseconds() -> Int64 { milliseconds(now()) }
}
