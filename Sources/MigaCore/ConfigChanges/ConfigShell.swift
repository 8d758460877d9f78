/// The commands of the interactive `miga config` editor, without the terminal: each line
/// changes a copy of the file's text (through `ConfigEditor`, so comments survive) and the
/// result is checked at once; nothing is written before `save`.
public final class ConfigShell {
    public enum Response: Equatable {
        case say(String)
        case save
        case quit
        /// Quit was asked with unsaved changes: the session asks before discarding them.
        case confirmQuit
    }

    public static let commands = ["timer", "grace", "breathing", "animations", "terminal", "categories", "add", "remove",
                                  "site", "alternative", "set", "show", "pending", "help", "save", "quit"]

    public private(set) var editor: ConfigEditor
    public private(set) var config: MigaConfig
    public private(set) var dirty = false
    /// Apps added and removed since the last save, for their shims.
    public private(set) var added: [MigaConfig.App] = []
    public private(set) var removed: [String] = []
    /// Apps whose command changed since the last save: their shims run the old one until then.
    public private(set) var commandChanged: [String] = []
    let path: String
    /// Whether a command name is a program or an installed entry (for `add`).
    let commandExists: (String) -> Bool

    public init(text: String, path: String, commandExists: @escaping (String) -> Bool) throws {
        editor = ConfigEditor(text: text)
        config = try ConfigLoader().parse(text, path: path).config
        savedConfig = config
        self.path = path
        self.commandExists = commandExists
    }

    /// The config as last read or saved, and the one in force (`ConfigInForce`, set by the
    /// session): a saved loosening that still waits is in the first, not the second.
    public private(set) var savedConfig: MigaConfig
    public var inForce: MigaConfig?

    public var prompt: String {
        let timer = shown({ $0.timerSeconds }, unit: { _ in " s" }), grace = shown({ $0.graceMinutes }, unit: { _ in " min" })
        let apps = shown({ $0.apps.count }, unit: { $0 == 1 ? " app" : " apps" })
        return "miga config (timer \(timer), grace \(grace), \(apps))\(dirty ? "*" : "")> "
    }

    /// A value as the prompt shows it: the one that applies, with a saved change still waiting
    /// out loosen_delay_minutes marked as pending (shown as if in force, it misled). A change
    /// not saved yet shows as typed: the prompt's `*` says so.
    func shown(_ value: (MigaConfig) -> Int, unit: (Int) -> String) -> String {
        let edited = value(config)
        guard let inForce, edited == value(savedConfig), value(inForce) != edited else { return "\(edited)" + unit(edited) }
        return "\(value(inForce))\(unit(value(inForce))) (\(edited) pending)"
    }

    public func execute(_ line: String) -> Response {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let command = words.first?.lowercased() else { return .say("") }
        let rest = Array(words.dropFirst())
        do {
            switch command {
            case "timer": return try set("timer_seconds", rest)
            case "grace": return try set("grace_minutes", rest)
            case "breathing", "animations", "terminal", "categories": return try set(command, rest)
            case "set":
                guard let key = rest.first else { return .say("usage: set KEY VALUE (help keys: what each key does; Tab completes them)") }
                return try set(key, Array(rest.dropFirst()))
            case "add": return try add(rest)
            case "remove": return try remove(rest)
            case "site", "sites": return try site(rest)
            case "alternative", "alternatives": return try alternative(Self.quotedWords(line).dropFirst().map { $0 })
            case "show": return .say(ConfigFile.show(config).trimming(.newlines))
            case "help", "?": return .say(Self.help(rest.first))
            case "save": return dirty ? .save : .say("Nothing to save.")
            case "quit", "exit", "q": return dirty ? .confirmQuit : .quit
            default:
                let guess = AppNameSuggestions(candidates: Set(Self.commands)).suggestions(for: command, limit: 1).first
                return .say("unknown command \"\(command)\"" + (guess.map { "; did you mean \"\($0)\"?" } ?? "") + " (type help)")
            }
        } catch {
            return .say((error as? ConfigValueError)?.descriptionInEditor ?? "\(error)")
        }
    }

    /// After a successful save.
    public func saved() {
        savedConfig = config
        dirty = false
        added = []
        removed = []
        commandChanged = []
    }

    // MARK: - Commands

    private func set(_ name: String, _ values: [String]) throws -> Response {
        guard !values.isEmpty || name == "terminal" else { return .say("\(name) is \(ConfigKeys.toml(try ConfigKeys.resolve(name, in: config), in: config))") }
        let key = try ConfigKeys.resolve(name, in: config)
        let value = try ConfigKeys.tomlValue(values.joined(separator: " "), for: key)
        // An app's command is what its shims run: checked as `add` checks it, and they are
        // remade on save (an app added since the last save gets its shims then anyway).
        let commandOf = key.key == "command" ? key.app : nil
        if let app = commandOf { try checkCommand(values.joined(separator: " "), for: app, force: false) }
        let before = config
        try apply { $0.setValue(value, forKey: key.key, table: key.table) }
        var said = "\(key.name) = \(ConfigKeys.toml(key, in: config))"
        if let note = ConfigKeys.droppedNote(key, before: before, after: config, adding: "site add HOST") { said += "\n" + note }
        guard let app = commandOf, !added.contains(where: { $0.name == app }) else { return .say(said) }
        if !commandChanged.contains(app) { commandChanged.append(app) }
        return .say(said + "; `save` writes it and remakes \(app)'s shims.")
    }

    /// `add NAME [SECONDS] [--command PROGRAM] [--force]`: the same words as
    /// `miga config apps add`, so every hint either gives works in both.
    private func add(_ words: [String]) throws -> Response {
        let usage = Response.say("usage: add NAME [SECONDS] [--command PROGRAM] [--force]")
        guard let name = words.first, !name.hasPrefix("-") else { return usage }
        var timer: Int?
        var command = name
        var force = false
        var rest = words.dropFirst()[...]
        while let word = rest.popFirst() {
            switch word {
            case "--command":
                guard let program = rest.popFirst() else { return usage }
                command = program
            case "--force":
                force = true
            default:
                guard timer == nil else { return usage }
                timer = Int(try ConfigKeys.tomlValue(word, for: ConfigKeyPath(app: nil, key: "timer_seconds")))
            }
        }
        guard MigaConfig.isValidAppName(name) else { throw InstallError.invalidAppName(name) }
        guard config.apps[name] == nil else { throw InstallError.appAlreadyAdded(name) }
        try checkCommand(command, for: name, force: force)
        let app = MigaConfig.App(name: name, command: command, timerSeconds: timer)
        try apply { $0.addApp(app) }
        if let index = removed.firstIndex(of: name) { removed.remove(at: index) } else { added.append(app) }
        return .say("\(name) will be gated\(timer.map { " (\($0) s)" } ?? ""); `save` writes it and makes its shims.")
    }

    /// A command an app's shims will run: a valid one, not an interpreter (unless forced: gating
    /// it gates every script), and one that exists.
    private func checkCommand(_ command: String, for name: String, force: Bool) throws {
        if let problem = AppCheck.problem(withCommand: command) { throw InstallError.invalidCommand(problem) }
        if !force, GatedApps.isInterpreter(command) { throw InstallError.interpreter(name: name, program: command) }
        guard commandExists(command) else { throw InstallError.appNotFound(name: name, command: command, suggestions: []) }
    }

    private func remove(_ words: [String]) throws -> Response {
        guard let name = words.first else { return .say("usage: remove NAME") }
        guard config.apps[name] != nil else { throw ConfigValueError.unknownApp(name, configured: config.apps.keys.sorted()) }
        try apply { _ = $0.removeApp(name) }
        if let index = added.firstIndex(where: { $0.name == name }) { added.remove(at: index) } else { removed.append(name) }
        commandChanged.removeAll { $0 == name }
        return .say("\(name) will no longer be gated; `save` writes it and removes its shims.")
    }

    private func site(_ words: [String]) throws -> Response {
        guard words.count == 2, let verb = words.first, verb == "add" || verb == "remove" else {
            return .say("sites: " + config.sites.joined(separator: ", ") + "\nusage: site add HOST | site remove HOST")
        }
        guard let site = (verb == "add" ? SiteMatcher.addableSite : SiteMatcher.normalizedSite)(words[1]) else { throw ConfigValueError.badSite(words[1]) }
        let current = SiteMatcher(sites: config.sites).sites
        if verb == "add" {
            guard !current.contains(site) else { return .say("\(site) is already gated.") }
            try apply { $0.setSites(self.config.sites + [site]) }
            return .say("\(site) will be gated.")
        }
        guard current.contains(site) else { throw InstallError.unknownSite(site) }
        try apply { $0.setSites(self.config.sites.filter { SiteMatcher.normalizedSite($0) != site }) }
        return .say("\(site) will no longer be gated.")
    }

    /// `alternative add "LABEL" --command "CMD" | --url URL [--app NAME]... [--site HOST]...`,
    /// `alternative remove N|"LABEL"`, and `alternative` alone to list them: the words of
    /// `miga config alternatives`.
    private func alternative(_ words: [String]) throws -> Response {
        let usage = "usage: alternative add \"LABEL\" --command \"CMD\" | --url URL [--app NAME] [--site HOST]; alternative remove N"
        guard let verb = words.first else {
            let listed = config.alternatives.map(\.summary)
            return .say((listed.isEmpty ? ["No alternatives yet."] : listed).joined(separator: "\n") + "\n" + usage)
        }
        var rest = words.dropFirst()[...]
        switch verb {
        case "add":
            guard let label = rest.popFirst(), !label.hasPrefix("--") else { return .say(usage) }
            var command: String?, url: String?, apps: [String] = [], sites: [String] = []
            while let option = rest.popFirst() {
                guard let value = rest.popFirst() else { return .say(usage) }
                switch option {
                case "--command": command = value
                case "--url": url = value
                case "--app": apps.append(value)
                case "--site": sites.append(value)
                default: return .say(usage)
                }
            }
            let made = try Alternative.make(label: label, command: command, url: url, apps: apps, sites: sites, index: 0, in: config)
            try apply { $0.addAlternative(made) }
            return .say("\(config.alternatives.last?.summary ?? made.label) will be on the gates; `save` writes it.")
        case "remove":
            guard rest.count == 1, let name = rest.first else { return .say(usage) }
            guard let found = GatedAlternatives.find(name, in: config.alternatives) else {
                throw ConfigValueError.unknownAlternative(name, labels: config.alternatives.map { "\($0.index). \($0.label)" })
            }
            try apply { $0.removeAlternative(found.index) }
            return .say("\(TerminalText.forScreen(found.label)) will no longer be on the gates; `save` writes it.")
        default:
            return .say(usage)
        }
    }

    /// A line's words, where "double quotes" keep spaces together (`\"` and `\\` inside).
    static func quotedWords(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false, quoted = false, escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if quoted, character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
                inWord = true
            } else if !quoted, character == " " || character == "\t" {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }

    /// Applies an edit to a copy and keeps it only if the result still reads cleanly.
    private func apply(_ edit: (inout ConfigEditor) -> Void) throws {
        var copy = editor
        edit(&copy)
        config = try copy.parsed(path: path)
        editor = copy
        dirty = true
    }

    /// The commands; the keys `set` takes come from the key table (`keysHelp`), so a new
    /// key is in the help the day it is in the table.
    static let commandsHelp = """
        timer SECONDS          countdown for every app (15–45)
        grace MINUTES          after an Open, no pause for this long (0–120)
        breathing box|off      the 4-4-4-4 breathing cue
        animations on|off      off = reduced motion
        terminal COMMAND       terminal for desktop launches (empty = discover)
        categories KIND...     quotes, affirmations, articles
        add NAME [SECONDS] [--command PROGRAM] [--force]
                               gate an app (its shims are made on save)
        remove NAME            stop gating an app
        site add|remove HOST   gated web sites (site: list them)
        alternative add "LABEL" --command "CMD" | --url URL [--app NAME] [--site HOST]
                               your own "Do this instead" beside Exit
        alternative remove N   (alternative: list them, numbered)
        set KEY VALUE          any key below, e.g. set apps.discord.timer_seconds 20
                               ([[schedule]] tables: edit config.toml, see man miga)
        show                   the settings as they would be saved
        pending                what waits out loosen_delay_minutes (saved changes only)
        save                   write config.toml (comments kept) and update shims
        quit                   leave (asks first if something is unsaved)
        help keys              what each key does; help KEY, one of them
        Tab completes commands, keys, apps and sites; Up and Down recall earlier lines.
        """

    /// Candidates for the word being completed, given the words before it.
    public func completions(before: [String], word: String, installedNames: () -> [String]) -> [String] {
        let candidates: [String]
        switch before.first?.lowercased() {
        case nil: candidates = Self.commands
        case "add" where before.count == 1: candidates = installedNames()
        case "remove" where before.count == 1: candidates = config.apps.keys.sorted()
        case "set" where before.count == 1: candidates = Self.keyCompletions(for: word, in: config)
        case "breathing" where before.count == 1: candidates = MigaConfig.Breathing.allCases.map(\.rawValue)
        case "animations" where before.count == 1: candidates = ["on", "off"]
        case "set" where before.count == 2: candidates = Self.values(ofKey: before[1])
        case "categories": candidates = ContentKind.allCases.map(\.categoryName)
        case "site" where before.count == 1, "sites" where before.count == 1, "alternative" where before.count == 1:
            candidates = ["add", "remove"]
        case "alternative" where before.count >= 3 && before[1] == "add":
            switch before.last {
            case "--app": candidates = config.apps.keys.sorted()
            case "--site": candidates = config.sites
            default: candidates = ["--command", "--url", "--app", "--site"]
            }
        case "site" where before.count == 2 && before[1] == "remove": candidates = config.sites
        default: candidates = []
        }
        return candidates.filter { $0.hasPrefix(word) }.sorted()
    }

    /// The values `set KEY` completes, as the key table says the key takes them: a flag's
    /// true and false, a choice's choices; nothing for numbers and text.
    static func values(ofKey name: String) -> [String] {
        let key = name.split(separator: ".").last.map(String.init) ?? name
        switch ConfigKeys.key(named: key)?.kind {
        case .flag?: return ["true", "false"]
        case .choice(let choices)?: return choices
        default: return []
        }
    }
}
