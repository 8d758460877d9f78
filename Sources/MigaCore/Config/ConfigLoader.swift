import FoundationEssentials
import TOML

/// Reads `config.toml`. Syntax errors throw (the gate then fails open); a wrong value is a
/// warning naming the file and line, and the default (or nearest allowed value) is used, so the
/// person keeps their pause and learns what to fix.
public struct ConfigLoader {
    public struct Result: Equatable {
        public var config: MigaConfig
        public var warnings: [String]
        /// Whether the text holds a `sites` key. A file without one was made before `sites`
        /// defaulted to none: it reads as holding `MigaConfig.formerDefaultSites`.
        public var writesSites = true
    }

    public init() {}

    /// A missing file means defaults (no sites), with no warning: that is the state after
    /// installing. Text miga parses for a file not yet written starts as `ConfigFile.newFileText`.
    public func load(path: String) throws -> Result {
        guard let text = try Self.text(of: path) else {
            return Result(config: MigaConfig(), warnings: [])
        }
        return try parse(text, path: path)
    }

    /// The file's text, nil when there is none; a file that is not a regular file, too large
    /// or not UTF-8 is an error (never "no file": it would then be written over).
    public static func text(of path: String) throws -> String? {
        let data: Data?
        do {
            data = try BoundedFile.readIfPresent(path, limit: BoundedFile.configLimit)
        } catch {
            throw ConfigError.unreadable(path: path, reason: "\(error)")
        }
        guard let data else { return nil }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw ConfigError.unreadable(path: path, reason: "it is not UTF-8 text; save it as UTF-8")
        }
        return text
    }

    public func parse(_ text: String, path: String) throws -> Result {
        let table: TOMLTable
        do {
            table = try TOML.parse(text)
        } catch let error as TOMLError {
            throw ConfigError.malformed(path: path, line: error.line, column: error.column, problem: error.message)
        }
        var reader = ConfigValueReader(path: path)
        var config = MigaConfig()
        for key in table.keys {
            guard let value = table[key] else { continue }
            reader.table = table
            // The file's tables are the loader's; every other key is ConfigKeys.table's to read.
            switch key {
            case "schedule":
                reader.schedules(value, into: &config)
            case "apps":
                reader.apps(value, into: &config)
            case "site":
                reader.siteTables(value, into: &config)
            case "alternative":
                reader.alternatives(value, into: &config)
            default:
                guard let read = ConfigKeys.key(named: key)?.readGlobal else {
                    reader.warn(key, "unknown key \"\(TerminalText.excerpt(key))\" ignored")
                    continue
                }
                read(value, key, &config, &reader)
            }
        }
        let writesSites = table["sites"] != nil
        if !writesSites { config.sites = MigaConfig.formerDefaultSites }
        reader.checkScheduledNames(config)
        reader.checkSiteTables(config)
        // Keys come in document order, but a table's own problems are found at its header.
        let ordered = reader.warnings.enumerated().sorted {
            ($0.element.line ?? .max, $0.offset) < ($1.element.line ?? .max, $1.offset)
        }
        return Result(config: config, warnings: ordered.map(\.element.text), writesSites: writesSites)
    }
}

/// The file's own tables, `[apps.NAME]` and `[[schedule]]`, whose keys (but for an app's,
/// which are ConfigKeys.table's) only the loader knows.
private extension ConfigValueReader {
    mutating func schedules(_ value: TOMLValue, into config: inout MigaConfig) {
        config.schedules += arrayOfTables(value, key: "schedule") { $0.schedule($1, index: $2) }
    }

    mutating func apps(_ value: TOMLValue, into config: inout MigaConfig) {
        guard let apps = value.table else {
            warn("apps", "apps must be tables like [apps.discord]; ignoring it")
            return
        }
        for name in apps.keys {
            table = apps
            if let app = app(name, apps[name]) { config.apps[name] = app }
        }
    }

    mutating func app(_ name: String, _ value: TOMLValue?) -> MigaConfig.App? {
        let shown = TerminalText.excerpt(name)
        if let problem = AppCheck.problem(withName: name) {
            warnFile("\(problem); ignoring it")
            return nil
        }
        guard let table = value?.table else {
            warnFile("[apps.\(shown)] must be a table; ignoring it")
            return nil
        }
        return entry(MigaConfig.App(name: name, command: name), table, header: "apps.\(shown)", keys: ConfigKeys.perApp)
    }

    /// `[site."reddit.com"]` tables: a site's own values of the keys an app may set, but a
    /// command. Keyed by the site as `sites` writes it.
    mutating func siteTables(_ value: TOMLValue, into config: inout MigaConfig) {
        guard let sites = value.table else {
            warn("site", "site must be tables like [site.\"reddit.com\"]; ignoring it")
            return
        }
        for name in sites.keys {
            table = sites
            let shown = TerminalText.excerpt(name)
            guard let site = SiteMatcher.addableSite(name) else {
                warnFile("[site.\"\(shown)\"]: \(SiteMatcher.problem(with: name)); ignoring it")
                continue
            }
            guard let table = sites[name]?.table else {
                warnFile("[site.\"\(shown)\"] must be a table; ignoring it")
                continue
            }
            if let read = entry(MigaConfig.App(name: site, command: ""), table, header: "site.\"\(shown)\"", keys: ConfigKeys.perSite) {
                config.siteSettings[site] = read
            }
        }
    }

    /// Reads the keys of one `[apps.NAME]` or `[site."NAME"]` table (`keys`: those it may hold)
    /// into `entry`; nil when a value leaves an app ungated (its command).
    mutating func entry(_ entry: MigaConfig.App, _ table: TOMLTable, header: String, keys: [String]) -> MigaConfig.App? {
        var entry = entry
        self.table = table
        for key in table.keys {
            guard let value = table[key] else { continue }
            let named = "\(header).\(key)"
            guard keys.contains(key), let read = ConfigKeys.key(named: key)?.readApp else {
                // A line added at the end of the file lands in the last table: say where it goes.
                if ConfigKeys.topLevel.contains(key) {
                    warn(named, "\(key) is a global key but sits in [\(header)] (every line below a table header belongs to it), "
                        + "so it is ignored; move it above the first table, or use `miga config set \(key) VALUE`")
                    continue
                }
                warn(named, "unknown key \"\(TerminalText.excerpt(key))\" in [\(header)] ignored")
                continue
            }
            // A value can leave the whole app ungated (its command): then it is not an app.
            guard let next = read(value, named, entry, &self) else { return nil }
            entry = next
        }
        return entry
    }

    /// A `[site."NAME"]` table of a site that is not in `sites` applies to nothing: said, so a
    /// typo does not pass for a setting.
    mutating func checkSiteTables(_ config: MigaConfig) {
        guard !config.siteSettings.isEmpty else { return } // no site parsed on a gate's way
        let gated = SiteMatcher(sites: config.sites).sites
        for site in config.siteSettings.keys.sorted() where !gated.contains(site) {
            warnings.append((nil, "\(path): [site.\"\(TerminalText.excerpt(site))\"] is not in sites, so it applies to nothing; "
                                 + "add it with `miga config sites add \(site)`"))
        }
    }

    /// Names a schedule narrows to: a name that is neither an app nor a site is most likely a
    /// typo, and the table would quietly never apply.
    mutating func checkScheduledNames(_ config: MigaConfig) {
        let known = Set(config.apps.keys).union(config.sites.map { SiteMatcher.appName(site: $0) })
        for schedule in config.schedules {
            for name in schedule.apps ?? [] where !known.contains(name) {
                warnings.append((scheduleLines[schedule.index], "\(scheduleLines[schedule.index].map { "\(path):\($0)" } ?? path): "
                                 + "[[schedule]] \(schedule.index): \"\(TerminalText.excerpt(name))\" is neither an app in [apps] nor a site; it will never match"))
            }
        }
    }

    /// One `[[schedule]]` table, or nil (with a warning saying why) when it cannot be used:
    /// a table that half works would change someone's hours in a way they did not write.
    mutating func schedule(_ table: TOMLTable, index: Int) -> Schedule? {
        self.table = table
        let first = table.keys.compactMap { table.position(of: $0)?.line }.min()
        scheduleLines[index] = first
        let label = "[[schedule]] \(index)"
        func fail(_ key: String?, _ problem: String) -> Schedule? {
            let number = key.flatMap { line(of: $0) } ?? first
            warnings.append((number, "\(number.map { "\(path):\($0)" } ?? path): \(label): \(problem); ignoring this table"))
            return nil
        }
        var daysText = "daily", days: UInt8 = 0x7F
        var from: Int?, to: Int?, timer: Int?, gate = true, apps: [String]?
        for key in table.keys {
            guard let value = table[key] else { continue }
            switch key {
            case "days":
                guard let text = value.string, let mask = Schedule.days(text) else {
                    return fail(key, "days must be like \"daily\", \"mon-fri\" or \"sat,sun\"")
                }
                daysText = text
                days = mask
            case "from", "to":
                guard let text = value.string, let minutes = Schedule.minutes(text, allowEndOfDay: key == "to") else {
                    return fail(key, "\(key) must be a local time like \"09:00\" (24-hour, in quotes)")
                }
                if key == "from" { from = minutes } else { to = minutes }
            case "timer_seconds":
                guard let number = value.int, MigaConfig.timerRange.contains(number) else {
                    return fail(key, "timer_seconds must be a whole number from 15 to 45")
                }
                timer = number
            case "gate":
                guard let flag = value.bool else { return fail(key, "gate must be true or false") }
                gate = flag
            case "apps":
                guard let names = value.array?.compactMap(\.string), names.count == value.array?.count, !names.isEmpty else {
                    return fail(key, "apps must be a list of app or site names, like [\"discord\"]")
                }
                apps = names
            default:
                warn(key, "\(label): unknown key \"\(TerminalText.excerpt(key))\" ignored")
            }
        }
        guard let from, let to else {
            return fail(nil, "give both from and to, like from = \"09:00\" and to = \"17:00\"")
        }
        guard from != to else {
            return fail("to", "from and to are the same time; for the whole day write from = \"00:00\", to = \"24:00\"")
        }
        if timer != nil && !gate {
            return fail("gate", "give timer_seconds or gate = false, not both")
        }
        if timer == nil && gate {
            return fail(nil, "give timer_seconds (a stricter or gentler timer) or gate = false (no gate in these hours)")
        }
        return Schedule(index: index, daysText: daysText, days: days, from: from, to: to, timerSeconds: timer, gate: gate, apps: apps)
    }
}
