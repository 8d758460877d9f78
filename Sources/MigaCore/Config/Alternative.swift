import TOML

/// One of the person's own "Do this instead" choices (`[[alternative]]`): shown beside Exit,
/// choosing it is an Exit that then opens it (DESIGN "Time and friction").
public struct Alternative: Equatable, Sendable {
    public enum Action: Equatable, Sendable {
        /// The words to run: a string in the file is one shell command line (`sh -c`), an
        /// array the program and its arguments.
        case command([String])
        /// An http or https link, opened in the person's browser.
        case url(String)
    }

    /// At most this many are shown on a gate (keys `1`…`3`).
    public static let shownLimit = 3
    public static let labelLimit = 40

    /// The table's number in the file (1 = the first `[[alternative]]`).
    public var index: Int
    public var label: String
    public var action: Action
    /// Only these apps' gates, or these sites' (as `sites` writes them); neither: every gate.
    public var apps: [String]?
    public var sites: [String]?

    public init(index: Int, label: String, action: Action, apps: [String]? = nil, sites: [String]? = nil) {
        self.index = index
        self.label = label
        self.action = action
        self.apps = apps
        self.sites = sites
    }

    /// Whether the gate of `app` (an app's name, or a site's app name) shows it.
    public func applies(to app: String) -> Bool {
        guard apps != nil || sites != nil else { return true }
        return apps?.contains(app) == true || sites?.contains { SiteMatcher.appName(site: $0) == app } == true
    }

    /// What one gate shows: the first three that apply, in file order.
    public static func shown(_ all: [Alternative], app: String) -> [Alternative] {
        Array(all.lazy.filter { $0.applies(to: app) }.prefix(shownLimit))
    }

    /// A label as shown: control characters (a newline, an escape) removed, trimmed.
    static func cleanLabel(_ text: String) -> String {
        let scalars = text.unicodeScalars.filter { $0.value >= 0x20 && !(0x7F..<0xA0).contains($0.value) && !(0x2028...0x2029).contains($0.value) }
        return String(String.UnicodeScalarView(scalars)).trimming(.whitespaces)
    }

    public var kind: String {
        if case .url = action { return "url" }
        return "command"
    }
}

/// `[[alternative]]` tables: each is read whole or left out with one warning at its line, so
/// a broken one never half-works.
extension ConfigValueReader {
    mutating func alternatives(_ value: TOMLValue, into config: inout MigaConfig) {
        config.alternatives += arrayOfTables(value, key: "alternative") { $0.alternative($1, index: $2) }
    }

    /// `[[KEY]]` tables, each read by `read` (with its 1-based number) or left out; anything
    /// else under KEY is one warning.
    mutating func arrayOfTables<Item>(_ value: TOMLValue, key: String,
                                      read: (inout ConfigValueReader, TOMLTable, Int) -> Item?) -> [Item] {
        guard let tables = value.array, tables.allSatisfy({ $0.table != nil }) else {
            warn(key, "\(key) must be [[\(key)]] tables; ignoring it")
            return []
        }
        return tables.enumerated().compactMap { offset, table in read(&self, table.table!, offset + 1) }
    }

    mutating func alternative(_ table: TOMLTable, index: Int) -> Alternative? {
        self.table = table
        let first = table.keys.compactMap { table.position(of: $0)?.line }.min()
        let name = "[[alternative]] \(index)"
        func fail(_ key: String?, _ problem: String) -> Alternative? {
            let number = key.flatMap { line(of: $0) } ?? first
            warnings.append((number, "\(number.map { "\(path):\($0)" } ?? path): \(name): \(problem); ignoring this table"))
            return nil
        }
        var label: String?, action: Alternative.Action?, apps: [String]?, sites: [String]?
        for key in table.keys {
            guard let value = table[key] else { continue }
            switch key {
            case "label":
                guard let text = value.string else { return fail(key, "label must be a string in quotes") }
                let clean = Alternative.cleanLabel(text)
                guard !clean.isEmpty else { return fail(key, "label is empty; give the words the gate shows, like \"Read a chapter\"") }
                guard clean.count <= Alternative.labelLimit else {
                    return fail(key, "label is longer than \(Alternative.labelLimit) characters; shorten it")
                }
                label = clean
            case "command":
                if let text = value.string, !text.trimming(.whitespaces).isEmpty, !text.contains("\0") {
                    action = .command(["/bin/sh", "-c", text])
                } else if let words = value.array?.compactMap(\.string), words.count == value.array?.count, let program = words.first,
                          !program.isEmpty, !words.contains(where: { $0.contains("\0") }) {
                    action = .command(words)
                } else {
                    return fail(key, "command must be a command line in quotes, or a list like [\"foliate\", \"~/book.epub\"]")
                }
            case "url":
                guard let text = value.string, SiteMatcher.isWebLink(text), !text.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
                    return fail(key, "url must be an http or https link, like \"https://example.org/\"")
                }
                action = .url(text)
            case "apps":
                guard let names = value.array?.compactMap(\.string), names.count == value.array?.count, !names.isEmpty else {
                    return fail(key, "apps must be a list of app names, like [\"discord\"]")
                }
                apps = names
            case "sites":
                guard let names = value.array?.compactMap(\.string), names.count == value.array?.count, !names.isEmpty else {
                    return fail(key, "sites must be a list of sites, like [\"reddit.com\"]")
                }
                var normalized: [String] = []
                for name in names {
                    guard let site = SiteMatcher.addableSite(name) else { return fail(key, "sites: \(SiteMatcher.problem(with: name))") }
                    normalized.append(site)
                }
                sites = normalized
            default:
                warn(key, "\(name): unknown key \"\(TerminalText.excerpt(key))\" ignored")
            }
        }
        guard let label else { return fail(nil, "give a label, like label = \"Read a chapter\"") }
        guard let action else { return fail(nil, "give a command (command = \"foliate ~/book.epub\") or a url (url = \"https://…\")") }
        if table["command"] != nil, table["url"] != nil { return fail("url", "give a command or a url, not both") }
        return Alternative(index: index, label: label, action: action, apps: apps, sites: sites)
    }
}

/// An alternative as config.toml writes it, for `config show`, `alternatives add` and the
/// editor: a `sh -c` line back as the string it was written as, other words as a list.
extension Alternative {
    public var tomlLines: [String] {
        var lines = ["[[alternative]]", "label = \(ConfigEditor.string(label))"]
        switch action {
        case .command where shellLine != nil:
            lines.append("command = \(ConfigEditor.string(shellLine!))")
        case .command(let words):
            lines.append("command = [" + words.map(ConfigEditor.string).joined(separator: ", ") + "]")
        case .url(let url):
            lines.append("url = \(ConfigEditor.string(url))")
        }
        if let apps { lines.append("apps = [" + apps.map(ConfigEditor.string).joined(separator: ", ") + "]") }
        if let sites { lines.append("sites = [" + sites.map(ConfigEditor.string).joined(separator: ", ") + "]") }
        return lines
    }

    /// The command line of a `command` written as one string (run as `sh -c LINE`), else nil.
    var shellLine: String? {
        guard case .command(let words) = action, words.count == 3, words[0] == "/bin/sh", words[1] == "-c" else { return nil }
        return words[2]
    }

    /// What `alternatives list` prints for it: "1. Read a chapter: foliate ~/book.epub (discord)".
    public var summary: String {
        let target: String
        switch action {
        case .command where shellLine != nil: target = shellLine!
        case .command(let words): target = words.map { $0.contains(" ") ? ShellQuoting.quoted($0) : $0 }.joined(separator: " ")
        case .url(let url): target = url
        }
        let scope = (apps ?? []) + (sites ?? [])
        return TerminalText.forScreen("\(index). \(label): \(target)" + (scope.isEmpty ? "" : " (only \(scope.joined(separator: ", ")))"))
    }

    /// An alternative from the words a person types (`alternatives add`, the editor), checked
    /// exactly as the loader checks the table it becomes, so neither can write one the other
    /// would refuse. `index` is where it will go; `apps` and `sites` must be gated in `config`.
    public static func make(label: String, command: String?, url: String?, apps: [String], sites: [String], index: Int,
                            in config: MigaConfig) throws -> Alternative {
        for app in apps where config.apps[app] == nil {
            throw ConfigValueError.unknownApp(app, configured: config.apps.keys.sorted())
        }
        let gated = SiteMatcher(sites: config.sites).sites
        for site in sites where !gated.contains(SiteMatcher.normalizedSite(site) ?? site) {
            throw ConfigValueError.unknownSite(site, configured: config.sites)
        }
        var lines = ["[[alternative]]", "label = \(ConfigEditor.string(label))"]
        switch (command, url) {
        case (let command?, nil): lines.append("command = \(ConfigEditor.string(command))")
        case (nil, let url?): lines.append("url = \(ConfigEditor.string(url))")
        default: throw ConfigValueError.alternativeTarget
        }
        if !apps.isEmpty { lines.append("apps = [" + apps.map(ConfigEditor.string).joined(separator: ", ") + "]") }
        if !sites.isEmpty { lines.append("sites = [" + sites.map(ConfigEditor.string).joined(separator: ", ") + "]") }
        let read = try ConfigLoader().parse(lines.joined(separator: "\n") + "\n", path: "alternative")
        guard var alternative = read.config.alternatives.first else {
            // The loader's own words, less the made-up file's name and line.
            let problem = read.warnings.first.map { $0.split(separator: ": ", maxSplits: 2).dropFirst(2).joined(separator: ": ") } ?? "it is not usable"
            throw ConfigValueError.badAlternative(problem.replacingEvery("; ignoring this table", with: ""))
        }
        alternative.index = index
        return alternative
    }
}
