import JSON

/// `miga stats --week`: a week (Monday to Sunday, local) against the one before, per app,
/// with the intentions given most often and the streak (DESIGN "Habits beyond the pause").
public struct WeekReport: Equatable, Sendable {
    public struct Totals: Equatable, Sendable {
        public var sessions = 0, exits = 0, opens = 0, reads = 0
        public var waitedMilliseconds: Int64 = 0
        /// Focused seconds (`focus` events).
        public var focusSeconds = 0

        public var minutesWaited: Double { Double(waitedMilliseconds) / 60_000 }
        /// Exits of all attempts (pauses), as one sec's study counted its 36 %. A choice whose
        /// pause began before the week (or came in by import without one) is an attempt too,
        /// so the share never passes 1.
        public var attempts: Int { max(sessions, exits + opens) }
        public var exitShare: Double { attempts == 0 ? 0 : Double(exits) / Double(attempts) }
        public var exitRate: Double { exits + opens == 0 ? 0 : Double(exits) / Double(exits + opens) }

        mutating func add(_ row: EventStore.DailyCount) {
            switch EventType(rawValue: row.type) {
            case .sessionStart?: sessions += row.count
            case .contentRead?: reads += row.count
            case .exitSelected?: exits += row.count; waitedMilliseconds += row.waitMilliseconds
            case .openSelected?: opens += row.count; waitedMilliseconds += row.waitMilliseconds
            case .abandoned?: waitedMilliseconds += row.waitMilliseconds
            default: break
            }
        }
    }

    public struct AppRow: Equatable, Sendable {
        public var app: String
        public var week = Totals()
        public var lastWeek = Totals()
    }

    public struct IntentionCount: Equatable, Sendable {
        public var text: String
        public var count: Int
    }

    /// The week's Monday; `to` is its Sunday (the week may still be running).
    public var from: CivilDay
    public var to: CivilDay { from.adding(days: 6) }
    public var week = Totals()
    public var lastWeek = Totals()
    public var apps: [AppRow] = []
    public var intentions: [IntentionCount] = []
    /// Opens this week past a day's `opens_per_day`.
    public var overAllowance = 0
    /// "For how long?" this week: the timeboxes that have ended, the minutes they declared
    /// (with "5 more minutes") and the minutes from each Open to its end.
    public var timeboxes = 0
    public var minutesDeclared = 0
    public var minutesUsed = 0
    /// "Do this instead" choices this week, most chosen first.
    public var alternatives: [IntentionCount] = []
    /// Settings that loosened this week, after their wait (`loosen_delay_minutes`), newest first.
    public struct Loosened: Equatable, Sendable {
        public var setting: String, from: String, to: String
    }
    public var loosened: [Loosened] = []
    /// One sec's share of attempts dismissed (PNAS 2023), the yardstick beside the week's own.
    public static let oneSecExitShare = 0.36
    public var streak = Streaks(current: 0, longest: 0)
    public var hasHistory = false

    public static let intentionLimit = 5

    /// The week holding `day`, against the week before, with the streak as of `today`.
    public static func build(store: EventStore?, weekOf day: CivilDay, today: CivilDay) throws -> WeekReport {
        let monday = day.adding(days: -day.weekday)
        var report = WeekReport(from: monday)
        guard let store else { return report }
        report.hasHistory = try store.hasEvents()
        var apps: [String: AppRow] = [:]
        let period = try store.periodCounts(from: monday.adding(days: -7), to: monday.adding(days: 6), app: nil)
        for row in period.counts {
            var app = apps[row.app] ?? AppRow(app: row.app)
            if row.day >= monday {
                report.week.add(row)
                app.week.add(row)
            } else {
                report.lastWeek.add(row)
                app.lastWeek.add(row)
            }
            // A snooze's pause counts in the week's totals, in no app's row.
            if !row.snooze { apps[row.app] = app }
        }
        for sum in period.focus {
            let thisWeek = sum.day >= monday
            if thisWeek { report.week.focusSeconds += sum.seconds } else { report.lastWeek.focusSeconds += sum.seconds }
            if thisWeek {
                apps[sum.app, default: AppRow(app: sum.app)].week.focusSeconds += sum.seconds
            } else {
                apps[sum.app, default: AppRow(app: sum.app)].lastWeek.focusSeconds += sum.seconds
            }
        }
        report.apps = apps.values.sorted { ($0.week.sessions, $0.lastWeek.sessions, $1.app) > ($1.week.sessions, $1.lastWeek.sessions, $0.app) }
        // Intentions by local day: the same ±18 h widening as the counts, then each event's day.
        let margin: Int64 = 18 * 3_600_000 + 60_000
        let lower = Int64(monday.daysSinceEpoch) * 86_400_000 - margin
        let upper = Int64(monday.daysSinceEpoch + 7) * 86_400_000 + margin
        var counts: [String: (text: String, count: Int, order: Int)] = [:]
        let opens = try store.opens(from: lower, to: upper, within: monday...monday.adding(days: 6))
        for (order, entry) in opens.intentions.enumerated() {
            let key = entry.text.lowercased()
            counts[key, default: (entry.text, 0, order)].count += 1 // the newest spelling is kept
        }
        report.intentions = counts.values.sorted { ($0.count, -$0.order) > ($1.count, -$1.order) }
            .prefix(intentionLimit).map { IntentionCount(text: $0.text, count: $0.count) }
        report.overAllowance = opens.overAllowance.values.reduce(0, +)
        for box in try store.timeboxes(since: lower, everyMachine: true) where (monday...monday.adding(days: 6)).contains(box.day) {
            guard box.ending != nil, let end = box.endedAt else { continue }
            report.timeboxes += 1
            report.minutesDeclared += box.declaredMinutes
            report.minutesUsed += box.usedMinutes(at: end)
        }
        report.alternatives = try store.alternativesChosen(from: lower, to: upper, within: monday...monday.adding(days: 6))
            .map { IntentionCount(text: $0.key, count: $0.value) }.sorted { ($0.count, $1.text) > ($1.count, $0.text) }
        report.loosened = try store.loosenedSettings(from: lower, to: upper, within: monday...monday.adding(days: 6))
            .map { Loosened(setting: $0.setting, from: $0.from, to: $0.to) }
        report.streak = Streaks(mindfulDays: try store.mindfulDays(), today: today)
        return report
    }

    /// Whether either week has focused time: the human view then has its rows and column
    /// (the JSON has `focus_minutes` always).
    var countsFocus: Bool { week.focusSeconds + lastWeek.focusSeconds > 0 }

    public var json: String {
        func totals(_ value: Totals, range: (CivilDay, CivilDay)? = nil) -> String {
            (range.map { "\"from\":\"\($0.0)\",\"to\":\"\($0.1)\"," } ?? "")
                + "\"sessions\":\(value.sessions),\"exits\":\(value.exits),\"opens\":\(value.opens),\"reads\":\(value.reads),"
                + "\"exit_rate\":\(JSONText.number(value.exitRate, places: 4)),"
                + "\"exit_share\":\(JSONText.number(value.exitShare, places: 4)),"
                + "\"minutes_waited\":\(JSONText.number(value.minutesWaited, places: 2))"
                + ",\"focus_minutes\":\(JSONText.number(StatsReport.minutes(seconds: value.focusSeconds), places: 1))"
        }
        let apps = self.apps.map { "{\"app\":\(JSONText.string($0.app)),\"week\":{\(totals($0.week))},\"last_week\":{\(totals($0.lastWeek))}}" }
        let intentions = self.intentions.map { "{\"text\":\(JSONText.string($0.text)),\"count\":\($0.count)}" }
        return "{\"week\":{\(totals(week, range: (from, to)))},"
            + "\"last_week\":{\(totals(lastWeek, range: (from.adding(days: -7), from.adding(days: -1))))},"
            + "\"apps\":[\(apps.joined(separator: ","))],\"intentions\":[\(intentions.joined(separator: ","))],"
            + "\"over_allowance\":\(overAllowance),"
            + "\"timeboxes\":\(timeboxes),\"minutes_declared\":\(minutesDeclared),\"minutes_used\":\(minutesUsed),"
            + "\"exit_share\":\(JSONText.number(week.exitShare, places: 4)),"
            + "\"one_sec_exit_share\":\(JSONText.number(Self.oneSecExitShare, places: 2)),"
            + "\"alternatives\":[\(alternatives.map { "{\"label\":\(JSONText.string($0.text)),\"count\":\($0.count)}" }.joined(separator: ","))],"
            + "\"loosened\":[\(loosened.map { "{\"setting\":\(JSONText.string($0.setting)),\"from\":\(JSONText.string($0.from)),\"to\":\(JSONText.string($0.to))}" }.joined(separator: ","))],"
            + "\"streak\":{\"current\":\(streak.current),\"longest\":\(streak.longest)}}"
    }

    /// The notification's few lines: what the week held, against the one before.
    public var summary: String {
        var lines = ["\(week.exits) exit\(week.exits == 1 ? "" : "s"), \(week.opens) open\(week.opens == 1 ? "" : "s") "
                     + "(last week \(lastWeek.exits) and \(lastWeek.opens)); "
                     + "\(JSONText.number(week.minutesWaited, places: 0)) min of pauses."]
        if let top = intentions.first { lines.append("Most often you came to: \(top.text)") }
        lines.append("Streak: \(streak.current) day\(streak.current == 1 ? "" : "s").")
        return lines.joined(separator: "\n")
    }
}
