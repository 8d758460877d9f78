/// DESIGN "Stats definitions": a mindful day is a local day with at least one Exit. The
/// current streak is the run of mindful days ending today, or ending yesterday while today
/// has none yet; the longest is the longest run ever.
public struct Streaks: Equatable, Sendable {
    public var current: Int
    public var longest: Int

    public init(current: Int, longest: Int) {
        self.current = current
        self.longest = longest
    }

    public init(mindfulDays: [CivilDay], today: CivilDay) {
        let days = Set(mindfulDays).sorted()
        var longest = 0
        var run = 0
        var previous: CivilDay?
        for day in days {
            run = previous.map { day.daysSinceEpoch == $0.daysSinceEpoch + 1 } == true ? run + 1 : 1
            longest = max(longest, run)
            previous = day
        }
        let present = Set(days)
        var cursor = present.contains(today) ? today : today.adding(days: -1)
        var current = 0
        while present.contains(cursor) {
            current += 1
            cursor = cursor.adding(days: -1)
        }
        self.init(current: current, longest: longest)
    }
}
