import FoundationEssentials

/// Every gate's rules, in one place, for every front end: the terminal, plain mode and the
/// window (driven by `Gatekeeper`) and the browser's gate page (driven by `NativeHostService`).
/// A front end asks it whether a gate is needed and with what plan, draws its content and
/// writes its events through it, and takes its celebration line from it; it decides none of
/// these itself. A new gate rule goes here (see docs/ARCHITECTURE.md), and every surface has it.
public struct GateService {
    public let config: MigaConfig
    public let store: EventStore
    let context: MigaContext

    /// The snooze running when this service was made, read once (the browser's state asks
    /// it of every site).
    let snooze: Snooze?

    public init(config: MigaConfig, store: EventStore, context: MigaContext) {
        self.config = config
        self.store = store
        self.context = context
        snooze = Snooze.active(paths: context.paths, nowMilliseconds: context.clock.nowMilliseconds())
        // Every event a gate records goes to this machine's journal too, when sync is on; a
        // folder that cannot be used costs the gate nothing (`sync status` says why).
        store.useSyncFolder(of: config, context: context)
    }

    /// Whether a launch of `app` meets a gate now.
    public enum Admission: Equatable {
        /// No gate: hours the person chose to have none (`schedule` with `gate = false`).
        case schedule
        /// No gate: an Open's grace runs until then.
        case grace(until: Date)
        /// No gate: `miga snooze` covers the app until then. Unlike grace it leaves no stamp
        /// for the shim, so `miga snooze --off` ends it for every launch at once.
        case snooze(until: Date)
        /// A gate, with its timer, notes and question.
        case gate(GatePlan)
        /// No gate: another gate of this same attempt just let it through (`open-url` handing a
        /// link to the browser). Nothing is recorded: that gate recorded it.
        case handedOver
        /// No gate: the app's removal waited out `loosen_delay_minutes` and has applied; its
        /// shims stay until a `config` or `install` command takes them away.
        case removed
    }

    /// The hours without a gate first, then grace, then the plan. A pass is recorded here
    /// (`gateway_skipped` with reason schedule, or `grace_pass`) through `recorder`; a problem
    /// recording it is said, and the pass stands. `isSite`: a site has no per-app keys.
    /// `takesHandedOver`: the browser's gate, which is where `open-url` hands its links on to.
    /// `reentry`: a gate on coming back to an app or tab already open (its plan says so).
    public func admit(_ app: String, isSite: Bool = false, takesHandedOver: Bool = false, reentry: Bool = false,
                      recorder: GateRecorder) -> Admission {
        if takesHandedOver, HandedOverPass.take(app: app, paths: context.paths, clock: context.clock, files: context.files) { return .handedOver }
        if config.retiredApps.contains(app), config.apps[app] == nil {
            if let problem = recorder.record(.gatewaySkipped, detail: Event.reasonDetail("removed")) {
                context.messages.say("miga: could not record the pass: \(problem)")
            }
            return .removed
        }
        let moment = LocalMoment(clock: context.clock)
        if inGateFreeHours(app, at: moment) {
            if let problem = recorder.record(.gatewaySkipped, detail: Event.reasonDetail("schedule")) {
                context.messages.say("miga: could not record the pass: \(problem)")
            }
            return .schedule
        }
        // A snooze is an Open of everything it names: its gates pass as grace, said so.
        if let until = snoozeUntil(app) {
            if let problem = recorder.record(.gracePass, detail: Event.snoozeDetail) {
                context.messages.say("miga: could not record the snoozed pass: \(problem)")
            }
            return .snooze(until: until)
        }
        if let until = graceUntil(app) {
            if let problem = recorder.record(.gracePass) {
                context.messages.say("miga: could not record the grace pass: \(problem)")
            }
            return .grace(until: until)
        }
        // What today has held for this app; a failed read only loses the notes, never the gate.
        let history = (try? store.history(app: app, on: moment.day)) ?? AppHistory()
        var plan = GatePlan(config: config, app: app, isSite: isSite, at: moment, history: history)
        plan.reentry = reentry
        startTrialIfChosen(app)
        return .gate(plan)
    }

    /// The trial's 72 hours start at the first gate of an app or site the person chose, never
    /// at one they did not (`make demo`'s, an app gated on the command line only).
    func startTrialIfChosen(_ app: String) {
        let store = EntitlementStore(context: context)
        // Once the file is there the trial has started (or a licence replaced it): one stat,
        // not a second read and parse, on the gate's way to its first frame.
        guard isChosen(app), !AtomicFile.exists(store.path) else { return }
        _ = store.status(startingTrial: true)
    }

    /// Whether `app` is one the person chose: an app in `[apps]`, or a site in `sites`.
    public func isChosen(_ app: String) -> Bool {
        config.apps[app] != nil || config.sites.contains { SiteMatcher.normalizedSite($0).map(SiteMatcher.appName(site:)) == app }
    }

    /// Whether a gate of `app` is a site's (a link `open-url` gates): a gated site's name
    /// that is no app's. Its plan then takes the site's `[site."NAME"]` table.
    public func isSite(_ app: String) -> Bool {
        // A site's name has a dot: an app's (discord) rarely does, and then no site is parsed
        // before its first frame.
        guard config.apps[app] == nil, app.contains(".") else { return false }
        return config.sites.contains { SiteMatcher.normalizedSite($0).map(SiteMatcher.appName(site:)) == app }
    }

    /// Whether `app` is in hours the person chose to have no gate (`[[schedule]]` with
    /// `gate = false`). Schedules are by the minute: this holds at least until the next one.
    public func inGateFreeHours(_ app: String, at moment: LocalMoment? = nil) -> Bool {
        Schedule.matching(config.schedules, app: app, at: moment ?? LocalMoment(clock: context.clock),
                          settledShift: config.gateFreeShiftMinutes).map { !$0.gate } ?? false
    }

    /// When the snooze covering `app` ends, if one does now.
    public func snoozeUntil(_ app: String) -> Date? {
        guard let snooze, snooze.covers(app) else { return nil }
        return Date(timeIntervalSince1970: Double(snooze.until) / 1000)
    }

    /// When the grace of `app`'s last Open ends, if it is running now: the minutes that Open
    /// declared ("For how long?", with any "5 more minutes"), else `grace_minutes`. An Open up
    /// to a second ahead of this clock still counts (another process rounded its time).
    /// A snooze's own gate has none: each snooze waits behind its pause.
    public func graceUntil(_ app: String) -> Date? {
        guard app != Snooze.gateName, let last = try? store.lastOpen(app: app) else { return nil }
        let now = context.clock.nowMilliseconds()
        var until = last.at + Int64(config.graceMinutes) * 60_000
        if let declared = last.minutes {
            var box = Timebox(app: app, session: last.session, openedAt: last.at, minutes: declared)
            if let extended = try? store.extensionTime(session: last.session, openedAt: last.at) {
                box.extended = true
                box.extendedAt = extended
            }
            until = box.end
        }
        return last.at <= now + 1000 && until > now ? Date(timeIntervalSince1970: Double(until) / 1000) : nil
    }

    /// How far back a lost gate is looked for: a gate page left up longer starts afresh.
    static let resumeWindowMilliseconds: Int64 = 12 * 3_600_000

    /// A gate whose front end lost it (the browser's host or extension restarted while its page
    /// was up), as the store has it: never the page's word for how long someone waited.
    public struct Resumption {
        public let plan: GatePlan
        /// When its `session_start` was recorded.
        public let startedAt: Date
        /// The item on screen: the last one read, else the first.
        public let contentID: String?
        /// Its countdown had ended (`gateway_completed` is not recorded twice).
        public let completed: Bool
    }

    /// The gate `session` of `app`, if it started in the last hours and has not ended (no Exit,
    /// Open or abandon recorded), with the plan it was given: the same timer and notes, its
    /// own start not counted as an earlier attempt.
    public func resume(session: String, app: String, isSite: Bool = false) -> Resumption? {
        let now = context.clock.nowMilliseconds()
        guard let steps = try? store.sessionSteps(session, app: app, from: now - Self.resumeWindowMilliseconds, to: now + 60_000),
              let start = steps.first(where: { $0.type == .sessionStart }),
              !steps.contains(where: { [.exitSelected, .openSelected, .abandoned].contains($0.type) }) else { return nil }
        let moment = LocalMoment(unixMilliseconds: start.timestamp, offsetMinutes: start.offsetMinutes)
        var history = (try? store.history(app: app, on: moment.day)) ?? AppHistory()
        history.sessionsToday = max(0, history.sessionsToday - 1)
        let item = steps.last(where: { $0.type == .contentRead && $0.contentID != nil })?.contentID ?? start.contentID
        return Resumption(plan: GatePlan(config: config, app: app, isSite: isSite, at: moment, history: history),
                          startedAt: Date(timeIntervalSince1970: Double(start.timestamp) / 1000), contentID: item,
                          completed: steps.contains { $0.type == .gatewayCompleted })
    }

    /// The content a gate shows: the chosen categories, or everything when they hold nothing.
    public func content() throws -> GateContent {
        let library = try ContentLibrary.load(userFolder: context.paths.userContentDirectory, files: context.files) {
            context.messages.say("miga: warning: \($0)")
        }
        return GateContent(library: library, categories: config.categories, extraCategories: config.extraCategories, store: store)
    }

    /// The line shown after an Exit, from the person's history, this Exit included.
    public func celebration() -> String { Self.celebration(store: store, context: context) }

    /// The same where no config was read for the gate (it needs none). A count that cannot
    /// be read is left at what the Exit just made true. The kind of line said is kept in the
    /// state folder, so the next Exit, on any surface, hears another.
    public static func celebration(store: EventStore, context: MigaContext) -> String {
        let clock = context.clock, today = LocalMoment(clock: clock).day
        var facts = Celebration.Facts(exitsThisWeek: (try? store.exitCountInWeek(endingAt: clock.now())) ?? 1)
        facts.exitsToday = (try? store.dailyCounts(from: today, to: today, app: nil))
            .map { $0.filter { $0.type == EventType.exitSelected.rawValue }.reduce(0) { $0 + $1.count } } ?? 1
        facts.exitsInAll = (try? store.exitCount()) ?? 1
        if let days = try? store.mindfulDays() { facts.streak = Streaks(mindfulDays: days, today: today) }
        let lastPath = context.paths.stateDirectory + "/celebration-last"
        let last = AtomicFile.read(lastPath).flatMap { Celebration.Kind(rawValue: String(decoding: $0.prefix(16), as: UTF8.self)) }
        let (kind, text) = Celebration.message(facts, after: last)
        try? context.files.makeDirectories(context.paths.stateDirectory, mode: 0o700)
        try? AtomicFile.write(kind.rawValue, to: lastPath, mode: 0o600)
        return text
    }
}
