import TOML

/// A content pack that cannot be used, with where and why.
public struct ContentError: Error, CustomStringConvertible, Equatable {
    public var pack: String
    public var line: Int?
    public var problem: String

    public var description: String {
        "\(pack)\(line.map { ":\($0)" } ?? ""): \(problem)"
    }
}

/// Parses one TOML content pack (`[[items]]` tables, DESIGN "Content").
public enum ContentPack {
    public static let idAlphabet = Set("abcdefghijklmnopqrstuvwxyz0123456789-")
    /// A quote or affirmation is read at a glance; longer text belongs in an article.
    public static let maxShortLength = 300

    public static func parse(_ text: String, name: String) throws -> [ContentItem] {
        let table: TOMLTable
        do {
            table = try TOML.parse(text)
        } catch let error as TOMLError {
            throw ContentError(pack: name, line: error.line, problem: error.message)
        }
        guard let array = table["items"]?.array else {
            throw ContentError(pack: name, line: nil, problem: "no [[items]] tables found")
        }
        let itemLines = lineNumbersOfItemHeaders(in: text)
        var items: [ContentItem] = []
        var ids = Set<String>()
        for (index, element) in array.enumerated() {
            let line = index < itemLines.count ? itemLines[index] : nil
            func fail(_ problem: String) -> ContentError {
                ContentError(pack: name, line: line, problem: problem)
            }
            guard let entry = element.table else { throw fail("item \(index + 1) is not a table") }
            guard let id = entry["id"]?.string, !id.isEmpty else { throw fail("item \(index + 1) has no id") }
            guard id.allSatisfy(idAlphabet.contains) else {
                throw fail("id \"\(id)\" may only use lower-case letters, digits and -")
            }
            guard let kindName = entry["kind"]?.string else { throw fail("\(id): missing kind") }
            guard let kind = ContentKind(rawValue: kindName) else {
                throw fail("\(id): unknown kind \"\(kindName)\" (use quote, affirmation or article)")
            }
            guard let category = entry["category"]?.string, !category.isEmpty else {
                throw fail("\(id): missing category")
            }
            guard let body = entry["text"]?.string.map(trimmed), !body.isEmpty else {
                throw fail("\(id): missing text")
            }
            let title = entry["title"]?.string
            if kind == .article, title == nil { throw fail("\(id): an article needs a title") }
            if kind != .article, case let length = body.count, length > maxShortLength {
                throw fail("\(id): a \(kind.rawValue) of \(length) characters is too long (at most \(maxShortLength); make it an article)")
            }
            // Content reaches the terminal: an escape sequence in it could clear the screen or
            // write the clipboard. Text may keep its line breaks and tabs, nothing else may.
            for (field, value, allowed) in [("text", body, ["\n", "\t"] as Set<Unicode.Scalar>), ("title", title, []),
                                            ("author", entry["author"]?.string, []), ("category", category, [])] {
                if let value, let control = TerminalText.firstControl(in: value, allowing: allowed) {
                    throw fail("\(id): its \(field) holds the control character \(TerminalText.name(control)) (an escape sequence?); remove it")
                }
            }
            guard ids.insert(id).inserted else { throw fail("duplicate id \"\(id)\"") }
            items.append(ContentItem(id: id, kind: kind, category: category, text: body,
                                     author: entry["author"]?.string, title: title))
        }
        return items
    }

    // Every gate parses the bundled packs, so these two stay off Foundation's
    // `trimmingCharacters`, which goes through NSString and UTF-16 and cost most of the parse.

    private static func lineNumbersOfItemHeaders(in text: String) -> [Int] {
        text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            line.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }.starts(with: "[[items]]".utf8) ? index + 1 : nil
        }
    }

    /// Without leading and trailing white space (spaces, tabs, newlines).
    static func trimmed(_ text: String) -> String {
        var start = text.startIndex
        var end = text.endIndex
        while start < end, text[start].isWhitespace { text.formIndex(after: &start) }
        while end > start, text[text.index(before: end)].isWhitespace { text.formIndex(before: &end) }
        return String(text[start..<end])
    }
}
