import FoundationEssentials
import JSON

/// What `miga native-host` answers, one request at a time (see DESIGN "Browsers"). It keeps
/// the gates open in this browser profile in memory, as the terminal's are kept: a
/// `GateSession` each, driven on the host's own monotonic clock (the page's word is not
/// taken for how long someone waited); whether a site is gated, the plan, the content, the
/// events (app = the site) and the celebration come from `GateService`, as for every gate.
public final class NativeHostService {
    public static let protocolVersion = 1
    /// Gates a page may keep open at once; a page that opens more loses its oldest.
    static let sessionLimit = 64
    /// A page starts its countdown after the host's reply, so its end comes a little after the
    /// host's; this much early is still taken as the end.
    static let lockSlackMilliseconds = 500

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

    private let context: MigaContext
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
            let request = try HostRequest(body)
            reply = answerOrError(request)
            // What this message recorded goes to the journal (sync_folder) off the host's path.
            if let storeCache, storeCache.journalBehind { GateService.BackgroundShare.start(store: storeCache, context: context, watched: false) }
        } catch {
            reply = Self.error("\(error)", id: HostRequest.id((try? JSONValue.parse(body))?["id"]))
        }
        let data = Data(reply.text.utf8)
        guard data.count <= NativeMessageFraming.outgoingLimit else {
            return Data(Self.error("reply too long", id: HostRequest.id((try? JSONValue.parse(body))?["id"])).text.utf8)
        }
        return data
    }

    /// The setup message, also pushed unasked when config.toml changes.
    public func state(id: OrderedJSON = .null) -> OrderedJSON {
        let setup = BrowserSetup.load(context: context)
        var grace: [(String, OrderedJSON)] = [], ungated: [(String, OrderedJSON)] = []
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
                if service.inGateFreeHours(app) { ungated.append((site, .int(nextMinute))) }
                // A snooze lets the site in as grace does, to its own end (the later of the two).
                let until = [service.graceUntil(app), service.snoozeUntil(app)].compactMap { $0 }.max()
                if let until { grace.append((site, .int(context.clock.milliseconds(until)))) }
            }
        }
        // The timeboxes of gated sites that are running or over and unanswered: the extension
        // times their soft ends from these, so a restart of it loses none.
        var timeboxes: [OrderedJSON] = []
        if setup.gating, let store = try? store() {
            let service = GateService(config: setup.config, store: store, context: context)
            // Only those a `timebox_end` can name (a session the host gives out, not any text an
            // import brought).
            for box in service.openTimeboxes() where HostRequest.isSession(box.session) {
                guard let site = setup.matcher.sites.first(where: { SiteMatcher.appName(site: $0) == box.app }) else { continue }
                timeboxes.append(Self.json(box, site: site))
            }
        }
        // The sites sent are those the host gates: the config's normalised, none while it gates nothing.
        var sent = setup.config
        sent.sites = setup.matcher.sites
        return .object([
            ("type", .string("state")), ("id", id), ("protocol", .int(Self.protocolVersion)),
            ("version", .string(MigaVersion.current)),
            ("gating", .bool(setup.gating)), ("reason", .optional(setup.reason)), ("message", .optional(setup.message)),
            ("grace", .object(grace)), ("ungated", .object(ungated)), ("timeboxes", .array(timeboxes)),
        ] + ConfigKeys.state(of: sent))
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

    // MARK: - Requests

    private struct ReplyError: Error {
        var message: String
        var extra: [(String, OrderedJSON)] = []
    }

    /// Every failure is answered with the request's id, so the page that asked fails open at
    /// once rather than waiting out its timeout.
    private func answerOrError(_ request: HostRequest) -> OrderedJSON {
        do {
            return try answer(request)
        } catch let error as ReplyError {
            return Self.error(error.message, id: request.id, extra: error.extra)
        } catch {
            return Self.error("\(error)", id: request.id)
        }
    }

    private func answer(_ request: HostRequest) throws -> OrderedJSON {
        let id = request.id
        func reply(_ type: String, _ members: [(String, OrderedJSON)]) -> OrderedJSON {
            .object([("type", .string(type)), ("id", id)] + members)
        }
        func session() throws -> (String, HostGate) {
            let session = try request.session()
            guard let gate = gates[session] else { throw ReplyError(message: Self.noSuchGate) }
            return (session, gate)
        }
        switch request.type {
        case "hello", "state":
            return state(id: id)

        case "gate":
            guard let url = request.string("url", limit: 1 << 16) else { throw HostRequest.Problem.badField("url") }
            return reply("gate", try startGate(url: url))

        case "resume":
            guard let url = request.string("url", limit: 1 << 16) else { throw HostRequest.Problem.badField("url") }
            return reply("resume", try resumeGate(try request.session(), url: url))

        case "next":
            let (_, gate) = try session()
            guard gate.readNext(at: context.clock.monotonicNanoseconds()) else { throw ReplyError(message: "no other content to show") }
            if let problem = gate.takeProblem() { throw ReplyError(message: problem) }
            return reply("next", [("item", json(gate.session.item))])

        case "completed":
            let (_, gate) = try session()
            try complete(gate)
            return reply("completed", [])

        case "exit":
            let (session, gate) = try session()
            let now = context.clock.monotonicNanoseconds()
            // "Do this instead": an Exit that opens the person's own choice (only one the gate
            // showed; the page's number is taken for nothing else).
            let number = request.fields["alternative"]?.integer(in: 1...Int64(Alternative.shownLimit)).map { Int($0) }
            if let number { gate.driver.chooseAlternative(number, at: now) }
            if gate.session.outcome == nil { gate.driver.choose(.exit, at: now) }
            try throwing(ended(session))
            let message = GateService.celebration(store: try store(), context: context)
            var members: [(String, OrderedJSON)] = [("message", .string(message))]
            if let chosen = gate.session.chosenAlternative {
                members.append(("alternative", try openAlternative(chosen, app: gate.session.app)))
            }
            return reply("exit", members)

        case "open":
            let (session, gate) = try session()
            try complete(gate)
            let now = context.clock.monotonicNanoseconds()
            gate.driver.choose(.open, at: now)
            // The typed challenge: exactly the sentence, or the page asks for it again.
            if gate.session.askingChallenge, !gate.driver.answerChallenge(request.string("challenge", limit: 4096) ?? "", at: now) {
                throw ReplyError(message: "type the sentence exactly to open", extra: [("challenge_failed", .bool(true))])
            }
            // The answer to "What are you here to do?", cleaned and cut to 120 characters by the
            // session: the page's word is kept only as text.
            if gate.session.askingIntention { gate.driver.answer(request.string("intention", limit: 1 << 16) ?? "", at: now) }
            // "For how long?": the page's number is taken only if it is one of the answers.
            if gate.session.askingMinutes { gate.driver.answerMinutes(request.fields["minutes"]?.integer.map { Int(clamping: $0) }, at: now) }
            try throwing(ended(session))
            // The grace this Open started, as every later gate will see it: `grace_minutes`,
            // or the minutes it declared.
            let service = GateService(config: BrowserSetup.load(context: context).config, store: try store(), context: context)
            let until = service.graceUntil(gate.session.app).map { OrderedJSON.int(context.clock.milliseconds($0)) } ?? .null
            let box = gate.session.chosenMinutes == nil ? nil : service.timebox(session: session)
            return reply("open", [("site", .string(gate.site)), ("grace_until", until),
                                  ("timebox", box.map { Self.json($0, site: gate.site) } ?? .null)])

        case "timebox_end":
            // The soft end's choice in a site's tabs (or `gone`: no tab of it was left).
            let session = try request.session()
            guard let choice = request.string("choice", limit: 16) else { throw HostRequest.Problem.badField("choice") }
            let setup = BrowserSetup.load(context: context)
            let service = GateService(config: setup.config, store: try store(), context: context)
            // Only a gated site's: the browser ends no app's timebox.
            guard setup.gating, let box = service.timebox(session: session),
                  let site = setup.matcher.sites.first(where: { SiteMatcher.appName(site: $0) == box.app }) else {
                throw ReplyError(message: "\(GateService.TimeboxProblem.notFound)")
            }
            do {
                let after = try service.endTimebox(box, choice: choice)
                let until = service.graceUntil(box.app).map { OrderedJSON.int(context.clock.milliseconds($0)) } ?? .null
                return reply("timebox_end", [("recorded", .bool(true)), ("grace_until", until),
                                             ("timebox", after.ending == nil ? Self.json(after, site: site) : .null)])
            } catch let problem as GateService.TimeboxProblem {
                throw ReplyError(message: "\(problem)")
            }

        case "abandon":
            let (session, _) = try session()
            try throwing(abandon(session))
            return reply("abandon", [])

        case "grace_pass", "schedule_pass":
            // A navigation the extension let through (grace, or hours without a gate): the gate
            // service admits it as any gate would and records the pass that applies; when none
            // does (a page making one up, a grace just ended), nothing is recorded.
            guard let url = request.string("url", limit: 1 << 16) else { throw HostRequest.Problem.badField("url") }
            let setup = BrowserSetup.load(context: context)
            guard setup.gating, let site = setup.matcher.site(for: url) else { return reply(request.type, [("recorded", .bool(false))]) }
            let app = SiteMatcher.appName(site: site)
            let service = GateService(config: setup.config, store: try store(), context: context)
            switch service.admit(app, isSite: true, recorder: GateRecorder(app: app, store: service.store, clock: context.clock)) {
            case .schedule, .grace, .snooze, .removed: return reply(request.type, [("recorded", .bool(true))])
            case .gate, .handedOver: return reply(request.type, [("recorded", .bool(false))])
            }

        case "stats":
            let setup = BrowserSetup.load(context: context)
            let today = LocalMoment(clock: context.clock).day
            let existing = AtomicFile.exists(context.paths.database) ? try store() : nil
            let report = try StatsReport.build(store: existing, today: today, days: 1)
            return reply("stats", [
                ("exits", .int(report.exits)), ("opens", .int(report.opens)), ("reads", .int(report.reads)),
                ("streak", .object([("current", .int(report.streak.current)), ("longest", .int(report.streak.longest))])),
                ("gating", .bool(setup.gating)), ("reason", .optional(setup.reason)), ("message", .optional(setup.message)),
                ("snooze", Snooze.active(paths: context.paths, nowMilliseconds: context.clock.nowMilliseconds()).map {
                    .object([("until", .int($0.until)), ("apps", .array($0.apps.map(OrderedJSON.string)))])
                } ?? .null),
            ])

        default:
            throw ReplyError(message: "unknown message type \"\(TerminalText.visible(request.type))\"")
        }
    }

    /// A gate page asking what to show for `url`: go straight on (not gated, or grace), or a
    /// new gate with its first item.
    private func startGate(url: String) throws -> [(String, OrderedJSON)] {
        let setup = BrowserSetup.load(context: context)
        guard setup.gating else {
            return [("action", .string("go")), ("reason", .optional(setup.reason)), ("message", .optional(setup.message))]
        }
        guard let site = setup.matcher.site(for: url) else {
            return [("action", .string("go")), ("reason", .string("not_gated"))]
        }
        let app = SiteMatcher.appName(site: site)
        let key = setup.matcher.sites.first { SiteMatcher.appName(site: $0) == app } ?? site
        let service = GateService(config: setup.config, store: try store(), context: context)
        let recorder = GateRecorder(app: app, store: service.store, clock: context.clock)
        let plan: GatePlan
        switch service.admit(app, isSite: true, takesHandedOver: true, recorder: recorder) {
        case .schedule, .removed:
            return [("action", .string("go")), ("reason", .string("schedule")), ("site", .string(key))]
        case .handedOver:
            return [("action", .string("go")), ("reason", .string("handed_over")), ("site", .string(key))]
        case .grace(let until), .snooze(let until):
            // The extension lets the site in until then either way; the state message it hears
            // when a snooze ends early takes that back.
            return [("action", .string("go")), ("reason", .string("grace")), ("site", .string(key)),
                    ("grace_until", .int(context.clock.milliseconds(until)))]
        case .gate(let gatePlan):
            plan = gatePlan
        }
        let content = try service.content()
        guard let item = content.draw() else { throw ReplyError(message: "no content to show") }
        let session = GateSession(app: app, plan: plan, item: item, startedAt: context.clock.monotonicNanoseconds(),
                                  earlyMilliseconds: Self.lockSlackMilliseconds)
        let gate = HostGate(session: session, site: key, recorder: recorder, content: content)
        gate.driver.start()
        if let problem = gate.takeProblem() { throw ReplyError(message: problem) }
        keep(gate, as: recorder.session)
        return describe(gate, as: recorder.session, config: setup.config)
    }

    /// A gate page whose gate this host does not hold (the host or the extension restarted
    /// while it was up) asking to go on: the same session, rebuilt from the store, with the time
    /// already waited kept: a restart neither resets the countdown nor skips it.
    private func resumeGate(_ session: String, url: String) throws -> [(String, OrderedJSON)] {
        let setup = BrowserSetup.load(context: context)
        guard setup.gating, let site = setup.matcher.site(for: url) else { throw ReplyError(message: Self.noSuchGate) }
        let app = SiteMatcher.appName(site: site)
        if let gate = gates[session], gate.session.app == app { return describe(gate, as: session, config: setup.config) }
        let service = GateService(config: setup.config, store: try store(), context: context)
        guard let resumption = service.resume(session: session, app: app, isSite: true) else { throw ReplyError(message: Self.noSuchGate) }
        let content = try service.content()
        guard let item = resumption.contentID.flatMap(content.library.item(id:)) ?? content.draw() else {
            throw ReplyError(message: "no content to show")
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
    private func describe(_ gate: HostGate, as session: String, config: MigaConfig) -> [(String, OrderedJSON)] {
        let now = context.clock.monotonicNanoseconds()
        return [
            ("action", .string("gate")), ("session", .string(session)), ("site", .string(gate.site)), ("app", .string(gate.session.app)),
            ("timer_seconds", .int(gate.session.timerSeconds)), ("breathing", .string(config.breathing.rawValue)),
            ("animations", .bool(config.animations)), ("item", json(gate.session.item)),
            ("notes", .array(gate.session.notes.map(OrderedJSON.string))), ("intention", .bool(gate.session.asksIntention)),
            ("open_label", .string(gate.session.openLabel)),
            ("minutes", gate.session.asksMinutes
                ? .object([("choices", .array(TimeboxQuestion.choices.map { .int($0) })), ("default", .int(gate.session.defaultMinutes))])
                : .null),
            ("alternatives", .array(config.alternatives.isEmpty ? [] : Alternative.shown(config.alternatives, app: gate.session.app)
                .enumerated().map { .object([("index", .int($0.offset + 1)), ("label", .string($0.element.label)),
                                             ("kind", .string($0.element.kind))]) })),
            ("challenge", .optional(gate.session.challenge)),
            ("waited_ms", .int(Int64(gate.session.elapsedMilliseconds(at: now)))),
        ]
    }

    /// The alternative chosen at a site's gate, as the page goes on with it: a link is the
    /// page's to open in its own tab (the browser is right here); a command is started now.
    private func openAlternative(_ number: Int, app: String) throws -> OrderedJSON {
        let service = GateService(config: BrowserSetup.load(context: context).config, store: try store(), context: context)
        guard let alternative = service.alternative(number, app: app) else { return .null }
        var members: [(String, OrderedJSON)] = [("label", .string(alternative.label)), ("kind", .string(alternative.kind))]
        switch alternative.action {
        case .url(let url): members.append(("url", .string(url)))
        case .command:
            if let problem = service.openAlternative(alternative, app: app) {
                members.append(("problem", .string(problem)))
            } else {
                members.append(("launched", .bool(true)))
            }
        }
        return .object(members)
    }

    // MARK: - Helpers

    /// The countdown is over (on the host's clock): `gateway_completed`, once per gate.
    private func complete(_ gate: HostGate) throws {
        let now = context.clock.monotonicNanoseconds()
        guard gate.session.isUnlocked(at: now) else {
            let left = max(1, gate.session.secondsLeft(at: now))
            throw ReplyError(message: "Open unlocks in \(left) s", extra: [("seconds_left", .int(left))])
        }
        gate.driver.tick(at: now)
        if let problem = gate.takeProblem() { throw ReplyError(message: problem) }
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
        if let problem { throw ReplyError(message: "could not record the choice: \(problem)") }
    }

    private func store() throws -> EventStore {
        if let storeCache { return storeCache }
        let store = try EventStore(paths: context.paths)
        storeCache = store
        return store
    }

    /// An item as the page shows it; its picture inline (`ContentImage.dataURL`), when it has
    /// one that can be shown.
    func json(_ item: ContentItem) -> OrderedJSON {
        var members: [(String, OrderedJSON)] = [
            ("id", .string(item.id)), ("kind", .string(item.kind.rawValue)), ("category", .string(item.category)),
            ("text", .string(item.text)), ("author", .optional(item.author)), ("title", .optional(item.title)),
        ]
        if let image = ContentImage.dataURL(of: item, environment: context.environment) { members.append(("image", .string(image))) }
        return .object(members)
    }

    /// A timebox as the extension times its soft end: Unix ms.
    static func json(_ box: Timebox, site: String) -> OrderedJSON {
        .object([("session", .string(box.session)), ("site", .string(site)), ("minutes", .int(box.minutes)),
                 ("end", .int(box.end)), ("extended", .bool(box.extended))])
    }

    static func error(_ message: String, id: OrderedJSON, extra: [(String, OrderedJSON)] = []) -> OrderedJSON {
        .object([("type", .string("error")), ("id", id), ("error", .string(message))] + extra)
    }
}
