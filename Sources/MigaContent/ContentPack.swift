import TOML

/// A content pack that cannot be used, with where and why.
public struct ContentError: Error, CustomStringConvertible, Equatable {
    public var pack: String
    public var line: Int?
    public var problem: String

    public init(pack: String, line: Int?, problem: String) {
        self.pack = pack
        self.line = line
        self.problem = problem
    }

    public var description: String {
        "\(pack)\(line.map { ":\($0)" } ?? ""): \(problem)"
    }
}

/// Parses one TOML content pack (`[[items]]` tables, DESIGN "Content").
public enum ContentPack {
    public static let idAlphabet = Set("abcdefghijklmnopqrstuvwxyz0123456789-")
    /// A quote or affirmation is read at a glance; longer text belongs in an article.
    public static let maxShortLength = 300

    /// The keys an item may have; any other is reported (and ignored) by `check`.
    public static let itemKeys: Set<String> = ["id", "kind", "category", "text", "author", "title", "image"]

    /// What `check` found in a pack: the usable items, every problem (each item with one is
    /// left out), and warnings that leave the item usable (unknown keys).
    public struct Report {
        public var items: [ContentItem] = []
        public var problems: [ContentError] = []
        public var warnings: [ContentError] = []

        public init() {}
    }

    /// A pack whose every item is usable, or the first problem (gates skip a broken pack whole).
    public static func parse(_ text: String, name: String) throws -> [ContentItem] {
        let report = check(text, name: name)
        if let first = report.problems.first { throw first }
        return report.items
    }

    /// Every problem and warning of a pack, each with its item's line (`content validate`).
    public static func check(_ text: String, name: String) -> Report {
        var report = Report()
        let table: TOMLTable
        do {
            table = try TOML.parse(text)
        } catch let error as TOMLError {
            report.problems.append(ContentError(pack: name, line: error.line, problem: error.message))
            return report
        } catch {
            report.problems.append(ContentError(pack: name, line: nil, problem: "\(error)"))
            return report
        }
        guard let array = table["items"]?.array else {
            report.problems.append(ContentError(pack: name, line: nil, problem: "no [[items]] tables found"))
            return report
        }
        let itemLines = lineNumbersOfItemHeaders(in: text)
        var firstLine: [String: Int?] = [:]
        for (index, element) in array.enumerated() {
            let line = index < itemLines.count ? itemLines[index] : nil
            func error(_ problem: String) -> ContentError { ContentError(pack: name, line: line, problem: problem) }
            guard let entry = element.table else {
                report.problems.append(error("item \(index + 1) is not a table"))
                continue
            }
            let label = entry["id"]?.string.map { "\(TerminalText.excerpt($0)): " } ?? "item \(index + 1): "
            for key in entry.keys where !itemKeys.contains(key) {
                report.warnings.append(error("\(label)unknown key \"\(TerminalText.excerpt(key))\" is ignored (keys: \(itemKeys.sorted().joined(separator: ", ")))"))
            }
            var problems: [String] = []
            let id = entry["id"]?.string ?? ""
            if id.isEmpty {
                problems.append("item \(index + 1) has no id")
            } else if !id.allSatisfy(idAlphabet.contains) {
                problems.append("id \"\(TerminalText.excerpt(id))\" may only use lower-case letters, digits and -")
            } else if let earlier = firstLine[id] {
                problems.append("duplicate id \"\(TerminalText.excerpt(id))\" (first used at line \(earlier.map(String.init) ?? "?"))")
            } else {
                firstLine[id] = line
            }
            let kindName = entry["kind"]?.string
            let kind = kindName.flatMap(ContentKind.init(rawValue:))
            if kindName == nil {
                problems.append("\(label)missing kind")
            } else if kind == nil {
                problems.append("\(label)unknown kind \"\(TerminalText.excerpt(kindName!))\" (use quote, affirmation or article)")
            }
            let category = entry["category"]?.string ?? ""
            if category.isEmpty { problems.append("\(label)missing category") }
            let body = entry["text"]?.string.map(trimmed) ?? ""
            if body.isEmpty { problems.append("\(label)missing text") }
            let title = entry["title"]?.string
            if kind == .article, title == nil { problems.append("\(label)an article needs a title") }
            if let kind, kind != .article, case let length = body.count, length > maxShortLength {
                problems.append("\(label)a \(kind.rawValue) of \(length) characters is too long (at most \(maxShortLength); make it an article)")
            }
            // Content reaches the terminal: an escape sequence in it could clear the screen or
            // write the clipboard. Text may keep its line breaks and tabs, nothing else may.
            for (field, value, allowed) in [("text", body, ["\n", "\t"] as [Unicode.Scalar]), ("title", title, []),
                                            ("author", entry["author"]?.string, []), ("category", category, [])] {
                if let value, let control = TerminalText.firstControl(in: value, allowing: allowed) {
                    problems.append("\(label)its \(field) holds the control character \(TerminalText.name(control)) (an escape sequence?); remove it")
                }
            }
            // A picture is a path to a file of the person's own: absolute or under `~/`. A file
            // that is missing or unusable when shown is skipped then, never an error here.
            let image = entry["image"]?.string
            if entry["image"] != nil, !isImagePath(image) {
                problems.append("\(label)image must be a path in quotes, absolute or starting with ~/ (like \"~/Pictures/kids.jpg\")")
            }
            guard problems.isEmpty, let kind else {
                report.problems += problems.map(error)
                continue
            }
            report.items.append(ContentItem(id: id, kind: kind, category: category, text: body,
                                            author: entry["author"]?.string, title: title, image: image))
        }
        return report
    }

    /// An item's `image` as a pack may write it: absolute or under `~/`, no control characters.
    static func isImagePath(_ path: String?) -> Bool {
        guard let path, path.hasPrefix("/") || path.hasPrefix("~/"), path.utf8.count <= 4096 else { return false }
        return TerminalText.firstControl(in: path, allowing: []) == nil
    }

    // `content validate` and every gate with packs of the person's own parse here, so these
    // two stay byte- and character-level (no Foundation).

    private static func lineNumbersOfItemHeaders(in text: String) -> [Int] {
        let header = Array("[[items]]".utf8)
        var numbers: [Int] = []
        var text = text
        text.withUTF8 { bytes in
            var line = 1, index = 0
            while index < bytes.count {
                // At a line's start: past its indentation, does the header begin here?
                while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
                if bytes.count - index >= header.count, header.indices.allSatisfy({ bytes[index + $0] == header[$0] }) { numbers.append(line) }
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                index += 1
                line += 1
            }
        }
        return numbers
    }

    /// Without leading and trailing white space (spaces, tabs, newlines).
    package static func trimmed(_ text: String) -> String {
        var start = text.startIndex
        var end = text.endIndex
        while start < end, text[start].isWhitespace { text.formIndex(after: &start) }
        while end > start, text[text.index(before: end)].isWhitespace { text.formIndex(before: &end) }
        return String(text[start..<end])
    }
}
