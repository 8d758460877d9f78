import FoundationEssentials

/// One `[[schedule]]` table: on some days, between two local times, a different timer or no
/// gate at all (DESIGN "Habits beyond the pause"). The first table that matches wins.
public struct Schedule: Equatable, Sendable {
    /// Its place among the `[[schedule]]` tables, from 1 (as messages and `status` name it).
    public var index: Int
    /// The days as written ("mon-fri"), for messages.
    public var daysText: String
    /// Bit d set for weekday d (0 = Monday … 6 = Sunday).
    public var days: UInt8
    /// Minutes after local midnight: `from` in 0..<1440, `to` in 1...1440 ("24:00").
    public var from: Int
    public var to: Int
    public var timerSeconds: Int?
    /// false: these hours pass straight through (`gateway_skipped`, reason `schedule`).
    public var gate: Bool
    /// nil: every app and site; else only these names.
    public var apps: [String]?

    public init(index: Int, daysText: String, days: UInt8, from: Int, to: Int, timerSeconds: Int? = nil,
                gate: Bool = true, apps: [String]? = nil) {
        self.index = index
        self.daysText = daysText
        self.days = days
        self.from = from
        self.to = to
        self.timerSeconds = timerSeconds
        self.gate = gate
        self.apps = apps
    }

    public func applies(to app: String) -> Bool {
        apps.map { $0.contains(app) } ?? true
    }

    /// Whether the table is in force at `minute` of a day that is `weekday`. A range that
    /// crosses midnight ("22:00"–"02:00") belongs to the day it starts on: Friday's evening
    /// runs on into Saturday's small hours.
    public func isActive(weekday: Int, minute: Int) -> Bool {
        func listed(_ day: Int) -> Bool { days & (1 << UInt8(((day % 7) + 7) % 7)) != 0 }
        if from < to { return listed(weekday) && minute >= from && minute < to }
        return (listed(weekday) && minute >= from) || (listed(weekday + 6) && minute < to)
    }

    /// "09:00–17:00".
    public var hours: String { "\(Self.clock(from))–\(Self.clock(to))" }

    public static func clock(_ minutes: Int) -> String {
        let hours = minutes / 60, rest = minutes % 60
        return (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
    }

    // MARK: - Reading what people write

    static let dayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    static let longDayNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// `daily`, `weekdays`, `weekends`, or days and ranges separated by commas: `mon-fri`,
    /// `sat,sun`, `mon,wed,fri-sun` (a range may wrap: `fri-mon`). nil when not understood.
    public static func days(_ text: String) -> UInt8? {
        let spec = text.lowercased().filter { $0 != " " && $0 != "\t" }
        switch spec {
        case "daily", "everyday", "all": return 0x7F
        case "weekdays": return 0x1F
        case "weekends", "weekend": return 0x60
        default: break
        }
        var mask: UInt8 = 0
        for part in spec.split(separator: ",", omittingEmptySubsequences: false) {
            let ends = part.split(separator: "-", omittingEmptySubsequences: false)
            guard (1...2).contains(ends.count), let first = day(ends[0]), let last = day(ends[ends.count - 1]) else { return nil }
            var day = first
            while true {
                mask |= 1 << UInt8(day)
                if day == last { break }
                day = (day + 1) % 7
            }
        }
        return mask == 0 ? nil : mask
    }

    private static func day(_ name: Substring) -> Int? {
        dayNames.firstIndex(of: String(name)) ?? longDayNames.firstIndex(of: String(name))
    }

    /// "HH:MM" (24-hour; "24:00" only as an end) as minutes after midnight.
    public static func minutes(_ text: String, allowEndOfDay: Bool) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let hours = Int(parts[0]), let minutes = Int(parts[1]) else { return nil }
        if hours == 24 && minutes == 0 && allowEndOfDay { return 1440 }
        guard hours < 24, minutes < 60 else { return nil }
        return hours * 60 + minutes
    }

    /// The first table in force for `app` at `moment`. `settledShift` (see
    /// `MigaConfig.gateFreeShiftMinutes`): a table without a gate must be in force at the
    /// moment read that many minutes on, too.
    public static func matching(_ schedules: [Schedule], app: String, at moment: LocalMoment, settledShift: Int? = nil) -> Schedule? {
        let settled = settledShift.map { moment.shifted(minutes: $0) }
        return schedules.first { table in
            table.applies(to: app) && table.isActive(weekday: moment.day.weekday, minute: moment.minute)
                && (table.gate || settled.map { table.isActive(weekday: $0.day.weekday, minute: $0.minute) } ?? true)
        }
    }
}
