import JSON
import TOML

/// The keys of `config.toml` as `miga config get/set` and the editor name them
/// (`timer_seconds`, `apps.discord.timer_seconds`), with the same checks the loader applies.
public struct ConfigKeyPath: Equatable, Sendable {
    /// nil for a top-level key, else the app of `[apps.NAME]`.
    public var app: String?
    public var key: String
    /// The site of `[site."NAME"]` (`site.reddit.com.ask_minutes`), for a site's own value.
    public var site: String?

    public init(app: String?, key: String, site: String? = nil) {
        self.app = app
        self.key = key
        self.site = site
    }

    public var table: [String]? { site.map { ["site", $0] } ?? app.map { ["apps", $0] } }
    public var name: String { site.map { "site.\($0).\(key)" } ?? app.map { "apps.\($0).\(key)" } ?? key }
}

/// One key of `config.toml`: what it takes, one line saying what it does, and how it is read,
/// shown and sent. `ConfigKeys.table` holds them all; the loader reads each key with its entry,
/// and `config get/set/show`, the editor (its `set` and Tab completion), the shells'
/// completions, `miga config --help` and the browser host's `state` message read it, so a new
/// key is one entry there and its field in `MigaConfig`.
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
        /// Some of these names, as a list (`extra_categories`): none is allowed.
        case someOf([String])
        /// A program an app's shims run (`AppCheck`).
        case command
        case text
        /// A folder's path: absolute or under `~/` (`SyncFolderSetting`), "" for none.
        case folder
    }

    /// Which way a change of the key loosens a rule (`loosen_delay_minutes` makes such a
    /// change wait); nil: neither way (how the gate looks, where content comes from).
    public enum Looser: Sendable, Equatable {
        /// A smaller number is looser (a shorter timer).
        case lower
        /// A larger number is looser (a longer grace).
        case higher
        /// An allowance: larger is looser, and 0 (none) loosest.
        case allowance
        /// A flag turned off, or a choice moved to the first of its choices (`off`).
        case off
        /// The wait itself (`loosen_delay_minutes`): a smaller number is looser, as `lower`;
        /// but where no record says what was settled, the delay written is the one waited
        /// (`strictest` keeps it: the longest would make every setting wait a week).
        case delay
    }

    public let name: String
    public let kind: Kind
    public let doc: String
    public let looser: Looser?
    /// Sets the key in the first config (and in its app entry, when `app` names one) to the
    /// second's value: a loosened value that must wait is put back so.
    let copyGlobal: (@Sendable (inout MigaConfig, MigaConfig) -> Void)?
    let copyApp: (@Sendable (inout MigaConfig.App, MigaConfig.App?) -> Void)?
    /// Reads the key's value (second: the key as messages name it) at the top level into the
    /// config, warning as the loader does. nil for a key only an app has.
    let readGlobal: (@Sendable (TOMLValue, String, inout MigaConfig, inout ConfigValueReader) -> Void)?
    /// Reads it in `[apps.NAME]`: the app with it read, or nil when the value leaves the app
    /// ungated. nil for a top-level key only.
    let readApp: (@Sendable (TOMLValue, String, MigaConfig.App, inout ConfigValueReader) -> MigaConfig.App?)?
    /// The value as `get` prints it: the config's, or an app's (its unset value the config's).
    let text: @Sendable (MigaConfig, MigaConfig.App?) -> String
    /// The value in the browser host's `state` message; nil for a key the extension has no use for.
    let state: (@Sendable (MigaConfig) -> OrderedJSON)?
    /// Whether an app sets the key itself (rather than taking the config's value).
    let setByApp: @Sendable (MigaConfig.App) -> Bool

    /// Where it may be written: where the loader reads it.
    public var scope: Scope {
        switch (readGlobal != nil, readApp != nil) {
        case (true, true): return .globalAndApp
        case (true, false): return .global
        default: return .app
        }
    }

    /// The value no change of the key could make stricter: what applies, until a wait ends,
    /// while no record says what was settled (`Loosening.strictest`). nil: kept as written (a
    /// key that loosens nothing, and the delay itself).
    var strictest: TOMLValue? {
        switch (looser, kind) {
        case (.lower?, .integer(let range, _)): return .integer(Int64(range.upperBound))
        case (.higher?, .integer(let range, _)): return .integer(Int64(range.lowerBound))
        // 0 is no allowance, the loosest; the smallest other is the fewest opens.
        case (.allowance?, .integer(let range, _)): return .integer(Int64(min(max(1, range.lowerBound), range.upperBound)))
        case (.off?, .flag): return .boolean(true)
        case (.off?, .choice(let choices)) where choices.count > 1: return choices.last.map(TOMLValue.string)
        default: return nil
        }
    }

    /// Sets the key to `strictest` in `config`, and in each app and site that sets it itself
    /// (the others take the global value).
    func tighten(_ config: inout MigaConfig) {
        guard let value = strictest else { return }
        var reader = ConfigValueReader(path: "")
        readGlobal?(value, name, &config, &reader)
        guard let readApp else { return }
        for (app, entry) in config.apps where setByApp(entry) { config.apps[app] = readApp(value, name, entry, &reader) ?? entry }
        for (site, entry) in config.siteSettings where setByApp(entry) {
            config.siteSettings[site] = readApp(value, name, entry, &reader) ?? entry
        }
    }

    /// How `--help` names it: with its range or choices.
    public var summary: String {
        switch kind {
        case .integer(let range, _): return "\(name) (\(range.lowerBound)–\(range.upperBound))"
        case .choice(let choices): return "\(name) (\(choices.joined(separator: ", ")))"
        case .someOf(let choices): return "\(name) (any of \(choices.joined(separator: ", ")))"
        default: return name
        }
    }
}

/// The entries, one maker per kind: each names where the value lives in `MigaConfig` (and in
/// `MigaConfig.App` when an app may set it too, unset there meaning the global value) and
/// takes its check, text and JSON from its kind, so no entry can read one way and show another.
extension ConfigKey {
    /// Sendable key paths (a literal such as `\.timerSeconds` is one): the `@Sendable`
    /// closures below capture them.
    typealias Global<Value> = WritableKeyPath<MigaConfig, Value> & Sendable
    typealias PerApp<Value> = WritableKeyPath<MigaConfig.App, Value?> & Sendable
    /// Checks a TOML value for a key (named as messages name it) that holds `current`; nil
    /// keeps `current`.
    typealias Check<Value> = @Sendable (TOMLValue, String, Value, inout ConfigValueReader) -> Value?

    /// Where a value lives: made only when a key is used, as key paths are. The runtime builds
    /// a key path object the first time its literal runs (some 23k instructions each), and the
    /// gate reads the table before its first frame: built from the literals at once, the table's
    /// thirty cost 0.7M of every gate; so each entry holds a closure that makes its key path,
    /// and only the keys a config.toml names make theirs (the runtime keeps each once made).
    typealias Place<Path> = @Sendable () -> Path

    init<Value>(_ name: String, _ kind: Kind, doc: String, _ global: @escaping Place<Global<Value>>, app: Place<PerApp<Value>>?,
                inState: Bool, looser: Looser? = nil, check: @escaping Check<Value>, text: @escaping @Sendable (Value) -> String,
                json: @escaping @Sendable (Value) -> OrderedJSON) {
        self.name = name
        self.kind = kind
        self.doc = doc
        self.looser = looser
        copyGlobal = { target, source in
            let global = global()
            target[keyPath: global] = source[keyPath: global]
        }
        copyApp = app.map { app -> @Sendable (inout MigaConfig.App, MigaConfig.App?) -> Void in
            { target, source in
                let app = app()
                target[keyPath: app] = source?[keyPath: app]
            }
        }
        readGlobal = { value, key, config, reader in
            let global = global()
            if let checked = check(value, key, config[keyPath: global], &reader) { config[keyPath: global] = checked }
        }
        // An app has no value of its own to keep: a wrong one falls back to the default.
        if let app {
            readApp = { value, key, entry, reader in
                var entry = entry
                if let checked = check(value, key, MigaConfig()[keyPath: global()], &reader) { entry[keyPath: app()] = checked }
                return entry
            }
        } else {
            readApp = nil
        }
        setByApp = { entry in app.map { entry[keyPath: $0()] != nil } ?? false }
        self.text = { config, entry in
            text(entry.flatMap { entry in app.flatMap { entry[keyPath: $0()] } } ?? config[keyPath: global()])
        }
        if inState {
            state = { json($0[keyPath: global()]) }
        } else {
            state = nil
        }
    }

    static func integer(_ name: String, _ range: ClosedRange<Int>, unit: String, doc: String, _ global: @autoclosure @escaping Place<Global<Int>>,
                        app: Place<PerApp<Int>>? = nil, inState: Bool = false, looser: Looser? = nil) -> ConfigKey {
        ConfigKey(name, .integer(range, unit: unit), doc: doc, global, app: app, inState: inState, looser: looser,
                  check: { $3.integer($0, key: $1, range: range, default: $2) }, text: { String($0) }, json: { .int($0) })
    }

    /// `warningSaysDefault`: a wrong value's warning names the value used rather than saying
    /// the value is ignored (the two say the same; each key keeps the words it has always had).
    static func flag(_ name: String, doc: String, _ global: @autoclosure @escaping Place<Global<Bool>>, app: Place<PerApp<Bool>>? = nil, inState: Bool = false,
                     warningSaysDefault: Bool = false, looser: Looser? = nil) -> ConfigKey {
        ConfigKey(name, .flag, doc: doc, global, app: app, inState: inState, looser: looser,
                  check: { $3.bool($0, key: $1, using: warningSaysDefault ? $2 : nil) }, text: { String($0) }, json: { .bool($0) })
    }

    static func choice<Choice: RawRepresentable & CaseIterable & Sendable>(
        _ name: String, doc: String, _ global: @autoclosure @escaping Place<Global<Choice>>, app: Place<PerApp<Choice>>? = nil, inState: Bool = false, looser: Looser? = nil
    ) -> ConfigKey where Choice.RawValue == String {
        ConfigKey(name, .choice(Choice.allCases.map(\.rawValue)), doc: doc, global, app: app, inState: inState, looser: looser,
                  check: { $3.choice($0, key: $1, default: $2) }, text: { $0.rawValue }, json: { .string($0.rawValue) })
    }

    static func categories(_ name: String, doc: String, _ global: @autoclosure @escaping Place<Global<[ContentKind]>>, inState: Bool = false) -> ConfigKey {
        ConfigKey(name, .categories, doc: doc, global, app: nil, inState: inState,
                  check: { $3.categories($0, key: $1, default: $2) }, text: { $0.map(\.categoryName).joined(separator: "\n") },
                  json: { .array($0.map { .string($0.categoryName) }) })
    }

    /// A list of some of `choices`; a name not among them is skipped with a warning.
    static func someOf(_ name: String, _ choices: [String], doc: String, _ global: @autoclosure @escaping Place<Global<[String]>>) -> ConfigKey {
        ConfigKey(name, .someOf(choices), doc: doc, global, app: nil, inState: false,
                  check: { $3.someOf($0, key: $1, choices: choices) }, text: { $0.joined(separator: "\n") },
                  json: { .array($0.map(OrderedJSON.string)) })
    }

    /// Kept as written: the site matcher normalises them where sites are matched.
    static func sites(_ name: String, doc: String, _ global: @autoclosure @escaping Place<Global<[String]>>, inState: Bool = false) -> ConfigKey {
        ConfigKey(name, .sites, doc: doc, global, app: nil, inState: inState,
                  check: { $3.strings($0, key: $1) }, text: { $0.joined(separator: "\n") }, json: { .array($0.map(OrderedJSON.string)) })
    }

    static func text(_ name: String, doc: String, _ global: @autoclosure @escaping Place<Global<String>>, inState: Bool = false) -> ConfigKey {
        ConfigKey(name, .text, doc: doc, global, app: nil, inState: inState,
                  check: { $3.string($0, key: $1) }, text: { $0 }, json: { .string($0) })
    }

    static func folder(_ name: String, doc: String, _ global: @autoclosure @escaping Place<Global<String>>) -> ConfigKey {
        ConfigKey(name, .folder, doc: doc, global, app: nil, inState: false,
                  check: { $3.folder($0, key: $1) }, text: { $0 }, json: { .string($0) })
    }

    /// What an app's shims run; an app that names none runs its own name.
    static func command(_ name: String, doc: String, _ app: @autoclosure @escaping Place<WritableKeyPath<MigaConfig.App, String> & Sendable>) -> ConfigKey {
        ConfigKey(name: name, kind: .command, doc: doc, looser: nil, copyGlobal: nil, copyApp: nil, readGlobal: nil, readApp: { value, key, entry, reader in
            guard let command = reader.string(value, key: key), !command.isEmpty else { return entry }
            // What the shims would run at every launch: a command that is no program's name
            // or path leaves the app ungated rather than run something else.
            if let problem = AppCheck.problem(withCommand: command) {
                let shown = TerminalText.excerpt(entry.name)
                reader.warn(key, "[apps.\(shown)] \(problem); \(shown) is not gated until it is fixed (\(AppCheck.commandAdvice))")
                return nil
            }
            var entry = entry
            entry[keyPath: app()] = command
            return entry
        }, text: { $1?[keyPath: app()] ?? "" }, state: nil, setByApp: { _ in true })
    }
}

public enum ConfigKeys {
    /// An app's key paths name their root (`\App.timerSeconds`): Swift 6.3 infers no
    /// `\.timerSeconds` for an optional `WritableKeyPath & Sendable` parameter.
    private typealias App = MigaConfig.App

    /// Every key, in the order `show` and the help list them and the host's `state` sends them.
    public static let table: [ConfigKey] = [
        .integer("timer_seconds", MigaConfig.timerRange, unit: "seconds", doc: "the countdown before Open unlocks",
                 \.timerSeconds, app: { \App.timerSeconds }, inState: true, looser: .lower),
        .integer("grace_minutes", MigaConfig.graceRange, unit: "minutes", doc: "after an Open, how long the app or site opens without a pause",
                 \.graceMinutes, inState: true, looser: .higher),
        .categories("categories", doc: "what the gate shows: quotes, affirmations, articles", \.categories),
        .someOf("extra_categories", ContentLibrary.extraCategories.map { $0.name },
                doc: "content beyond the calm defaults the gate may show: " + extraCategoriesNamed,
                \.extraCategories),
        .choice("breathing", doc: "the breathing guide beside the countdown", \.breathing, inState: true),
        .flag("animations", doc: "the gate's small animations", \.animations, inState: true, warningSaysDefault: true),
        .text("terminal", doc: "the terminal emulator for desktop launches (\"\" finds one)", \.terminal),
        .sites("sites", doc: "the sites links and the browser pause for", \.sites, inState: true),
        .flag("intention", doc: "ask \"What are you here to do?\" before Open", \.intention, app: { \App.intention }, looser: .off),
        .integer("escalate_seconds", MigaConfig.escalateRange, unit: "seconds", doc: "each Open of an app today adds this to its timer",
                 \.escalateSeconds, app: { \App.escalateSeconds }, looser: .lower),
        .integer("opens_per_day", MigaConfig.opensPerDayRange, unit: "opens",
                 doc: "opens a day before the gate says so and waits 45 s (0: no allowance; never a lock)",
                 \.opensPerDay, app: { \App.opensPerDay }, looser: .allowance),
        .flag("ask_minutes", doc: "Open asks \"For how long?\" (5, 10, 20, 30 min) and ends softly then", \.askMinutes, app: { \App.askMinutes }, looser: .off),
        .integer("default_minutes", MigaConfig.defaultMinutesRange, unit: "minutes", doc: "what Enter gives at \"For how long?\"",
                 \.defaultMinutes, app: { \App.defaultMinutes }, looser: .higher),
        .choice("challenge", doc: "before Open: \"type\" asks for a short sentence typed exactly (\"off\": none)",
                \.challenge, app: { \App.challenge }, looser: .off),
        .flag("weekly_summary", doc: "a notification at the first gate of a week", \.weeklySummary),
        .integer("reentry_minutes", MigaConfig.reentryMinutesRange, unit: "minutes",
                 doc: "coming back to an app or site's tab after this long away meets the gate again (0: off)",
                 \.reentryMinutes, app: { \App.reentryMinutes }, looser: .allowance),
        .integer("minutes_per_day", MigaConfig.minutesPerDayRange, unit: "minutes",
                 doc: "focused minutes a day before the gate says so and waits 45 s (0: no budget; never a lock)",
                 \.minutesPerDay, app: { \App.minutesPerDay }, looser: .allowance),
        .integer("loosen_delay_minutes", MigaConfig.loosenDelayRange, unit: "minutes",
                 doc: "a change that loosens a rule waits this long before it applies (0: at once)", \.loosenDelayMinutes,
                 looser: .delay),
        .folder("sync_folder", doc: "a folder your sync tool (Syncthing, a USB stick) shares between your machines: one history on all (\"\": off)",
                \.syncFolder),
        .flag("sync_config", doc: "keep config.toml in sync_folder too, the newest copy winning", \.syncConfig),
        .command("command", doc: "what the app's shims run", \.command),
    ]

    /// "dpdr (…), anxiety (…)", joined by hand: the table is built before every gate's first
    /// frame, and the generic `joined(separator:)` cost 0.2M instructions the first time.
    private static var extraCategoriesNamed: String {
        var named = ""
        for category in ContentLibrary.extraCategories {
            if !named.isEmpty { named += ", " }
            named += category.name + " (" + category.label + ")"
        }
        return named
    }

    public static let topLevel = table.filter { $0.scope != .app }.map(\.name)
    /// `command` first: it is what makes an app.
    public static let perApp = (table.filter { $0.scope == .app } + table.filter { $0.scope == .globalAndApp }).map(\.name)
    /// What a `[site."NAME"]` table may hold: an app's keys but its command.
    public static let perSite = table.filter { $0.scope == .globalAndApp }.map(\.name)

    public static func key(named name: String) -> ConfigKey? { table.first { $0.name == name } }

    /// The keys as `--help` lists them.
    public static var helpSummary: String {
        "Keys: " + table.filter { $0.scope != .app }.map { "\($0.summary): \($0.doc)" }.joined(separator: "; ")
            + ". Per app, in [apps.NAME]: " + perApp.joined(separator: ", ")
            + ". Per site, in [site.\"NAME\"]: " + perSite.joined(separator: ", ") + "."
    }

    /// Every key that can be set now, for completion and suggestions.
    public static func all(in config: MigaConfig) -> [String] {
        topLevel + config.apps.keys.sorted().flatMap { app in perApp.map { "apps.\(app).\($0)" } }
            + SiteMatcher(sites: config.sites).sites.flatMap { site in perSite.map { "site.\(site).\($0)" } }
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
        if name.hasPrefix("site.") {
            let rest = name.dropFirst("site.".count)
            if let dot = rest.lastIndex(of: ".") {
                let typed = String(rest[..<dot]), key = String(rest[rest.index(after: dot)...])
                let gated = SiteMatcher(sites: config.sites).sites
                guard let site = SiteMatcher.normalizedSite(typed), gated.contains(site) else {
                    throw ConfigValueError.unknownSite(typed, configured: gated)
                }
                guard perSite.contains(key) else {
                    throw ConfigValueError.unknownKey(name, suggestion: suggestion(for: name, in: config))
                }
                return ConfigKeyPath(app: nil, key: key, site: site)
            }
        }
        throw ConfigValueError.unknownKey(name, suggestion: suggestion(for: name, in: config))
    }

    /// The value as `get` prints it: plain text for scripts, lists one item per line.
    public static func display(_ path: ConfigKeyPath, in config: MigaConfig) -> String {
        key(named: path.key)?.text(config, path.site.flatMap { config.siteSettings[$0] } ?? path.app.flatMap { config.apps[$0] }) ?? ""
    }

    /// The keys the browser host's `state` message carries, with their values.
    static func state(of config: MigaConfig) -> [(String, OrderedJSON)] {
        table.compactMap { key in key.state.map { (key.name, $0(config)) } }
    }

    /// The value as TOML text, as `show` writes it.
    public static func toml(_ path: ConfigKeyPath, in config: MigaConfig) -> String {
        func array(_ items: [String]) -> String { "[" + items.map(ConfigEditor.string).joined(separator: ", ") + "]" }
        switch key(named: path.key)?.kind {
        case .categories?: return array(config.categories.map(\.categoryName))
        case .sites?: return array(config.sites)
        case .someOf?: return array(display(path, in: config).split(separator: "\n").map(String.init))
        case .choice?, .command?, .text?, .folder?: return ConfigEditor.string(display(path, in: config))
        default: return display(path, in: config)
        }
    }

    /// Said after a `set` of the site list that dropped sites: `set` replaces the whole list,
    /// which a person who meant to add one (`set sites reddit.com`) would not see otherwise.
    /// `adding` is how that place adds one site.
    public static func droppedNote(_ path: ConfigKeyPath, before: MigaConfig, after: MigaConfig, adding: String) -> String? {
        guard key(named: path.key)?.kind == .sites else { return nil }
        let dropped = SiteMatcher.dropped(from: before.sites, in: after.sites)
        guard !dropped.isEmpty else { return nil }
        return "no longer gated: \(dropped.joined(separator: ", ")) (`set` replaces the list; `\(adding)` adds one and keeps the rest)"
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
        case .someOf(let choices):
            // Empty turns them all off.
            var names: [String] = []
            for item in list() {
                guard choices.contains(item) else { throw ConfigValueError.badChoice("\(path.name): \"\(item)\"", choices: choices) }
                if !names.contains(item) { names.append(item) }
            }
            return "[" + names.map(ConfigEditor.string).joined(separator: ", ") + "]"
        case .sites:
            var sites: [String] = []
            for item in list() {
                guard let site = SiteMatcher.addableSite(item) else { throw ConfigValueError.badSite(item) }
                if !sites.contains(site) { sites.append(site) }
            }
            return "[" + sites.map(ConfigEditor.string).joined(separator: ", ") + "]"
        case .command:
            if let problem = AppCheck.problem(withCommand: trimmed) { throw ConfigValueError.badCommand(path.name, problem: problem) }
            return ConfigEditor.string(trimmed)
        case .text: // terminal: any text, "" to discover
            return ConfigEditor.string(trimmed)
        case .folder:
            if let problem = SyncFolderSetting.problem(trimmed) { throw ConfigValueError.wrongType(path.name, expected: problem) }
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
