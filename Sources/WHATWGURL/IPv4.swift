// The IPv4 parser, including the legacy forms browsers still accept
// (hex "0x7f", octal "0177", and fewer than four parts: "127.1", "2130706433").

enum IPv4 {
    /// The "ends in a number" checker: a domain whose last label looks numeric must
    /// be parsed as IPv4 (and fails if it is not a valid address), so that
    /// "foo.0x7f" can never be mistaken for a domain.
    static func endsInANumber(_ domain: [UInt8]) -> Bool {
        guard !domain.isEmpty else { return false }
        var end = domain.endIndex
        // A trailing dot does not hide the last label: "1.2.3.4." is still an address.
        if domain[end - 1] == UInt8(ascii: ".") { end -= 1 }
        var start = end
        while start > domain.startIndex, domain[start - 1] != UInt8(ascii: ".") { start -= 1 }
        let last = domain[start..<end]
        if !last.isEmpty && last.allSatisfy({ $0.isASCIIDigit }) { return true }
        return parseNumber(last) != nil
    }

    /// Parses a domain that ends in a number; nil means failure.
    static func parse(_ input: [UInt8]) -> UInt32? {
        var parts = input.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if let last = parts.last, last.isEmpty, parts.count > 1 { parts.removeLast() }
        guard parts.count <= 4 else { return nil }

        var numbers: [UInt64] = []
        numbers.reserveCapacity(parts.count)
        for part in parts {
            guard let n = parseNumber(part) else { return nil }
            numbers.append(n)
        }
        guard let last = numbers.last else { return nil }
        for n in numbers.dropLast() where n > 255 { return nil }
        // The last number fills all the bytes the earlier parts did not: 256^(5 - count).
        let limit: UInt64 = 1 << (8 * UInt64(5 - numbers.count))
        guard last < limit else { return nil }

        var address = last
        for (counter, n) in numbers.dropLast().enumerated() {
            address += n << (8 * UInt64(3 - counter))
        }
        return UInt32(exactly: address)
    }

    /// The IPv4 number parser. Values are clamped just above UInt32.max: anything
    /// that large fails later anyway, and clamping keeps a thousand-digit part from
    /// overflowing.
    static func parseNumber(_ input: ArraySlice<UInt8>) -> UInt64? {
        guard !input.isEmpty else { return nil }
        var digits = input
        var radix: UInt64 = 10
        if digits.count >= 2, digits.first == UInt8(ascii: "0"),
           digits[digits.startIndex + 1] == UInt8(ascii: "x") || digits[digits.startIndex + 1] == UInt8(ascii: "X") {
            digits = digits.dropFirst(2)
            radix = 16
        } else if digits.count >= 2, digits.first == UInt8(ascii: "0") {
            digits = digits.dropFirst()
            radix = 8
        }
        if digits.isEmpty { return 0 }

        let ceiling = UInt64(UInt32.max) + 1
        var value: UInt64 = 0
        for byte in digits {
            guard let digit = byte.hexDigitValue.map(UInt64.init), digit < radix else { return nil }
            if value < ceiling {
                let (product, overflow1) = value.multipliedReportingOverflow(by: radix)
                let (sum, overflow2) = product.addingReportingOverflow(digit)
                value = (overflow1 || overflow2) ? ceiling : min(sum, ceiling)
            }
        }
        return value
    }

    static func serialize(_ address: UInt32) -> String {
        var output = ""
        for shift in stride(from: 24, through: 0, by: -8) {
            output += String((address >> UInt32(shift)) & 0xFF)
            if shift != 0 { output += "." }
        }
        return output
    }
}
