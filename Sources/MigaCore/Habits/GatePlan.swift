/// What one app's gate has seen today, read from the events before this gate starts.
public struct AppHistory: Equatable, Sendable {
    /// `session_start` events today (grace and schedule passes are not attempts).
    public var sessionsToday: Int
    /// `open_selected` events today: what escalation counts.
    public var opensToday: Int
    /// The intention given at the app's last Open, when it gave one.
    public var lastIntention: String?
    /// Focused seconds today (`focus` events): what "47 min today" and `minutes_per_day` read.
    public var focusSecondsToday: Int

    public init(sessionsToday: Int = 0, opensToday: Int = 0, lastIntention: String? = nil, focusSecondsToday: Int = 0) {
        self.sessionsToday = sessionsToday
        self.opensToday = opensToday
        self.lastIntention = lastIntention
        self.focusSecondsToday = focusSecondsToday
    }
}

/// How one gate goes, decided before it is shown: the timer (the app's, or a schedule's, plus
/// escalation, within 15..45), whether a schedule lets it pass, whether it asks for an
/// intention, and the lines that tell the person why (DESIGN "Habits beyond the pause").
public struct GatePlan: Equatable, Sendable {
    public var timerSeconds: Int
    /// The table in force, if any.
    public var schedule: Schedule?
    /// Seconds escalation added (after the cap).
    public var escalationSeconds: Int
    public var asksIntention: Bool
    /// `opens_per_day` for this app (0: none), and whether today's opens have reached it:
    /// then the timer is the longest and Open says "Open anyway" (never a lock).
    public var opensPerDay: Int
    public var overAllowance: Bool
    /// `minutes_per_day` for this app (0: none), and whether today's focused minutes have
    /// reached it: then, as past the allowance, the longest timer and "Open anyway".
    public var minutesPerDay: Int
    public var overMinutes: Bool
    /// A gate shown on coming back to an app or tab already open (`reentry_minutes`): its
    /// `session_start` says so.
    public var reentry = false
    /// Open asks "For how long?" (`ask_minutes`), Enter giving `defaultMinutes`.
    public var asksMinutes: Bool
    public var defaultMinutes: Int
    /// The person's own "Do this instead" choices for this gate (at most three).
    public var alternatives: [Alternative]
    /// The sentence to type before Open (`challenge = "type"`), or nil.
    public var challenge: String?
    public var history: AppHistory
    /// The lines under the app's name: how often today, the last intention, why the wait is longer.
    public var notes: [String]
    /// The pause of `miga snooze` (its gate, `Snooze.gateName`): a pause, not an app. Its
    /// events carry `{"snooze":true}`; no app's keys, allowance, budget, escalation, count of
    /// today's times or "For how long?" apply to it, and it starts no timebox.
    public var isSnoozePause = false

    /// "3rd time today · 47 min today": this gate counted with today's earlier ones, and the
    /// whole minutes of focused time today; nil for a first gate with less than a minute.
    public static func attemptNote(_ history: AppHistory) -> String? {
        // Joined by hand: the generic joined(separator:) cost 0.2M instructions the first
        // time, before the gate's first frame.
        let attempt = history.sessionsToday + 1
        let times = attempt >= 2 ? Ordinal.english(attempt) + " time today" : nil
        let minutes = history.focusSecondsToday >= 60 ? String(history.focusSecondsToday / 60) + " min today" : nil
        switch (times, minutes) {
        case let (times?, minutes?): return times + " · " + minutes
        case (let one?, nil), (nil, let one?): return one
        case (nil, nil): return nil
        }
    }

    /// `app` is the gated app's name or, for a site, its app name (`isSite`: the site's own
    /// `[site."NAME"]` table rather than an app's).
    public init(config: MigaConfig, app: String, isSite: Bool = false, at moment: LocalMoment, history: AppHistory) {
        let snoozePause = !isSite && app == Snooze.gateName
        // A snooze's pause reads no app's table and no history of its own: every one is a first.
        let entry = snoozePause ? nil : isSite ? config.siteEntry(app: app) : config.apps[app]
        let history = snoozePause ? AppHistory() : history
        isSnoozePause = snoozePause
        schedule = Schedule.matching(config.schedules, app: app, at: moment, settledShift: config.gateFreeShiftMinutes)
        let base = schedule?.timerSeconds ?? entry?.timerSeconds ?? config.timerSeconds
        let step = entry?.escalateSeconds ?? config.escalateSeconds
        let range = MigaConfig.timerRange
        let wanted = min(max(base, range.lowerBound), range.upperBound)
        opensPerDay = snoozePause ? 0 : entry?.opensPerDay ?? config.opensPerDay
        overAllowance = opensPerDay > 0 && history.opensToday >= opensPerDay
        minutesPerDay = snoozePause ? 0 : DailyBudget.minutes(config: config, app: app, isSite: isSite)
        overMinutes = minutesPerDay > 0 && history.focusSecondsToday >= minutesPerDay * 60
        let overLimit = overAllowance || overMinutes
        timerSeconds = overLimit ? range.upperBound : min(range.upperBound, wanted + step * max(0, history.opensToday))
        escalationSeconds = overLimit ? 0 : timerSeconds - wanted
        asksIntention = entry?.intention ?? config.intention
        asksMinutes = !snoozePause && (entry?.askMinutes ?? config.askMinutes)
        defaultMinutes = entry?.defaultMinutes ?? config.defaultMinutes
        alternatives = Alternative.shown(config.alternatives, app: app)
        challenge = (entry?.challenge ?? config.challenge) == .type ? Self.challengeSentence(app: app) : nil
        self.history = history

        var notes: [String] = []
        if let attempt = Self.attemptNote(history) { notes.append(attempt) }
        if overAllowance {
            notes.append("Today's \(opensPerDay) open\(opensPerDay == 1 ? " is" : "s are") used: Open is still yours, after \(range.upperBound) s")
        } else if opensPerDay > 0 {
            notes.append("\(opensPerDay - history.opensToday) of \(opensPerDay) open\(opensPerDay == 1 ? "" : "s") left today")
        }
        if overMinutes {
            notes.append("Today's \(minutesPerDay) minute\(minutesPerDay == 1 ? " is" : "s are") used: Open is still yours, after \(range.upperBound) s")
        }
        if let last = history.lastIntention { notes.append("Last time: \(last)") }
        if snoozePause, let wait = Self.snoozeWaitNote(config) { notes.append(wait) }
        if let schedule, let timer = schedule.timerSeconds, timer != (entry?.timerSeconds ?? config.timerSeconds) {
            notes.append("\(wanted) s during \(schedule.hours) (schedule \(schedule.index))")
        }
        if escalationSeconds > 0 {
            let opens = history.opensToday == 1 ? "once" : history.opensToday == 2 ? "twice" : "\(history.opensToday) times"
            notes.append("\(escalationSeconds) s longer: opened \(opens) today"
                         + (timerSeconds == range.upperBound ? " (\(range.upperBound) s at most)" : ""))
        }
        self.notes = notes
    }

    /// A snooze loosens every gate it names: with `loosen_delay_minutes` it starts that long
    /// after its Open, said before its countdown rather than after.
    static func snoozeWaitNote(_ config: MigaConfig) -> String? {
        let wait = config.loosenDelayMinutes
        guard wait > 0 else { return nil }
        return "The snooze starts \(wait) minute\(wait == 1 ? "" : "s") after Open (loosen_delay_minutes)"
    }

    /// What a typed challenge asks for: short, plain ASCII but for the name, the same on
    /// every surface.
    public static func challengeSentence(app: String) -> String { "I am opening \(app) on purpose" }
}
