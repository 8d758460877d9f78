/// Offset of the first byte that is not part of well-formed UTF-8 (overlong forms, surrogates
/// and values above U+10FFFF included), or nil if all of it is valid.
///
/// The parser relies on this having run: after it, any non-ASCII byte belongs to a complete
/// scalar, so the rest of the code can treat such bytes as opaque text.
func firstInvalidUTF8(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    let count = bytes.count
    var i = 0
    while i < count {
        // Skip ASCII eight bytes at a time; config files are almost all ASCII.
        if let base = bytes.baseAddress {
            while i + 8 <= count {
                let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 != 0 { break }
                i += 8
            }
        }
        guard i < count else { return nil }
        let lead = bytes[i]
        if lead < 0x80 {
            i += 1
            continue
        }
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0               // no overlong 3-byte forms
        case 0xE1...0xEC, 0xEE, 0xEF: length = 3
        case 0xED: length = 3; high = 0x9F              // no UTF-16 surrogates
        case 0xF0: length = 4; low = 0x90               // no overlong 4-byte forms
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F              // nothing above U+10FFFF
        default: return i
        }
        guard i + length <= count else { return i }
        let second = bytes[i + 1]
        guard second >= low && second <= high else { return i }
        for j in 2..<length where bytes[i + j] & 0xC0 != 0x80 {  // 2..<2 is empty: fine
            return i
        }
        i += length
    }
    return nil
}
