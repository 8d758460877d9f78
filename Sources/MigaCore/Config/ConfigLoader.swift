import Foundation
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
                        reader.warn(key, "breathing must be \"box\" or \"off\", not \"\(raw)\"; using \"box\"")
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
                reader.warn(key, "unknown key \"\(key)\" ignored")
            }
        }
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
                warn("categories", "unknown category \"\(name)\" (use quotes, affirmations, articles); skipping it")
            }
        }
        if kinds.isEmpty {
            warn("categories", "categories selects nothing; showing every kind")
            return fallback
        }
        return kinds
    }

    mutating func app(_ name: String, _ value: TOMLValue?) -> MigaConfig.App? {
        guard MigaConfig.isValidAppName(name) else {
            warnFile("app name \"\(name)\" may only use letters, digits and . _ + -; ignoring it")
            return nil
        }
        guard let table = value?.table else {
            warnFile("[apps.\(name)] must be a table; ignoring it")
            return nil
        }
        var app = MigaConfig.App(name: name, command: name)
        self.table = table
        for key in table.keys {
            guard let entry = table[key] else { continue }
            switch key {
            case "command":
                if let command = string(entry, key: "apps.\(name).command"), !command.isEmpty {
                    app.command = command
                }
            case "timer_seconds":
                app.timerSeconds = timer(entry, key: "apps.\(name).timer_seconds", default: 30)
            default:
                warn("apps.\(name).\(key)", "unknown key \"\(key)\" in [apps.\(name)] ignored")
            }
        }
        return app
    }
}
