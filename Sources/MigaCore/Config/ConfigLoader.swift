import FoundationEssentials
import TOML

/// Reads `config.toml`. Syntax errors throw (the gate then fails open); a wrong value is a
/// warning naming the file and line, and the default (or nearest allowed value) is used, so the
/// person keeps their pause and learns what to fix.
public struct ConfigLoader {
    public struct Result: Equatable {
        public var config: MigaConfig
        public var warnings: [String]
    }

    public init() {}

    /// A missing file means defaults, with no warning: that is the state after installing.
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
        var reader = Reader(path: path)
        var config = MigaConfig()
        for key in table.keys {
            guard let value = table[key] else { continue }
            reader.table = table
            // Which keys exist is ConfigKeys.table's to say (and the two tables below).
            guard ConfigKeys.topLevel.contains(key) || key == "schedule" || key == "apps" else {
                reader.warn(key, "unknown key \"\(TerminalText.excerpt(key))\" ignored")
                continue
            }
            switch key {
            case "timer_seconds":
                config.timerSeconds = reader.timer(value, key: key, default: config.timerSeconds)
            case "grace_minutes":
                config.graceMinutes = reader.integer(value, key: key, range: MigaConfig.graceRange,
                                                     default: config.graceMinutes)
            case "categories":
                config.categories = reader.categories(value, default: config.categories)
            case "breathing":
                if let raw = reader.string(value, key: key) {
                    if let breathing = MigaConfig.Breathing(rawValue: raw) {
                        config.breathing = breathing
                    } else {
                        reader.warn(key, "breathing must be \"box\" or \"off\", not \"\(TerminalText.excerpt(raw))\"; using \"box\"")
                    }
                }
            case "animations":
                if let flag = value.bool { config.animations = flag } else {
                    reader.warn(key, "animations must be true or false; using true")
                }
            case "terminal":
                config.terminal = reader.string(value, key: key) ?? config.terminal
            case "sites":
                config.sites = reader.strings(value, key: key) ?? config.sites
            case "intention", "weekly_summary":
                if let flag = reader.bool(value, key: key) {
                    if key == "intention" { config.intention = flag } else { config.weeklySummary = flag }
                }
            case "escalate_seconds":
                config.escalateSeconds = reader.integer(value, key: key, range: MigaConfig.escalateRange,
                                                        default: config.escalateSeconds)
            case "schedule":
                guard let tables = value.array, tables.allSatisfy({ $0.table != nil }) else {
                    reader.warn(key, "schedule must be [[schedule]] tables; ignoring it")
                    continue
                }
                for (offset, table) in tables.enumerated() {
                    if let schedule = reader.schedule(table.table!, index: offset + 1) { config.schedules.append(schedule) }
                }
            case "apps":
                guard let apps = value.table else {
                    reader.warn(key, "apps must be tables like [apps.discord]; ignoring it")
                    continue
                }
                for name in apps.keys {
                    reader.table = apps
                    if let app = reader.app(name, apps[name]) { config.apps[name] = app }
                }
            default:
                continue // a key of the table this loader does not read yet: ConfigKeysTests says so
            }
        }
        reader.checkScheduledNames(config)
        // Keys come in document order, but a table's own problems are found at its header.
        let ordered = reader.warnings.enumerated().sorted {
            ($0.element.line ?? .max, $0.offset) < ($1.element.line ?? .max, $1.offset)
        }
        return Result(config: config, warnings: ordered.map(\.element.text))
    }
}

/// Value checks that collect warnings with the line each key is on, as the parser recorded
/// it (one lookup per warning: thousands of unknown keys cost milliseconds).
private struct Reader {
    let path: String
    /// The table whose keys are being read, for their positions.
    var table = TOMLTable()
    var warnings: [(line: Int?, text: String)] = []

    init(path: String) {
        self.path = path
    }

    /// The line of `key` (the last part of a dotted name such as `apps.discord.timer_seconds`)
    /// in the table being read.
    func line(of key: String) -> Int? {
        let bare = key.split(separator: ".").last.map(String.init) ?? key
        return table.position(of: bare)?.line
    }

    mutating func warn(_ key: String, _ problem: String) {
        let number = line(of: key)
        warnings.append((number, "\(number.map { "\(path):\($0)" } ?? path): \(problem)"))
    }

    mutating func warnFile(_ problem: String) {
        warnings.append((nil, "\(path): \(problem)"))
    }

    mutating func integer(_ value: TOMLValue, key: String, range: ClosedRange<Int>, default fallback: Int) -> Int {
        guard let number = value.int else {
            warn(key, "\(key) must be a whole number from \(range.lowerBound) to \(range.upperBound); using \(fallback)")
            return fallback
        }
        guard range.contains(number) else {
            let clamped = min(max(number, range.lowerBound), range.upperBound)
            warn(key, "\(key) = \(number) is outside \(range.lowerBound)–\(range.upperBound); using \(clamped)")
            return clamped
        }
        return number
    }

    mutating func bool(_ value: TOMLValue, key: String) -> Bool? {
        if let flag = value.bool { return flag }
        warn(key, "\(key) must be true or false; ignoring it")
        return nil
    }

    mutating func timer(_ value: TOMLValue, key: String, default fallback: Int) -> Int {
        integer(value, key: key, range: MigaConfig.timerRange, default: fallback)
    }

    mutating func string(_ value: TOMLValue, key: String) -> String? {
        if let text = value.string { return text }
        warn(key, "\(key) must be a string in quotes; ignoring it")
        return nil
    }

    mutating func strings(_ value: TOMLValue, key: String) -> [String]? {
        guard let array = value.array else {
            warn(key, "\(key) must be a list of strings, like [\"a\", \"b\"]; ignoring it")
            return nil
        }
        var result: [String] = []
        for element in array {
            guard let text = element.string else {
                warn(key, "\(key) must hold only strings in quotes; ignoring it")
                return nil
            }
            result.append(text)
        }
        return result
    }

    mutating func categories(_ value: TOMLValue, default fallback: [ContentKind]) -> [ContentKind] {
        guard let names = strings(value, key: "categories") else { return fallback }
        var kinds: [ContentKind] = []
        for name in names {
            if let kind = ContentKind(categoryName: name) {
                if !kinds.contains(kind) { kinds.append(kind) }
            } else {
                warn("categories", "unknown category \"\(TerminalText.excerpt(name))\" (use quotes, affirmations, articles); skipping it")
            }
        }
        if kinds.isEmpty {
            warn("categories", "categories selects nothing; showing every kind")
            return fallback
        }
        return kinds
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
        var app = MigaConfig.App(name: name, command: name)
        self.table = table
        for key in table.keys {
            guard let entry = table[key] else { continue }
            guard ConfigKeys.perApp.contains(key) else {
                warn("apps.\(shown).\(key)", "unknown key \"\(TerminalText.excerpt(key))\" in [apps.\(shown)] ignored")
                continue
            }
            switch key {
            case "command":
                guard let command = string(entry, key: "apps.\(shown).command"), !command.isEmpty else { continue }
                // What the shims would run at every launch: a command that is no program's name
                // or path leaves the app ungated rather than run something else.
                if let problem = AppCheck.problem(withCommand: command) {
                    warn("apps.\(shown).command", "[apps.\(shown)] \(problem); \(shown) is not gated until it is fixed (\(AppCheck.commandAdvice))")
                    return nil
                }
                app.command = command
            case "timer_seconds":
                app.timerSeconds = timer(entry, key: "apps.\(shown).timer_seconds", default: 30)
            case "intention":
                app.intention = bool(entry, key: "apps.\(shown).intention")
            case "escalate_seconds":
                app.escalateSeconds = integer(entry, key: "apps.\(shown).escalate_seconds", range: MigaConfig.escalateRange, default: 0)
            default:
                continue // as above: the guard let through only the table's keys
            }
        }
        return app
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

    /// The line of each schedule table's first key, for messages about the whole table.
    var scheduleLines: [Int: Int] = [:]

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
