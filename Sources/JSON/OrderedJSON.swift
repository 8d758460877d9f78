/// JSON to write, with keys in the order given (JSONEncoder sorts or scrambles them, and a
/// message read by people, such as the native host's replies, should read in a sensible order).
public indirect enum OrderedJSON: Equatable, Sendable {
    case string(String)
    case int(Int64)
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
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        case .array(let values): return "[" + values.map(\.text).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { JSONText.string($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
        }
    }
}
