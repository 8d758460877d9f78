/// The keys of `config.toml` as `miga config get/set` and the editor name them
/// (`timer_seconds`, `apps.discord.timer_seconds`), with the same checks the loader applies.
public struct ConfigKeyPath: Equatable, Sendable {
    /// nil for a top-level key, else the app of `[apps.NAME]`.
    public var app: String?
    public var key: String

    public var table: [String]? { app.map { ["apps", $0] } }
    public var name: String { app.map { "apps.\($0).\(key)" } ?? key }
}

/// One key of `config.toml`: where it may be written, what it takes, and one line saying what
/// it does. `ConfigKeys.table` holds them all; `config get/set/show`, the editor (its `set`
/// and Tab completion), the shells' completions and `miga config --help` read it, and a test
/// holds the loader to it (every key it reads is here, and nothing else).
public struct ConfigKey: Sendable {
    public enum Scope: Sendable, Equatable {
        /// Top level only.
        case global
        /// In `[apps.NAME]` only.
        case app
        /// Top level, and per app in `[apps.NAME]`.
        case globalAndApp
    }

    public enum Kind: Sendable, Equatable {
        case integer(ClosedRange<Int>, unit: String)
        case flag
        case choice([String])
        /// Content kinds, by their category names.
        case categories
        /// Host names, normalised.
        case sites
        /// A program an app's shims run (`AppCheck`).
        case command
        case text
    }

    public let name: String
    public let scope: Scope
    public let kind: Kind
    public let doc: String

    /// How `--help` names it: with its range or choices.
    public var summary: String {
        switch kind {
        case .integer(let range, _): return "\(name) (\(range.lowerBound)–\(range.upperBound))"
        case .choice(let choices): return "\(name) (\(choices.joined(separator: ", ")))"
        default: return name
        }
    }
}

public enum ConfigKeys {
    /// Every key, in the order `show` and the help list them.
    public static let table: [ConfigKey] = [
        ConfigKey(name: "timer_seconds", scope: .globalAndApp, kind: .integer(MigaConfig.timerRange, unit: "seconds"),
                  doc: "the countdown before Open unlocks"),
        ConfigKey(name: "grace_minutes", scope: .global, kind: .integer(MigaConfig.graceRange, unit: "minutes"),
                  doc: "after an Open, how long the app or site opens without a pause"),
        ConfigKey(name: "categories", scope: .global, kind: .categories, doc: "what the gate shows: quotes, affirmations, articles"),
        ConfigKey(name: "breathing", scope: .global, kind: .choice(MigaConfig.Breathing.allCases.map(\.rawValue)),
                  doc: "the breathing guide beside the countdown"),
        ConfigKey(name: "animations", scope: .global, kind: .flag, doc: "the gate's small animations"),
        ConfigKey(name: "terminal", scope: .global, kind: .text, doc: "the terminal emulator for desktop launches (\"\" finds one)"),
        ConfigKey(name: "sites", scope: .global, kind: .sites, doc: "the sites links and the browser pause for"),
        ConfigKey(name: "intention", scope: .globalAndApp, kind: .flag, doc: "ask \"What are you here to do?\" before Open"),
        ConfigKey(name: "escalate_seconds", scope: .globalAndApp, kind: .integer(MigaConfig.escalateRange, unit: "seconds"),
                  doc: "each Open of an app today adds this to its timer"),
        ConfigKey(name: "weekly_summary", scope: .global, kind: .flag, doc: "a notification at the first gate of a week"),
        ConfigKey(name: "command", scope: .app, kind: .command, doc: "what the app's shims run"),
    ]

    public static let topLevel = table.filter { $0.scope != .app }.map(\.name)
    /// `command` first: it is what makes an app.
    public static let perApp = (table.filter { $0.scope == .app } + table.filter { $0.scope == .globalAndApp }).map(\.name)

    public static func key(named name: String) -> ConfigKey? { table.first { $0.name == name } }

    /// The keys as `--help` lists them.
    public static var helpSummary: String {
        "Keys: " + table.filter { $0.scope != .app }.map { "\($0.summary): \($0.doc)" }.joined(separator: "; ")
            + ". Per app, in [apps.NAME]: " + perApp.joined(separator: ", ") + "."
    }

    /// Every key that can be set now, for completion and suggestions.
    public static func all(in config: MigaConfig) -> [String] {
        topLevel + config.apps.keys.sorted().flatMap { app in perApp.map { "apps.\(app).\($0)" } }
    }

    public static func resolve(_ name: String, in config: MigaConfig) throws -> ConfigKeyPath {
        if topLevel.contains(name) { return ConfigKeyPath(app: nil, key: name) }
        if name.hasPrefix("apps.") {
            let rest = name.dropFirst("apps.".count)
            if let dot = rest.lastIndex(of: ".") {
                let app = String(rest[..<dot]), key = String(rest[rest.index(after: dot)...])
                guard config.apps[app] != nil else {
                    throw ConfigValueError.unknownApp(app, configured: config.apps.keys.sorted())
                }
                guard perApp.contains(key) else {
                    throw ConfigValueError.unknownKey(name, suggestion: suggestion(for: name, in: config))
                }
                return ConfigKeyPath(app: app, key: key)
            }
        }
        throw ConfigValueError.unknownKey(name, suggestion: suggestion(for: name, in: config))
    }

    /// The value as `get` prints it: plain text for scripts, lists one item per line.
    public static func display(_ path: ConfigKeyPath, in config: MigaConfig) -> String {
        if let app = path.app, let entry = config.apps[app] {
            switch path.key {
            case "command": return entry.command
            case "intention": return String(entry.intention ?? config.intention)
            case "escalate_seconds": return String(entry.escalateSeconds ?? config.escalateSeconds)
            default: return String(config.timerSeconds(for: app))
            }
        }
        switch path.key {
        case "timer_seconds": return String(config.timerSeconds)
        case "intention": return String(config.intention)
        case "escalate_seconds": return String(config.escalateSeconds)
        case "weekly_summary": return String(config.weeklySummary)
        case "grace_minutes": return String(config.graceMinutes)
        case "categories": return config.categories.map(\.categoryName).joined(separator: "\n")
        case "breathing": return config.breathing.rawValue
        case "animations": return String(config.animations)
        case "terminal": return config.terminal
        default: return config.sites.joined(separator: "\n")
        }
    }

    /// The value as TOML text, as `show` writes it.
    public static func toml(_ path: ConfigKeyPath, in config: MigaConfig) -> String {
        func array(_ items: [String]) -> String { "[" + items.map(ConfigEditor.string).joined(separator: ", ") + "]" }
        switch key(named: path.key)?.kind {
        case .categories?: return array(config.categories.map(\.categoryName))
        case .sites?: return array(config.sites)
        case .choice?, .command?, .text?: return ConfigEditor.string(display(path, in: config))
        default: return display(path, in: config)
        }
    }

    /// Checks `text` (as typed: `30`, `off`, `reddit.com, x.com`) for `path` and returns it as
    /// TOML text, or says exactly what is wrong.
    public static func tomlValue(_ text: String, for path: ConfigKeyPath) throws -> String {
        let trimmed = text.trimming(.whitespaces)
        func integer(_ range: ClosedRange<Int>, unit: String) throws -> String {
            guard let value = Int(trimmed) else { throw ConfigValueError.wrongType(path.name, expected: "a whole number of \(unit)") }
            guard range.contains(value) else { throw ConfigValueError.outOfRange(path.name, range) }
            return String(value)
        }
        func list() -> [String] {
            trimmed.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init).filter { !$0.isEmpty }
        }
        guard let key = key(named: path.key) else { throw ConfigValueError.unknownKey(path.name, suggestion: nil) }
        switch key.kind {
        case .integer(let range, let unit): return try integer(range, unit: unit)
        case .choice(let choices):
            guard choices.contains(trimmed) else { throw ConfigValueError.badChoice(path.name, choices: choices) }
            return ConfigEditor.string(trimmed)
        case .flag:
            switch trimmed.lowercased() {
            case "true", "on", "yes": return "true"
            case "false", "off", "no": return "false"
            default: throw ConfigValueError.wrongType(path.name, expected: "true or false")
            }
        case .categories:
            let items = list()
            guard !items.isEmpty else { throw ConfigValueError.wrongType(path.name, expected: "at least one of quotes, affirmations, articles") }
            for item in items where ContentKind(categoryName: item) == nil {
                throw ConfigValueError.badChoice("categories: \"\(item)\"", choices: ContentKind.allCases.map(\.categoryName))
            }
            return "[" + items.map(ConfigEditor.string).joined(separator: ", ") + "]"
        case .sites:
            var sites: [String] = []
            for item in list() {
                guard let site = SiteMatcher.normalizedSite(item) else { throw ConfigValueError.badSite(item) }
                if !sites.contains(site) { sites.append(site) }
            }
            return "[" + sites.map(ConfigEditor.string).joined(separator: ", ") + "]"
        case .command:
            if let problem = AppCheck.problem(withCommand: trimmed) { throw ConfigValueError.badCommand(path.name, problem: problem) }
            return ConfigEditor.string(trimmed)
        case .text: // terminal: any text, "" to discover
            return ConfigEditor.string(trimmed)
        }
    }

    static func suggestion(for name: String, in config: MigaConfig) -> String? {
        let candidates = all(in: config)
        return candidates.map { ($0, EditDistance.between(name.lowercased(), $0)) }
            .filter { $0.1 <= max(2, name.count / 3) || $0.0.hasPrefix(name) || name.hasPrefix($0.0) }
            .min { $0.1 < $1.1 }?.0
    }
}

/// A value `miga config set` (or the editor) will not write. Each names the key and the rule.
public enum ConfigValueError: Error, CustomStringConvertible, Equatable {
    case unknownKey(String, suggestion: String?)
    case unknownApp(String, configured: [String])
    case outOfRange(String, ClosedRange<Int>)
    case wrongType(String, expected: String)
    case badChoice(String, choices: [String])
    case badSite(String)
    case badCommand(String, problem: String)

    public var description: String {
        switch self {
        case .unknownKey(let key, let suggestion):
            return "unknown key \"\(key)\"" + (suggestion.map { "; did you mean \"\($0)\"?" } ?? "; see `miga config show` for the keys")
        case .unknownApp(let app, let configured):
            return "no app \"\(app)\" in the config (" + (configured.isEmpty ? "none yet" : configured.joined(separator: ", "))
                + "); add it with `miga config apps add \(app)`"
        case .outOfRange(let key, let range):
            return "\(key) must be between \(range.lowerBound) and \(range.upperBound)"
        case .wrongType(let key, let expected):
            return "\(key) must be \(expected)"
        case .badChoice(let key, let choices):
            return "\(key) must be one of \(choices.map { "\"\($0)\"" }.joined(separator: ", "))"
        case .badSite(let site):
            return "\"\(site)\" is not a host name; give sites like reddit.com"
        case .badCommand(let key, let problem):
            return "\(key): \(problem); \(AppCheck.commandAdvice)"
        }
    }
}
