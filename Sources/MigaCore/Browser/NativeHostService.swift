import FoundationEssentials

/// What `miga native-host` answers, one request at a time (see DESIGN "Browsers"). It keeps
/// the gates open in this browser profile in memory, measures their time on its own monotonic
/// clock (the page's word is not taken for how long someone waited), and records their events
/// as the terminal gate does, with app = the site.
public final class NativeHostService {
    public static let protocolVersion = 1
    /// Gates a page may keep open at once; a page that opens more loses its oldest.
    static let sessionLimit = 64
    /// A page starts its countdown after the host's reply, so its end comes a little after the
    /// host's; this much early is still taken as the end.
    static let lockSlackMilliseconds = 500

    struct Gate {
        var app: String
        /// The entry of `sites` it belongs to, as the extension knows it.
        var site: String
        var timerSeconds: Int
        var startedAt: UInt64
        var itemID: String
        var completed = false
        /// `intention = true`: the page asks before Open, and the answer comes with `open`.
        var asksIntention = false
    }

    private let context: MigaContext
    private var gates: [String: Gate] = [:]
    private var gateOrder: [String] = []
    private var storeCache: EventStore?

    public init(context: MigaContext) {
        self.context = context
    }

    /// The reply to one message (its JSON, unframed). Never throws: a bad request gets an
    /// `error` reply naming what was wrong.
    public func reply(to body: Data) -> Data {
        let reply: HostJSON
        do {
            let request = try HostRequest(body)
            reply = try answer(request)
        } catch let problem as HostRequest.Problem {
            reply = Self.error("\(problem)", id: HostRequest.id((try? JSONValue.parse(body))?["id"]))
        } catch let error as ReplyError {
            reply = Self.error(error.message, id: error.id, extra: error.extra)
        } catch {
            reply = Self.error("\(error)", id: .null)
        }
        let data = Data(reply.text.utf8)
        guard data.count <= NativeMessageFraming.outgoingLimit else {
            return Data(Self.error("reply too long", id: .null).text.utf8)
        }
        return data
    }

    /// The setup message, also pushed unasked when config.toml changes.
    public func state(id: HostJSON = .null) -> HostJSON {
        let setup = BrowserSetup.load(context: context)
        var grace: [(String, HostJSON)] = []
        if setup.gating, let store = try? store() {
            let now = context.clock.now()
            for site in setup.matcher.sites {
                if let until = setup.graceUntil(site: site, store: store, now: now) { grace.append((site, .int(until))) }
            }
        }
        return .object([
            ("type", .string("state")), ("id", id), ("protocol", .int(Self.protocolVersion)),
            ("version", .string(MigaVersion.current)),
            ("gating", .bool(setup.gating)), ("reason", .optional(setup.reason)), ("message", .optional(setup.message)),
            ("sites", .array(setup.matcher.sites.map(HostJSON.string))),
            ("grace", .object(grace)),
            ("timer_seconds", .int(setup.config.timerSeconds)),
            ("grace_minutes", .int(setup.config.graceMinutes)),
            ("breathing", .string(setup.config.breathing.rawValue)),
            ("animations", .bool(setup.config.animations)),
        ])
    }

    /// The browser went away: every gate still counting down was abandoned (closing a tab and
    /// quitting look the same from here).
    public func finish() {
        for session in gateOrder { _ = end(session, as: .abandoned) }
    }

    // MARK: - Requests

    private struct ReplyError: Error {
        var message: String
        var id: HostJSON
        var extra: [(String, HostJSON)] = []
    }

    private func answer(_ request: HostRequest) throws -> HostJSON {
        let id = request.id
        func reply(_ type: String, _ members: [(String, HostJSON)]) -> HostJSON {
            .object([("type", .string(type)), ("id", id)] + members)
        }
        func session() throws -> (String, Gate) {
            let session = try request.session()
            guard let gate = gates[session] else { throw ReplyError(message: "no such gate (it ended already)", id: id) }
            return (session, gate)
        }
        switch request.type {
        case "hello", "state":
            return state(id: id)

        case "gate":
            guard let url = request.string("url", limit: 1 << 16) else { throw HostRequest.Problem.badField("url") }
            return reply("gate", try startGate(url: url))

        case "next":
            let (session, gate) = try session()
            guard let item = try draw(excluding: gate.itemID, config: BrowserSetup.load(context: context).config) else { throw ReplyError(message: "no other content to show", id: id) }
            gates[session]?.itemID = item.id
            try record(.contentRead, app: gate.app, session: session, contentID: item.id)
            return reply("next", [("item", Self.json(item))])

        case "completed":
            let (session, gate) = try session()
            try complete(session, gate, id: id)
            return reply("completed", [])

        case "exit":
            let (session, _) = try session()
            try throwing(end(session, as: .exitSelected), id: id)
            let count = (try? store().exitCountInWeek(endingAt: context.clock.now())) ?? 1
            return reply("exit", [("message", .string(Celebration.message(exitsInLastSevenDays: count)))])

        case "open":
            let (session, gate) = try session()
            try complete(session, gate, id: id)
            // The answer to "What are you here to do?", cleaned and cut to 120 characters here:
            // the page's word is kept only as text.
            let intention = gate.asksIntention ? request.string("intention", limit: 1 << 16).flatMap(Intention.detail) : nil
            try throwing(end(session, as: .openSelected, detail: intention), id: id)
            let minutes = BrowserSetup.load(context: context).config.graceMinutes
            let until = minutes > 0 ? HostJSON.int(milliseconds(context.clock.now()) + Int64(minutes) * 60_000) : .null
            return reply("open", [("site", .string(gate.site)), ("grace_until", until)])

        case "abandon":
            let (session, _) = try session()
            try throwing(end(session, as: .abandoned), id: id)
            return reply("abandon", [])

        case "grace_pass":
            // A navigation the extension let through because grace was running: recorded only
            // when grace really is running, so a page cannot make up passes.
            guard let url = request.string("url", limit: 1 << 16) else { throw HostRequest.Problem.badField("url") }
            let setup = BrowserSetup.load(context: context)
            guard setup.gating, let site = setup.matcher.site(for: url),
                  setup.graceUntil(site: site, store: try store(), now: context.clock.now()) != nil else {
                return reply("grace_pass", [("recorded", .bool(false))])
            }
            try record(.gracePass, app: SiteMatcher.appName(site: site), session: Self.newSession())
            return reply("grace_pass", [("recorded", .bool(true))])

        case "stats":
            let setup = BrowserSetup.load(context: context)
            let now = context.clock.now()
            let today = CivilDay(unixMilliseconds: milliseconds(now), offsetMinutes: context.clock.utcOffsetMinutes(at: now))
            let existing = AtomicFile.exists(context.paths.database) ? try store() : nil
            let report = try StatsReport.build(store: existing, today: today, days: 1)
            return reply("stats", [
                ("exits", .int(report.exits)), ("opens", .int(report.opens)), ("reads", .int(report.reads)),
                ("streak", .object([("current", .int(report.streak.current)), ("longest", .int(report.streak.longest))])),
                ("gating", .bool(setup.gating)), ("reason", .optional(setup.reason)), ("message", .optional(setup.message)),
            ])

        default:
            throw ReplyError(message: "unknown message type \"\(TerminalText.visible(request.type))\"", id: id)
        }
    }

    /// A gate page asking what to show for `url`: go straight on (not gated, or grace), or a
    /// new gate with its first item.
    private func startGate(url: String) throws -> [(String, HostJSON)] {
        let setup = BrowserSetup.load(context: context)
        guard setup.gating else {
            return [("action", .string("go")), ("reason", .optional(setup.reason)), ("message", .optional(setup.message))]
        }
        guard let site = setup.matcher.site(for: url) else {
            return [("action", .string("go")), ("reason", .string("not_gated"))]
        }
        let app = SiteMatcher.appName(site: site)
        let store = try store()
        let key = setup.matcher.sites.first { SiteMatcher.appName(site: $0) == app } ?? site
        // As the gate does: hours without a gate first, then grace.
        let moment = LocalMoment(clock: context.clock)
        if let schedule = Schedule.matching(setup.config.schedules, app: app, at: moment), !schedule.gate {
            try record(.gatewaySkipped, app: app, session: Self.newSession(), detail: Event.reasonDetail("schedule"))
            return [("action", .string("go")), ("reason", .string("schedule")), ("site", .string(key))]
        }
        if let until = setup.graceUntil(site: site, store: store, now: context.clock.now()) {
            try record(.gracePass, app: app, session: Self.newSession())
            return [("action", .string("go")), ("reason", .string("grace")), ("site", .string(key)), ("grace_until", .int(until))]
        }
        guard let item = try draw(excluding: nil, config: setup.config) else {
            throw ReplyError(message: "no content to show", id: .null)
        }
        let history = (try? store.history(app: app, on: moment.day)) ?? AppHistory()
        let plan = GatePlan(config: setup.config, app: app, isSite: true, at: moment, history: history)
        let session = Self.newSession()
        let timer = plan.timerSeconds
        try record(.sessionStart, app: app, session: session, contentID: item.id)
        if gateOrder.count >= Self.sessionLimit { _ = end(gateOrder[0], as: .abandoned) }
        gates[session] = Gate(app: app, site: key, timerSeconds: timer, startedAt: context.clock.monotonicNanoseconds(),
                              itemID: item.id, asksIntention: plan.asksIntention)
        gateOrder.append(session)
        return [
            ("action", .string("gate")), ("session", .string(session)), ("site", .string(key)), ("app", .string(app)),
            ("timer_seconds", .int(timer)), ("breathing", .string(setup.config.breathing.rawValue)),
            ("animations", .bool(setup.config.animations)), ("item", Self.json(item)),
            ("notes", .array(plan.notes.map(HostJSON.string))), ("intention", .bool(plan.asksIntention)),
        ]
    }

    // MARK: - Helpers

    private func elapsedMilliseconds(_ gate: Gate) -> Int {
        Int((context.clock.monotonicNanoseconds() &- gate.startedAt) / 1_000_000)
    }

    private func unlocked(_ gate: Gate) -> Bool {
        elapsedMilliseconds(gate) + Self.lockSlackMilliseconds >= gate.timerSeconds * 1000
    }

    /// The countdown is over (on the host's clock): `gateway_completed`, once per gate.
    private func complete(_ session: String, _ gate: Gate, id: HostJSON) throws {
        guard unlocked(gate) else { throw locked(gate, id: id) }
        guard !gate.completed else { return }
        gates[session]?.completed = true
        try record(.gatewayCompleted, app: gate.app, session: session)
    }

    private func locked(_ gate: Gate, id: HostJSON) -> ReplyError {
        let left = max(1, (gate.timerSeconds * 1000 - elapsedMilliseconds(gate) + 999) / 1000)
        return ReplyError(message: "Open unlocks in \(left) s", id: id, extra: [("seconds_left", .int(left))])
    }

    /// Ends a gate with its choice; the problem recording it, if any.
    private func end(_ session: String, as type: EventType, detail: String? = nil) -> String? {
        guard let gate = gates.removeValue(forKey: session) else { return nil }
        gateOrder.removeAll { $0 == session }
        do {
            try record(type, app: gate.app, session: session, waitMilliseconds: elapsedMilliseconds(gate), detail: detail)
            return nil
        } catch {
            return "\(error)"
        }
    }

    private func throwing(_ problem: String?, id: HostJSON) throws {
        if let problem { throw ReplyError(message: "could not record the choice: \(problem)", id: id) }
    }

    private func store() throws -> EventStore {
        if let storeCache { return storeCache }
        let store = try EventStore(paths: context.paths)
        storeCache = store
        return store
    }

    private func draw(excluding current: String?, config: MigaConfig) throws -> ContentItem? {
        let library = try ContentLibrary.load(userFolder: context.paths.userContentDirectory) {
            context.messages.say("miga: warning: \($0)")
        }
        var candidates = library.items(kinds: config.categories).map(\.id)
        if candidates.isEmpty { candidates = library.items.map(\.id) }
        var generator = SystemRandomNumberGenerator()
        let store = try store()
        // The shuffle bag never repeats the last item it gave, so one more draw suffices.
        for _ in 0..<2 {
            guard let id = try store.drawContent(from: candidates, using: &generator), let item = library.item(id: id) else { return nil }
            if id != current || candidates.count < 2 { return item }
        }
        return nil
    }

    private func record(_ type: EventType, app: String, session: String, contentID: String? = nil,
                        waitMilliseconds: Int? = nil, detail: String? = nil) throws {
        let now = context.clock.now()
        try store().record(Event(timestamp: milliseconds(now), utcOffsetMinutes: context.clock.utcOffsetMinutes(at: now),
                                 session: session, type: type, app: app, contentID: contentID,
                                 waitMilliseconds: waitMilliseconds, detail: detail))
    }

    private func milliseconds(_ date: Date) -> Int64 { UnixTime.clampedMilliseconds(date, rounding: .toNearestOrAwayFromZero) }

    static func newSession() -> String { UUID().uuidString.lowercased() }

    static func json(_ item: ContentItem) -> HostJSON {
        .object([("id", .string(item.id)), ("kind", .string(item.kind.rawValue)), ("category", .string(item.category)),
                 ("text", .string(item.text)), ("author", .optional(item.author)), ("title", .optional(item.title))])
    }

    static func error(_ message: String, id: HostJSON, extra: [(String, HostJSON)] = []) -> HostJSON {
        .object([("type", .string("error")), ("id", id), ("error", .string(message))] + extra)
    }
}
