import FoundationEssentials

/// A desktop entry file (Desktop Entry Specification 1.5), kept line by line exactly as read,
/// so a shim can change a few lines and leave every other byte alone.
public struct DesktopEntry: Equatable {
    public static let mainGroup = "Desktop Entry"

    public enum Line: Equatable {
        /// A blank line or a `#` comment.
        case other(String)
        case group(String)
        /// `Key[locale]=value`; `value` is the raw text after `=`, escapes and all.
        case entry(key: String, locale: String?, value: String)
    }

    public var lines: [Line]
    /// Each line's original text, for byte-for-byte output of untouched lines.
    public var rawLines: [String]

    public init(text: String, name: String) throws {
        var lines: [Line] = []
        var raw: [String] = []
        var seenGroup = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let text = String(line)
            raw.append(text)
            let number = index + 1
            let trimmed = text.trimming(.whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") {
                lines.append(.other(text))
            } else if trimmed.hasPrefix("[") {
                guard trimmed.hasSuffix("]"), trimmed.count > 2 else {
                    throw DesktopEntryError(file: name, line: number, problem: "malformed group header")
                }
                let group = String(trimmed.dropFirst().dropLast())
                if !seenGroup, group != Self.mainGroup {
                    throw DesktopEntryError(file: name, line: number, problem: "the first group must be [Desktop Entry]")
                }
                seenGroup = true
                lines.append(.group(group))
            } else if let equals = text.firstIndex(of: "=") {
                guard seenGroup else {
                    throw DesktopEntryError(file: name, line: number, problem: "key outside any group")
                }
                let name = text[..<equals].trimming(.whitespaces)
                var value = text[text.index(after: equals)...]
                while value.first == " " || value.first == "\t" { value = value.dropFirst() }
                var key = name
                var locale: String?
                if let open = name.firstIndex(of: "["), name.hasSuffix("]") {
                    key = String(name[..<open])
                    locale = String(name[name.index(after: open)..<name.index(before: name.endIndex)])
                }
                lines.append(.entry(key: key, locale: locale, value: String(value)))
            } else {
                throw DesktopEntryError(file: name, line: number, problem: "not a group, a key=value line or a comment")
            }
        }
        guard seenGroup else {
            throw DesktopEntryError(file: name, line: nil, problem: "no [Desktop Entry] group")
        }
        self.lines = lines
        self.rawLines = raw
    }

    /// The groups in file order.
    public var groups: [String] {
        lines.compactMap { if case .group(let name) = $0 { return name } else { return nil } }
    }

    /// The raw (still escaped) value of an unlocalised key in `group`.
    public func rawValue(_ key: String, in group: String = DesktopEntry.mainGroup) -> String? {
        var current: String?
        for line in lines {
            switch line {
            case .group(let name): current = name
            case .entry(let entryKey, nil, let value) where current == group && entryKey == key: return value
            default: break
            }
        }
        return nil
    }

    /// The value of a string key with the specification's escapes (`\s \n \t \r \\`) applied.
    public func string(_ key: String, in group: String = DesktopEntry.mainGroup) -> String? {
        rawValue(key, in: group).map(Self.unescape)
    }

    public func boolean(_ key: String, in group: String = DesktopEntry.mainGroup) -> Bool? {
        switch rawValue(key, in: group) {
        case "true": return true
        case "false": return false
        default: return nil
        }
    }

    /// The `[Desktop Action …]` groups listed or present.
    public var actionGroups: [String] {
        groups.filter { $0.hasPrefix("Desktop Action ") }
    }

    public static func unescape(_ raw: String) -> String {
        var result = ""
        var iterator = raw.makeIterator()
        while let character = iterator.next() {
            guard character == "\\", let next = iterator.next() else {
                result.append(character)
                continue
            }
            switch next {
            case "s": result.append(" ")
            case "n": result.append("\n")
            case "t": result.append("\t")
            case "r": result.append("\r")
            case "\\": result.append("\\")
            default: result.append("\\"); result.append(next) // Not a string escape: Exec's own.
            }
        }
        return result
    }

    /// The desktop-file ID of a file below an `applications/` folder: its relative path with
    /// `/` turned into `-` (Desktop Entry Specification, "Desktop File ID").
    public static func identifier(relativePath: String) -> String {
        relativePath.replacingEvery("/", with: "-")
    }
}

public struct DesktopEntryError: Error, CustomStringConvertible, Equatable {
    public var file: String
    public var line: Int?
    public var problem: String

    public var description: String {
        "\(file)\(line.map { ":\($0)" } ?? ""): \(problem); skipping it"
    }
}
