import FoundationEssentials
import JSON

/// What `miga native-host` answers, one request at a time (see DESIGN "Browsers"). It keeps
/// the gates open in this browser profile in memory, as the terminal's are kept: a
/// `GateSession` each, driven on the host's own monotonic clock (the page's word is not
/// taken for how long someone waited); whether a site is gated, the plan, the content, the
/// events (app = the site) and the celebration come from `GateService`, as for every gate.
public final class NativeHostService {
    /// Gates a page may keep open at once; a page that opens more loses its oldest.
    static let sessionLimit = 64
    /// A page starts its countdown after the host's reply, so its end comes a little after the
    /// host's; this much early is still taken as the end.
    static let lockSlackMilliseconds = 500
    /// Seconds without input before a person counts as idle, away from the front: the room's
    /// one rule (`RoomTiming`, with its test setting `MIGA_IDLE_SECONDS`).
    static let idleSeconds = RoomTiming.idleSeconds

    static func idleSeconds(environment: [String: String]) -> Int {
        RoomTiming.idleSeconds(environment: environment)
    }

    /// One open gate: its session, driven as the terminal's is, and what its last step could
    /// not record.
    final class HostGate {
        /// The entry of `sites` it belongs to, as the extension knows it.
        let site: String
        private(set) var driver: GateDriver!
        private var problems: [String] = []
        private var drewNothing = false

        init(session: GateSession, site: String, recorder: GateRecorder, content: GateContent) {
            self.site = site
            driver = GateDriver(session: session, record: { [unowned self] type, contentID, wait, detail in
                if let problem = recorder.record(type, contentID: contentID, waitMilliseconds: wait, detail: detail) {
                    problems.append(problem)
                }
            }, nextItem: { [unowned self] in
                let item = content.draw(excluding: driver.session.item.id)
                drewNothing = item == nil
                return item
            })
        }

        var session: GateSession { driver.session }

        /// Read Next: false when there was nothing to draw.
        func readNext(at now: UInt64) -> Bool {
            drewNothing = false
            driver.choose(.readNext, at: now)
            return !drewNothing
        }

        /// What the last steps could not record, if anything; cleared.
        func takeProblem() -> String? {
            defer { problems = [] }
            return problems.isEmpty ? nil : problems.joined(separator: "; ")
        }
    }

    let context: MigaContext
    private var gates: [String: HostGate] = [:]
    private var gateOrder: [String] = []
    private var storeCache: EventStore?

    public init(context: MigaContext) {
        self.context = context
    }

    /// The reply to one message (its JSON, unframed). Never throws: a bad request gets an
    /// `error` reply naming what was wrong.
    public func reply(to body: Data) -> Data {
        let reply: OrderedJSON
        do {
            let (message, id) = try ExtensionToHost.decode(body)
            reply = answerOrError(message).json(id: id)
            // What this message recorded goes to the journal (sync_folder) off the host's path.
            if let storeCache, storeCache.journalBehind { GateService.BackgroundShare.start(store: storeCache, context: context, watched: false) }
        } catch {
            reply = HostToExtension.error("\(error)").json(id: Self.id(of: body))
        }
        let data = Data(reply.text.utf8)
        guard data.count <= NativeMessageFraming.outgoingLimit else {
            return Data(HostToExtension.error("reply too long").json(id: Self.id(of: body)).text.utf8)
        }
        return data
    }

    /// The id of a message that could not be read as one, if it has one.
    private static func id(of body: Data) -> OrderedJSON {
        ExtensionToHost.id((try? JSONValue.parse(body))?["id"])
    }

    /// The setup message, also pushed unasked when config.toml changes.
    public func state(id: OrderedJSON = .null) -> OrderedJSON {
        HostToExtension.state(currentState()).json(id: id)
    }

    private func currentState() -> HostToExtension.State {
        let setup = BrowserSetup.load(context: context)
        var grace: [(String, Int64)] = [], ungated: [(String, Int64)] = []
        // The timeboxes of gated sites that are running or over and unanswered: the extension
        // times their soft ends from these, so a restart of it loses none.
        var timeboxes: [HostToExtension.Timebox] = []
        if setup.gating, let store = try? store() {
            let service = GateService(config: setup.config, store: store, context: context)
            // The other machines' events (sync_folder) come in, and this machine's go out, by a
            // process of its own: the folder may hang, and the host must not.
            service.shareInBackground()
            // Hours without a gate hold at least to the next minute (schedules are by the
            // minute): the extension lets the site through without rules until then, and asks
            // again just after.
            let nextMinute = (context.clock.nowMilliseconds() / 60_000 + 1) * 60_000
            for site in setup.matcher.sites {
                let app = SiteMatcher.appName(site: site)
                if service.inGateFreeHours(app) { ungated.append((site, nextMinute)) }
                // A snooze lets the site in as grace does, to its own end (the later of the two).
                let until = [service.graceUntil(app), service.snoozeUntil(app)].compactMap { $0 }.max()
                if let until { grace.append((site, context.clock.milliseconds(until))) }
            }
            // Only those a `timebox_end` can name (a session the host gives out, not any text an
            // import brought).
            for box in service.openTimeboxes() where ExtensionToHost.isSession(box.session) {
                guard let site = setup.matcher.sites.first(where: { SiteMatcher.appName(site: $0) == box.app }) else { continue }
                timeboxes.append(Self.timebox(box, site: site))
            }
        }
        // The sites sent are those the host gates: the config's normalised, none while it gates nothing.
        var sent = setup.config
        sent.sites = setup.matcher.sites
        return HostToExtension.State(
            version: MigaVersion.current, gating: setup.gating, reason: setup.reason, message: setup.message,
            grace: grace, ungated: ungated, timeboxes: timeboxes,
            siteRules: setup.gating ? setup.matcher.orderedSites.map(Self.siteRule) : [],
            settings: ConfigKeys.state(of: sent), idleSeconds: Self.idleSeconds(environment: context.environment))
    }

    /// The browser closed the pipe. That is also what the extension's worker restarting looks
    /// like, while its gate pages stay up and resume with the next host, so a gate still
    /// counting down is left as stored, not `abandoned`: a page that is still there goes on
    /// (`resume`); one that went with the browser leaves a session without an end, which no
    /// count but the minutes waited reads.
    public func finish() {
        gates.removeAll()
        gateOrder.removeAll()
    }

    // MARK: - Messages

    struct ReplyError: Error {
        var reply: HostToExtension
        init(_ message: String, secondsLeft: Int? = nil, challengeFailed: Bool = false) {
            reply = .error(message, secondsLeft: secondsLeft, challengeFailed: challengeFailed)
        }
    }

    /// Every failure is answered with the request's id, so the page that asked fails open at
    /// once rather than waiting out its timeout.
    private func answerOrError(_ message: ExtensionToHost) -> HostToExtension {
        do {
            return try answer(message)
        } catch let error as ReplyError {
            return error.reply
        } catch {
            return .error("\(error)")
        }
    }

    /// One function per message.
    private func answer(_ message: ExtensionToHost) throws -> HostToExtension {
        switch message {
        case .hello, .state: return .state(currentState())
        case .gate(let url, let reentry): return .gate(try startGate(url: url, reentry: reentry))
        case .resume(let session, let url): return .resume(try resumeGate(session, url: url))
        case .next(let session): return try readNext(session)
        case .completed(let session): return try completed(session)
        case .exit(let session, let alternative): return try exit(session, alternative: alternative)
        case .open(let session, let challenge, let intention, let minutes):
            return try open(session, challenge: challenge, intention: intention, minutes: minutes)
        case .timeboxEnd(let session, let choice): return try endTimebox(session, choice: choice)
        case .abandon(let session): return try abandoned(session)
        case .gracePass(let url): return .gracePass(recorded: try recordPass(url: url))
        case .schedulePass(let url): return .schedulePass(recorded: try recordPass(url: url))
        case .stats: return .stats(try stats())
        case .reentry(let url, let away): return try comingBack(url: url, awaySeconds: away)
        case .focus(let url, let seconds): return .focus(try focus(url: url, seconds: seconds))
        case .budgetEnd(let url, let choice): return .budgetEnd(recorded: try endBudget(url: url, choice: choice))
        }
    }

    /// A gate this host holds, by its session.
    private func gate(_ session: String) throws -> HostGate {
        guard let gate = gates[session] else { throw ReplyError(Self.noSuchGate) }
        return gate
    }

    private func readNext(_ session: String) throws -> HostToExtension {
        let gate = try gate(session)
        guard gate.readNext(at: context.clock.monotonicNanoseconds()) else { throw ReplyError("no other content to show") }
        if let problem = gate.takeProblem() { throw ReplyError(problem) }
        return .next(item: item(gate.session.item))
    }

    private func completed(_ session: String) throws -> HostToExtension {
        try complete(try gate(session))
        return .completed
    }

    private func exit(_ session: String, alternative: Int?) throws -> HostToExtension {
        let gate = try gate(session)
        let now = context.clock.monotonicNanoseconds()
        // "Do this instead": an Exit that opens the person's own choice (only one the gate
        // showed; the page's number is taken for nothing else).
        if let alternative { gate.driver.chooseAlternative(alternative, at: now) }
        if gate.session.outcome == nil { gate.driver.choose(.exit, at: now) }
        try throwing(ended(session))
        let message = GateService.celebration(store: try store(), context: context)
        let chosen = try gate.session.chosenAlternative.flatMap { try openAlternative($0, app: gate.session.app) }
        return .exit(message: message, alternative: chosen)
    }

    private func open(_ session: String, challenge: String?, intention: String?, minutes: Int?) throws -> HostToExtension {
        let gate = try gate(session)
        try complete(gate)
        let now = context.clock.monotonicNanoseconds()
        gate.driver.choose(.open, at: now)
        // The typed challenge: exactly the sentence, or the page asks for it again.
        if gate.session.askingChallenge, !gate.driver.answerChallenge(challenge ?? "", at: now) {
            throw ReplyError("type the sentence exactly to open", challengeFailed: true)
        }
        // The answer to "What are you here to do?", cleaned and cut to 120 characters by the
        // session: the page's word is kept only as text.
        if gate.session.askingIntention { gate.driver.answer(intention ?? "", at: now) }
        // "For how long?": the page's number is taken only if it is one of the answers.
        if gate.session.askingMinutes { gate.driver.answerMinutes(minutes, at: now) }
        try throwing(ended(session))
        // The grace this Open started, as every later gate will see it: `grace_minutes`,
        // or the minutes it declared.
        let service = GateService(config: BrowserSetup.load(context: context).config, store: try store(), context: context)
        let until = service.graceUntil(gate.session.app).map { context.clock.milliseconds($0) }
        let box = gate.session.chosenMinutes == nil ? nil : service.timebox(session: session)
        return .open(site: gate.site, graceUntil: until, timebox: box.map { Self.timebox($0, site: gate.site) })
    }

    /// The soft end's choice in a site's tabs (or `gone`: no tab of it was left).
    private func endTimebox(_ session: String, choice: String) throws -> HostToExtension {
        let setup = BrowserSetup.load(context: context)
        let service = GateService(config: setup.config, store: try store(), context: context)
        // Only a gated site's: the browser ends no app's timebox.
        guard setup.gating, let box = service.timebox(session: session),
              let site = setup.matcher.sites.first(where: { SiteMatcher.appName(site: $0) == box.app }) else {
            throw ReplyError("\(TimeboxProblem.notFound)")
        }
        do {
            let after = try service.endTimebox(box, choice: choice)
            let until = service.graceUntil(box.app).map { context.clock.milliseconds($0) }
            return .timeboxEnd(graceUntil: until, timebox: after.ending == nil ? Self.timebox(after, site: site) : nil)
        } catch let problem as TimeboxProblem {
            throw ReplyError("\(problem)")
        }
    }

    private func abandoned(_ session: String) throws -> HostToExtension {
        _ = try gate(session)
        try throwing(abandon(session))
        return .abandon
    }

    /// A navigation the extension let through (grace, or hours without a gate): the gate
    /// service admits it as any gate would and records the pass that applies; when none does
    /// (a page making one up, a grace just ended), nothing is recorded.
    private func recordPass(url: String) throws -> Bool {
        let setup = BrowserSetup.load(context: context)
        guard setup.gating, let site = setup.matcher.site(for: url) else { return false }
        let app = SiteMatcher.appName(site: site)
        let service = GateService(config: setup.config, store: try store(), context: context)
        switch service.admit(app, isSite: true, recorder: GateRecorder(app: app, store: service.store, clock: context.clock)) {
        case .schedule, .grace, .snooze, .removed: return true
        case .gate, .handedOver: return false
        }
    }

    /// Today's counts, for the popup.
    private func stats() throws -> HostToExtension.Stats {
        let setup = BrowserSetup.load(context: context)
        let today = LocalMoment(clock: context.clock).day
        let existing = AtomicFile.exists(context.paths.database) ? try store() : nil
        let report = try StatsReport.build(store: existing, today: today, days: 1)
        let snooze = Snooze.active(paths: context.paths, nowMilliseconds: context.clock.nowMilliseconds())
        return HostToExtension.Stats(
            exits: report.exits, opens: report.opens, reads: report.reads,
            currentStreak: report.streak.current, longestStreak: report.streak.longest,
            gating: setup.gating, reason: setup.reason, message: setup.message, snooze: snooze.map { ($0.until, $0.apps) },
            focusMinutes: StatsReport.minutes(seconds: report.focusSeconds))
    }

    /// A gate page asking what to show for `url`: go straight on (not gated, or grace), or a
    /// new gate with its first item.
    /// `reentry`: a gate over a tab come back to (a return is no link `open-url` handed on,
    /// so it takes no pass).
    private func startGate(url: String, reentry: Bool = false) throws -> HostToExtension.GateAnswer {
        let setup = BrowserSetup.load(context: context)
        guard setup.gating else { return .goNotGating(reason: setup.reason, message: setup.message) }
        guard let site = setup.matcher.site(for: url) else { return .goNotGated }
        let app = SiteMatcher.appName(site: site)
        let key = setup.matcher.sites.first { SiteMatcher.appName(site: $0) == app } ?? site
        let service = GateService(config: setup.config, store: try store(), context: context)
        let recorder = GateRecorder(app: app, store: service.store, clock: context.clock)
        let plan: GatePlan
        switch service.admit(app, isSite: true, takesHandedOver: !reentry, reentry: reentry, recorder: recorder) {
        case .schedule, .removed: return .goSchedule(site: key)
        case .handedOver: return .goHandedOver(site: key)
        case .grace(let until), .snooze(let until):
            // The extension lets the site in until then either way; the state message it hears
            // when a snooze ends early takes that back.
            return .goGrace(site: key, until: context.clock.milliseconds(until))
        case .gate(let gatePlan):
            plan = gatePlan
        }
        let content = try service.content()
        guard let item = content.draw() else { throw ReplyError("no content to show") }
        let session = GateSession(app: app, plan: plan, item: item, startedAt: context.clock.monotonicNanoseconds(),
                                  earlyMilliseconds: Self.lockSlackMilliseconds)
        let gate = HostGate(session: session, site: key, recorder: recorder, content: content)
        gate.driver.start()
        if let problem = gate.takeProblem() { throw ReplyError(problem) }
        keep(gate, as: recorder.session)
        return .gate(describe(gate, as: recorder.session, config: setup.config))
    }

    /// A gate page whose gate this host does not hold (the host or the extension restarted
    /// while it was up) asking to go on: the same session, rebuilt from the store, with the time
    /// already waited kept: a restart neither resets the countdown nor skips it.
    private func resumeGate(_ session: String, url: String) throws -> HostToExtension.Gate {
        let setup = BrowserSetup.load(context: context)
        guard setup.gating, let site = setup.matcher.site(for: url) else { throw ReplyError(Self.noSuchGate) }
        let app = SiteMatcher.appName(site: site)
        if let gate = gates[session], gate.session.app == app { return describe(gate, as: session, config: setup.config) }
        let service = GateService(config: setup.config, store: try store(), context: context)
        guard let resumption = service.resume(session: session, app: app, isSite: true) else { throw ReplyError(Self.noSuchGate) }
        let content = try service.content()
        guard let item = resumption.contentID.flatMap(content.library.item(id:)) ?? content.draw() else {
            throw ReplyError("no content to show")
        }
        let waited = UInt64(max(0, context.clock.nowMilliseconds() - context.clock.milliseconds(resumption.startedAt)))
        let now = context.clock.monotonicNanoseconds()
        let gateSession = GateSession(app: app, plan: resumption.plan, item: item, startedAt: now - min(now, waited * 1_000_000),
                                      earlyMilliseconds: Self.lockSlackMilliseconds, completionRecorded: resumption.completed)
        let key = setup.matcher.sites.first { SiteMatcher.appName(site: $0) == app } ?? site
        let recorder = GateRecorder(app: app, session: session, store: service.store, clock: context.clock)
        let gate = HostGate(session: gateSession, site: key, recorder: recorder, content: content)
        keep(gate, as: session) // no start: its session_start is in the store already
        return describe(gate, as: session, config: setup.config)
    }

    static let noSuchGate = "no such gate (it ended already)"

    private func keep(_ gate: HostGate, as session: String) {
        if gateOrder.count >= Self.sessionLimit { _ = abandon(gateOrder[0]) }
        gates[session] = gate
        gateOrder.append(session)
    }

    /// What a gate page shows of a gate, new or resumed.
    private func describe(_ gate: HostGate, as session: String, config: MigaConfig) -> HostToExtension.Gate {
        let now = context.clock.monotonicNanoseconds()
        let shown = config.alternatives.isEmpty ? [] : Alternative.shown(config.alternatives, app: gate.session.app)
        return HostToExtension.Gate(
            session: session, site: gate.site, app: gate.session.app, timerSeconds: gate.session.timerSeconds,
            breathing: config.breathing.rawValue, animations: config.animations, item: item(gate.session.item),
            notes: gate.session.notes, intention: gate.session.asksIntention, openLabel: gate.session.openLabel,
            minutes: gate.session.asksMinutes ? (TimeboxQuestion.choices, gate.session.defaultMinutes) : nil,
            alternatives: shown.map { ($0.label, $0.kind) }, challenge: gate.session.challenge,
            waitedMilliseconds: Int64(gate.session.elapsedMilliseconds(at: now)))
    }

    /// The alternative chosen at a site's gate, as the page goes on with it: a link is the
    /// page's to open in its own tab (the browser is right here); a command is started now.
    private func openAlternative(_ number: Int, app: String) throws -> HostToExtension.ChosenAlternative? {
        let service = GateService(config: BrowserSetup.load(context: context).config, store: try store(), context: context)
        guard let alternative = service.alternative(number, app: app) else { return nil }
        let action: HostToExtension.ChosenAlternative.Action
        switch alternative.action {
        case .url(let url): action = .url(url)
        case .command: action = service.openAlternative(alternative, app: app).map { .problem($0) } ?? .launched
        }
        return HostToExtension.ChosenAlternative(label: alternative.label, kind: alternative.kind, action: action)
    }

    // MARK: - Helpers

    /// The countdown is over (on the host's clock): `gateway_completed`, once per gate.
    private func complete(_ gate: HostGate) throws {
        let now = context.clock.monotonicNanoseconds()
        guard gate.session.isUnlocked(at: now) else {
            let left = max(1, gate.session.secondsLeft(at: now))
            throw ReplyError("Open unlocks in \(left) s", secondsLeft: left)
        }
        gate.driver.tick(at: now)
        if let problem = gate.takeProblem() { throw ReplyError(problem) }
    }

    /// Forgets a gate its session has ended; the problem recording its end, if any.
    private func ended(_ session: String) -> String? {
        guard let gate = gates.removeValue(forKey: session) else { return nil }
        gateOrder.removeAll { $0 == session }
        return gate.takeProblem()
    }

    /// The page went away, or the browser: `abandoned`, with the time waited.
    private func abandon(_ session: String) -> String? {
        gates[session]?.driver.abandon(at: context.clock.monotonicNanoseconds())
        return ended(session)
    }

    private func throwing(_ problem: String?) throws {
        if let problem { throw ReplyError("could not record the choice: \(problem)") }
    }

    func store() throws -> EventStore {
        if let storeCache { return storeCache }
        let store = try EventStore(context: context)
        storeCache = store
        return store
    }

    /// An item as the page shows it; its picture inline (`ContentImage.dataURL`), when it has
    /// one that can be shown.
    func item(_ item: ContentItem) -> HostToExtension.Item {
        HostToExtension.Item(id: item.id, kind: item.kind.rawValue, category: item.category, text: item.text, author: item.author,
                             title: item.title, image: ContentImage.dataURL(of: item, environment: context.environment))
    }

    /// A timebox as the extension times its soft end: its times (Unix ms) and choices, all
    /// decided by `Timebox`.
    static func timebox(_ box: Timebox, site: String) -> HostToExtension.Timebox {
        HostToExtension.Timebox(
            session: box.session, site: site, domain: SiteMatcher.domain(of: site),
            addresses: SiteMatcher.addressPattern(of: site), minutes: box.minutes, extended: box.extended,
            end: box.end, noticeAt: box.noticeAt, noticeUntil: box.noticeUntil, declaredMinutes: box.declaredMinutes,
            choices: box.offeredChoices, extendLabel: Timebox.extendLabel)
    }

    /// A listed site as the extension matches it, by `SiteMatcher`'s rule.
    static func siteRule(_ site: String) -> HostToExtension.SiteRule {
        HostToExtension.SiteRule(site: site, domain: SiteMatcher.domain(of: site), addresses: SiteMatcher.addressPattern(of: site),
                                 path: SiteMatcher.path(of: site))
    }
}
