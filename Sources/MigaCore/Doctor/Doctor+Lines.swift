/// How a finding is written: within `width` columns (80, a terminal's usual), what runs
/// over wrapped onto lines indented under its text, so the marks stay a column of their own.
extension Doctor.Finding {
    /// The columns before a finding's text: its mark ("problem ") and a space.
    static let markColumns = 9

    /// The finding's lines, `mark` (its word, perhaps coloured, `markColumns - 1` wide)
    /// first; its fix below unless it is fine. Outside text goes through the sanitiser.
    public func lines(mark: String, width: Int = 80) -> [String] {
        let indent = String(repeating: " ", count: Self.markColumns)
        var lines = Self.hanging("\(TerminalText.field(subject)): \(TerminalText.field(message))",
                                 first: mark + " ", rest: indent, width: width)
        if let fix, status != .ok {
            lines += Self.hanging(TerminalText.field(fix), first: indent + "fix: ", rest: indent + "     ", width: width)
        }
        return lines
    }

    /// `text` after `first`, and on lines after `rest` if it does not fit in `width`.
    static func hanging(_ text: String, first: String, rest: String, width: Int) -> [String] {
        let room = width - DisplayWidth.of(rest)
        guard DisplayWidth.of(rest) + DisplayWidth.of(text) > width, room >= 20 else { return [first + text] }
        let wrapped = TextLayout.wrap(text, width: room)
        return wrapped.enumerated().map { ($0.offset == 0 ? first : rest) + $0.element }
    }
}
