// Percent-encode sets and the UTF-8 percent-encode / percent-decode algorithms.
//
// Each set is a 128-bit mask over ASCII. Every set in the standard contains all
// code points above U+007E, so anything non-ASCII is always encoded.

struct PercentEncodeSet: Sendable {
    private let low: UInt64   // bits for 0x00-0x3F
    private let high: UInt64  // bits for 0x40-0x7F

    private init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    private func adding(_ ascii: String) -> PercentEncodeSet {
        var low = self.low, high = self.high
        for byte in ascii.utf8 {
            if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
        }
        return PercentEncodeSet(low: low, high: high)
    }

    private func adding(range: ClosedRange<UInt8>) -> PercentEncodeSet {
        var result = self
        for byte in range { result = result.adding(String(Unicode.Scalar(byte))) }
        return result
    }

    @inline(__always) func contains(_ byte: UInt8) -> Bool {
        if byte >= 0x80 { return true }
        if byte < 64 { return low & (1 << UInt64(byte)) != 0 }
        return high & (1 << UInt64(byte - 64)) != 0
    }

    /// C0 controls and U+007F DELETE (plus everything non-ASCII, implicitly).
    static let c0Control = PercentEncodeSet(low: 0xFFFF_FFFF, high: 1 << 63)
    static let fragment = c0Control.adding(" \"<>`")
    static let query = c0Control.adding(" \"#<>")
    static let specialQuery = query.adding("'")
    // The path set follows the standard as the web-platform-tests of 2023 and
    // Node 20 apply it: "^" is not in it.
    static let path = query.adding("?`{}")
    static let userinfo = path.adding("/:;=@|").adding(range: 0x5B...0x5E)
}

enum PercentEncoding {
    private static let hexUpper: [UInt8] = Array("0123456789ABCDEF".utf8)

    @inline(__always) static func appendEscaped(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "%"))
        output.append(hexUpper[Int(byte >> 4)])
        output.append(hexUpper[Int(byte & 0x0F)])
    }

    /// UTF-8 percent-encodes one scalar with `set` and appends the result.
    @inline(__always)
    static func append(_ scalar: Unicode.Scalar, encodedWith set: PercentEncodeSet, to output: inout [UInt8]) {
        let value = scalar.value
        if value < 0x80 {
            let byte = UInt8(truncatingIfNeeded: value)
            if set.contains(byte) { appendEscaped(byte, to: &output) } else { output.append(byte) }
            return
        }
        UTF8.encode(scalar) { appendEscaped($0, to: &output) }
    }

    /// Percent-decodes bytes: "%" followed by two hex digits becomes that byte; any
    /// other "%" is kept as it is.
    static func decode<C: Collection>(_ input: C) -> [UInt8] where C.Element == UInt8, C.Index == Int {
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var i = input.startIndex
        let end = input.endIndex
        while i < end {
            let byte = input[i]
            if byte == UInt8(ascii: "%"), end - i >= 3,
               let high = input[i + 1].hexDigitValue, let low = input[i + 2].hexDigitValue {
                output.append(high << 4 | low)
                i += 3
            } else {
                output.append(byte)
                i += 1
            }
        }
        return output
    }
}
