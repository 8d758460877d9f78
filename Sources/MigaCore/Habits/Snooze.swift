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
    public static let gateName = "snooze"

    /// Unix ms.
    public var until: Int64
    /// App names (a site by its app name); empty means every gate.
    public var apps: [String]

    public init(until: Int64, apps: [String]) {
        self.until = until
        self.apps = apps
    }

    public static func path(_ paths: MigaPaths) -> String { paths.stateDirectory + "/snooze.json" }

    /// The snooze running at `now`, if any.
    public static func active(paths: MigaPaths, nowMilliseconds now: Int64) -> Snooze? {
        guard let data = AtomicFile.read(path(paths)), data.count <= 64 * 1024,
              let value = try? JSONValue.parse(String(decoding: data, as: UTF8.self)),
              let until = value["until"]?.integer, until > now,
              until <= now + Int64(minutes.upperBound) * 60_000 + 60_000 // a far-future time is not believed
        else { return nil }
        var apps: [String] = []
        if case .array(let names)? = value["apps"], !names.isEmpty {
            apps = names.compactMap(\.string).filter(MigaConfig.isValidAppName)
            guard !apps.isEmpty else { return nil } // named only what is no app: not "every gate"
        }
        return Snooze(until: until, apps: apps)
    }

    /// Whether this snooze lets `app`'s gate pass.
    public func covers(_ app: String) -> Bool {
        app != Self.gateName && (apps.isEmpty || apps.contains(app))
    }

    public func save(paths: MigaPaths) throws {
        try LinuxSystem.makeDirectories(paths.stateDirectory, mode: 0o700)
        let json = OrderedJSON.object([("until", .int(until)), ("apps", .array(apps.map(OrderedJSON.string)))])
        try AtomicFile.write(json.text + "\n", to: Self.path(paths), mode: 0o600)
    }

    /// Ends a snooze now; true if one was running.
    @discardableResult
    public static func end(paths: MigaPaths, nowMilliseconds now: Int64) throws -> Bool {
        let running = active(paths: paths, nowMilliseconds: now) != nil
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

    public var description: String {
        switch self {
        case .notADuration(let text):
            return "\"\(TerminalText.excerpt(text))\" is not a duration; give minutes or hours, like 20m, 1h or 1h30m"
        case .outOfRange(let text):
            return "a snooze lasts 5 minutes to 4 hours, not \(TerminalText.excerpt(text)); `miga snooze 20m` snoozes every gate for 20 minutes"
        case .unknownName(let name):
            return "\"\(TerminalText.excerpt(name))\" is neither a gated app nor a gated site; see `miga config apps list` and `miga config sites list`"
        }
    }
}
