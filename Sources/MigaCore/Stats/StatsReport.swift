import FoundationEssentials
import JSON

/// What `miga stats` shows, computed as DESIGN "Stats definitions" says.
public struct StatsReport: Equatable, Sendable {
    public struct AppRow: Equatable, Sendable {
        public var app: String
        public var sessions = 0, exits = 0, opens = 0, reads = 0
        /// Focused seconds (`focus` events) in the period.
        public var focusSeconds = 0
    }

    public struct DayRow: Equatable, Sendable {
        public var date: CivilDay
        public var exits = 0, opens = 0, reads = 0
        public var focusSeconds = 0
    }

    public static let defaultDays = 14
    /// Sixty years of days: enough for any history, small enough to list.
    public static let dayRange = 1...21_915

    public var from: CivilDay
    public var to: CivilDay
    public var sessions = 0, exits = 0, opens = 0, reads = 0, completed = 0
    public var minutesWaited = 0.0
    /// Focused seconds on gated apps and sites in the period (`focus` events).
    public var focusSeconds = 0
    public var streak = Streaks(current: 0, longest: 0)
    public var apps: [AppRow] = []
    public var days: [DayRow] = []
    /// Whether any event exists at all (for a first-run message instead of zeros).
    public var hasHistory = false
    /// The local day of the first event ever recorded, where the chart starts when it is
    /// inside the period (not part of DESIGN's JSON, which lists every day of the period).
    public var firstDay: CivilDay?
    /// Per machine (`--by-machine`, with sync on): nil unless asked for.
    public var machines: [MachineRow]?

    public struct MachineRow: Equatable, Sendable {
        public var device: String
        public var host: String?
        public var thisMachine: Bool
        public var sessions = 0, exits = 0, opens = 0, reads = 0
    }

    /// Adds `machines`: the same period's counts for each machine, this one first. Every
    /// machine's events are in this database (folded in from the sync folder); a machine's
    /// own events carry no id here, so `device` names this one.
    public mutating func addMachines(store: EventStore?, device: String?, app: String?, processes: any ProcessService) throws {
        var rows: [MachineRow] = []
        // The names only: the counts come from the period's query below, not a walk of every event.
        let hosts = try store?.machineHosts() ?? [:]
        func index(_ id: String?) -> Int {
            let name = id ?? device ?? "this machine"
            if let found = rows.firstIndex(where: { $0.device == name }) { return found }
            rows.append(MachineRow(device: name, host: id == nil ? processes.hostName() : hosts[name], thisMachine: id == nil))
            return rows.count - 1
        }
        _ = index(nil)
        for count in try store?.machineCounts(from: from, to: to, app: app) ?? [] {
            let row = index(count.device)
            switch EventType(rawValue: count.type) {
            case .sessionStart?: rows[row].sessions += count.count
            case .exitSelected?: rows[row].exits += count.count
            case .openSelected?: rows[row].opens += count.count
            case .contentRead?: rows[row].reads += count.count
            default: break
            }
        }
        machines = rows
    }

    public var exitRate: Double { exits + opens == 0 ? 0 : Double(exits) / Double(exits + opens) }

    /// The report for the last `days` local days up to `today`, optionally for one app.
    public static func build(store: EventStore?, today: CivilDay, days: Int = defaultDays, app: String? = nil) throws -> StatsReport {
        let from = today.adding(days: -(days - 1))
        var report = StatsReport(from: from, to: today)
        report.days = (0..<days).map { DayRow(date: from.adding(days: $0)) }
        guard let store else { return report }
        report.hasHistory = try store.hasEvents()
        report.firstDay = try store.firstDay()
        var apps: [String: AppRow] = [:]
        var waited = 0.0
        let period = try store.periodCounts(from: from, to: today, app: app)
        for row in period.counts {
            let index = row.day.daysSinceEpoch - from.daysSinceEpoch
            var appRow = apps[row.app] ?? AppRow(app: row.app)
            switch EventType(rawValue: row.type) {
            case .sessionStart?:
                report.sessions += row.count
                appRow.sessions += row.count
            case .exitSelected?:
                report.exits += row.count
                appRow.exits += row.count
                report.days[index].exits += row.count
                waited += Double(row.waitMilliseconds)
            case .openSelected?:
                report.opens += row.count
                appRow.opens += row.count
                report.days[index].opens += row.count
                waited += Double(row.waitMilliseconds)
            case .contentRead?:
                report.reads += row.count
                appRow.reads += row.count
                report.days[index].reads += row.count
            case .gatewayCompleted?:
                report.completed += row.count
            case .abandoned?:
                waited += Double(row.waitMilliseconds)
            default:
                break
            }
            // A snooze's pause counts in the totals and the days, in no app's row.
            if !row.snooze { apps[row.app] = appRow }
        }
        report.minutesWaited = waited / 60_000
        for sum in period.focus {
            report.focusSeconds += sum.seconds
            report.days[sum.day.daysSinceEpoch - from.daysSinceEpoch].focusSeconds += sum.seconds
            apps[sum.app, default: AppRow(app: sum.app)].focusSeconds += sum.seconds
        }
        report.apps = apps.values.sorted { ($0.sessions, $1.app) > ($1.sessions, $0.app) }
        report.streak = Streaks(mindfulDays: try store.mindfulDays(), today: today)
        return report
    }

    /// Seconds as minutes to one decimal, as every focused time is shown.
    public static func minutes(seconds: Int) -> Double { Double(max(0, seconds) / 6) / 10 }

    /// Exactly DESIGN's keys, in DESIGN's order, with the focused minutes (`focus_minutes` at
    /// the top and per app, `minutes` per day) always there, 0 on a day without any: a reader
    /// (a status bar, a script) need not ask whether the key exists.
    public var json: String {
        func string(_ text: String) -> String { JSONText.string(text) }
        func minutes(_ seconds: Int, _ key: String) -> String {
            ",\"\(key)\":" + JSONText.number(Self.minutes(seconds: seconds), places: 1)
        }
        let apps = self.apps.map {
            "{\"app\":\(string($0.app)),\"sessions\":\($0.sessions),\"exits\":\($0.exits),\"opens\":\($0.opens),\"reads\":\($0.reads)"
                + minutes($0.focusSeconds, "focus_minutes") + "}"
        }
        let days = self.days.map {
            "{\"date\":\"\($0.date)\",\"exits\":\($0.exits),\"opens\":\($0.opens),\"reads\":\($0.reads)" + minutes($0.focusSeconds, "minutes") + "}"
        }
        return "{\"from\":\"\(from)\",\"to\":\"\(to)\",\"sessions\":\(sessions),\"exits\":\(exits),\"opens\":\(opens),"
            + "\"reads\":\(reads),\"completed\":\(completed),\"exit_rate\":\(JSONText.number(exitRate, places: 4)),"
            + "\"minutes_waited\":\(JSONText.number(minutesWaited, places: 2))" + minutes(focusSeconds, "focus_minutes") + ","
            + "\"streak\":{\"current\":\(streak.current),\"longest\":\(streak.longest)},"
            + "\"apps\":[\(apps.joined(separator: ","))],\"days\":[\(days.joined(separator: ","))]"
            + (machines.map { ",\"machines\":" + OrderedJSON.array($0.map(\.json)).text } ?? "") + "}"
    }
}

extension StatsReport.MachineRow {
    var json: OrderedJSON {
        .object([("device", .string(device)), ("host", .optional(host)), ("this_machine", .bool(thisMachine)),
                 ("sessions", .int(sessions)), ("exits", .int(exits)), ("opens", .int(opens)), ("reads", .int(reads))])
    }
}

/// `miga stats` was asked about something it cannot report.
public enum StatsError: Error, CustomStringConvertible, Equatable {
    /// `--app NAME` for a name with no events at all: a typo, most likely.
    case noSuchApp(String, known: [String])

    public var description: String {
        switch self {
        case .noSuchApp(let name, let known):
            let list = known.prefix(12).joined(separator: ", ") + (known.count > 12 ? ", …" : "")
            return known.isEmpty
                ? "no events for \"\(name)\" (none are recorded yet); run `miga stats` once you have chosen at a gate"
                : "no events for an app or site named \"\(name)\"; these have some: \(list) (`miga stats --app NAME`)"
        }
    }
}
