// The tables under construction and TOML's rules about who may define or extend them.
//
// Tables live in an arena (`nodes`) and refer to each other by index, so a header deep in the
// document extends its table in place: no copy-on-write of nested values, and every lookup is one
// dictionary access. Inline tables and arrays are immutable once written, so they are stored as
// finished `TOMLValue`s and anything that tries to reach into them fails.

/// One key of a dotted key or header, with where it was written.
struct KeyPart {
    var name: String
    var offset: Int
    var position: TOMLPosition
}

struct TableBuilder {
    /// How a table came to exist; decides what may still be done to it.
    enum Origin {
        /// Only as the parent in a header (`a` in `[a.b]`): may still get its own `[a]`, once.
        case implicit
        /// By a `[header]` or as an element of `[[array]]`: closed to further headers and to
        /// dotted keys from other tables.
        case header
        /// By dotted keys (`a.b = 1`): may gain sub-tables by header, but never its own header.
        case dotted
        /// By `{ ... }`: becomes a finished value when its closing brace is read.
        case inline
    }

    enum Content {
        case value(TOMLValue)
        case table(Int)        // index into `nodes`
        case tableArray(Int)   // index into `arrays`
    }

    struct Slot {
        var content: Content
        var keyPosition: TOMLPosition
        var valuePosition: TOMLPosition?
    }

    struct Node {
        var origin: Origin
        var keys: [String] = []
        var index: [String: Int] = [:]
        var slots: [Slot] = []
    }

    private(set) var nodes: [Node] = [Node(origin: .header)]  // the root: its keys come before any header
    private var arrays: [[Int]] = []

    static let root = 0

    mutating func newNode(_ origin: Origin) -> Int {
        nodes.append(Node(origin: origin))
        return nodes.count - 1
    }

    private func slot(_ name: String, in table: Int) -> Slot? {
        guard let at = nodes[table].index[name] else { return nil }
        return nodes[table].slots[at]
    }

    private mutating func add(_ name: String, _ slot: Slot, to table: Int) {
        nodes[table].index[name] = nodes[table].keys.count
        nodes[table].keys.append(name)
        nodes[table].slots.append(slot)
    }

    private mutating func addTable(_ part: KeyPart, _ origin: Origin, to table: Int) -> Int {
        let node = newNode(origin)
        add(part.name, Slot(content: .table(node), keyPosition: part.position, valuePosition: nil), to: table)
        return node
    }

    // MARK: Headers

    /// Resolves `[a.b.c]` or `[[a.b.c]]` and returns the table that following keys go into.
    mutating func openHeader(_ parts: [KeyPart], isArray: Bool) throws(TOMLError) -> Int {
        var table = TableBuilder.root
        for (n, part) in parts.enumerated() {
            let isLast = n == parts.count - 1
            // Named only in errors: made for every header part, it cost the gate 0.25M
            // instructions of generic joins before its first frame.
            var path: String { TableBuilder.path(parts[...n]) }
            guard let existing = slot(part.name, in: table) else {
                if !isLast {
                    table = addTable(part, .implicit, to: table)
                } else if isArray {
                    let element = newNode(.header)
                    arrays.append([element])
                    add(part.name, Slot(content: .tableArray(arrays.count - 1), keyPosition: part.position, valuePosition: nil), to: table)
                    return element
                } else {
                    return addTable(part, .header, to: table)
                }
                continue
            }
            let line = existing.keyPosition.line
            switch existing.content {
            case .value(let value):
                throw valueInTheWay(value, path, line, part.position)
            case .tableArray(let list):
                if !isLast {
                    // Sub-tables of `[[a]]` belong to its most recent element.
                    guard let last = arrays[list].last else { throw TOMLError("internal error: empty array of tables", at: part.position) }
                    table = last
                } else if isArray {
                    let element = newNode(.header)
                    arrays[list].append(element)
                    return element
                } else {
                    throw TOMLError("cannot define \(path) as a table: it is already an array of tables (line \(line))", at: part.position)
                }
            case .table(let node):
                if !isLast {
                    table = node
                } else if isArray {
                    throw TOMLError("cannot define \(path) as an array of tables: it is already a table (line \(line))", at: part.position)
                } else {
                    switch nodes[node].origin {
                    case .implicit:
                        // The first real header for a table so far only implied by `[a.b]`.
                        nodes[node].origin = .header
                        if let at = nodes[table].index[part.name] {
                            nodes[table].slots[at].keyPosition = part.position
                        }
                        return node
                    case .header, .inline:
                        throw TOMLError("duplicate table \(path) (first defined on line \(line))", at: part.position)
                    case .dotted:
                        throw TOMLError("cannot define table \(path) with a header: it was already defined by dotted keys on line \(line)", at: part.position)
                    }
                }
            }
        }
        throw TOMLError("expected a table name", at: parts.first?.position ?? TOMLPosition(line: 1, column: 1))
    }

    // MARK: Key/value pairs

    /// For `a.b.c = value` in `table`: creates or enters `a` and `b`, checks that `c` is new,
    /// and returns the table to put `c` into. Called before the value is parsed.
    mutating func prepareKeyValue(_ parts: [KeyPart], in table: Int) throws(TOMLError) -> Int {
        var table = table
        for (n, part) in parts.enumerated() {
            let isLast = n == parts.count - 1
            guard let at = nodes[table].index[part.name] else {
                if isLast { return table }
                table = addTable(part, .dotted, to: table)
                continue
            }
            let line = nodes[table].slots[at].keyPosition.line
            if isLast {
                throw TOMLError("duplicate key \(TableBuilder.quoted(part.name)) (first defined on line \(line))", at: part.position)
            }
            let existing = nodes[table].slots[at]
            let path = TableBuilder.path(parts[...n])
            switch existing.content {
            case .value(let value):
                throw valueInTheWay(value, path, line, part.position)
            case .tableArray:
                throw TOMLError("cannot add to array of tables \(path) with dotted keys (defined on line \(line))", at: part.position)
            case .table(let node):
                switch nodes[node].origin {
                case .implicit:
                    // Dotted keys now define it, so a later `[header]` for it is a redefinition.
                    nodes[node].origin = .dotted
                case .dotted:
                    break
                case .header, .inline:
                    throw TOMLError("cannot add to table \(path) with dotted keys: it was defined by a header on line \(line)", at: part.position)
                }
                table = node
            }
        }
        return table
    }

    mutating func insert(_ value: TOMLValue, named part: KeyPart, into table: Int, at valuePosition: TOMLPosition) {
        add(part.name, Slot(content: .value(value), keyPosition: part.position, valuePosition: valuePosition), to: table)
    }

    private func valueInTheWay(_ value: TOMLValue, _ path: String, _ line: Int, _ position: TOMLPosition) -> TOMLError {
        switch value {
        case .table:
            return TOMLError("cannot extend inline table \(path) (defined on line \(line)): inline tables are complete as written", at: position)
        case .array:
            return TOMLError("cannot use \(path) as a table: it is already an array value (line \(line))", at: position)
        default:
            let kind = value.kindName
            let article = kind.first.map { "aeiou".contains($0) } == true ? "an" : "a"
            return TOMLError("cannot use \(path) as a table: it is already \(article) \(kind) (line \(line))", at: position)
        }
    }

    // MARK: Finishing

    /// Freezes a table into a value. Each node is converted once (inline tables when they close,
    /// the rest at the end), and recursion is bounded by `Parser.maxDepth`.
    func finish(_ table: Int) -> TOMLTable {
        let node = nodes[table]
        var entries: [TOMLTable.Entry] = []
        entries.reserveCapacity(node.slots.count)
        for slot in node.slots {
            let value: TOMLValue
            switch slot.content {
            case .value(let v):
                value = v
            case .table(let child):
                value = .table(finish(child))
            case .tableArray(let list):
                value = .array(arrays[list].map { .table(finish($0)) })
            }
            entries.append(TOMLTable.Entry(value: value, keyPosition: slot.keyPosition, valuePosition: slot.valuePosition))
        }
        return TOMLTable(keys: node.keys, index: node.index, entries: entries)
    }

    /// Drops a finished inline table's storage; its value now lives in its parent.
    mutating func release(_ table: Int) {
        nodes[table] = Node(origin: .inline)
    }

    // MARK: Message text

    static func path(_ parts: ArraySlice<KeyPart>) -> String {
        "\"" + shortened(parts.map { escaped($0.name) }.joined(separator: ".")) + "\""
    }

    static func quoted(_ name: String) -> String {
        "\"" + shortened(escaped(name)) + "\""
    }

    /// The most of a key a message quotes, in Unicode scalars: about a line's worth, so a
    /// megabyte-long key makes a one-line message, not a megabyte one.
    static let quotedLimit = 80

    private static func shortened(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count > quotedLimit else { return text }
        return String(scalars.prefix(quotedLimit - 1)) + "…"
    }

    /// Keeps messages on one line and unambiguous whatever a quoted key contains.
    private static func escaped(_ name: String) -> String {
        var out = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u" + Parser.codePoint(scalar.value).dropFirst(2)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
