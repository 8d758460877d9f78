import FoundationEssentials
// fuzz/run.sh compiles this file and the JSON target's files as one module.
#if canImport(JSON)
import JSON
#endif

// What `miga native-host` and the browser extension say to each other: one JSON object per
// native message, `type` naming it and `id` pairing a reply with its request. Every message
// the extension may send is a case of `ExtensionToHost`, decoded here and nowhere else, field
// by field (nothing in it is trusted); every message the host sends is a case of
// `HostToExtension`, encoded in BrowserProtocol+Host.swift and nowhere else.
// `browser/protocol.js` is the extension's mirror of both (its `PROTOCOL` table), checked
// against these enums by `BrowserProtocolTests`. The host sends decisions, not inputs: which
// addresses a site covers, when a timebox's notice and end come and what its soft end offers
// are worked out by the rules in Swift, so the extension keeps no rule of its own.

/// A message from the extension.
public enum ExtensionToHost: Equatable, Sendable {
    /// The extension starting (`hello`) or asking again (`state`): answered with the state.
    case hello, state
    /// A gate page asking what to show for `url`; `reentry`: a gate over a tab come back to
    /// (its `session_start` says so).
    case gate(url: String, reentry: Bool = false)
    /// A gate page whose gate this host does not hold, asking to go on with it.
    case resume(session: String, url: String)
    case next(session: String)
    case completed(session: String)
    /// Exit, or "Do this instead" with the alternative's 1-based number (only one the gate showed).
    case exit(session: String, alternative: Int?)
    /// Open, with what the page asked: the typed sentence, the intention, the minutes.
    case open(session: String, challenge: String?, intention: String?, minutes: Int?)
    /// A soft end's choice (`close`, `extend`, `keep`, or `gone`: no tab of the site was left).
    case timeboxEnd(session: String, choice: String)
    case abandon(session: String)
    /// A navigation the extension let through during a grace, or hours without a gate.
    case gracePass(url: String)
    case schedulePass(url: String)
    case stats
    /// A tab of a gated site came to the front after `awaySeconds` not in front (nil: seen for
    /// the first time, which counts as a return): does it meet a gate? Records nothing.
    case reentry(url: String, awaySeconds: Int64?)
    /// Focused seconds (1–60) on the site of `url`: recorded as a `focus` event.
    case focus(url: String, seconds: Int)
    /// The daily budget's soft end answered (`close`, `keep`, or `gone`: no tab of the site was left).
    case budgetEnd(url: String, choice: String)

    /// Every message's `type`, in the order `PROTOCOL.toHost` lists them.
    public enum Kind: String, CaseIterable, Sendable {
        case hello, state, gate, resume, next, completed, exit, open
        case timeboxEnd = "timebox_end"
        case abandon
        case gracePass = "grace_pass"
        case schedulePass = "schedule_pass"
        case stats, reentry, focus
        case budgetEnd = "budget_end"
    }

    public var kind: Kind {
        switch self {
        case .hello: return .hello
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
        case .reentry: return .reentry
        case .focus: return .focus
        case .budgetEnd: return .budgetEnd
        }
    }

    /// Why a message was refused: the `error` reply's text.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        case notUTF8, notJSON(JSONValue.SyntaxError), notObject, noType, unknownType(String), badField(String)

        public var description: String {
            switch self {
            case .notUTF8: return "not UTF-8 JSON"
            case .notJSON(let error): return "\(error)"
            case .notObject: return "not a JSON object"
            case .noType: return "no \"type\""
            case .unknownType(let type): return "unknown message type \"\(TerminalText.visible(type))\""
            case .badField(let name): return "\"\(name)\" is missing or not valid"
            }
        }
    }

    /// Limits of the fields a message may carry (bytes); longer is invalid.
    static let urlLimit = 1 << 16, intentionLimit = 1 << 16, challengeLimit = 4096, choiceLimit = 16, typeLimit = 32
    /// The most "Do this instead" choices a gate shows (`Alternative.shownLimit`).
    static let alternativeRange: ClosedRange<Int64> = 1...3
    /// A `focus` message's seconds; the time away a `reentry` may say (a century at most).
    static let focusSecondsRange: ClosedRange<Int64> = 1...60
    static let awaySecondsRange: ClosedRange<Int64> = 0...3_155_760_000

    /// The message in `body` and the `id` to answer it with.
    public static func decode(_ body: Data) throws -> (message: ExtensionToHost, id: OrderedJSON) {
        // Said apart from JSON's own faults (too deep, a number out of range): those are valid UTF-8.
        guard String(validating: body, as: UTF8.self) != nil else { throw Problem.notUTF8 }
        let value: JSONValue
        do {
            value = try JSONValue.parse(body)
        } catch let error as JSONValue.SyntaxError {
            throw Problem.notJSON(error)
        }
        guard let object = value.object else { throw Problem.notObject }
        let id = Self.id(object["id"])
        guard let type = object["type"]?.string, !type.isEmpty, type.utf8.count <= typeLimit else { throw Problem.noType }
        guard let kind = Kind(rawValue: type) else { throw Problem.unknownType(type) }
        return (try decode(kind, Fields(object)), id)
    }

    /// One message of `kind` from its fields. A required field that is missing or invalid
    /// refuses the message; an optional one that is invalid (out of range, too long, of the
    /// wrong type) is taken as absent.
    private static func decode(_ kind: Kind, _ fields: Fields) throws -> ExtensionToHost {
        switch kind {
        case .hello: return .hello
        case .state: return .state
        case .stats: return .stats
        case .gate: return .gate(url: try fields.url(), reentry: fields.flag("reentry"))
        case .resume:
            let url = try fields.url()
            return .resume(session: try fields.session(), url: url)
        case .next: return .next(session: try fields.session())
        case .completed: return .completed(session: try fields.session())
        case .abandon: return .abandon(session: try fields.session())
        case .exit:
            return .exit(session: try fields.session(), alternative: fields.values["alternative"]?.integer(in: alternativeRange).map { Int($0) })
        case .open:
            return .open(session: try fields.session(), challenge: fields.string("challenge", limit: challengeLimit),
                         intention: fields.string("intention", limit: intentionLimit),
                         minutes: fields.values["minutes"]?.integer.map { Int(clamping: $0) })
        case .timeboxEnd:
            let session = try fields.session()
            guard let choice = fields.string("choice", limit: choiceLimit) else { throw Problem.badField("choice") }
            return .timeboxEnd(session: session, choice: choice)
        case .gracePass: return .gracePass(url: try fields.url())
        case .schedulePass: return .schedulePass(url: try fields.url())
        case .reentry:
            return .reentry(url: try fields.url(), awaySeconds: fields.values["away_seconds"]?.integer(in: awaySecondsRange))
        case .focus:
            let url = try fields.url()
            guard let seconds = fields.values["seconds"]?.integer(in: focusSecondsRange) else { throw Problem.badField("seconds") }
            return .focus(url: url, seconds: Int(seconds))
        case .budgetEnd:
            let url = try fields.url()
            // Which choices there are is the host's (`DailyBudget`): an unknown one is answered there.
            guard let choice = fields.string("choice", limit: choiceLimit) else { throw Problem.badField("choice") }
            return .budgetEnd(url: url, choice: choice)
        }
    }

    private struct Fields {
        let values: [String: JSONValue]
        init(_ values: [String: JSONValue]) { self.values = values }

        /// A non-empty string field of at most `limit` bytes, or nil.
        func string(_ name: String, limit: Int) -> String? {
            guard let text = values[name]?.string, !text.isEmpty, text.utf8.count <= limit else { return nil }
            return text
        }

        /// A flag that is on only when it is `true` itself.
        func flag(_ name: String) -> Bool {
            if case .bool(true)? = values[name] { return true }
            return false
        }

        func url() throws -> String {
            guard let url = string("url", limit: ExtensionToHost.urlLimit) else { throw Problem.badField("url") }
            return url
        }

        /// A session id the host gave out.
        func session() throws -> String {
            guard let text = string("session", limit: 64), ExtensionToHost.isSession(text) else { throw Problem.badField("session") }
            return text
        }
    }

    /// Echoed in the reply so the extension can pair them: a short string or an integer a
    /// browser's JSON keeps exactly (±2^53); anything else is null.
    public static func id(_ value: JSONValue?) -> OrderedJSON {
        if let text = value?.string, text.utf8.count <= 64 { return .string(text) }
        // Compared, not abs()'d: abs(Int64.min) traps.
        if let integer = value?.integer, integer > -9_007_199_254_740_992, integer < 9_007_199_254_740_992 { return .int(integer) }
        return .null
    }

    /// Hexadecimal digits and hyphens, at most 64: the form of the session ids gates give out.
    public static func isSession(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64 && text.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) || $0 == 45 }
    }

    /// The message as the extension sends it (what `protocol.js`'s `request` builds); for tests
    /// and the mirror check.
    public func json(id: OrderedJSON) -> OrderedJSON {
        var members: [(String, OrderedJSON)] = [("type", .string(kind.rawValue))]
        switch self {
        case .hello, .state, .stats: break
        case .gate(let url, let reentry):
            members.append(("url", .string(url)))
            if reentry { members.append(("reentry", .bool(true))) }
        case .gracePass(let url), .schedulePass(let url): members.append(("url", .string(url)))
        case .reentry(let url, let away):
            members.append(("url", .string(url)))
            if let away { members.append(("away_seconds", .int(away))) }
        case .focus(let url, let seconds): members += [("url", .string(url)), ("seconds", .int(seconds))]
        case .budgetEnd(let url, let choice): members += [("url", .string(url)), ("choice", .string(choice))]
        case .resume(let session, let url): members += [("session", .string(session)), ("url", .string(url))]
        case .next(let session), .completed(let session), .abandon(let session): members.append(("session", .string(session)))
        case .exit(let session, let alternative):
            members.append(("session", .string(session)))
            if let alternative { members.append(("alternative", .int(alternative))) }
        case .open(let session, let challenge, let intention, let minutes):
            members.append(("session", .string(session)))
            if let challenge { members.append(("challenge", .string(challenge))) }
            if let intention { members.append(("intention", .string(intention))) }
            if let minutes { members.append(("minutes", .int(minutes))) }
        case .timeboxEnd(let session, let choice): members += [("session", .string(session)), ("choice", .string(choice))]
        }
        return .object(members + [("id", id)])
    }
}
