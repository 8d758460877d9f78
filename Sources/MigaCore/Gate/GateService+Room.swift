import FoundationEssentials

/// The room, not just the door (DESIGN): coming back to an app or tab already open, the
/// focused minutes, and the daily budget's soft end, decided here for every front end (the
/// browser's host now; the desktop's watchers use the same).
extension GateService {
    /// `reentry_minutes` for `app` (0: off): its own, else the global one.
    public func reentryMinutes(_ app: String, isSite: Bool) -> Int {
        let entry = isSite ? config.siteEntry(app: app) : config.apps[app]
        let minutes = entry?.reentryMinutes ?? config.reentryMinutes
        return MigaConfig.reentryMinutesRange.contains(minutes) ? minutes : 0
    }

    /// Whether coming back to `app` after `awaySeconds` away from the front meets a gate: its
    /// `reentry_minutes` is on, the time away reaches it (nil: seen for the first time, which
    /// counts as a return), and no grace (or timebox), snooze or hours without a gate cover
    /// it. Records nothing: a tab switch is no pass; the gate it leads to records its own.
    public func returnMeetsGate(_ app: String, isSite: Bool, awaySeconds: Int64?) -> Bool {
        let minutes = reentryMinutes(app, isSite: isSite)
        guard minutes > 0 else { return false }
        if let awaySeconds, awaySeconds < Int64(minutes) * 60 { return false }
        if config.retiredApps.contains(app), config.apps[app] == nil { return false }
        return !inGateFreeHours(app) && snoozeUntil(app) == nil && graceUntil(app) == nil
    }

    /// Records `seconds` (1–60) of focused time on `app`; the problem, if it could be kept nowhere.
    public func recordFocus(_ app: String, seconds: Int) -> String? {
        guard (1...60).contains(seconds) else { return "focused seconds must be 1–60" }
        return GateRecorder(app: app, store: store, clock: context.clock).record(.focus, detail: "{\"seconds\":\(seconds)}")
    }

    /// Focused seconds on `app` today (local).
    public func focusSecondsToday(_ app: String) -> Int {
        let today = LocalMoment(clock: context.clock).day
        return ((try? store.focusSeconds(from: today, to: today, app: app)) ?? []).reduce(0) { $0 + $1.seconds }
    }

    /// The budget whose soft end is due for `app` now: `minutes_per_day` is on, today's
    /// focused minutes have reached it, and today has not asked yet. nil otherwise.
    public func budgetEndDue(_ app: String, isSite: Bool, focusSeconds: Int) -> Int? {
        let minutes = DailyBudget.minutes(config: config, app: app, isSite: isSite)
        guard minutes > 0, focusSeconds >= minutes * 60,
              (try? store.budgetEnded(app: app, on: LocalMoment(clock: context.clock).day)) == false else { return nil }
        return minutes
    }

    /// The budget's soft end answered (`DailyBudget.choices`): recorded as `timebox_ended`
    /// with `{"budget":true,…}`, once a day; false when today has one already or `app` has no
    /// budget. Throws what kept it from being recorded.
    public func endBudget(_ app: String, isSite: Bool, choice: String) throws -> Bool {
        let minutes = DailyBudget.minutes(config: config, app: app, isSite: isSite)
        guard DailyBudget.choices.contains(choice), minutes > 0,
              try !store.budgetEnded(app: app, on: LocalMoment(clock: context.clock).day) else { return false }
        let recorder = GateRecorder(app: app, store: store, clock: context.clock)
        if let problem = recorder.record(.timeboxEnded, detail: DailyBudget.detail(minutes: minutes, choice: choice)) {
            throw TimeboxProblem.couldNotRecord(problem)
        }
        return true
    }
}
