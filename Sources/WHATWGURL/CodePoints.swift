// Code point classes from the URL Standard and the Infra Standard.
// Everything works on Unicode scalars; nothing here depends on Foundation or on
// grapheme clustering, so a combining mark can never merge with a delimiter.

extension Unicode.Scalar {
    @inline(__always) var isASCIIAlpha: Bool {
        (value >= 0x41 && value <= 0x5A) || (value >= 0x61 && value <= 0x7A)
    }

    @inline(__always) var isASCIIDigit: Bool { value >= 0x30 && value <= 0x39 }

    @inline(__always) var isASCIIAlphanumeric: Bool { isASCIIAlpha || isASCIIDigit }

    /// The value of an ASCII hex digit, or nil.
    @inline(__always) var hexDigitValue: UInt8? {
        value < 0x80 ? UInt8(truncatingIfNeeded: value).hexDigitValue : nil
    }

    @inline(__always) var isC0ControlOrSpace: Bool { value <= 0x20 }

    @inline(__always) var isASCIITabOrNewline: Bool {
        value == 0x09 || value == 0x0A || value == 0x0D
    }

    /// ASCII lower case; every other scalar is returned unchanged.
    @inline(__always) var asciiLowercased: Unicode.Scalar {
        if value >= 0x41 && value <= 0x5A, let lower = Unicode.Scalar(value + 0x20) {
            return lower
        }
        return self
    }

    /// Forbidden host code points: these can never appear in an opaque host.
    var isForbiddenHostCodePoint: Bool {
        switch value {
        case 0x00, 0x09, 0x0A, 0x0D, 0x20, 0x23, 0x2F, 0x3A, 0x3C, 0x3E, 0x3F, 0x40,
             0x5B, 0x5C, 0x5D, 0x5E, 0x7C:
            return true
        default:
            return false
        }
    }

    /// Forbidden domain code points: the forbidden host code points, C0 controls, "%" and DEL.
    var isForbiddenDomainCodePoint: Bool {
        isForbiddenHostCodePoint || value <= 0x1F || value == 0x25 || value == 0x7F
    }
}

extension UInt8 {
    @inline(__always) var isASCIIDigit: Bool { self >= 0x30 && self <= 0x39 }

    @inline(__always) var isASCIIAlpha: Bool {
        (self >= 0x41 && self <= 0x5A) || (self >= 0x61 && self <= 0x7A)
    }

    @inline(__always) var asciiLowercased: UInt8 {
        (self >= 0x41 && self <= 0x5A) ? self &+ 0x20 : self
    }

    /// The value of an ASCII hex digit, or nil.
    @inline(__always) var hexDigitValue: UInt8? {
        switch self {
        case 0x30...0x39: return self &- 0x30
        case 0x41...0x46: return self &- 0x41 &+ 10
        case 0x61...0x66: return self &- 0x61 &+ 10
        default: return nil
        }
    }
}

/// Special schemes and their default ports. `file` is special but has no port.
enum SpecialScheme {
    static func isSpecial(_ scheme: String) -> Bool {
        switch scheme {
        case "ftp", "file", "http", "https", "ws", "wss": return true
        default: return false
        }
    }

    static func defaultPort(_ scheme: String) -> Int? {
        switch scheme {
        case "ftp": return 21
        case "http", "ws": return 80
        case "https", "wss": return 443
        default: return nil
        }
    }
}

/// Windows drive letter helpers; these exist only for the file: scheme's legacy quirks.
enum WindowsDriveLetter {
    /// Two code points: an ASCII alpha followed by ":" or "|".
    static func isDriveLetter<C: Collection>(_ s: C, normalizedOnly: Bool = false) -> Bool
    where C.Element == UInt8 {
        guard s.count == 2, let first = s.first, first.isASCIIAlpha else { return false }
        let second = s[s.index(after: s.startIndex)]
        return second == UInt8(ascii: ":") || (!normalizedOnly && second == UInt8(ascii: "|"))
    }

    /// Whether `input[from...]` starts with a Windows drive letter as the spec defines it:
    /// the drive letter is followed by the end of input or by one of "/", "\", "?", "#".
    static func startsWithDriveLetter(_ input: [Unicode.Scalar], from: Int) -> Bool {
        guard from >= 0, input.count - from >= 2 else { return false }
        guard input[from].isASCIIAlpha,
              input[from + 1] == ":" || input[from + 1] == "|" else { return false }
        if input.count - from == 2 { return true }
        switch input[from + 2] {
        case "/", "\\", "?", "#": return true
        default: return false
        }
    }
}
