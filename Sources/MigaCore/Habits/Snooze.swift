import FoundationEssentials
import JSON

/// `miga snooze`: every gate (or the named apps' and sites') passes until a time, then the
/// gates are back by themselves (DESIGN "Time and friction"). Kept in the state folder as
/// `snooze.json`, `{"until":UNIX_MS,"apps":[…]}`; a file that cannot be read is no snooze,
/// so a broken one only ever means a gate, never a gate skipped for ever.
public struct Snooze: Equatable, Sendable {
    /// 5 minutes to 4 hours.
    public static let minutes = 5...240
    /// The app name a snooze's own gate goes by; a snooze never covers it.
    public static let gateName = Event.snoozePauseApp

    /// Unix ms.
    public var until: Int64
    /// App names (a site by its app name); empty means every gate.
    public var apps: [String]
    /// When it starts (Unix ms): a snooze is a loosening, so with `loosen_delay_minutes` it
    /// waits that long after its Open. nil: at once.
    public var from: Int64?
    /// When its Open asked for it, for a snooze that waits.
    public var requested: Int64?

    public init(until: Int64, apps: [String], from: Int64? = nil, requested: Int64? = nil) {
        self.until = until
        self.apps = apps
        self.from = from
        self.requested = requested
    }

    public static func path(_ paths: MigaPaths) -> String { paths.stateDirectory + "/snooze.json" }

    /// The snooze running at `now`, if any.
    public static func active(paths: MigaPaths, nowMilliseconds now: Int64) -> Snooze? {
        guard let snooze = read(paths: paths, nowMilliseconds: now), (snooze.from ?? now) <= now, snooze.until > now else { return nil }
        return snooze
    }

    /// A snooze asked for but still waiting out `loosen_delay_minutes`, if any.
    public static func waiting(paths: MigaPaths, nowMilliseconds now: Int64) -> Snooze? {
        guard let snooze = read(paths: paths, nowMilliseconds: now), let from = snooze.from, from > now else { return nil }
        return snooze
    }

    /// A waiting snooze as the other waiting loosenings are listed.
    public var asPending: Loosening.Pending? {
        guard let from else { return nil }
        return Loosening.Pending(setting: .snooze, from: "off", to: "\((until - from) / 60_000) min"
                                 + (apps.isEmpty ? "" : " of " + apps.joined(separator: ", ")), since: requested ?? from, applies: from)
    }

    /// Drops a waiting snooze; true if there was one (a running one is `--off`'s).
    public static func cancelWaiting(paths: MigaPaths, nowMilliseconds now: Int64) -> Bool {
        guard waiting(paths: paths, nowMilliseconds: now) != nil else { return false }
        try? AtomicFile.remove(path(paths))
        return true
    }

    /// The file as a snooze, running or waiting; nil for one that cannot be believed.
    static func read(paths: MigaPaths, nowMilliseconds now: Int64) -> Snooze? {
        let span = Int64(minutes.upperBound) * 60_000 + 60_000
        let wait = Int64(MigaConfig.loosenDelayRange.upperBound) * 60_000 + 60_000
        guard let data = AtomicFile.read(path(paths)), data.count <= 64 * 1024,
              let value = try? JSONValue.parse(String(decoding: data, as: UTF8.self)),
              let until = value["until"]?.unixMilliseconds else { return nil }
        // Times no clock of miga's could have written (Int64.min, the year 30000) are absent:
        // a snooze with such an `until` is none; such a `from` or `requested`, no snooze either.
        let from = value["from"].map(\.unixMilliseconds)
        if case .some(nil) = from { return nil }
        let requested = value["requested"].map(\.unixMilliseconds)
        if case .some(nil) = requested { return nil }
        // A far-future time is not believed: a snooze is at most 4 hours, after at most a week's wait.
        if let from = from ?? nil {
            guard from <= now + wait, until > from, until - from <= span else { return nil }
        } else {
            guard until <= now + span else { return nil }
        }
        var apps: [String] = []
        if case .array(let names)? = value["apps"], !names.isEmpty {
            apps = names.compactMap(\.string).filter(MigaConfig.isValidGateName)
            guard !apps.isEmpty else { return nil } // named only what is no app: not "every gate"
        }
        return Snooze(until: until, apps: apps, from: from ?? nil, requested: requested ?? nil)
    }

    /// Whether this snooze lets `app`'s gate pass.
    public func covers(_ app: String) -> Bool {
        app != Self.gateName && (apps.isEmpty || apps.contains(app))
    }

    public func save(paths: MigaPaths, files: any FileService = SystemFiles()) throws {
        try files.makeDirectories(paths.stateDirectory, mode: 0o700)
        var members: [(String, OrderedJSON)] = [("until", .int(until)), ("apps", .array(apps.map(OrderedJSON.string)))]
        if let from { members.append(("from", .int(from))) }
        if let requested { members.append(("requested", .int(requested))) }
        let json = OrderedJSON.object(members)
        try AtomicFile.write(json.text + "\n", to: Self.path(paths), mode: 0o600)
    }

    /// Ends a snooze now, or drops one still waiting; true if there was one.
    @discardableResult
    public static func end(paths: MigaPaths, nowMilliseconds now: Int64) throws -> Bool {
        let running = active(paths: paths, nowMilliseconds: now) != nil || waiting(paths: paths, nowMilliseconds: now) != nil
        try AtomicFile.remove(path(paths))
        return running
    }

    /// "20m", "1h", "1h30m", "90" (minutes): the minutes, or why not, in words that say what
    /// to type.
    public static func minutes(from text: String) -> Result<Int, SnoozeError> {
        let trimmed = text.trimming(.whitespaces).lowercased()
        var total = 0, number = 0, digits = 0, sawUnit = false
        for character in trimmed {
            if let digit = character.wholeNumberValue, character.isASCII {
                guard digits < 6 else { return .failure(.notADuration(text)) }
                number = number * 10 + digit
                digits += 1
            } else if character == "h" || character == "m", digits > 0 {
                total += character == "h" ? number * 60 : number
                number = 0
                digits = 0
                sawUnit = true
            } else {
                return .failure(.notADuration(text))
            }
        }
        if digits > 0 { total += number } else if !sawUnit { return .failure(.notADuration(text)) }
        guard minutes.contains(total) else { return .failure(.outOfRange(text)) }
        return .success(total)
    }
}

public enum SnoozeError: Error, CustomStringConvertible, Equatable {
    case notADuration(String)
    case outOfRange(String)
    case unknownName(String)
    /// Its pause could not be shown (no terminal and no window): no snooze.
    case noPause(String)

    public var description: String {
        switch self {
        case .notADuration(let text):
            return "\"\(TerminalText.excerpt(text))\" is not a duration; give minutes or hours, like 20m, 1h or 1h30m"
        case .outOfRange(let text):
            return "a snooze lasts 5 minutes to 4 hours, not \(TerminalText.excerpt(text)); `miga snooze 20m` snoozes every gate for 20 minutes"
        case .unknownName(let name):
            return "\"\(TerminalText.excerpt(name))\" is neither a gated app nor a gated site; see `miga config apps list` and `miga config sites list`"
        case .noPause(let problem):
            return "nothing was snoozed: a snooze starts only after its pause, which could not be shown (\(problem)); run `miga snooze` in a terminal"
        }
    }
}
