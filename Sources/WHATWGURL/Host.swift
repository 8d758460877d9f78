// The host parser: bracketed IPv6, opaque hosts for non-special schemes, and for
// special schemes percent-decoding, domain to ASCII and the IPv4 forms.

extension WebURL {
    public enum Host: Equatable, Sendable {
        /// An ASCII domain after domain to ASCII (lower case, punycode for IDN).
        case domain(String)
        case ipv4(UInt32)
        /// Eight 16-bit pieces.
        case ipv6([UInt16])
        /// The percent-encoded host of a non-special URL (e.g. "sc://Ex%41mple").
        case opaque(String)
        /// The empty host (file:///, or "sc://" with nothing between the slashes and the path).
        case empty

        /// The host serializer's output; IPv6 comes in brackets.
        public var serialized: String {
            switch self {
            case .domain(let s), .opaque(let s): return s
            case .ipv4(let address): return IPv4.serialize(address)
            case .ipv6(let pieces): return "[" + IPv6.serialize(pieces) + "]"
            case .empty: return ""
            }
        }
    }
}

enum HostParser {
    /// The host parser; nil means failure. `isOpaque` is true for non-special URLs.
    static func parse(_ input: ArraySlice<Unicode.Scalar>, isOpaque: Bool) -> WebURL.Host? {
        if input.first == "[" {
            guard input.count >= 2, input.last == "]" else { return nil }
            return IPv6.parse(input.dropFirst().dropLast()).map { .ipv6($0) }
        }
        if isOpaque { return parseOpaque(input) }
        guard !input.isEmpty else { return nil }

        var utf8: [UInt8] = []
        utf8.reserveCapacity(input.count)
        for scalar in input { UTF8.encode(scalar) { utf8.append($0) } }
        // "UTF-8 decode without BOM": invalid sequences from %-decoding become U+FFFD,
        // which domain to ASCII then rejects.
        let decoded = PercentEncoding.decode(utf8)
        let domain = Array(String(decoding: decoded, as: UTF8.self).unicodeScalars)

        guard let ascii = IDNA.domainToASCII(domain), !ascii.isEmpty else { return nil }
        for byte in ascii where Unicode.Scalar(byte).isForbiddenDomainCodePoint || byte >= 0x80 {
            return nil
        }
        if IPv4.endsInANumber(ascii) {
            return IPv4.parse(ascii).map { .ipv4($0) }
        }
        return .domain(String(decoding: ascii, as: UTF8.self))
    }

    /// The opaque-host parser: reject forbidden host code points, then percent-encode
    /// what is left with the C0 control set. Stray "%" is left alone, as browsers do.
    static func parseOpaque(_ input: ArraySlice<Unicode.Scalar>) -> WebURL.Host? {
        if input.isEmpty { return .empty }
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        for scalar in input {
            if scalar.isForbiddenHostCodePoint { return nil }
            PercentEncoding.append(scalar, encodedWith: .c0Control, to: &output)
        }
        return .opaque(String(decoding: output, as: UTF8.self))
    }
}
