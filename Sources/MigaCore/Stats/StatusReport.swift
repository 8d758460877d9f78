import JSON

/// `miga status`: one line for a status bar (waybar, polybar, i3blocks) — today's exits and
/// opens, the streak, any grace running, the schedule in force (DESIGN "Habits beyond the pause").
public struct StatusReport: Equatable, Sendable {
    public struct Grace: Equatable, Sendable {
        public var app: String
        /// Unix ms.
        public var until: Int64
    }

    public var date: CivilDay
    public var exits = 0
    public var opens = 0
    public var streak = 0
    /// Focused seconds today on gated apps and sites (`focus` events).
    public var focusSeconds = 0
    public var grace: [Grace] = []
    /// The first `[[schedule]]` table in force now that applies to every app, else the first
    /// in force for some.
    public var schedule: Schedule?
    /// `miga snooze`, while it runs: until when (Unix ms), and the apps (none: every gate).
    /// Its own type, not Habits' `Snooze`: Habits already uses Stats, and folders use each
    /// other one way only.
    public struct Snoozed: Equatable, Sendable {
        public var until: Int64
        public var apps: [String]

        public init(until: Int64, apps: [String]) {
            self.until = until
            self.apps = apps
        }
    }

    public var snooze: Snoozed?
    /// Each timebox running now ("For how long?"): its app or site, the minutes declared
    /// (with any extension), and its end (Unix ms).
    public struct Timeboxed: Equatable, Sendable {
        public var app: String
        public var minutes: Int
        public var until: Int64
    }

    public var timeboxes: [Timeboxed] = []
    /// Loosened settings waiting out `loosen_delay_minutes` (a cancelled one is not waiting).
    public var pending: [Loosening.Pending] = []
    /// For the ISO 8601 times of `grace`.
    public var offsetMinutes: Int
    public var nowMilliseconds: Int64

    public static func build(store: EventStore?, config: MigaConfig, nowMilliseconds: Int64, offsetMinutes: Int,
                             snooze: Snoozed? = nil, pending: [Loosening.Pending] = []) throws -> StatusReport {
        let moment = LocalMoment(unixMilliseconds: nowMilliseconds, offsetMinutes: offsetMinutes)
        var report = StatusReport(date: moment.day, offsetMinutes: offsetMinutes, nowMilliseconds: nowMilliseconds)
        report.snooze = snooze
        report.pending = pending.filter { !$0.cancelled }
        let active = config.schedules.filter { $0.isActive(weekday: moment.day.weekday, minute: moment.minute) }
        report.schedule = active.first { $0.apps == nil } ?? active.first
        guard let store else { return report }
        let today = try StatsReport.build(store: store, today: moment.day, days: 1)
        report.exits = today.exits
        report.opens = today.opens
        report.streak = today.streak.current
        report.focusSeconds = today.focusSeconds
        // Grace as the gate decides it: an Open's declared minutes, else `grace_minutes`.
        let boxes = try store.timeboxes(since: nowMilliseconds - Timebox.lookback)
        let span = Int64(config.graceMinutes) * 60_000
        for last in try store.lastOpens(since: nowMilliseconds - max(span, Timebox.lookback)) where last.at <= nowMilliseconds + 1000 {
            let box = boxes.last { $0.app == last.app && $0.openedAt == last.at }
            let until = box?.end ?? (span > 0 ? last.at + span : 0)
            if until > nowMilliseconds { report.grace.append(Grace(app: last.app, until: until)) }
            if let box, box.ending == nil, box.end > nowMilliseconds {
                report.timeboxes.append(Timeboxed(app: box.app, minutes: box.declaredMinutes, until: box.end))
            }
        }
        return report
    }

    public var json: String {
        let grace = self.grace.map {
            "{\"app\":\(JSONText.string($0.app)),\"until\":\"\(EventTimestamp.format(unixMilliseconds: $0.until, offsetMinutes: offsetMinutes))\"}"
        }
        var schedule = "null"
        if let table = self.schedule {
            schedule = "{\"index\":\(table.index),\"from\":\"\(Schedule.clock(table.from))\",\"to\":\"\(Schedule.clock(table.to))\","
                + (table.gate ? "\"timer_seconds\":\(table.timerSeconds ?? 0)" : "\"gate\":false")
                + (table.apps.map { ",\"apps\":[" + $0.map(JSONText.string).joined(separator: ",") + "]" } ?? "") + "}"
        }
        let snooze = self.snooze.map {
            "{\"until\":\"\(EventTimestamp.format(unixMilliseconds: $0.until, offsetMinutes: offsetMinutes))\",\"apps\":["
                + $0.apps.map(JSONText.string).joined(separator: ",") + "]}"
        } ?? "null"
        let timeboxes = self.timeboxes.map {
            "{\"app\":\(JSONText.string($0.app)),\"minutes\":\($0.minutes),"
                + "\"until\":\"\(EventTimestamp.format(unixMilliseconds: $0.until, offsetMinutes: offsetMinutes))\"}"
        }
        let pending = self.pending.map {
            "{\"setting\":\(JSONText.string($0.setting.name)),\"from\":\(JSONText.string($0.from)),\"to\":\(JSONText.string($0.to)),"
                + "\"applies\":\"\(EventTimestamp.format(unixMilliseconds: $0.applies, offsetMinutes: offsetMinutes))\"}"
        }
        // Today's focused minutes, always there (as `stats --json` has them).
        let focus = "\"focus_minutes\":\(JSONText.number(StatsReport.minutes(seconds: focusSeconds), places: 1)),"
        return "{\"date\":\"\(date)\",\"exits\":\(exits),\"opens\":\(opens),\"streak\":\(streak)," + focus
            + "\"grace\":[\(grace.joined(separator: ","))],\"schedule\":\(schedule),\"snooze\":\(snooze),"
            + "\"timeboxes\":[\(timeboxes.joined(separator: ","))],\"pending\":[\(pending.joined(separator: ","))]}"
    }

    /// The longest `line` grows to: one terminal row, and a status bar's share of a screen;
    /// `--json` has the rest.
    public static let lineLimit = 80

    /// "miga 3 exits · 1 open · 47 min · streak 5 · grace discord 4 min · 09:00–17:00 45 s"
    /// (the focused minutes today once there is one). What is in force now follows today's
    /// counts, the one that most changes what a gate does first (a snooze, a timebox, grace,
    /// the schedule, a loosening's wait), each in the longest form that keeps the line
    /// within `lineLimit` (a list shortened to its first and a count), or left to `--json`.
    public var line: String {
        var parts = ["\(exits) exit\(exits == 1 ? "" : "s")", "\(opens) open\(opens == 1 ? "" : "s")"]
        if focusSeconds >= 60 { parts.append("\(focusSeconds / 60) min") }
        parts.append("streak \(streak)")
        var line = "miga " + parts.joined(separator: " · ")
        for forms in nowParts() {
            if let form = forms.first(where: { DisplayWidth.of(line + " · " + $0) <= Self.lineLimit }) { line += " · " + form }
        }
        return line
    }

    /// What is in force now, most telling first, each as its forms from longest to shortest.
    private func nowParts() -> [[String]] {
        func minutesLeft(_ until: Int64) -> Int { max(1, Int((until - nowMilliseconds + 59_999) / 60_000)) }
        /// "a, b, c" and the shorter "a +2".
        func listed(_ items: [String]) -> [String] {
            items.count > 1 ? [items.joined(separator: ", "), "\(items[0]) +\(items.count - 1)"] : items
        }
        var found: [[String]] = []
        if let snooze {
            let end = "until \(Schedule.clock(LocalMoment(unixMilliseconds: snooze.until, offsetMinutes: offsetMinutes).minute))"
            found.append(snooze.apps.isEmpty ? ["snoozed \(end)"]
                : listed(snooze.apps).map { "snoozed \($0) \(end)" } + ["\(snooze.apps.count) snoozed \(end)"])
        }
        if !timeboxes.isEmpty {
            found.append(listed(timeboxes.map { "\($0.app) \(minutesLeft($0.until)) of \($0.minutes) min left" })
                + listed(timeboxes.map { "\($0.app) \(minutesLeft($0.until)) min left" }))
        }
        let boxed = Set(timeboxes.map(\.app))
        let graced = grace.filter { !boxed.contains($0.app) }
        if !graced.isEmpty {
            found.append(listed(graced.map { "\($0.app) \(minutesLeft($0.until)) min" }).map { "grace " + $0 })
        }
        if let schedule {
            found.append(["\(schedule.hours) " + (schedule.gate ? "\(schedule.timerSeconds ?? 0) s" : "no gate")])
        }
        if let next = pending.min(by: { $0.applies < $1.applies }) {
            let more = pending.count > 1 ? " (+\(pending.count - 1) more)" : ""
            let when = "in \(minutesLeft(next.applies)) min\(more)"
            found.append(["\(next.setting.name) → \(next.to) \(when)", "\(next.setting.name) \(when)", "\(pending.count) waiting"])
        }
        return found
    }
}
