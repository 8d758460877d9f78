import Foundation

/// Edits `config.toml` as text, one table or key at a time, so the person's comments, blank
/// lines and key order survive: miga changes what it was asked to and nothing else.
public struct ConfigEditor: Equatable {
    public private(set) var lines: [String]

    public init(text: String) {
        lines = text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
    }

    public var text: String { lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n" }

    /// Appends an `[apps.NAME]` table.
    public mutating func addApp(_ app: MigaConfig.App) {
        if !lines.isEmpty, lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == false { lines.append("") }
        lines.append("[apps.\(Self.key(app.name))]")
        lines.append("command = \(Self.string(app.command))")
        if let timer = app.timerSeconds { lines.append("timer_seconds = \(timer)") }
    }

    /// Removes the `[apps.NAME]` table (and the blank line that separated it); false when no
    /// such table is written as a table header.
    @discardableResult
    public mutating func removeApp(_ name: String) -> Bool {
        guard let header = lines.firstIndex(where: { Self.headerPath($0) == ["apps", name] }) else { return false }
        let next = lines[(header + 1)...].firstIndex { Self.headerPath($0) != nil } ?? lines.count
        // Comments and blank lines just above the next table belong to it.
        var end = next
        while end > header + 1, Self.isBlankOrComment(lines[end - 1]) { end -= 1 }
        var start = header
        if start > 0, lines[start - 1].trimmingCharacters(in: .whitespaces).isEmpty { start -= 1 }
        lines.removeSubrange(start..<end)
        return true
    }

    /// Sets the top-level `sites` array, in place when it is written, else before the first table.
    public mutating func setSites(_ sites: [String]) {
        let value = "sites = [" + sites.map(Self.string).joined(separator: ", ") + "]"
        let firstTable = lines.firstIndex { Self.headerPath($0) != nil } ?? lines.count
        if let start = lines[..<firstTable].firstIndex(where: { Self.assignedKey($0) == "sites" }) {
            var depth = 0
            var end = start
            var trailing = ""
            scan: for index in start..<firstTable {
                end = index
                var inString = false
                var escaped = false
                let line = lines[index]
                for (offset, character) in line.enumerated() {
                    if inString {
                        if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                        continue
                    }
                    switch character {
                    case "\"": inString = true
                    case "[": depth += 1
                    case "]":
                        depth -= 1
                        if depth == 0 {
                            trailing = String(line.dropFirst(offset + 1))
                            break scan
                        }
                    case "#" where depth > 0: continue scan // a comment inside a multi-line array
                    default: break
                    }
                }
            }
            lines.replaceSubrange(start...end, with: [value + trailing])
        } else if firstTable < lines.count {
            lines.insert(contentsOf: [value, ""], at: firstTable)
        } else {
            lines.append(value)
        }
    }

    // MARK: - TOML spelling

    /// A key as TOML wants it: bare when it can be, quoted otherwise (`my.app`).
    static func key(_ name: String) -> String {
        let bare = !name.isEmpty && name.unicodeScalars.allSatisfy {
            ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
        }
        return bare ? name : string(name)
    }

    /// A TOML basic string.
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += String(format: "\\u%04X", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// The dotted path of a `[table]` header line (`[apps."my.app"]` → apps, my.app).
    static func headerPath(_ line: String) -> [String]? {
        var text = Substring(line.trimmingCharacters(in: .whitespaces))
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
            case ".": parts.append(current.trimmingCharacters(in: .whitespaces)); current = ""
            case "]":
                parts.append(current.trimmingCharacters(in: .whitespaces))
                return parts
            default: current.append(character)
            }
        }
        return nil
    }

    static func assignedKey(_ line: String) -> String? {
        guard let equals = line.firstIndex(of: "=") else { return nil }
        let key = line[..<equals].trimmingCharacters(in: .whitespaces)
        return key.isEmpty || key.hasPrefix("#") ? nil : key
    }

    static func isBlankOrComment(_ line: String) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty || trimmed.hasPrefix("#")
    }
}
