/// Small JSON spellings for the hand-ordered output (JSONEncoder does not keep key order).
/// Strings escape every control character, DEL and the C1 controls included (a terminal that
/// shows the output obeys those too), which also makes them valid TOML basic strings.
public enum JSONText {
    public static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// A decimal with at most `places` digits after the point, always with one (`0.0`).
    public static func number(_ value: Double, places: Int) -> String {
        var text = NumberText.fixed(value, places: places)
        while text.hasSuffix("0"), !text.hasSuffix(".0") { text.removeLast() }
        return text
    }
}
