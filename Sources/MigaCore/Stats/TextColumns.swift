/// The plain-text tables of `miga stats` and `stats --week`: columns padded by character
/// count, colour only when asked for.
enum TextColumns {
    /// `text` then spaces up to `width`.
    static func pad(_ text: some StringProtocol, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    /// Spaces then `text`, up to `width` (numbers line up on the right).
    static func right(_ text: some CustomStringConvertible, _ width: Int) -> String {
        let text = text.description
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }

    /// A function that wraps text in the SGR `code`, or leaves it as it is without colour.
    static func paint(_ code: String, color: Bool) -> (String) -> String {
        { text in color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    }
}
