// Unquoted values: booleans, integers, floats and date-times. The whole run of value characters
// is taken first and then checked against the grammar, so `truer`, `1__0` or `1987-7-05` are
// reported once with the full text.

extension Parser {
    mutating func parseUnquotedValue() throws(TOMLError) -> TOMLValue {
        let start = pos
        var end = scanValueText(from: start)
        if end == start {
            throw expected("a value")
        }
        // `1979-05-27 07:32:00`: RFC 3339 allows a space between date and time. Only take it
        // when a time really follows, so `d = 1979-05-27 # comment` stays a date.
        if end - start == 10 && byte(at: start + 4) == Byte.minus && byte(at: end) == Byte.space
            && Byte.isDigit(byte(at: end + 1)) && Byte.isDigit(byte(at: end + 2)) && byte(at: end + 3) == Byte.colon
        {
            end = scanValueText(from: end + 1)
        }
        pos = end
        return try unquotedValue(start..<end)
    }

    private func scanValueText(from start: Int) -> Int {
        var i = start
        while i < bytes.count && Byte.isValueText(bytes[i]) { i += 1 }
        return i
    }

    private func matches(_ range: Range<Int>, _ word: StaticString) -> Bool {
        guard range.count == word.utf8CodeUnitCount else { return false }
        let pointer = word.utf8Start
        for i in 0..<range.count where bytes[range.lowerBound + i] != pointer[i] {
            return false
        }
        return true
    }

    /// The value text for messages, cut short so a huge token cannot flood the terminal.
    private func shown(_ range: Range<Int>) -> String {
        let limit = 40
        let cut = range.count > limit ? range.lowerBound..<(range.lowerBound + limit) : range
        return "`" + String(decoding: UnsafeBufferPointer(rebasing: bytes[cut]), as: UTF8.self)
            + (range.count > limit ? "…`" : "`")
    }

    private func unquotedValue(_ range: Range<Int>) throws(TOMLError) -> TOMLValue {
        let first = bytes[range.lowerBound]
        if matches(range, "true") { return .boolean(true) }
        if matches(range, "false") { return .boolean(false) }
        if Byte.isDigit(first) {
            // A `-` right after a digit (not an exponent sign) or any `:` means a date or time,
            // so `10000-01-01` is reported as a bad date rather than a bad number.
            var sawDash = false, sawColon = false
            for i in (range.lowerBound + 1)..<range.upperBound {
                if bytes[i] == Byte.minus && Byte.isDigit(bytes[i - 1]) { sawDash = true }
                if bytes[i] == Byte.colon { sawColon = true }
            }
            if sawDash { return try parseDateTime(range) }
            if sawColon { return try parseTimeOnly(range) }
        }
        if Byte.isDigit(first) || first == Byte.plus || first == Byte.minus || first == 0x69 || first == 0x6E {
            return try parseNumber(range)
        }
        let lower = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self).lowercased()
        if lower == "true" || lower == "false" {
            throw error("invalid value \(shown(range)): booleans are lower-case `true` or `false`", at: range.lowerBound)
        }
        if lower == "inf" || lower == "nan" {
            throw error("invalid value \(shown(range)): write `inf` and `nan` in lower case", at: range.lowerBound)
        }
        throw error("invalid value \(shown(range)) (strings must be quoted)", at: range.lowerBound)
    }

    // MARK: Numbers

    /// Digits (of `radix`) with single underscores only between digits, from `i` up to `end`.
    /// Leaves `i` after the last digit; false if there was no digit or an underscore is misplaced.
    private func scanDigits(_ i: inout Int, _ end: Int, radix: UInt8) -> Bool {
        var sawDigit = false
        while i < end {
            let b = bytes[i]
            if Parser.digitValue(b, radix: radix) != nil {
                sawDigit = true
                i += 1
            } else if b == Byte.underscore && sawDigit && i + 1 < end
                && Parser.digitValue(bytes[i + 1], radix: radix) != nil
            {
                i += 1
            } else {
                break
            }
        }
        return sawDigit && (i == end || bytes[i] != Byte.underscore)
    }

    @inline(__always) static func digitValue(_ b: UInt8, radix: UInt8) -> UInt8? {
        let value: UInt8
        switch b {
        case 0x30...0x39: value = b - 0x30
        case 0x41...0x46: value = b - 0x41 + 10
        case 0x61...0x66: value = b - 0x61 + 10
        default: return nil
        }
        return value < radix ? value : nil
    }

    private func parseNumber(_ range: Range<Int>) throws(TOMLError) -> TOMLValue {
        let start = range.lowerBound, end = range.upperBound
        // Built only when thrown: computing a position scans from the start of the document.
        func invalid() -> TOMLError { error("invalid number \(shown(range))", at: start) }
        var i = start
        let sign = bytes[i]
        let signed = sign == Byte.plus || sign == Byte.minus
        if signed { i += 1 }

        // inf / nan
        if i < end && (bytes[i] == 0x69 || bytes[i] == 0x6E) {
            let word = i..<end
            if matches(word, "inf") { return .float(sign == Byte.minus ? -.infinity : .infinity) }
            if matches(word, "nan") { return .float(sign == Byte.minus ? -.nan : .nan) }
            throw invalid()
        }

        // 0x / 0o / 0b: never signed, leading zeros after the prefix are fine.
        if !signed && end - i >= 2 && bytes[i] == Byte.zero {
            let radix: UInt8?
            switch bytes[i + 1] {
            case 0x78: radix = 16
            case 0x6F: radix = 8
            case 0x62: radix = 2
            default: radix = nil
            }
            if let radix {
                var j = i + 2
                guard scanDigits(&j, end, radix: radix), j == end else {
                    throw error("invalid number \(shown(range)): expected base-\(radix) digits, with `_` only between digits", at: start)
                }
                return .integer(try integerValue(range, from: i + 2, radix: radix, negative: false))
            }
        }
        if signed && i + 1 < end && bytes[i] == Byte.zero && (bytes[i + 1] == 0x78 || bytes[i + 1] == 0x6F || bytes[i + 1] == 0x62) {
            throw error("invalid number \(shown(range)): hexadecimal, octal and binary integers cannot have a sign", at: start)
        }

        let integerStart = i
        guard scanDigits(&i, end, radix: 10) else { throw invalid() }
        if bytes[integerStart] == Byte.zero && i - integerStart > 1 {
            throw error("invalid number \(shown(range)): leading zeros are not allowed", at: start)
        }
        var isFloat = false
        if i < end && bytes[i] == Byte.dot {
            i += 1
            guard scanDigits(&i, end, radix: 10) else { throw invalid() }
            isFloat = true
        }
        if i < end && (bytes[i] == 0x65 || bytes[i] == 0x45) {  // e E
            i += 1
            if i < end && (bytes[i] == Byte.plus || bytes[i] == Byte.minus) { i += 1 }
            guard scanDigits(&i, end, radix: 10) else { throw invalid() }
            isFloat = true
        }
        guard i == end else { throw invalid() }

        if !isFloat {
            return .integer(try integerValue(range, from: integerStart, radix: 10, negative: sign == Byte.minus))
        }
        // The text is now known to be a well-formed decimal float; the standard library's
        // correctly rounded conversion does the rest once underscores are gone.
        var digits = ""
        digits.reserveCapacity(range.count)
        for j in range where bytes[j] != Byte.underscore {
            digits.unicodeScalars.append(UnicodeScalar(bytes[j]))
        }
        guard let value = Double(digits) else { throw invalid() }
        if !value.isFinite {
            throw error("float \(shown(range)) is too large for a 64-bit float", at: start)
        }
        return .float(value)
    }

    /// Accumulates with overflow checks: TOML integers must fit in 64 bits, and out-of-range
    /// input must be an error rather than a trap or a wrapped value.
    private func integerValue(_ range: Range<Int>, from start: Int, radix: UInt8, negative: Bool) throws(TOMLError) -> Int64 {
        func tooLarge() -> TOMLError { error("integer \(shown(range)) does not fit in 64 bits", at: range.lowerBound) }
        var magnitude: UInt64 = 0
        for i in start..<range.upperBound {
            guard let digit = Parser.digitValue(bytes[i], radix: radix) else { continue }  // `_`
            let (shifted, overflow1) = magnitude.multipliedReportingOverflow(by: UInt64(radix))
            let (sum, overflow2) = shifted.addingReportingOverflow(UInt64(digit))
            if overflow1 || overflow2 { throw tooLarge() }
            magnitude = sum
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { throw tooLarge() }
            return Int64(bitPattern: 0 &- magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { throw tooLarge() }
        return Int64(magnitude)
    }

    // MARK: Dates and times

    /// `count` decimal digits at `i`, if they are all there.
    private func number(at i: Int, count: Int, end: Int) -> Int? {
        guard i + count <= end else { return nil }
        var value = 0
        for j in i..<(i + count) {
            let b = bytes[j]
            guard Byte.isDigit(b) else { return nil }
            value = value * 10 + Int(b - Byte.zero)
        }
        return value
    }

    private func parseTimeOnly(_ range: Range<Int>) throws(TOMLError) -> TOMLValue {
        var i = range.lowerBound
        let time = try parseTime(&i, range)
        guard i == range.upperBound else {
            throw error("invalid time \(shown(range)): expected `HH:MM:SS` with an optional fraction", at: range.lowerBound)
        }
        return .localTime(time)
    }

    /// `HH:MM:SS[.fraction]` at `i`; advances `i` past it.
    private func parseTime(_ i: inout Int, _ range: Range<Int>) throws(TOMLError) -> TOMLTime {
        let end = range.upperBound
        let start = i
        guard let hour = number(at: i, count: 2, end: end), byte(at: i + 2) == Byte.colon,
            let minute = number(at: i + 3, count: 2, end: end), i + 5 < end, bytes[i + 5] == Byte.colon,
            let second = number(at: i + 6, count: 2, end: end)
        else {
            throw error("invalid time in \(shown(range)): expected `HH:MM:SS` (seconds are required)", at: start)
        }
        i += 8
        var nanosecond = 0
        if i < end && bytes[i] == Byte.dot {
            i += 1
            let fractionStart = i
            var scale = 100_000_000
            while i < end && Byte.isDigit(bytes[i]) {
                nanosecond += Int(bytes[i] - Byte.zero) * scale  // digits past nanoseconds are truncated
                scale /= 10
                i += 1
            }
            guard i > fractionStart else {
                throw error("invalid time in \(shown(range)): expected digits after `.`", at: start)
            }
        }
        guard hour < 24 else { throw error("invalid time in \(shown(range)): hour must be 00 to 23", at: start) }
        guard minute < 60 else { throw error("invalid time in \(shown(range)): minute must be 00 to 59", at: start) }
        guard second <= 60 else { throw error("invalid time in \(shown(range)): second must be 00 to 60", at: start) }
        return TOMLTime(hour: hour, minute: minute, second: second, nanosecond: nanosecond)
    }

    private func parseDateTime(_ range: Range<Int>) throws(TOMLError) -> TOMLValue {
        let start = range.lowerBound, end = range.upperBound
        guard let year = number(at: start, count: 4, end: end), byte(at: start + 4) == Byte.minus,
            let month = number(at: start + 5, count: 2, end: end), byte(at: start + 7) == Byte.minus,
            let day = number(at: start + 8, count: 2, end: end)
        else {
            throw error("invalid date \(shown(range)): expected `YYYY-MM-DD`", at: start)
        }
        guard month >= 1 && month <= 12 else {
            throw error("invalid date \(shown(range)): month must be 01 to 12", at: start)
        }
        let days = TOMLDate.daysIn(month: month, year: year)
        guard day >= 1 && day <= days else {
            throw error("invalid date \(shown(range)): day must be 01 to \(days) in that month", at: start)
        }
        let date = TOMLDate(year: year, month: month, day: day)
        var i = start + 10
        if i == end { return .localDate(date) }

        guard bytes[i] == 0x54 || bytes[i] == 0x74 || bytes[i] == Byte.space, i + 1 < end else {  // T t
            throw error("invalid date-time \(shown(range)): expected `T` or a space between date and time", at: start)
        }
        i += 1
        let time = try parseTime(&i, range)
        if i == end { return .localDateTime(TOMLDateTime(date: date, time: time)) }

        let offset: Int
        switch bytes[i] {
        case 0x5A, 0x7A:  // Z z
            offset = 0
            i += 1
        case Byte.plus, Byte.minus:
            guard let hours = number(at: i + 1, count: 2, end: end), byte(at: i + 3) == Byte.colon,
                let minutes = number(at: i + 4, count: 2, end: end)
            else {
                throw error("invalid date-time \(shown(range)): expected a UTC offset such as `+01:00`", at: start)
            }
            guard hours < 24 && minutes < 60 else {
                throw error("invalid date-time \(shown(range)): UTC offset out of range", at: start)
            }
            offset = (hours * 60 + minutes) * (bytes[i] == Byte.minus ? -1 : 1)
            i += 6
        default:
            throw error("invalid date-time \(shown(range)): unexpected text after the time", at: start)
        }
        guard i == end else {
            throw error("invalid date-time \(shown(range)): unexpected text after the UTC offset", at: start)
        }
        return .offsetDateTime(TOMLDateTime(date: date, time: time, offsetMinutes: offset))
    }
}
