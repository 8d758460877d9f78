/// The editor's help and Tab completion of keys, both from the key table (`ConfigKeys`): a
/// key added there is in `help` and completes the day it is added, never in a hand list.
extension ConfigShell {
    /// The width help is laid out for: a terminal's 80 columns, less one for the cursor.
    static let helpWidth = 79
    /// Where a key's text starts in `help keys`, as the commands' text starts.
    static let helpIndent = 23

    /// `help`: the commands and every key by name; `help keys`: what each key does;
    /// `help KEY`: that key.
    static func help(_ topic: String?) -> String {
        guard let topic = topic?.lowercased() else { return commandsHelp + "\n" + keyNames }
        if topic == "keys" || topic == "set" { return keysHelp }
        let name = topic.split(separator: ".").last.map(String.init) ?? topic
        if let key = ConfigKeys.key(named: name) { return keyHelp(key).joined(separator: "\n") }
        return commandsHelp + "\n" + keyNames
    }

    /// The keys by name, wrapped; those an app or a site may set itself marked; and the
    /// snooze, which is no key but is where a person looks for "a break from the gates".
    static var keyNames: String {
        let names = ConfigKeys.table.filter { $0.scope != .app }.map { $0.name + ($0.scope == .globalAndApp ? "*" : "") }
        var lines = ["Keys for set (help keys: what each does; * also per app, apps.NAME.KEY, and per site, site.HOST.KEY):"]
        lines += TextLayout.wrap(names.joined(separator: ", "), width: helpWidth - 2).map { "  " + $0 }
        lines.append("A break from every gate: miga snooze 20m (or 1h discord; miga snooze --off ends it), in your shell.")
        return lines.flatMap { TextLayout.wrap($0, width: helpWidth) }.joined(separator: "\n")
    }

    /// Every key with its range or choices and what it does.
    static var keysHelp: String {
        let keys = ConfigKeys.table.filter { $0.scope != .app }
        return (["Keys (set KEY VALUE; * also per app, apps.NAME.KEY, per site, site.HOST.KEY):"] + keys.flatMap(keyHelp))
            .joined(separator: "\n")
    }

    /// One key: its name (marked when an app or site may set it), then what it takes and does.
    static func keyHelp(_ key: ConfigKey) -> [String] {
        let name = key.name + (key.scope == .globalAndApp ? "*" : "")
        var takes: String
        switch key.kind {
        case .integer(let range, let unit): takes = "\(range.lowerBound)–\(range.upperBound) \(unit)"
        case .flag: takes = "true or false"
        case .choice(let choices): takes = choices.joined(separator: " or ")
        default: takes = ""
        }
        let text = key.doc + (takes.isEmpty ? "" : " (\(takes))")
        let wrapped = TextLayout.wrap(text, width: helpWidth - helpIndent)
        let indent = String(repeating: " ", count: helpIndent)
        // A name too long for its column takes a line of its own.
        let head = "  " + name + String(repeating: " ", count: max(1, helpIndent - 2 - name.count))
        guard name.count + 3 <= helpIndent else { return ["  " + name] + wrapped.map { indent + $0 } }
        return [head + (wrapped.first ?? "")] + wrapped.dropFirst().map { indent + $0 }
    }

    /// What Tab offers for the key being typed after `set`, a table at a time: the top-level
    /// keys with `apps.` and `site.`; after `site.` the sites; after `site.HOST.` that site's
    /// keys (apps alike). A prefix that leaves one table goes into it, so `apps.sig` offers
    /// signal's keys at once. Every key was some 80 names at one Tab.
    static func keyCompletions(for word: String, in config: MigaConfig) -> [String] {
        let apps = config.apps.keys.sorted(), sites = SiteMatcher(sites: config.sites).sites
        var tables: [(prefix: String, names: [String], keys: [String])] = []
        if !apps.isEmpty { tables.append(("apps.", apps, ConfigKeys.perApp)) }
        if !sites.isEmpty { tables.append(("site.", sites, ConfigKeys.perSite)) }
        var level = ConfigKeys.topLevel + tables.map(\.prefix)
        for table in tables where word.hasPrefix(table.prefix) {
            level = []
            for name in table.names {
                let opened = table.prefix + name + "."
                // A table typed whole offers its keys (and the tables whose names go on, x.com.au).
                if word.hasPrefix(opened) { level += table.keys.map { opened + $0 } } else { level.append(opened) }
            }
        }
        var offered = level.filter { $0.hasPrefix(word) }
        // One table left: its keys at once.
        while offered.count == 1, let only = offered.first, only.hasSuffix(".") {
            offered = keyCompletions(for: only, in: config)
        }
        return offered
    }
}
