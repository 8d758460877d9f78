/// Word wrapping by terminal cell width (CJK and emoji take two cells).
public enum TextLayout {
    /// Short items side by side, `separator` between them, in as few lines of `width` cells
    /// as they fit; an item never split between lines (one wider than the width is wrapped).
    public static func pack(_ items: [String], width: Int, separator: String = "   ") -> [String] {
        var lines: [String] = []
        var line = ""
        for item in items {
            let joined = line.isEmpty ? item : line + separator + item
            if DisplayWidth.of(joined) <= width {
                line = joined
                continue
            }
            if !line.isEmpty { lines.append(line) }
            line = ""
            if DisplayWidth.of(item) <= width { line = item } else { lines += wrap(item, width: width) }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// Wraps `text` to `width` cells. Blank lines separate paragraphs; a word longer than the
    /// width is split rather than overflowing.
    public static func wrap(_ text: String, width: Int) -> [String] {
        let width = max(1, width)
        var lines: [String] = []
        for (index, paragraph) in paragraphs(text).enumerated() {
            if index > 0 { lines.append("") }
            var line = ""
            var lineWidth = 0
            for word in words(of: paragraph) {
                let wordWidth = DisplayWidth.of(word)
                if wordWidth > width {
                    // One pass over the word, each character measured once: a 4 MB "word" in
                    // a pack must cost as much as 4 MB of prose, not its square.
                    if !line.isEmpty { lines.append(line) }
                    line = ""
                    lineWidth = 0
                    for character in word {
                        let cells = DisplayWidth.of(String(character))
                        if lineWidth + cells > width, !line.isEmpty {
                            lines.append(line)
                            line = ""
                            lineWidth = 0
                        }
                        line.append(character)
                        lineWidth += cells
                    }
                    continue
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

    /// The words of a paragraph, between spaces, tabs and newlines. Text of plain ASCII (most
    /// of the bundled articles) is split byte by byte: each byte is a Character there, but a
    /// split by Characters finds grapheme boundaries, some 40 instructions a byte, before
    /// every gate's first frame. A carriage return is left to the Characters ("\r\n" is one).
    static func words(of paragraph: String) -> [String] {
        var text = paragraph
        let plain: [String]? = text.withUTF8 { bytes in
            var words: [String] = []
            var start = 0
            for index in bytes.indices {
                switch bytes[index] {
                case 0x80..., UInt8(ascii: "\r"): return nil
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"):
                    if index > start { words.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)) }
                    start = index + 1
                default: continue
                }
            }
            if bytes.count > start { words.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self)) }
            return words
        }
        return plain ?? paragraph.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
    }

    static func paragraphs(_ text: String) -> [String] {
        text.pieces(separatedBy: "\n\n")
            .map { $0.trimming(.whitespacesAndNewlines) }
            .filter { !$0.isEmpty }
    }

    /// The end of `text` that fits in `width` cells, led by "…" when cut: a field shows
    /// where the typing is.
    public static func tail(_ text: String, width: Int) -> String {
        guard DisplayWidth.of(text) > max(1, width) else { return text }
        var kept = ""
        var cells = 1
        for character in text.reversed() {
            let size = DisplayWidth.of(String(character))
            guard cells + size <= width else { break }
            kept.insert(character, at: kept.startIndex)
            cells += size
        }
        return "…" + kept
    }

    /// Left padding that centres a block of `blockWidth` cells in `columns`.
    public static func leftPadding(blockWidth: Int, columns: Int) -> Int {
        max(0, (columns - blockWidth) / 2)
    }
}
