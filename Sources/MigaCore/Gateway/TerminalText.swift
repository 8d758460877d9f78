/// Text from outside miga (content packs, config values, URLs, file names) on its way to a
/// terminal. A terminal obeys whatever control characters it is sent: ESC starts sequences
/// that clear the screen, retitle the window, write the clipboard (OSC 52) or disguise links
/// (OSC 8), and C1 controls do the same in one byte. None is ever written raw.
public enum TerminalText {
    /// Whether `scalar` is a C0 or C1 control character or DEL.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// The first control character in `text` other than those `allowed`, if any.
    public static func firstControl(in text: String, allowing allowed: Set<Unicode.Scalar> = ["\n", "\t"]) -> Unicode.Scalar? {
        text.unicodeScalars.first { isControl($0) && !allowed.contains($0) }
    }

    /// `text` with every control character but those `allowed` shown as U+FFFD.
    public static func visible(_ text: String, allowing allowed: Set<Unicode.Scalar> = ["\n", "\t"]) -> String {
        guard firstControl(in: text, allowing: allowed) != nil else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            result.append(isControl(scalar) && !allowed.contains(scalar) ? "\u{FFFD}" : scalar)
        }
        return String(result)
    }

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

    /// How a control character is named in a message: `U+001B`.
    public static func name(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
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
