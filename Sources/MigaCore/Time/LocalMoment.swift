/// A wall-clock instant as the person lives it: the local day and the minute within it,
/// from the UTC offset the clock gives (as events store theirs).
public struct LocalMoment: Equatable, Sendable {
    public var day: CivilDay
    public var minute: Int

    public init(day: CivilDay, minute: Int) {
        self.day = day
        self.minute = minute
    }

    public init(unixMilliseconds: Int64, offsetMinutes: Int) {
        day = CivilDay(unixMilliseconds: unixMilliseconds, offsetMinutes: offsetMinutes)
        let local = unixMilliseconds + Int64(offsetMinutes) * 60_000
        minute = Int((local - Int64(day.daysSinceEpoch) * 86_400_000) / 60_000)
    }

    /// The same instant as a clock `minutes` ahead of this one reads it (another UTC offset).
    public func shifted(minutes: Int) -> LocalMoment {
        let total = day.daysSinceEpoch * 1440 + minute + minutes
        let days = total >= 0 ? total / 1440 : (total - 1439) / 1440
        return LocalMoment(day: CivilDay(daysSinceEpoch: days), minute: total - days * 1440)
    }

    public init(clock: any MigaClock) {
        let now = clock.now()
        self.init(unixMilliseconds: clock.milliseconds(now),
                  offsetMinutes: clock.utcOffsetMinutes(at: now))
    }
}
