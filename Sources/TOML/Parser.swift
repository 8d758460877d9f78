// Document structure: lines, headers, keys, values, arrays and inline tables.

extension Parser {
    /// Each line holds nothing, a comment, a `[header]`, or one `key = value` (whose value may
    /// continue over further lines); keys go into the table of the most recent header.
    mutating func parseDocument() throws(TOMLError) -> TOMLTable {
        var section = TableBuilder.root
        var sectionDepth = 0
        while pos < bytes.count {
            skipSpaces()
            switch peek() {
            case Byte.lf, Byte.cr, Byte.hash:
                try expectLineEnd(after: "a comment")
                continue
            case Byte.leftBracket:
                (section, sectionDepth) = try parseHeader()
                try expectLineEnd(after: "the table header")
            default:
                if atEnd { break }
                try parseKeyValue(into: section, depth: sectionDepth)
                try expectLineEnd(after: "the value")
            }
        }
        return tables.finish(TableBuilder.root)
    }

    /// `[a.b]` or `[[a.b]]`, cursor on the first `[`.
    private mutating func parseHeader() throws(TOMLError) -> (table: Int, depth: Int) {
        let isArray = peek(1) == Byte.leftBracket
        pos += isArray ? 2 : 1
        skipSpaces()
        let parts = try parseKey(what: "a table name")
        let closer = isArray ? "`]]` to close the array-of-tables header" : "`]` to close the table header"
        guard peek() == Byte.rightBracket else { throw expected(closer) }
        pos += 1
        if isArray {
            guard peek() == Byte.rightBracket else { throw expected(closer) }
            pos += 1
        }
        if parts.count > Parser.maxDepth {
            throw error("nesting deeper than \(Parser.maxDepth)", at: parts[Parser.maxDepth].offset)
        }
        return (try tables.openHeader(parts, isArray: isArray), parts.count)
    }

    /// A possibly dotted key; leaves the cursor after any spaces that follow it.
    private mutating func parseKey(what: String) throws(TOMLError) -> [KeyPart] {
        var parts: [KeyPart] = []
        while true {
            let start = pos
            let position = here()
            let name: String
            let b = peek()
            if b == Byte.quote || b == Byte.apostrophe {
                name = try parseQuotedKey()
            } else if Byte.isBareKey(b) {
                while pos < bytes.count && Byte.isBareKey(bytes[pos]) { pos += 1 }
                name = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<pos]), as: UTF8.self)
            } else {
                throw expected(parts.isEmpty ? what : "a key after `.`")
            }
            parts.append(KeyPart(name: name, offset: start, position: position))
            skipSpaces()
            guard peek() == Byte.dot else { return parts }
            pos += 1
            skipSpaces()
        }
    }

    /// `key = value` into `table`, whose own nesting depth is `depth`.
    private mutating func parseKeyValue(into table: Int, depth: Int) throws(TOMLError) {
        let parts = try parseKey(what: "a key")
        guard peek() == Byte.equals else { throw expected("`=` after the key") }
        pos += 1
        skipSpaces()
        if depth + parts.count > Parser.maxDepth {
            throw error("nesting deeper than \(Parser.maxDepth)", at: parts[max(0, Parser.maxDepth - depth)].offset)
        }
        let parent = try tables.prepareKeyValue(parts, in: table)
        let valuePosition = here()
        let value = try parseValue(depth: depth + parts.count)
        if let last = parts.last {
            tables.insert(value, named: last, into: parent, at: valuePosition)
        }
    }

    /// Any value, cursor on its first character. `depth` is the nesting depth the value sits at.
    private mutating func parseValue(depth: Int) throws(TOMLError) -> TOMLValue {
        switch peek() {
        case Byte.quote, Byte.apostrophe:
            return .string(try parseString())
        case Byte.leftBracket:
            return try parseArray(depth: depth)
        case Byte.leftBrace:
            return try parseInlineTable(depth: depth)
        default:
            return try parseUnquotedValue()
        }
    }

    /// `[ v, v, ]`: may span lines and hold comments; elements may be of mixed types.
    private mutating func parseArray(depth: Int) throws(TOMLError) -> TOMLValue {
        if depth > Parser.maxDepth {
            throw error("nesting deeper than \(Parser.maxDepth)", at: pos)
        }
        pos += 1
        var elements: [TOMLValue] = []
        while true {
            try skipBlankLines()
            if peek() == Byte.rightBracket {
                pos += 1
                return .array(elements)
            }
            if atEnd {
                throw expected("`]` to close the array")
            }
            elements.append(try parseValue(depth: depth + 1))
            try skipBlankLines()
            switch peek() {
            case Byte.comma:
                pos += 1
            case Byte.rightBracket:
                pos += 1
                return .array(elements)
            default:
                throw expected("`,` or `]` after an array element")
            }
        }
    }

    /// `{ k = v, ... }`: one line, no trailing comma, and closed to later additions.
    private mutating func parseInlineTable(depth: Int) throws(TOMLError) -> TOMLValue {
        if depth > Parser.maxDepth {
            throw error("nesting deeper than \(Parser.maxDepth)", at: pos)
        }
        pos += 1
        let table = tables.newNode(.inline)
        skipSpaces()
        if peek() == Byte.rightBrace {
            pos += 1
            return finishInline(table)
        }
        while true {
            skipSpaces()
            try rejectLineBreakInInlineTable()
            if peek() == Byte.rightBrace {
                throw error("trailing comma is not allowed in an inline table", at: pos)
            }
            try parseKeyValue(into: table, depth: depth)
            skipSpaces()
            try rejectLineBreakInInlineTable()
            switch peek() {
            case Byte.comma:
                pos += 1
            case Byte.rightBrace:
                pos += 1
                return finishInline(table)
            default:
                throw expected("`,` or `}` in the inline table")
            }
        }
    }

    private func rejectLineBreakInInlineTable() throws(TOMLError) {
        switch peek() {
        case Byte.lf, Byte.cr:
            throw error("line break in an inline table (inline tables must be on one line)", at: pos)
        case Byte.hash:
            throw error("comment in an inline table (inline tables must be on one line)", at: pos)
        default:
            if atEnd { throw expected("`}` to close the inline table") }
        }
    }

    private mutating func finishInline(_ table: Int) -> TOMLValue {
        let value = TOMLValue.table(tables.finish(table))
        tables.release(table)
        return value
    }
}
