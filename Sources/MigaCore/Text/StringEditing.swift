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
        let needle = Array(separator.utf8)
        let haystack = Array(utf8)
        guard !needle.isEmpty else { return [String(self)] }
        var pieces: [String] = []
        var start = 0, index = 0
        while index + needle.count <= haystack.count {
            if haystack[index] == needle[0], haystack[index..<index + needle.count].elementsEqual(needle) {
                pieces.append(String(decoding: haystack[start..<index], as: UTF8.self))
                index += needle.count
                start = index
            } else {
                index += 1
            }
        }
        pieces.append(String(decoding: haystack[start...], as: UTF8.self))
        return pieces
    }

    /// Every occurrence of `target` (matched scalar by scalar, left to right, never
    /// overlapping) replaced by `replacement`.
    public func replacingEvery<Target: StringProtocol, Replacement: StringProtocol>(_ target: Target, with replacement: Replacement) -> String {
        let needle = Array(target.utf8)
        guard !needle.isEmpty else { return String(self) }
        let haystack = Array(utf8)
        var result: [UInt8] = []
        result.reserveCapacity(haystack.count)
        var index = 0
        // UTF-8 is self-synchronising: a match of whole encoded scalars is a match of scalars.
        while index < haystack.count {
            if haystack[index] == needle[0], haystack.count - index >= needle.count, haystack[index..<index + needle.count].elementsEqual(needle) {
                result.append(contentsOf: replacement.utf8)
                index += needle.count
            } else {
                result.append(haystack[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
