import FoundationEssentials
import JSON

// The host's half of the browser protocol (see BrowserProtocol.swift): every message the host
// sends, encoded here and nowhere else.

/// A message from the host: the reply to a request (same `type`, same `id`), or `state`
/// pushed unasked when config.toml changes.
public enum HostToExtension: Sendable {
    case state(State)
    /// The answer to `gate`: go straight on, or a gate to show.
    case gate(GateAnswer)
    /// The answer to `resume`: the gate, as it stands.
    case resume(Gate)
    case next(item: Item)
    case completed
    /// Exit: the celebration's line, and the alternative chosen, as the page goes on with it.
    case exit(message: String, alternative: ChosenAlternative?)
    /// Open: the grace it started (Unix ms) and, when it said how long, its timebox.
    case open(site: String, graceUntil: Int64?, timebox: Timebox?)
    /// A soft end recorded: the grace as it now is and, after "5 more minutes", the timebox.
    case timeboxEnd(graceUntil: Int64?, timebox: Timebox?)
    case abandon
    case gracePass(recorded: Bool)
    case schedulePass(recorded: Bool)
    case stats(Stats)
    /// The answer to `reentry`: whether the tab come back to meets a gate (`action` `gate` or
    /// `go`), and its site (as listed; nil for an address of no gated site).
    case reentry(gate: Bool, site: String?)
    /// The answer to `focus`: the site's focused minutes today and, once a day when they reach
    /// its `minutes_per_day`, the soft end to show.
    case focus(Focus)
    case budgetEnd(recorded: Bool)
    /// A request that failed; its page fails open at once (but for a locked Open, which says
    /// how long is left, and a typed sentence that was not the one asked).
    case error(String, secondsLeft: Int? = nil, challengeFailed: Bool = false)

    /// Every message's `type`, in the order `PROTOCOL.fromHost` lists them.
    public enum Kind: String, CaseIterable, Sendable {
        case state, gate, resume, next, completed, exit, open
        case timeboxEnd = "timebox_end"
        case abandon
        case gracePass = "grace_pass"
        case schedulePass = "schedule_pass"
        case stats, error, reentry, focus
        case budgetEnd = "budget_end"
    }

    public var kind: Kind {
        switch self {
        case .state: return .state
        case .gate: return .gate
        case .resume: return .resume
        case .next: return .next
        case .completed: return .completed
        case .exit: return .exit
        case .open: return .open
        case .timeboxEnd: return .timeboxEnd
        case .abandon: return .abandon
        case .gracePass: return .gracePass
        case .schedulePass: return .schedulePass
        case .stats: return .stats
        case .error: return .error
        case .reentry: return .reentry
        case .focus: return .focus
        case .budgetEnd: return .budgetEnd
        }
    }

    /// The setup: whether miga gates now and why not, the sites with the addresses each
    /// covers, what lets a site in now, the running timeboxes, and the settings the page uses.
    public struct State: Sendable {
        public var version: String
        public var gating: Bool
        public var reason: String?
        public var message: String?
        /// Each site's grace (or snooze) end, and the end of its hours without a gate, Unix ms.
        public var grace: [(String, Int64)]
        public var ungated: [(String, Int64)]
        public var timeboxes: [Timebox]
        /// The sites the host gates, in the order they are matched (`SiteMatcher.orderedSites`).
        public var siteRules: [SiteRule]
        /// `ConfigKeys.state`: the settings the extension uses, `sites` among them.
        public var settings: [(String, OrderedJSON)]
        /// Seconds without input after which the person counts as idle (away): the browser's
        /// `idle` detection interval.
        public var idleSeconds: Int = NativeHostService.idleSeconds

    }

    /// A listed site as the extension matches it: `site` as listed (the key of `grace`,
    /// `ungated` and a timebox's `site`), `domain` for the browser's request rules, and
    /// `addresses`, a regular expression (the same in RE2 and ECMAScript) matching exactly
    /// the http(s) addresses `SiteMatcher.site(for:)` gives this site, whose group 1 is the
    /// whole address, matched without case for a whole host and with case when `path` is
    /// not "" (the path prefix a path site covers, `/shorts`). The rules come in the order
    /// `SiteMatcher` tries them: the first whose `addresses` match an address is its site.
    public struct SiteRule: Equatable, Sendable {
        public var site: String
        public var domain: String
        public var addresses: String
        public var path: String
    }

    /// A timebox as the extension times its soft end, decided here: when the notice shows
    /// (and the last moment it is still worth showing), when the end comes, the minutes the
    /// overlay names and the choices it offers.
    public struct Timebox: Equatable, Sendable {
        public var session: String
        public var site: String
        /// The site as the notice and overlay name it, and its addresses (`SiteRule.addresses`):
        /// the tabs it shows in, whatever the host says later.
        public var domain: String
        public var addresses: String
        /// The minutes the Open declared, and whether "5 more minutes" was given.
        public var minutes: Int
        public var extended: Bool
        /// Unix ms.
        public var end: Int64
        public var noticeAt: Int64
        public var noticeUntil: Int64
        /// The minutes the soft end says are up (with any extension).
        public var declaredMinutes: Int
        /// What the soft end offers, in order (`close`, `extend` while it may, `keep`), and
        /// what the extension's button says.
        public var choices: [String]
        public var extendLabel: String

    }

    public enum GateAnswer: Sendable {
        /// Straight on: miga gates nothing now (why, and the line to show), the address is no
        /// listed site's, its hours have no gate, a link `open-url` gated already, a grace.
        case goNotGating(reason: String?, message: String?)
        case goNotGated
        case goSchedule(site: String)
        case goHandedOver(site: String)
        case goGrace(site: String, until: Int64)
        case gate(Gate)
    }

    /// A gate as its page shows it, new or resumed.
    public struct Gate: Sendable {
        public var session: String
        public var site: String
        public var app: String
        public var timerSeconds: Int
        public var breathing: String
        public var animations: Bool
        public var item: Item
        public var notes: [String]
        public var intention: Bool
        public var openLabel: String
        /// "For how long?": its answers and the one Enter takes, when it is asked.
        public var minutes: (choices: [Int], defaultMinutes: Int)?
        public var alternatives: [(label: String, kind: String)]
        public var challenge: String?
        public var waitedMilliseconds: Int64

    }

    /// An item as the page shows it; its picture inline, as a data: URL, when it has one.
    public struct Item: Equatable, Sendable {
        public var id, kind, category, text: String
        public var author, title, image: String?
    }

    /// The alternative chosen at Exit: a link is the page's to open; a command was started
    /// (`launched`) or could not be (`problem`).
    public struct ChosenAlternative: Equatable, Sendable {
        public enum Action: Equatable, Sendable { case url(String), launched, problem(String) }
        public var label, kind: String
        public var action: Action
    }

    /// Today's counts for the popup, whether miga gates now, and a snooze that runs.
    public struct Stats: Sendable {
        public var exits, opens, reads, currentStreak, longestStreak: Int
        public var gating: Bool
        public var reason, message: String?
        public var snooze: (until: Int64, apps: [String])?
        /// Today's focused minutes on gated sites and apps.
        public var focusMinutes: Double = 0
    }

    /// A site's focused minutes today (`site` nil: the address was no gated site's, and
    /// nothing was recorded), and the budget's soft end when it is due.
    public struct Focus: Sendable {
        public var site: String?
        public var minutesToday: Double
        public var budgetEnd: BudgetEnd?
    }

    /// The daily budget's soft end as the overlay shows it: the budget's minutes, the line,
    /// and the choices (`DailyBudget.siteChoices`) with what their buttons say.
    public struct BudgetEnd: Sendable {
        public var site: String
        public var minutes: Int
        public var message: String
        public var choices: [(choice: String, label: String)]
    }

    /// The version of this protocol, sent in every state.
    public static let version = 1

    /// The message as sent, answering the request with `id` (null for one pushed unasked).
    public func json(id: OrderedJSON) -> OrderedJSON {
        .object([("type", .string(kind.rawValue)), ("id", id)] + members)
    }

    private var members: [(String, OrderedJSON)] {
        switch self {
        case .state(let state): return Self.members(state)
        case .gate(let answer): return Self.members(answer)
        case .resume(let gate): return Self.members(gate)
        case .next(let item): return [("item", item.json)]
        case .completed, .abandon: return []
        case .exit(let message, let alternative):
            return [("message", .string(message))] + (alternative.map { [("alternative", $0.json)] } ?? [])
        case .open(let site, let graceUntil, let timebox):
            return [("site", .string(site)), ("grace_until", graceUntil.map(OrderedJSON.int) ?? .null), ("timebox", timebox?.json ?? .null)]
        case .timeboxEnd(let graceUntil, let timebox):
            return [("recorded", .bool(true)), ("grace_until", graceUntil.map(OrderedJSON.int) ?? .null), ("timebox", timebox?.json ?? .null)]
        case .gracePass(let recorded), .schedulePass(let recorded): return [("recorded", .bool(recorded))]
        case .stats(let stats): return Self.members(stats)
        case .reentry(let gate, let site): return [("action", .string(gate ? "gate" : "go")), ("site", .optional(site))]
        case .focus(let focus):
            return [("site", .optional(focus.site)), ("minutes_today", .decimal(focus.minutesToday, places: 1)),
                    ("budget_end", focus.budgetEnd?.json ?? .null)]
        case .budgetEnd(let recorded): return [("recorded", .bool(recorded))]
        case .error(let message, let secondsLeft, let challengeFailed):
            var members: [(String, OrderedJSON)] = [("error", .string(message))]
            if let secondsLeft { members.append(("seconds_left", .int(secondsLeft))) }
            if challengeFailed { members.append(("challenge_failed", .bool(true))) }
            return members
        }
    }

    private static func members(_ state: State) -> [(String, OrderedJSON)] {
        [
            ("protocol", .int(version)), ("version", .string(state.version)),
            ("gating", .bool(state.gating)), ("reason", .optional(state.reason)), ("message", .optional(state.message)),
            ("grace", .object(state.grace.map { ($0.0, .int($0.1)) })), ("ungated", .object(state.ungated.map { ($0.0, .int($0.1)) })),
            ("timeboxes", .array(state.timeboxes.map(\.json))),
            ("site_rules", .array(state.siteRules.map {
                .object([("site", .string($0.site)), ("domain", .string($0.domain)), ("addresses", .string($0.addresses)), ("path", .string($0.path))])
            })),
            ("idle_seconds", .int(state.idleSeconds)),
        ] + state.settings
    }

    private static func members(_ answer: GateAnswer) -> [(String, OrderedJSON)] {
        switch answer {
        case .goNotGating(let reason, let message):
            return [("action", .string("go")), ("reason", .optional(reason)), ("message", .optional(message))]
        case .goNotGated: return [("action", .string("go")), ("reason", .string("not_gated"))]
        case .goSchedule(let site): return [("action", .string("go")), ("reason", .string("schedule")), ("site", .string(site))]
        case .goHandedOver(let site): return [("action", .string("go")), ("reason", .string("handed_over")), ("site", .string(site))]
        case .goGrace(let site, let until):
            return [("action", .string("go")), ("reason", .string("grace")), ("site", .string(site)), ("grace_until", .int(until))]
        case .gate(let gate): return members(gate)
        }
    }

    private static func members(_ gate: Gate) -> [(String, OrderedJSON)] {
        [
            ("action", .string("gate")), ("session", .string(gate.session)), ("site", .string(gate.site)), ("app", .string(gate.app)),
            ("timer_seconds", .int(gate.timerSeconds)), ("breathing", .string(gate.breathing)),
            ("animations", .bool(gate.animations)), ("item", gate.item.json),
            ("notes", .array(gate.notes.map(OrderedJSON.string))), ("intention", .bool(gate.intention)),
            ("open_label", .string(gate.openLabel)),
            ("minutes", gate.minutes.map { .object([("choices", .array($0.choices.map { .int($0) })), ("default", .int($0.defaultMinutes))]) }
                ?? .null),
            ("alternatives", .array(gate.alternatives.enumerated().map {
                .object([("index", .int($0.offset + 1)), ("label", .string($0.element.label)), ("kind", .string($0.element.kind))])
            })),
            ("challenge", .optional(gate.challenge)),
            ("waited_ms", .int(gate.waitedMilliseconds)),
        ]
    }

    private static func members(_ stats: Stats) -> [(String, OrderedJSON)] {
        [
            ("exits", .int(stats.exits)), ("opens", .int(stats.opens)), ("reads", .int(stats.reads)),
            ("streak", .object([("current", .int(stats.currentStreak)), ("longest", .int(stats.longestStreak))])),
            ("gating", .bool(stats.gating)), ("reason", .optional(stats.reason)), ("message", .optional(stats.message)),
            ("snooze", stats.snooze.map { .object([("until", .int($0.until)), ("apps", .array($0.apps.map(OrderedJSON.string)))]) } ?? .null),
            ("focus_minutes", .decimal(stats.focusMinutes, places: 1)),
        ]
    }
}

extension HostToExtension.Timebox {
    var json: OrderedJSON {
        .object([("session", .string(session)), ("site", .string(site)), ("domain", .string(domain)),
                 ("addresses", .string(addresses)), ("minutes", .int(minutes)),
                 ("end", .int(end)), ("extended", .bool(extended)), ("notice_at", .int(noticeAt)), ("notice_until", .int(noticeUntil)),
                 ("declared_minutes", .int(declaredMinutes)), ("choices", .array(choices.map(OrderedJSON.string))),
                 ("extend_label", .string(extendLabel))])
    }
}

extension HostToExtension.BudgetEnd {
    var json: OrderedJSON {
        .object([("site", .string(site)), ("minutes", .int(minutes)), ("message", .string(message)),
                 ("choices", .array(choices.map { .object([("choice", .string($0.choice)), ("label", .string($0.label))]) }))])
    }
}

extension HostToExtension.Item {
    var json: OrderedJSON {
        var members: [(String, OrderedJSON)] = [
            ("id", .string(id)), ("kind", .string(kind)), ("category", .string(category)),
            ("text", .string(text)), ("author", .optional(author)), ("title", .optional(title)),
        ]
        if let image { members.append(("image", .string(image))) }
        return .object(members)
    }
}

extension HostToExtension.ChosenAlternative {
    var json: OrderedJSON {
        var members: [(String, OrderedJSON)] = [("label", .string(label)), ("kind", .string(kind))]
        switch action {
        case .url(let url): members.append(("url", .string(url)))
        case .launched: members.append(("launched", .bool(true)))
        case .problem(let problem): members.append(("problem", .string(problem)))
        }
        return .object(members)
    }
}
