/// Any TOML value.
///
/// Integers are `Int64` because TOML requires the full 64-bit range whatever the platform.
/// Equality is structural (tables compare keys in order and values, not source positions);
/// like `Double`, a `.float(.nan)` is not equal to itself.
public indirect enum TOMLValue: Equatable, Sendable {
    case string(String)
    case integer(Int64)
    case float(Double)
    case boolean(Bool)
    case offsetDateTime(TOMLDateTime)
    case localDateTime(TOMLDateTime)
    case localDate(TOMLDate)
    case localTime(TOMLTime)
    case array([TOMLValue])
    case table(TOMLTable)
}

// Accessors so config readers can write `table["timer_seconds"]?.int` instead of a switch.
// Each returns nil for any other kind of value; there is no silent conversion between kinds.
extension TOMLValue {
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The integer as `Int`, or nil if it is not an integer or does not fit (32-bit platforms).
    public var int: Int? {
        if case .integer(let value) = self { return Int(exactly: value) }
        return nil
    }

    /// Only `.float` values; an integer such as `1` is not converted, so check `integer` too if a
    /// setting should accept both.
    public var double: Double? {
        if case .float(let value) = self { return value }
        return nil
    }

    public var bool: Bool? {
        if case .boolean(let value) = self { return value }
        return nil
    }

    public var array: [TOMLValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var table: TOMLTable? {
        if case .table(let value) = self { return value }
        return nil
    }

    /// The TOML name of the value's kind ("string", "integer", "table", ...), for messages such as
    /// `"timer_seconds" must be an integer, not a string`.
    public var kindName: String {
        switch self {
        case .string: return "string"
        case .integer: return "integer"
        case .float: return "float"
        case .boolean: return "boolean"
        case .offsetDateTime: return "offset date-time"
        case .localDateTime: return "local date-time"
        case .localDate: return "local date"
        case .localTime: return "local time"
        case .array: return "array"
        case .table: return "table"
        }
    }
}

// Literals let tests (and callers building defaults) write expected documents directly.
extension TOMLValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .float(value) }
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
    public init(arrayLiteral elements: TOMLValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, TOMLValue)...) { self = .table(TOMLTable(elements)) }
}
