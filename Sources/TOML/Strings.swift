// The four TOML string forms. Each scans bytes once; text without escapes or CRLF is turned into
// a String straight from the input slice, anything else is assembled in a byte buffer.

extension Parser {
    /// Any string value, with the cursor on its opening quote.
    mutating func parseString() throws(TOMLError) -> String {
        let quote = peek()
        let multiline = peek(1) == quote && peek(2) == quote
        if quote == Byte.quote {
            return multiline ? try parseMultilineString(quote: quote) : try parseBasicString()
        }
        return multiline ? try parseMultilineString(quote: quote) : try parseLiteralString()
    }

    /// A quoted key: like a string value but never multi-line.
    mutating func parseQuotedKey() throws(TOMLError) -> String {
        let quote = peek()
        if peek(1) == quote && peek(2) == quote {
            throw error("a key cannot be a multi-line string", at: pos)
        }
        return quote == Byte.quote ? try parseBasicString() : try parseLiteralString()
    }

    private func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    private func unterminated(_ open: Int, _ closer: String) -> TOMLError {
        error("unterminated string: expected a closing \(closer) before the end of the line", at: open)
    }

    /// `"..."`: escapes, no line breaks.
    mutating func parseBasicString() throws(TOMLError) -> String {
        let open = pos
        pos += 1
        var runStart = pos
        var buffer: [UInt8] = []
        var escaped = false
        while pos < bytes.count {
            let b = bytes[pos]
            if b != Byte.quote && b != Byte.backslash && !Byte.isControl(b) {
                pos += 1
                continue
            }
            if b == Byte.quote {
                let end = pos
                pos += 1
                if !escaped { return text(runStart..<end) }
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<end]))
                return String(decoding: buffer, as: UTF8.self)
            }
            if b == Byte.backslash {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<pos]))
                escaped = true
                try parseEscape(into: &buffer)
                runStart = pos
                continue
            }
            if b == Byte.lf || (b == Byte.cr && peek(1) == Byte.lf) {
                throw unterminated(open, "`\"`")
            }
            throw controlError(at: pos, in: "a string (use an escape such as \\u0007)")
        }
        throw unterminated(open, "`\"`")
    }

    /// `'...'`: taken verbatim, no line breaks.
    mutating func parseLiteralString() throws(TOMLError) -> String {
        let open = pos
        pos += 1
        let start = pos
        while pos < bytes.count {
            let b = bytes[pos]
            if b == Byte.apostrophe {
                pos += 1
                return text(start..<(pos - 1))
            }
            if Byte.isControl(b) {
                if b == Byte.lf || (b == Byte.cr && peek(1) == Byte.lf) {
                    throw unterminated(open, "`'`")
                }
                throw controlError(at: pos, in: "a literal string")
            }
            pos += 1
        }
        throw unterminated(open, "`'`")
    }

    /// `"""..."""` or `'''...'''`. A newline right after the opening delimiter is dropped, CRLF is
    /// stored as LF (so a file saved on Windows reads the same), and up to two quotes may sit
    /// right before the closing delimiter.
    mutating func parseMultilineString(quote: UInt8) throws(TOMLError) -> String {
        let basic = quote == Byte.quote
        let open = pos
        pos += 3
        _ = skipNewline()
        var runStart = pos
        var buffer: [UInt8] = []
        var modified = false
        while pos < bytes.count {
            let b = bytes[pos]
            if b != quote && b != Byte.backslash && !Byte.isControl(b) {
                pos += 1
                continue
            }
            switch b {
            case quote:
                var run = 1
                while run < 6 && peek(run) == quote { run += 1 }
                if run < 3 {
                    pos += run
                    continue
                }
                if run == 6 {
                    throw error("too many quotes in a row: a multi-line string can end with at most five", at: pos)
                }
                let end = pos + run - 3  // the extra one or two quotes belong to the content
                pos += run
                if !modified { return text(runStart..<end) }
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<end]))
                return String(decoding: buffer, as: UTF8.self)
            case Byte.backslash where basic:
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<pos]))
                modified = true
                if try !skipLineEndingBackslash() {
                    try parseEscape(into: &buffer)
                }
                runStart = pos
            case Byte.backslash:
                pos += 1
            case Byte.lf:
                pos += 1
            case Byte.cr where peek(1) == Byte.lf:
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<pos]))
                buffer.append(Byte.lf)
                modified = true
                pos += 2
                runStart = pos
            default:
                throw controlError(at: pos, in: basic ? "a string (use an escape such as \\u0007)" : "a literal string")
            }
        }
        throw error("unterminated multi-line string: expected a closing \(basic ? "`\"\"\"`" : "`'''`")", at: open)
    }

    /// A `\` at the end of a line (optionally followed by spaces) in a multi-line basic string
    /// swallows the line break and all whitespace up to the next visible character.
    private mutating func skipLineEndingBackslash() throws(TOMLError) -> Bool {
        var i = pos + 1
        while byte(at: i) == Byte.space || byte(at: i) == Byte.tab { i += 1 }
        let b = byte(at: i)
        guard b == Byte.lf || (b == Byte.cr && byte(at: i + 1) == Byte.lf) else {
            return false
        }
        pos = i
        while pos < bytes.count {
            switch bytes[pos] {
            case Byte.space, Byte.tab, Byte.lf:
                pos += 1
            case Byte.cr where peek(1) == Byte.lf:
                pos += 2
            default:
                return true
            }
        }
        return true
    }

    /// One escape sequence, cursor on the backslash; appends its UTF-8 to `buffer`.
    private mutating func parseEscape(into buffer: inout [UInt8]) throws(TOMLError) {
        let start = pos
        let replacement: UInt8
        switch peek(1) {
        case 0x62: replacement = 0x08              // \b
        case 0x74: replacement = Byte.tab          // \t
        case 0x6E: replacement = Byte.lf           // \n
        case 0x66: replacement = 0x0C              // \f
        case 0x72: replacement = Byte.cr           // \r
        case Byte.quote: replacement = Byte.quote
        case Byte.backslash: replacement = Byte.backslash
        case 0x75: return try parseUnicodeEscape(digits: 4, into: &buffer)  // \uXXXX
        case 0x55: return try parseUnicodeEscape(digits: 8, into: &buffer)  // \UXXXXXXXX
        case let next:
            if next > 0x20 && next < 0x7F {
                throw error("invalid escape sequence `\\\(UnicodeScalar(next))`", at: start)
            }
            throw error("invalid escape sequence: `\\` followed by \(describe(at: start + 1))", at: start)
        }
        buffer.append(replacement)
        pos += 2
    }

    private mutating func parseUnicodeEscape(digits: Int, into buffer: inout [UInt8]) throws(TOMLError) {
        let start = pos
        let letter = digits == 4 ? "u" : "U"
        var value: UInt32 = 0
        for i in 0..<digits {
            let b = peek(2 + i)
            let digit: UInt8
            switch b {
            case 0x30...0x39: digit = b - 0x30
            case 0x41...0x46: digit = b - 0x41 + 10
            case 0x61...0x66: digit = b - 0x61 + 10
            default:
                throw error("`\\\(letter)` must be followed by exactly \(digits) hexadecimal digits", at: start)
            }
            value = value << 4 | UInt32(digit)
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw error("`\\\(letter)` escape \(Parser.codePoint(value)) is not a Unicode scalar value", at: start)
        }
        buffer.append(contentsOf: scalar.utf8)
        pos += 2 + digits
    }
}
