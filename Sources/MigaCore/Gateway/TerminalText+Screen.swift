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
        let lowered = value.lowercased()
        return lowered.contains("utf-8") || lowered.contains("utf8")
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
