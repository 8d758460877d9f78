import FoundationEssentials
import JSON

/// The one line a person may give before Open ("What are you here to do?"), kept in the
/// `open_selected` event's detail as `{"intention":"…"}` and shown at the app's next gate.
public enum Intention {
    public static let question = "What are you here to do?"
    /// Grapheme clusters, so an emoji or an accented letter counts as one.
    public static let limit = 120

    /// What is stored: control characters (line breaks, escapes, bidi controls) removed,
    /// runs of space made one, trimmed, at most `limit` characters.
    public static func clean(_ text: String) -> String {
        isCleanASCII(text) ? text : cleanByScalars(text)
    }

    static func cleanByScalars(_ text: String) -> String {
        // Scalar by scalar first (tabs and line breaks become spaces, other controls go), then
        // characters are counted on what is left, so cleaning twice changes nothing.
        var scalars = String.UnicodeScalarView()
        var lastWasSpace = true
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                if !lastWasSpace { scalars.append(" ") }
                lastWasSpace = true
            } else if !isControl(scalar) {
                scalars.append(scalar)
                lastWasSpace = false
            }
        }
        var out = String(String(scalars).prefix(limit))
        while out.last == " " { out.removeLast() }
        return out
    }

    /// Text that `clean` would give back as it is, told without Unicode's tables: printable
    /// ASCII, single spaces between words, within the limit (what is stored already is; the
    /// week's report cleans every intention of the week again, thousands on a dense history).
    static func isCleanASCII(_ text: String) -> Bool {
        var count = 0, lastWasSpace = true
        for byte in text.utf8 {
            count += 1
            guard byte >= 0x20, byte < 0x7F, count <= limit, !(byte == 0x20 && lastWasSpace) else { return false }
            lastWasSpace = byte == 0x20
        }
        return !lastWasSpace || count == 0
    }

    /// Cc, and the format characters that reorder or hide text (bidi overrides, zero-width).
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control: return true
        case .format: return scalar.value != 0x200D // keep the joiner inside emoji sequences
        case .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }

    /// The `open_selected` detail for an answer; nil for an empty one (nothing to show later).
    public static func detail(_ answer: String) -> String? {
        let text = clean(answer)
        return text.isEmpty ? nil : "{\"intention\":\(JSONText.string(text))}"
    }

    /// The intention in a stored detail, cleaned again (the file is not trusted); nil when
    /// there is none.
    public static func from(detail: String?) -> String? {
        guard let detail, detail.utf8.count <= 64 * 1024 else { return nil }
        return from(json: try? JSONValue.parse(detail))
    }

    /// The same of a detail already parsed.
    static func from(json value: JSONValue?) -> String? {
        guard let text = value?["intention"]?.string else { return nil }
        let cleaned = clean(text)
        return cleaned.isEmpty ? nil : cleaned
    }
}
