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

    public init(clock: any MigaClock) {
        let now = clock.now()
        self.init(unixMilliseconds: clock.milliseconds(now),
                  offsetMinutes: clock.utcOffsetMinutes(at: now))
    }
}
