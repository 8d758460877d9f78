import FoundationEssentials
import JSON

/// Edits `config.toml` as text, one table or key at a time, so the person's comments, blank
/// lines and key order survive: miga changes what it was asked to and nothing else.
public struct ConfigEditor: Equatable {
    public private(set) var lines: [String]

    public init(text: String) {
        lines = text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
    }

    public var text: String { lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n" }

    /// The configuration the edited text gives; an edit that broke the file is refused.
    public func parsed(path: String) throws -> MigaConfig {
        do {
            return try ConfigLoader().parse(text, path: path).config
        } catch {
            throw ConfigError.notEditable(path: path, problem: "this change would not parse (\(error))")
        }
    }

    /// Appends an `[apps.NAME]` table.
    public mutating func addApp(_ app: MigaConfig.App) {
        if !lines.isEmpty, lines.last?.trimming(.whitespaces).isEmpty == false { lines.append("") }
        lines.append("[apps.\(Self.key(app.name))]")
        lines.append("command = \(Self.string(app.command))")
        if let timer = app.timerSeconds { lines.append("timer_seconds = \(timer)") }
    }

    /// Removes the `[apps.NAME]` table (and the blank line that separated it); false when no
    /// such table is written as a table header.
    @discardableResult
    public mutating func removeApp(_ name: String) -> Bool {
        guard let header = lines.firstIndex(where: { Self.headerPath($0) == ["apps", name] }) else { return false }
        removeTable(at: header)
        return true
    }

    /// Removes the table whose header is line `header`, with the blank line that separated it.
    private mutating func removeTable(at header: Int) {
        let next = lines[(header + 1)...].firstIndex { Self.isHeader($0) } ?? lines.count
        // Comments and blank lines just above the next table belong to it.
        var end = next
        while end > header + 1, Self.isBlankOrComment(lines[end - 1]) { end -= 1 }
        var start = header
        if start > 0, lines[start - 1].trimming(.whitespaces).isEmpty { start -= 1 }
        lines.removeSubrange(start..<end)
    }

    /// Appends an `[[alternative]]` table.
    public mutating func addAlternative(_ alternative: Alternative) {
        if !lines.isEmpty, lines.last?.trimming(.whitespaces).isEmpty == false { lines.append("") }
        lines.append(contentsOf: alternative.tomlLines)
    }

    /// Removes the `number`th `[[alternative]]` table (1-based, as the loader numbers them,
    /// a table it left out included); false when there is none.
    @discardableResult
    public mutating func removeAlternative(_ number: Int) -> Bool {
        let headers = lines.indices.filter { lines[$0].trimming(.whitespaces).hasPrefix("[[alternative]]") }
        guard headers.indices.contains(number - 1) else { return false }
        removeTable(at: headers[number - 1])
        return true
    }

    /// Appends a `[[schedule]]` table of these `key = value` lines (TOML text).
    public mutating func addSchedule(_ assignments: [String]) {
        if !lines.isEmpty, lines.last?.trimming(.whitespaces).isEmpty == false { lines.append("") }
        lines.append("[[schedule]]")
        lines.append(contentsOf: assignments)
    }

    /// Removes the `number`th `[[schedule]]` table (1-based, as `Schedule.index` numbers
    /// them); false when there is none.
    @discardableResult
    public mutating func removeSchedule(_ number: Int) -> Bool {
        let headers = lines.indices.filter { lines[$0].trimming(.whitespaces).hasPrefix("[[schedule]]") }
        guard headers.indices.contains(number - 1) else { return false }
        removeTable(at: headers[number - 1])
        return true
    }

    /// Sets the top-level `sites` array, in place when it is written, else before the first table.
    public mutating func setSites(_ sites: [String]) {
        setValue("[" + sites.map(Self.string).joined(separator: ", ") + "]", forKey: "sites")
    }

    /// Sets `key` to `value` (TOML text) at the top level (`table` nil), in `[apps.NAME]`
    /// (`table` ["apps", NAME], which must exist) or in `[site."NAME"]` (made at the end when
    /// it is not there): in place when the key is written, keeping the spacing before the value
    /// and any comment after it; otherwise added where it belongs. False when the table is not
    /// written as a table header.
    @discardableResult
    public mutating func setValue(_ value: String, forKey key: String, table: [String]? = nil) -> Bool {
        if let table, table.first == "site", !lines.contains(where: { Self.headerPath($0) == table }) {
            if !lines.isEmpty, lines.last?.trimming(.whitespaces).isEmpty == false { lines.append("") }
            lines.append("[" + table.map(Self.key).joined(separator: ".") + "]")
        }
        let firstTable = lines.firstIndex { Self.isHeader($0) } ?? lines.count
        let range: Range<Int>
        if let table {
            guard let header = lines.firstIndex(where: { Self.headerPath($0) == table }) else { return false }
            let next = lines[(header + 1)...].firstIndex { Self.isHeader($0) } ?? lines.count
            range = (header + 1)..<next
        } else {
            range = 0..<firstTable
        }
        if let start = lines[range].firstIndex(where: { Self.assignedKey($0).map(Self.unquotedKey) == key }) {
            let line = lines[start]
            var prefix = line[...line.firstIndex(of: "=")!]
            let afterEquals = line[prefix.endIndex...]
            prefix += afterEquals.prefix { $0 == " " || $0 == "\t" }
            let (end, trailing) = valueEnd(from: start, limit: range.upperBound)
            lines.replaceSubrange(start...end, with: [String(prefix) + value + trailing])
            return true
        }
        let assignment = "\(Self.key(key)) = \(value)"
        if table != nil {
            // After the table's last key, before blank lines and comments that lead to the next.
            var index = range.upperBound
            while index > range.lowerBound, Self.isBlankOrComment(lines[index - 1]) { index -= 1 }
            lines.insert(assignment, at: index)
        } else if firstTable < lines.count {
            lines.insert(contentsOf: [assignment, ""], at: firstTable) // top-level keys go before any table
        } else {
            lines.append(assignment)
        }
        return true
    }

    /// Where the value that starts on line `start` ends (arrays may span lines), and the
    /// comment after it on its last line (with the spaces before it).
    private func valueEnd(from start: Int, limit: Int) -> (Int, String) {
        var depth = 0
        var quote: Character?
        var escaped = false
        for index in start..<max(limit, start + 1) {
            let line = lines[index]
            var characters = Array(line)
            if index == start { characters = Array(line[line.index(after: line.firstIndex(of: "=")!)...]) }
            var offset = 0
            while offset < characters.count {
                let character = characters[offset]
                if let open = quote {
                    if escaped { escaped = false } else if character == "\\" && open == "\"" { escaped = true } else if character == open { quote = nil }
                } else {
                    switch character {
                    case "\"", "'": quote = character
                    case "[", "{": depth += 1
                    case "]", "}": depth -= 1
                    case "#":
                        if depth == 0 {
                            var commentStart = offset
                            while commentStart > 0, characters[commentStart - 1] == " " || characters[commentStart - 1] == "\t" { commentStart -= 1 }
                            return (index, String(characters[commentStart...]))
                        }
                        offset = characters.count // a comment inside a multi-line array
                        continue
                    default: break
                    }
                }
                offset += 1
            }
            if depth <= 0 { return (index, "") }
        }
        return (start, "")
    }

    static func unquotedKey(_ key: String) -> String {
        if key.count >= 2, let first = key.first, first == "\"" || first == "'", key.last == first {
            return String(key.dropFirst().dropLast())
        }
        return key
    }

    // MARK: - TOML spelling

    /// A key as TOML wants it: bare when it can be, quoted otherwise (`my.app`).
    static func key(_ name: String) -> String {
        let bare = !name.isEmpty && name.unicodeScalars.allSatisfy {
            ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
        }
        return bare ? name : string(name)
    }

    /// A TOML basic string: its escapes are JSON's, so one writer serves both.
    static func string(_ text: String) -> String { JSONText.string(text) }

    /// The dotted path of a `[table]` header line (`[apps."my.app"]` → apps, my.app).
    static func headerPath(_ line: String) -> [String]? {
        var text = Substring(line.trimming(.whitespaces))
        guard text.hasPrefix("["), !text.hasPrefix("[[") else { return nil }
        text = text.dropFirst()
        var parts: [String] = []
        var current = ""
        var quote: Character?
        while let character = text.first {
            text = text.dropFirst()
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
                continue
            }
            switch character {
            case "\"", "'": quote = character
            case ".": parts.append(current.trimming(.whitespaces)); current = ""
            case "]":
                parts.append(current.trimming(.whitespaces))
                return parts
            default: current.append(character)
            }
        }
        return nil
    }

    /// Any table header, `[[schedule]]` too: where the keys of the table above end.
    static func isHeader(_ line: String) -> Bool {
        if headerPath(line) != nil { return true }
        let text = line.trimming(.whitespaces)
        return text.hasPrefix("[[") && text.contains("]]")
    }

    static func assignedKey(_ line: String) -> String? {
        guard let equals = line.firstIndex(of: "=") else { return nil }
        let key = line[..<equals].trimming(.whitespaces)
        return key.isEmpty || key.hasPrefix("#") ? nil : key
    }

    static func isBlankOrComment(_ line: String) -> Bool {
        let trimmed = line.trimming(.whitespaces)
        return trimmed.isEmpty || trimmed.hasPrefix("#")
    }
}
