import MigaContent

/// The screen's side of `TerminalText` (its control-character rules live with the content
/// format in MigaContent, which checks packs with them at build time too).
extension TerminalText {
    /// Text to lay out on the screen: line breaks kept, a tab as one space (layout counts
    /// cells), every other control character as U+FFFD.
    public static func forScreen(_ text: String) -> String {
        guard firstControl(in: text, allowing: ["\n"]) != nil else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            result.append(scalar == "\t" ? " " : isControl(scalar) && scalar != "\n" ? "\u{FFFD}" : scalar)
        }
        return String(result)
    }

    /// Whether the locale's character set is UTF-8 (LC_ALL, else LC_CTYPE, else LANG, as the
    /// C library decides). Under `LANG=C` a terminal shows UTF-8 bytes as mojibake.
    public static func localeIsUTF8(_ environment: [String: String]) -> Bool {
        let value = [environment["LC_ALL"], environment["LC_CTYPE"], environment["LANG"]]
            .compactMap { $0 }.first { !$0.isEmpty } ?? ""
        // Compared byte by byte in ASCII (a codeset's name is ASCII): this runs before every
        // first frame, and String's generic search cost a tenth of a millisecond.
        let lowered = value.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }
        return [Array("utf-8".utf8), Array("utf8".utf8)].contains { name in
            lowered.count >= name.count && (0...(lowered.count - name.count)).contains { lowered[$0..<($0 + name.count)].elementsEqual(name) }
        }
    }

    /// `text` in ASCII, each character replaced by as many cells as it took, so a laid-out
    /// frame keeps its shape: box drawing as `=` and `-`, curly quotes straight, the breathing
    /// dots as `*` and `o`; anything else as `?`. Escape sequences (ASCII) pass untouched.
    public static func ascii(_ text: String) -> String {
        guard !text.unicodeScalars.allSatisfy(\.isASCII) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.isASCII { result.append(scalar); continue }
            let replacement: String
            switch scalar {
            case "━", "═": replacement = "="
            case "─", "—", "–", "−", "‐": replacement = "-"
            case "●", "✦", "•": replacement = "*"
            case "○": replacement = "o"
            case "✧": replacement = "+"
            case "“", "”", "„", "″": replacement = "\""
            case "‘", "’", "‚", "′": replacement = "'"
            case "…", "·": replacement = "."
            case "↑": replacement = "^"
            case "↓": replacement = "v"
            case "→": replacement = ">"
            case "←": replacement = "<"
            case "\u{A0}": replacement = " "
            default:
                replacement = String(repeating: "?", count: DisplayWidth.of(String(Character(scalar))))
            }
            result.append(contentsOf: replacement.unicodeScalars)
        }
        return String(result)
    }
}
