#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What miga used of Foundation's trimmingCharacters(in:) and replacingOccurrences(of:with:),
/// which FoundationEssentials leaves out (named apart from them, so code that imports both
/// still reads unambiguously).
/// They work on Unicode scalars, as NSString did, not on Characters: "\r\n" is one Character,
/// yet trimming newlines or replacing "\n" must see both of its scalars.
public enum TrimmedCharacters: Sendable {
    /// Space separators (Zs), tab, and U+200B (zero width space, once a Zs, still in
    /// Foundation's set).
    case whitespaces
    /// U+000A–U+000D, U+0085, U+2028, U+2029.
    case newlines
    case whitespacesAndNewlines

    func contains(_ scalar: Unicode.Scalar) -> Bool {
        let isNewline = (0x0A...0x0D).contains(scalar.value) || scalar.value == 0x85 || scalar.value == 0x2028 || scalar.value == 0x2029
        let isWhitespace = scalar == "\t" || scalar.value == 0x200B || scalar.properties.generalCategory == .spaceSeparator
        switch self {
        case .whitespaces: return isWhitespace
        case .newlines: return isNewline
        case .whitespacesAndNewlines: return isWhitespace || isNewline
        }
    }
}

extension StringProtocol {
    public func trimming(_ set: TrimmedCharacters) -> String {
        let text = String(self)
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !set.contains($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !set.contains($0) })!
        return String(scalars[first...last])
    }

    /// The text between occurrences of `separator` (matched scalar by scalar), empty pieces
    /// kept: what components(separatedBy:) gives, which FoundationEssentials does through a
    /// generic search that cost a gate's first frame a tenth of its instructions.
    public func pieces(separatedBy separator: String) -> [String] {
        let haystack = Array(utf8)
        var pieces: [String] = []
        var start = 0
        for match in byteMatches(of: Array(separator.utf8), in: haystack) {
            pieces.append(String(decoding: haystack[start..<match.lowerBound], as: UTF8.self))
            start = match.upperBound
        }
        pieces.append(String(decoding: haystack[start...], as: UTF8.self))
        return pieces
    }

    /// Every occurrence of `target` (matched scalar by scalar, left to right, never
    /// overlapping) replaced by `replacement`.
    public func replacingEvery<Target: StringProtocol, Replacement: StringProtocol>(_ target: Target, with replacement: Replacement) -> String {
        let haystack = Array(utf8)
        var result: [UInt8] = []
        result.reserveCapacity(haystack.count)
        var start = 0
        for match in byteMatches(of: Array(target.utf8), in: haystack) {
            result.append(contentsOf: haystack[start..<match.lowerBound])
            result.append(contentsOf: replacement.utf8)
            start = match.upperBound
        }
        result.append(contentsOf: haystack[start...])
        return String(decoding: result, as: UTF8.self)
    }
}

extension String {
    /// Whether `needle` occurs in the text (matched scalar by scalar, as bytes of UTF-8):
    /// what `contains` says, without the standard library's generic search (0.3M
    /// instructions the first time, on the way to a gate's first frame).
    public func includes(_ needle: String) -> Bool {
        var text = self, needle = needle
        return text.withUTF8 { text in
            needle.withUTF8 { needle in
                guard let first = needle.first else { return true }
                let text = UnsafeRawBufferPointer(text), needle = UnsafeRawBufferPointer(needle)
                var from = 0
                while let index = ByteSearch.firstIndex(of: first, in: text, from: from), index + needle.count <= text.count {
                    if ByteSearch.equal(UnsafeRawBufferPointer(rebasing: text[index..<index + needle.count]), needle) { return true }
                    from = index + 1
                }
                return false
            }
        }
    }
}

/// Where `needle` occurs in `haystack`, left to right, never overlapping; none for an empty
/// needle. UTF-8 is self-synchronising: a match of whole
/// encoded scalars is a match of scalars. Over raw buffers: a gate splits its article's text
/// before the first frame, and checked slices cost some 50 instructions a byte.
private func byteMatches(of needle: [UInt8], in haystack: [UInt8]) -> [Range<Int>] {
    guard let first = needle.first, needle.count <= haystack.count else { return [] }
    return haystack.withUnsafeBufferPointer { text in
        needle.withUnsafeBufferPointer { needle in
            var found: [Range<Int>] = []
            var index = 0
            let last = text.count - needle.count
            while index <= last {
                if text[index] == first, memcmp(text.baseAddress! + index, needle.baseAddress!, needle.count) == 0 {
                    found.append(index..<index + needle.count)
                    index += needle.count
                } else {
                    index += 1
                }
            }
            return found
        }
    }
}
