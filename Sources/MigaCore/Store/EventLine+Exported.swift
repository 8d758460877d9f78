/// The shape `events export` writes, read straight from the bytes: a million-line import spent
/// most of its time building a Foundation dictionary per line. Anything else — other key
/// order, escapes, non-ASCII text, a detail not already in the form the full parser writes it
/// back — returns nil and goes through `EventLine.parse`,
/// which accepts every valid line and words every error; this path only ever accepts what
/// that one would, with the same values (tested on every line shape the tests know).
extension EventLine {
    struct ExportedFields {
        var timestamp: Int64
        var offsetMinutes: Int
        var type: EventType
        /// Slices of the line, valid while it is.
        var session: UnsafeRawBufferPointer
        var app: UnsafeRawBufferPointer
        var contentID: UnsafeRawBufferPointer?
        var waitMilliseconds: Int?
        /// The detail's text, as the full parser would store it (`JSONValue.text`).
        var detail: UnsafeRawBufferPointer?
    }

    static func exportedFields(_ line: UnsafeRawBufferPointer) -> ExportedFields? {
        var cursor = ExportedLineCursor(line: line)
        return cursor.fields()
    }
}

/// The reading of `exportedFields`, as a value with mutating steps rather than functions
/// nested in it: those shared the position through a box whose every use Swift checked at
/// run time for overlapping access (a twentieth of a million-line import).
struct ExportedLineCursor {
    let line: UnsafeRawBufferPointer
    var index = 0

    mutating func fields() -> EventLine.ExportedFields? {
        guard literal("{\"ts\":\""), let ts = string(), let time = EventTimestamp.parse(bytes: ts),
              literal(",\"type\":\""), let typeBytes = string(), let type = EventType(bytes: typeBytes),
              literal(",\"app\":\""), let app = string(), !app.isEmpty,
              literal(",\"session\":\""), let session = string(), !session.isEmpty,
              literal(",\"content_id\":") else { return nil }
        var contentID: UnsafeRawBufferPointer?
        if !literal("null") {
            guard literal("\""), let text = string() else { return nil }
            contentID = text
        }
        guard literal(",\"wait_ms\":") else { return nil }
        var wait: Int?
        if !literal("null") {
            let start = index
            var value = 0
            while index < line.count, line[index] >= 48, line[index] <= 57, index - start < 12 {
                value = value * 10 + Int(line[index] - 48)
                index += 1
            }
            // JSON has no leading zeros; 12 digits would reach 1e12, which the full parser refuses.
            guard index > start, index - start < 12, line[start] != 48 || index - start == 1 else { return nil }
            wait = value
        }
        guard literal(",\"detail\":") else { return nil }
        var detail: UnsafeRawBufferPointer?
        if !literal("null") {
            let start = index
            guard canonicalDetail() else { return nil }
            detail = UnsafeRawBufferPointer(rebasing: line[start..<index])
        }
        guard literal("}") else { return nil }
        while index < line.count, line[index] == 0x20 || line[index] == 0x09 || line[index] == 0x0D { index += 1 }
        guard index == line.count else { return nil }
        return EventLine.ExportedFields(timestamp: time.unixMilliseconds, offsetMinutes: time.offsetMinutes, type: type,
                                        session: session, app: app, contentID: contentID, waitMilliseconds: wait, detail: detail)
    }

    mutating func literal(_ text: StaticString) -> Bool {
        guard ByteSearch.has(text, in: line, at: index) else { return false }
        index += text.utf8CodeUnitCount
        return true
    }

    /// A string's contents up to its closing quote (consumed): printable ASCII without escapes.
    mutating func string() -> UnsafeRawBufferPointer? {
        let start = index
        // Eight bytes a step while all are plain (a byte a step was a twentieth of an import);
        // the word with the quote, or anything else, is read byte by byte below.
        while line.count - index >= 8, Self.allPlain(line.loadUnaligned(fromByteOffset: index, as: UInt64.self)) { index += 8 }
        while index < line.count {
            let byte = line[index]
            if byte == UInt8(ascii: "\"") {
                defer { index += 1 }
                return UnsafeRawBufferPointer(rebasing: line[start..<index])
            }
            guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
            index += 1
        }
        return nil
    }

    /// Whether none of a word's eight bytes is a control character, DEL or above, a quote or a
    /// backslash: the bytes `string()` takes as they are. Each test is exact for the word as a
    /// whole (which byte matched is not needed): a byte below 0x20, one above 0x7E, and a zero
    /// byte after the quote's and the backslash's are taken away.
    static func allPlain(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }
        let below = (word &- ones &* 0x20) & ~word & highs
        let above = ((word &+ ones) | word) & highs
        return below | above == 0 && !hasZero(word ^ (ones &* 0x22)) && !hasZero(word ^ (ones &* 0x5C))
    }

    /// A whole number as JSON writes it (no sign, no leading zero), which the parser keeps as written.
    mutating func digits() -> Bool {
        let start = index
        while index < line.count, line[index] >= 48, line[index] <= 57, index - start < 16 { index += 1 }
        return index > start && index - start < 16 && (line[start] != 48 || index - start == 1)
    }

    /// A detail already in `JSONValue.text`'s form, which the full parser would give back
    /// byte for byte: compact, keys in order (no repeats), each value a string as `string()`
    /// reads them, a whole number, true, false or null. (A recorded focus, Open or timebox
    /// detail is: a dense history's details are nearly half its lines.)
    mutating func canonicalDetail() -> Bool {
        guard literal("{") else { return false }
        if literal("}") { return true }
        var previous: UnsafeRawBufferPointer?
        repeat {
            guard literal("\""), let key = string(), literal(":") else { return false }
            if let previous, !previous.lexicographicallyPrecedes(key) { return false }
            previous = key
            if literal("\"") {
                guard string() != nil else { return false }
            } else if !(literal("true") || literal("false") || literal("null") || digits()) {
                return false
            }
        } while literal(",")
        return literal("}")
    }
}

extension EventType {
    /// By length and a letter first (a million lines), then the whole name.
    init?(bytes: UnsafeRawBufferPointer) {
        let candidate: EventType
        switch (bytes.count, bytes.first) {
        case (13, UInt8(ascii: "s")?): candidate = .sessionStart
        case (12, UInt8(ascii: "c")?): candidate = .contentRead
        case (17, UInt8(ascii: "g")?): candidate = .gatewayCompleted
        case (13, UInt8(ascii: "e")?): candidate = .exitSelected
        case (13, UInt8(ascii: "o")?): candidate = .openSelected
        case (9, UInt8(ascii: "a")?): candidate = .abandoned
        case (10, UInt8(ascii: "g")?): candidate = .gracePass
        case (15, UInt8(ascii: "g")?): candidate = .gatewaySkipped
        case (13, UInt8(ascii: "t")?): candidate = .timeboxEnded
        case (16, UInt8(ascii: "s")?): candidate = .settingLoosened
        case (5, UInt8(ascii: "f")?): candidate = .focus
        default: return nil
        }
        var name = candidate.rawValue
        guard name.withUTF8({ ByteSearch.equal(bytes, UnsafeRawBufferPointer($0)) }) else { return nil }
        self = candidate
    }
}
