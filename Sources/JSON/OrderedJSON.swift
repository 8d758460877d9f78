/// JSON to write, with keys in the order given (JSONEncoder sorts or scrambles them, and a
/// message read by people, such as the native host's replies, should read in a sensible order).
public indirect enum OrderedJSON: Equatable, Sendable {
    case string(String)
    case int(Int64)
    /// A number with at most `places` decimals (trailing zeros dropped, one kept: `47.0`).
    case decimal(Double, places: Int)
    case bool(Bool)
    case null
    case array([OrderedJSON])
    case object([(String, OrderedJSON)])

    public static func == (lhs: OrderedJSON, rhs: OrderedJSON) -> Bool { lhs.text == rhs.text }

    public static func int(_ value: Int) -> OrderedJSON { .int(Int64(value)) }
    public static func optional(_ value: String?) -> OrderedJSON { value.map(OrderedJSON.string) ?? .null }

    public var text: String {
        switch self {
        case .string(let value): return JSONText.string(value)
        case .int(let value): return String(value)
        // JSON has no NaN or infinity: such a value is written as 0.
        case .decimal(let value, let places): return JSONText.number(value.isFinite ? value : 0, places: places)
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        case .array(let values): return "[" + values.map(\.text).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { JSONText.string($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
        }
    }
}
