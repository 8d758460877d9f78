import FoundationEssentials

/// Time, injected so that tests can run a 45-second countdown in no time at all.
public protocol MigaClock: Sendable {
    /// Wall-clock time, for event timestamps and grace periods.
    func now() -> Date
    /// Monotonic nanoseconds, for the countdown: immune to NTP steps and manual clock changes.
    func monotonicNanoseconds() -> UInt64
    /// The local offset from UTC at `date`, in minutes (stored with every event).
    func utcOffsetMinutes(at date: Date) -> Int
}

public struct SystemClock: MigaClock {
    public init() {}

    public func now() -> Date { Date() }

    public func monotonicNanoseconds() -> UInt64 { LinuxSystem.monotonicNanoseconds() }

    public func utcOffsetMinutes(at date: Date) -> Int {
        LinuxSystem.utcOffsetSeconds(at: date.timeIntervalSince1970) / 60
    }
}
