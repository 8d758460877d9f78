// The byte-level cursor: the parser's state, positions, whitespace, comments and error text.
// Everything works on UTF-8 bytes; the document has already been checked to be valid UTF-8, so
// any byte >= 0x80 belongs to a well-formed scalar.

/// Byte values the grammar cares about, named so the code reads like the TOML ABNF.
enum Byte {
    static let tab: UInt8 = 0x09
    static let lf: UInt8 = 0x0A
    static let cr: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let quote: UInt8 = 0x22         // "
    static let hash: UInt8 = 0x23          // #
    static let apostrophe: UInt8 = 0x27    // '
    static let plus: UInt8 = 0x2B
    static let comma: UInt8 = 0x2C
    static let minus: UInt8 = 0x2D
    static let dot: UInt8 = 0x2E
    static let zero: UInt8 = 0x30
    static let nine: UInt8 = 0x39
    static let colon: UInt8 = 0x3A
    static let equals: UInt8 = 0x3D
    static let leftBracket: UInt8 = 0x5B
    static let backslash: UInt8 = 0x5C
    static let rightBracket: UInt8 = 0x5D
    static let underscore: UInt8 = 0x5F
    static let leftBrace: UInt8 = 0x7B
    static let rightBrace: UInt8 = 0x7D
    static let delete: UInt8 = 0x7F

    @inline(__always) static func isDigit(_ b: UInt8) -> Bool { b &- zero < 10 }

    /// A–Z a–z 0–9 _ - : the characters of a bare key.
    @inline(__always) static func isBareKey(_ b: UInt8) -> Bool {
        switch b {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, underscore, minus: return true
        default: return false
        }
    }

    /// Characters that can appear in an unquoted value (numbers, booleans, dates, inf, nan), so
    /// a whole malformed value is reported at once instead of the first odd character.
    @inline(__always) static func isValueText(_ b: UInt8) -> Bool {
        switch b {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, underscore, minus, plus, dot, colon: return true
        default: return false
        }
    }

    /// Control characters TOML forbids in strings and comments (tab is allowed; line ends are
    /// handled by the callers).
    @inline(__always) static func isControl(_ b: UInt8) -> Bool {
        (b < 0x20 && b != tab) || b == delete
    }
}

/// Turns byte offsets into line/column, scanning forward from the previous answer.
///
/// Keys and values are located in document order, so the total work is linear in the document
/// size however many positions are recorded; only a backwards query (errors) rescans.
struct LineMap {
    let origin: Int
    private var offset: Int
    private var line = 1
    private var column = 1

    init(origin: Int) {
        self.origin = origin
        self.offset = origin
    }

    mutating func position(at target: Int, in bytes: UnsafeBufferPointer<UInt8>) -> TOMLPosition {
        if target < offset {
            offset = origin
            line = 1
            column = 1
        }
        let end = min(target, bytes.count)
        var i = offset
        while i < end {
            let b = bytes[i]
            if b == Byte.lf {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 {  // count scalars: skip UTF-8 continuation bytes
                column += 1
            }
            i += 1
        }
        offset = max(end, origin)
        return TOMLPosition(line: line, column: column)
    }
}

/// The whole parse state. Parsing is one forward pass over `bytes`; nothing is re-scanned.
struct Parser {
    /// Deepest allowed nesting of tables and arrays. Bounds recursion (and the depth of the
    /// resulting value tree) so hostile input cannot exhaust the stack.
    static let maxDepth = 100

    let bytes: UnsafeBufferPointer<UInt8>
    /// First byte after a UTF-8 byte-order mark, if there is one.
    let origin: Int
    var pos: Int
    var lines: LineMap
    var tables = TableBuilder()

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        let hasBOM = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        origin = hasBOM ? 3 : 0
        pos = origin
        lines = LineMap(origin: origin)
    }

    /// The byte `ahead` places past the cursor, or 0 past the end. NUL is never valid TOML, so a
    /// 0 always leads to an error, and `describe` tells end of file and a real NUL apart.
    @inline(__always) func peek(_ ahead: Int = 0) -> UInt8 {
        let i = pos &+ ahead
        return i < bytes.count ? bytes[i] : 0
    }

    @inline(__always) func byte(at i: Int) -> UInt8 {
        i < bytes.count ? bytes[i] : 0
    }

    var atEnd: Bool { pos >= bytes.count }

    /// Position of the cursor; call in document order (see `LineMap`).
    mutating func here() -> TOMLPosition {
        lines.position(at: pos, in: bytes)
    }

    // MARK: Errors

    func error(_ message: String, at offset: Int) -> TOMLError {
        var map = LineMap(origin: origin)
        return TOMLError(message, at: map.position(at: offset, in: bytes))
    }

    /// `expected X, found Y` at the cursor.
    func expected(_ what: String) -> TOMLError {
        error("expected \(what), found \(describe(at: pos))", at: pos)
    }

    /// How the character at `offset` reads in a message: `x`, end of line, U+0007, ...
    func describe(at offset: Int) -> String {
        guard offset < bytes.count else { return "end of file" }
        let b = bytes[offset]
        switch b {
        case Byte.lf:
            return "end of line"
        case Byte.cr:
            return byte(at: offset + 1) == Byte.lf ? "end of line" : "a carriage return"
        case Byte.space:
            return "a space"
        case Byte.tab:
            return "a tab"
        case 0x21...0x7E:
            return "`" + String(UnicodeScalar(b)) + "`"
        case 0..<0x20, Byte.delete:
            return "control character " + Parser.codePoint(UInt32(b))
        default:
            let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
            let slice = UnsafeBufferPointer(rebasing: bytes[offset..<min(offset + length, bytes.count)])
            guard let scalar = String(decoding: slice, as: UTF8.self).unicodeScalars.first else {
                return "an invalid character"
            }
            let code = Parser.codePoint(scalar.value)
            let visible = !scalar.properties.isWhitespace && scalar.properties.generalCategory != .format
                && scalar.properties.generalCategory != .control
            return visible ? "`\(scalar)` (\(code))" : code
        }
    }

    static func codePoint(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// Error for a forbidden control character (or a CR without LF) at `offset`.
    func controlError(at offset: Int, in place: String) -> TOMLError {
        let b = byte(at: offset)
        if b == Byte.cr {
            return error("carriage return not followed by a line feed in \(place)", at: offset)
        }
        if b == Byte.lf {
            return error("line break in \(place)", at: offset)
        }
        return error("control character \(Parser.codePoint(UInt32(b))) is not allowed in \(place)", at: offset)
    }

    // MARK: Whitespace and comments

    @inline(__always) mutating func skipSpaces() {
        while pos < bytes.count, bytes[pos] == Byte.space || bytes[pos] == Byte.tab {
            pos += 1
        }
    }

    /// Consumes a `#` comment up to, not including, the line end.
    mutating func skipComment() throws(TOMLError) {
        pos += 1
        while pos < bytes.count {
            let b = bytes[pos]
            if !Byte.isControl(b) {
                pos += 1
            } else if b == Byte.lf || (b == Byte.cr && peek(1) == Byte.lf) {
                return
            } else {
                throw controlError(at: pos, in: "a comment")
            }
        }
    }

    /// Consumes LF or CRLF if the cursor is on one.
    @inline(__always) mutating func skipNewline() -> Bool {
        if peek() == Byte.lf {
            pos += 1
            return true
        }
        if peek() == Byte.cr && peek(1) == Byte.lf {
            pos += 2
            return true
        }
        return false
    }

    /// After a key/value pair or a header, only spaces and a comment may follow on the line.
    mutating func expectLineEnd(after what: String) throws(TOMLError) {
        skipSpaces()
        if peek() == Byte.hash {
            try skipComment()
        }
        if atEnd || skipNewline() {
            return
        }
        if peek() == Byte.cr {
            throw error("carriage return not followed by a line feed (use LF or CRLF line endings)", at: pos)
        }
        throw error("expected end of line after \(what), found \(describe(at: pos))", at: pos)
    }

    /// Spaces, newlines and comments, as allowed between array elements.
    mutating func skipBlankLines() throws(TOMLError) {
        while pos < bytes.count {
            switch bytes[pos] {
            case Byte.space, Byte.tab, Byte.lf:
                pos += 1
            case Byte.cr:
                guard peek(1) == Byte.lf else { throw controlError(at: pos, in: "an array") }
                pos += 2
            case Byte.hash:
                try skipComment()
            default:
                return
            }
        }
    }
}
