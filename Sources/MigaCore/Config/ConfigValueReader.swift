import TOML

/// Value checks that collect warnings with the line each key is on, as the parser recorded
/// it (one lookup per warning: thousands of unknown keys cost milliseconds). The loader reads
/// the file's tables with it, and each entry of `ConfigKeys.table` its own value.
struct ConfigValueReader {
    let path: String
    /// The table whose keys are being read, for their positions.
    var table = TOMLTable()
    var warnings: [(line: Int?, text: String)] = []
    /// The line of each `[[schedule]]` table's first key, for the loader's messages about a
    /// whole table.
    var scheduleLines: [Int: Int] = [:]

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

    /// A flag, or nil when the value is not one: the warning names `fallback` when given, else
    /// says the value is ignored.
    mutating func bool(_ value: TOMLValue, key: String, using fallback: Bool? = nil) -> Bool? {
        if let flag = value.bool { return flag }
        warn(key, "\(key) must be true or false; " + (fallback.map { "using \($0)" } ?? "ignoring it"))
        return nil
    }

    mutating func string(_ value: TOMLValue, key: String) -> String? {
        if let text = value.string { return text }
        warn(key, "\(key) must be a string in quotes; ignoring it")
        return nil
    }

    mutating func folder(_ value: TOMLValue, key: String) -> String? {
        guard let text = string(value, key: key) else { return nil }
        if let problem = SyncFolderSetting.problem(text) {
            warn(key, "\(key) must be \(problem); ignoring it")
            return nil
        }
        return text
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

    /// One of `Choice`'s cases by its raw value, or nil (keeping `fallback`) with a warning.
    mutating func choice<Choice: RawRepresentable & CaseIterable>(_ value: TOMLValue, key: String,
                                                                  default fallback: Choice) -> Choice? where Choice.RawValue == String {
        guard let raw = string(value, key: key) else { return nil }
        if let choice = Choice(rawValue: raw) { return choice }
        let choices = Choice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
        warn(key, "\(key) must be \(choices), not \"\(TerminalText.excerpt(raw))\"; using \"\(fallback.rawValue)\"")
        return nil
    }

    /// The names of `choices` the list holds, once each; another name is skipped with a warning.
    mutating func someOf(_ value: TOMLValue, key: String, choices: [String]) -> [String]? {
        guard let names = strings(value, key: key) else { return nil }
        var chosen: [String] = []
        for name in names {
            if !choices.contains(name) {
                warn(key, "unknown \(key) \"\(TerminalText.excerpt(name))\" (use \(choices.joined(separator: ", "))); skipping it")
            } else if !chosen.contains(name) {
                chosen.append(name)
            }
        }
        return chosen
    }

    mutating func categories(_ value: TOMLValue, key: String, default fallback: [ContentKind]) -> [ContentKind] {
        guard let names = strings(value, key: key) else { return fallback }
        var kinds: [ContentKind] = []
        for name in names {
            if let kind = ContentKind(categoryName: name) {
                if !kinds.contains(kind) { kinds.append(kind) }
            } else {
                warn(key, "unknown category \"\(TerminalText.excerpt(name))\" (use quotes, affirmations, articles); skipping it")
            }
        }
        if kinds.isEmpty {
            warn(key, "\(key) selects nothing; showing every kind")
            return fallback
        }
        return kinds
    }
}
