import TOMLKit

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
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ContentError(pack: name, line: error.source.begin.line, problem: error.description)
        }
        guard let array = table["items"]?.array else {
            throw ContentError(pack: name, line: nil, problem: "no [[items]] tables found")
        }
        let itemLines = lineNumbersOfItemHeaders(in: text)
        var items: [ContentItem] = []
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
            guard let body = entry["text"]?.string,
                  !body.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw fail("\(id): missing text")
            }
            let title = entry["title"]?.string
            if kind == .article, title == nil { throw fail("\(id): an article needs a title") }
            let length = body.trimmingCharacters(in: .whitespacesAndNewlines).count
            if kind != .article, length > maxShortLength {
                throw fail("\(id): a \(kind.rawValue) of \(length) characters is too long (at most \(maxShortLength); make it an article)")
            }
            if items.contains(where: { $0.id == id }) { throw fail("duplicate id \"\(id)\"") }
            items.append(ContentItem(id: id, kind: kind, category: category,
                                     text: body.trimmingCharacters(in: .whitespacesAndNewlines),
                                     author: entry["author"]?.string, title: title))
        }
        return items
    }

    private static func lineNumbersOfItemHeaders(in text: String) -> [Int] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            line.trimmingCharacters(in: .whitespaces).hasPrefix("[[items]]") ? index + 1 : nil
        }
    }
}
