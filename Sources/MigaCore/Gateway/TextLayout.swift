/// Word wrapping by terminal cell width (CJK and emoji take two cells).
public enum TextLayout {
    /// Wraps `text` to `width` cells. Blank lines separate paragraphs; a word longer than the
    /// width is split rather than overflowing.
    public static func wrap(_ text: String, width: Int) -> [String] {
        let width = max(1, width)
        var lines: [String] = []
        for (index, paragraph) in paragraphs(text).enumerated() {
            if index > 0 { lines.append("") }
            var line = ""
            var lineWidth = 0
            for word in paragraph.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
                var word = String(word)
                var wordWidth = DisplayWidth.of(word)
                while wordWidth > width {
                    if !line.isEmpty { lines.append(line); line = ""; lineWidth = 0 }
                    let (head, tail) = split(word, atWidth: width)
                    lines.append(head)
                    word = tail
                    wordWidth = DisplayWidth.of(word)
                }
                if line.isEmpty {
                    line = word
                    lineWidth = wordWidth
                } else if lineWidth + 1 + wordWidth <= width {
                    line += " " + word
                    lineWidth += 1 + wordWidth
                } else {
                    lines.append(line)
                    line = word
                    lineWidth = wordWidth
                }
            }
            if !line.isEmpty { lines.append(line) }
        }
        return lines
    }

    static func paragraphs(_ text: String) -> [String] {
        text.components(separatedBy: "\n\n")
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }
    }

    private static func split(_ word: String, atWidth width: Int) -> (String, String) {
        var head = ""
        var used = 0
        var index = word.startIndex
        while index < word.endIndex {
            let cells = DisplayWidth.of(String(word[index]))
            if used + cells > width, !head.isEmpty { break }
            head.append(word[index])
            used += cells
            index = word.index(after: index)
        }
        return (head, String(word[index...]))
    }

    /// Left padding that centres a block of `blockWidth` cells in `columns`.
    public static func leftPadding(blockWidth: Int, columns: Int) -> Int {
        max(0, (columns - blockWidth) / 2)
    }
}
