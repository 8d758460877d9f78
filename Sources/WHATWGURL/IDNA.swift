#if canImport(Glibc)
import Glibc
#endif
import CIDN2

/// libidn2, loaded on first use. Only a host with non-ASCII or `xn--` labels needs it, and
/// linking it (with libunistring) made every start of miga, each pass-through of a gated app,
/// about 0.5 ms slower. CIDN2 gives the header's types and constants only.
enum LibIDN2 {
    typealias Lookup = @convention(c) (UnsafePointer<UInt8>?, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?, Int32) -> Int32
    typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void

    /// nil when the library cannot be loaded: such a host then fails to parse.
    static let functions: (lookup: Lookup, free: Free)? = {
        guard let handle = dlopen("libidn2.so.0", RTLD_NOW | RTLD_LOCAL),
              let lookup = dlsym(handle, "idn2_lookup_u8"), let free = dlsym(handle, "idn2_free") else { return nil }
        return (unsafeBitCast(lookup, to: Lookup.self), unsafeBitCast(free, to: Free.self))
    }()
}

// Domain to ASCII (beStrict = false): UTS #46 ToASCII with CheckHyphens=false,
// CheckBidi=true, CheckJoiners=true, UseSTD3ASCIIRules=false,
// Transitional_Processing=false, VerifyDnsLength=false.
//
// libidn2 supplies the UTS #46 mapping table, NFC, the status checks and Punycode
// encoding. It is an IDNA2008 library first and is stricter than UTS #46 in five
// ways; this file steers around each one where that can be done exactly:
//
// 1. Non-transitional lookups also apply IDNA2008's DISALLOWED set, which rejects
//    symbols UTS #46 allows ("☃", emoji). Transitional lookups skip those checks
//    and differ from non-transitional ones only on the four deviation characters
//    (ß, ς, ZWNJ, ZWJ) and by skipping the Bidi and ContextJ rules. So labels go
//    the transitional way, with ß and ς hidden behind a placeholder and put back
//    afterwards, unless they hold ZWNJ, ZWJ or right-to-left characters: only those
//    meet IDNA2008's stricter repertoire (a documented gap).
// 2. Hyphen rules (CheckHyphens=false means "-x", "x-" and "ab--c" are fine). Each
//    hyphen is swapped for a placeholder before the call and swapped back after:
//    Punycode's output does not depend on which ASCII character sits where, and the
//    placeholder shares the hyphen's treatment by NFC, Bidi and context rules.
// 3. A Punycode round trip that refuses ASCII punctuation next to non-ASCII
//    ("ü!"): switched off with IDN2_NO_ALABEL_ROUNDTRIP. "xn--" labels are
//    validated here instead (decode, map again, compare).
// 4. The 255-byte domain limit: labels are converted one at a time.
// 5. The 63-byte label limit: long labels are mapped in pieces and encoded here
//    (transitional-path labels only; see longLabelToASCII).

enum IDNA {
    /// Returns the ASCII form of `domain`, or nil on failure. The caller still has
    /// to reject empty results and forbidden domain code points.
    static func domainToASCII(_ domain: [Unicode.Scalar]) -> [UInt8]? {
        if domain.allSatisfy({ $0.value < 0x80 }) {
            let bytes = domain.map { UInt8(truncatingIfNeeded: $0.value).asciiLowercased }
            // Fast path, which the standard explicitly allows: plain ASCII labels are
            // valid UTS #46 labels once lowercased.
            if !bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
                .contains(where: { isPunycodeLabel($0) }) {
                return bytes
            }
        }
        // libidn2 takes C strings; NUL would fail as a forbidden code point anyway.
        if domain.contains(where: { $0.value == 0 }) { return nil }

        // UTS #46 maps only these four code points to a label separator (any other
        // mapping that would produce "." is disallowed), so splitting before mapping
        // gives the same labels.
        var output: [UInt8] = []
        output.reserveCapacity(domain.count)
        var label: [Unicode.Scalar] = []
        var first = true
        func flush() -> Bool {
            if !first { output.append(UInt8(ascii: ".")) }
            first = false
            guard let ascii = labelToASCII(label) else { return false }
            output.append(contentsOf: ascii)
            label.removeAll(keepingCapacity: true)
            return true
        }
        for scalar in domain {
            switch scalar.value {
            case 0x2E, 0x3002, 0xFF0E, 0xFF61:
                guard flush() else { return nil }
            default:
                label.append(scalar)
            }
        }
        guard flush() else { return nil }
        return output
    }

    private static let acePrefix: [UInt8] = Array("xn--".utf8)

    private static func isPunycodeLabel<C: Collection>(_ label: C) -> Bool where C.Element == UInt8 {
        label.count >= 4 && zip(label, acePrefix).allSatisfy { $0.asciiLowercased == $1 }
    }

    private static func labelToASCII(_ label: [Unicode.Scalar]) -> [UInt8]? {
        if label.allSatisfy({ $0.value < 0x80 }) {
            let bytes = label.map { UInt8(truncatingIfNeeded: $0.value).asciiLowercased }
            return isPunycodeLabel(bytes) ? punycodeLabelToASCII(bytes, depth: 0) : bytes
        }
        return unicodeLabelToASCII(label, depth: 0)
    }

    /// An "xn--" label (lower case) must decode to a valid label that maps to
    /// itself; the result is then the label unchanged.
    private static func punycodeLabelToASCII(_ label: [UInt8], depth: Int) -> [UInt8]? {
        guard depth < 4, let decoded = Punycode.decode(label.dropFirst(4)), !decoded.isEmpty else { return nil }
        // All-ASCII decodings ("xn--a-" → "a", "xn--xn--zca-" → "xn--zca") are kept
        // as written, as UTS #46 before version 15.1 and Node 20 do.
        if decoded.allSatisfy({ $0.value < 0x80 }) { return label }
        guard let reencoded = unicodeLabelToASCII(decoded, depth: depth + 1),
              reencoded == label else { return nil }
        return label
    }

    private static func startsWithACEPrefix(_ label: [Unicode.Scalar]) -> Bool {
        label.count >= 4 && label.prefix(4).elementsEqual(["x", "n", "-", "-"] as [Unicode.Scalar])
    }

    /// ZWNJ and ZWJ: deviation characters whose ContextJ rule only libidn2's
    /// non-transitional mode checks.
    private static let joiners: Set<UInt32> = [0x200C, 0x200D]

    /// ß and ς, the other two deviation characters. Transitional mode would map them
    /// to "ss" and "σ", so they are hidden behind `deviationPlaceholder` instead.
    private static let sharpSAndFinalSigma: Set<UInt32> = [0x00DF, 0x03C2]

    /// U+0138 LATIN SMALL LETTER KRA stands in for ß and ς: like them it is a
    /// lower-case letter of Bidi class L that is valid under UTS #46, unchanged by
    /// mapping, and part of no canonical composition.
    private static let deviationPlaceholder: Unicode.Scalar = "\u{0138}"

    /// Scripts written right to left (and their presentation forms and digits);
    /// deliberately broad, since a false positive only means a stricter check.
    private static func mayBeRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF:
            return true
        default:
            return false
        }
    }

    /// The placeholder for hyphens: ASCII, valid under UTS #46 without STD3 rules,
    /// never part of a canonical composition, and of Bidi class ON, which the Bidi
    /// rule treats exactly like the hyphen's ES.
    private static let placeholder: Unicode.Scalar = "_"

    /// What a code point maps to under UTS #46 if that is "-" or "_": these are
    /// replaced by the placeholder, so that every placeholder in libidn2's output is
    /// one of ours and can be put back in order.
    private static func placeholderOriginal(_ scalar: Unicode.Scalar) -> UInt8? {
        switch scalar.value {
        case 0x2D, 0xFE63, 0xFF0D: return UInt8(ascii: "-")
        case 0x5F, 0xFE33, 0xFE34, 0xFE4D, 0xFE4E, 0xFE4F, 0xFF3F: return UInt8(ascii: "_")
        default: return nil
        }
    }

    private static func unicodeLabelToASCII(_ label: [Unicode.Scalar], depth: Int) -> [UInt8]? {
        let strict = label.contains { joiners.contains($0.value) || mayBeRightToLeft($0) }
        var originals: [UInt8] = []
        var deviationOriginals: [Unicode.Scalar] = []
        let input = label.map { scalar -> Unicode.Scalar in
            if let original = placeholderOriginal(scalar) {
                originals.append(original)
                return placeholder
            }
            if !strict && (sharpSAndFinalSigma.contains(scalar.value) || scalar == deviationPlaceholder) {
                deviationOriginals.append(scalar)
                return deviationPlaceholder
            }
            return scalar
        }

        var raw: [UInt8]
        switch libidn2Lookup(input, transitional: !strict) {
        case .success(let bytes):
            raw = bytes
        case .failure(.tooLong) where !strict:
            guard let long = longLabelToASCII(input) else { return nil }
            raw = long
        case .failure:
            return nil
        }
        if !deviationOriginals.isEmpty {
            // Put ß and ς back into the mapped label and encode it again.
            guard isPunycodeLabel(raw), var mapped = Punycode.decode(raw.dropFirst(4)),
                  mapped.reduce(0, { $0 + ($1 == deviationPlaceholder ? 1 : 0) }) == deviationOriginals.count
            else { return nil }
            var index = 0
            for i in mapped.indices where mapped[i] == deviationPlaceholder && index < deviationOriginals.count {
                mapped[i] = deviationOriginals[index]
                index += 1
            }
            guard let encoded = Punycode.encode(mapped) else { return nil }
            raw = acePrefix + encoded
        }
        if originals.isEmpty { return raw }

        // Put the hyphens (and underscores) back, in order.
        let p = UInt8(truncatingIfNeeded: placeholder.value)
        guard raw.reduce(0, { $0 + ($1 == p ? 1 : 0) }) == originals.count else { return nil }
        var next = 0
        let restored = raw.map { byte -> UInt8 in
            guard byte == p, next < originals.count else { return byte }
            defer { next += 1 }
            return originals[next]
        }

        if isPunycodeLabel(raw) {
            // The mapped label was not ASCII; if it starts with "xn--", UTS #46 reads it
            // as Punycode, which cannot contain non-ASCII, so it is invalid.
            guard var mapped = Punycode.decode(raw.dropFirst(4)) else { return nil }
            var index = 0
            for i in mapped.indices where mapped[i] == placeholder && index < originals.count {
                mapped[i] = Unicode.Scalar(originals[index])
                index += 1
            }
            return startsWithACEPrefix(mapped) ? nil : restored
        }
        // The label mapped to ASCII; if that reads "xn--…", it is an A-label to check.
        if isPunycodeLabel(restored) { return punycodeLabelToASCII(restored, depth: depth + 1) }
        return restored
    }

    /// A label whose A-label would exceed libidn2's 63-byte limit (UTS #46 sets no
    /// limit here). Mapping is per code point and NFC never composes anything with a
    /// following ASCII character, so the label can be mapped in pieces cut just
    /// before ASCII characters and then encoded here. Only used for labels that take
    /// the transitional path, where libidn2 applies no whole-label rule (Bidi,
    /// ContextJ) that pieces could evade; the pieces' own checks (status, NFC,
    /// leading combining mark for the first piece) are exactly the label's.
    private static func longLabelToASCII(_ label: [Unicode.Scalar]) -> [UInt8]? {
        guard label.count <= Punycode.maxDecodedLength else { return nil }
        var mapped: [Unicode.Scalar] = []
        var piece: [Unicode.Scalar] = []
        func mapPiece() -> Bool {
            if piece.isEmpty { return true }
            guard case .success(let raw) = libidn2Lookup(piece, transitional: true) else { return false }
            if isPunycodeLabel(raw) {
                guard let decoded = Punycode.decode(raw.dropFirst(4)) else { return false }
                mapped.append(contentsOf: decoded)
            } else {
                mapped.append(contentsOf: raw.map { Unicode.Scalar($0) })
            }
            piece.removeAll(keepingCapacity: true)
            return true
        }
        for scalar in label {
            if scalar.value < 0x80 && piece.count >= 8 {
                guard mapPiece() else { return nil }
            }
            piece.append(scalar)
        }
        guard mapPiece() else { return nil }

        if mapped.allSatisfy({ $0.value < 0x80 }) {
            return mapped.map { UInt8(truncatingIfNeeded: $0.value) }
        }
        guard let encoded = Punycode.encode(mapped) else { return nil }
        return acePrefix + encoded
    }

    private enum LookupError: Error { case tooLong, invalid }

    /// Runs one label (no NUL, no dots) through libidn2's UTS #46 lookup.
    private static func libidn2Lookup(_ label: [Unicode.Scalar], transitional: Bool) -> Result<[UInt8], LookupError> {
        var cString: [UInt8] = []
        cString.reserveCapacity(label.count * 4 + 1)
        for scalar in label { UTF8.encode(scalar) { cString.append($0) } }
        cString.append(0)

        let mode = transitional ? IDN2_TRANSITIONAL.rawValue : IDN2_NONTRANSITIONAL.rawValue
        let flags = Int32(bitPattern: mode | IDN2_NFC_INPUT.rawValue | IDN2_NO_ALABEL_ROUNDTRIP.rawValue)
        guard let idn2 = LibIDN2.functions else { return .failure(.invalid) }
        var result: UnsafeMutablePointer<UInt8>? = nil
        let rc = cString.withUnsafeBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return IDN2_ENCODING_ERROR.rawValue }
            return idn2.lookup(base, &result, flags)
        }
        defer { if let result = result { idn2.free(result) } }
        switch rc {
        case IDN2_TOO_BIG_LABEL.rawValue, IDN2_TOO_BIG_DOMAIN.rawValue, IDN2_PUNYCODE_BIG_OUTPUT.rawValue:
            return .failure(.tooLong)
        default:
            break
        }
        guard rc == IDN2_OK.rawValue, let result = result else { return .failure(.invalid) }

        var bytes: [UInt8] = []
        var p = result
        while p.pointee != 0 {
            // The lookup name must be ASCII; anything else means libidn2 was misread.
            guard p.pointee < 0x80 else { return .failure(.invalid) }
            bytes.append(p.pointee.asciiLowercased)
            p += 1
        }
        return .success(bytes)
    }
}
