/// A TOML table: keys in document order, each with its value and where it was written.
///
/// Keeping order and positions lets miga echo settings back in the order the person wrote them
/// and point at the exact line of a setting it rejects.
public struct TOMLTable: Equatable, Sendable {
    /// What the table stores per key; `entries[i]` belongs to `keys[i]`.
    struct Entry: Sendable {
        var value: TOMLValue
        var keyPosition: TOMLPosition
        var valuePosition: TOMLPosition?
    }

    /// In document order: the order in which keys were first defined.
    public private(set) var keys: [String]
    var index: [String: Int]
    var entries: [Entry]

    /// The parser hands over its finished storage without re-hashing any key.
    init(keys: [String], index: [String: Int], entries: [Entry]) {
        self.keys = keys
        self.index = index
        self.entries = entries
    }

    public init() {
        self.init(keys: [], index: [:], entries: [])
    }

    /// A table built in code (positions are 0:0). A repeated key keeps its first place and last value.
    public init<Pairs: Sequence>(_ pairs: Pairs) where Pairs.Element == (String, TOMLValue) {
        self.init()
        let none = TOMLPosition(line: 0, column: 0)
        for (key, value) in pairs {
            if let at = index[key] {
                entries[at].value = value
            } else {
                index[key] = keys.count
                keys.append(key)
                entries.append(Entry(value: value, keyPosition: none, valuePosition: nil))
            }
        }
    }

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    public subscript(key: String) -> TOMLValue? {
        guard let at = index[key] else { return nil }
        return entries[at].value
    }

    /// Where `key` was written: the key itself in `key = value`, the key's name inside the header
    /// for a `[table]` or `[[array]]` (the first header, for arrays of tables), or the first dotted
    /// key that used it for a table made by dotted keys.
    public func position(of key: String) -> TOMLPosition? {
        guard let at = index[key] else { return nil }
        return entries[at].keyPosition
    }

    /// Where the value of `key` starts (its first character), or nil when the key has no value
    /// text of its own: tables made by headers or dotted keys, and arrays of tables.
    public func valuePosition(of key: String) -> TOMLPosition? {
        guard let at = index[key] else { return nil }
        return entries[at].valuePosition
    }

    /// Same keys in the same order with equal values; positions are ignored.
    public static func == (lhs: TOMLTable, rhs: TOMLTable) -> Bool {
        guard lhs.keys == rhs.keys else { return false }
        for i in lhs.entries.indices where lhs.entries[i].value != rhs.entries[i].value {
            return false
        }
        return true
    }
}

extension TOMLTable: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, TOMLValue)...) {
        self.init(elements)
    }
}
