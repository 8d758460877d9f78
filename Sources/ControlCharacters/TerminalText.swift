/// Text from outside miga (content packs, config values, URLs, file names) on its way to a
/// terminal. A terminal obeys whatever control characters it is sent: ESC starts sequences
/// that clear the screen, retitle the window, write the clipboard (OSC 52) or disguise links
/// (OSC 8), and C1 controls do the same in one byte. None is ever written raw.
public enum TerminalText {
    /// Whether `scalar` is a C0 or C1 control character or DEL.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// The first control character in `text` other than those `allowed`, if any. `allowed` is
    /// a short list, not a Set: one or two scalars, and a Set of a new element type made the
    /// runtime search every conformance in the binary on a gate's way to its first frame.
    public static func firstControl(in text: String, allowing allowed: [Unicode.Scalar] = ["\n", "\t"]) -> Unicode.Scalar? {
        text.unicodeScalars.first { isControl($0) && !allowed.contains($0) }
    }

    /// `text` with every control character but those `allowed` shown as U+FFFD.
    public static func visible(_ text: String, allowing allowed: [Unicode.Scalar] = ["\n", "\t"]) -> String {
        guard firstControl(in: text, allowing: allowed) != nil else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            result.append(isControl(scalar) && !allowed.contains(scalar) ? "\u{FFFD}" : scalar)
        }
        return String(result)
    }

    /// Text from outside miga inside a line of a command's output (an app, machine or file name
    /// from the sync folder, an intention typed on another machine, a problem quoting one):
    /// every control character, line breaks and tabs too, as U+FFFD, so it can neither send
    /// the terminal a sequence nor forge a line of its own. The one sanitiser such text goes
    /// through in `stats`, `sync status` and `doctor`; their `--json` needs none, since the
    /// JSON writer escapes every control character and a script gets the name as it is.
    public static func field(_ text: String) -> String {
        visible(text, allowing: [])
    }

    /// The most of a file's text a message quotes (in Unicode scalars): about a line's worth.
    public static let excerptLimit = 80

    /// Text from a file as a message quotes it: on one line (every control character, line
    /// breaks too, as U+FFFD) and at most `excerptLimit` scalars, cut with "…". A message is
    /// about where the problem is; a megabyte key echoed whole would fill the screen at every
    /// gate. Scalars, not characters: one "character" may carry a megabyte of combining marks.
    public static func excerpt(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let cut = scalars.index(scalars.startIndex, offsetBy: excerptLimit, limitedBy: scalars.endIndex), cut < scalars.endIndex else {
            return visible(text, allowing: [])
        }
        return visible(String(scalars[..<scalars.index(before: cut)]), allowing: []) + "…"
    }

    /// How a control character is named in a message: `U+001B`.
    public static func name(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
