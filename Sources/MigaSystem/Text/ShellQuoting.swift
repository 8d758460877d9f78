/// Values on their way into a shell script miga writes (a PATH shim, a desktop launcher's
/// script, an rc file's line): the one way any of them gets there. Needs nothing but
/// StringEditing, so the shim fuzz target builds it alone.
public enum ShellQuoting {
    /// `text` as one word sh takes literally, whatever it holds: in single quotes, each `'`
    /// inside written as `'\''` (close, an escaped quote, reopen).
    public static func quoted(_ text: String) -> String {
        "'" + text.replacingEvery("'", with: "'\\''") + "'"
    }

    /// `template` with each placeholder replaced by its value, quoted. One pass: a value that
    /// happens to hold another placeholder's text is never filled in again.
    public static func filled(_ template: String, _ values: [(placeholder: String, value: String)]) -> String {
        var result = ""
        var rest = Substring(template)
        while let at = rest.firstIndex(of: "@") {
            result += rest[..<at]
            rest = rest[at...]
            if let match = values.first(where: { rest.hasPrefix($0.placeholder) }) {
                result += quoted(match.value)
                rest = rest.dropFirst(match.placeholder.count)
            } else {
                result.append("@")
                rest = rest.dropFirst()
            }
        }
        return result + rest
    }
}
