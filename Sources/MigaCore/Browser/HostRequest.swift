import FoundationEssentials
// fuzz/run.sh compiles this file and the JSON target's files as one module.
#if canImport(JSON)
import JSON
#endif

/// One message from the extension, checked field by field: nothing in it is trusted.
struct HostRequest {
    var type: String
    /// Echoed in the reply so the extension can pair them; a number or a short string.
    var id: OrderedJSON
    var fields: [String: JSONValue]

    enum Problem: Error, CustomStringConvertible {
        case notUTF8, notJSON(JSONValue.SyntaxError), notObject, noType, badField(String)

        var description: String {
            switch self {
            case .notUTF8: return "not UTF-8 JSON"
            case .notJSON(let error): return "\(error)"
            case .notObject: return "not a JSON object"
            case .noType: return "no \"type\""
            case .badField(let name): return "\"\(name)\" is missing or not valid"
            }
        }
    }

    init(_ body: Data) throws {
        // Said apart from JSON's own faults (too deep, a number out of range): those are valid UTF-8.
        guard String(validating: body, as: UTF8.self) != nil else { throw Problem.notUTF8 }
        let value: JSONValue
        do {
            value = try JSONValue.parse(body)
        } catch let error as JSONValue.SyntaxError {
            throw Problem.notJSON(error)
        }
        guard let object = value.object else { throw Problem.notObject }
        fields = object
        id = Self.id(object["id"])
        guard let type = object["type"]?.string, !type.isEmpty, type.utf8.count <= 32 else { throw Problem.noType }
        self.type = type
    }

    static func id(_ value: JSONValue?) -> OrderedJSON {
        if let text = value?.string, text.utf8.count <= 64 { return .string(text) }
        // Integers a browser's JSON keeps exactly (±2^53); compared, not abs()'d: abs(Int64.min) traps.
        if let integer = value?.integer, integer > -9_007_199_254_740_992, integer < 9_007_199_254_740_992 { return .int(integer) }
        return .null
    }

    /// A string field of at most `limit` bytes, or nil.
    func string(_ name: String, limit: Int) -> String? {
        guard let text = fields[name]?.string, !text.isEmpty, text.utf8.count <= limit else { return nil }
        return text
    }

    /// A session id the host gave out: hexadecimal digits and hyphens.
    func session() throws -> String {
        guard let text = string("session", limit: 64), Self.isSession(text) else { throw Problem.badField("session") }
        return text
    }

    /// Hexadecimal digits and hyphens, at most 64: the form of the session ids gates give out.
    static func isSession(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64 && text.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) || $0 == 45 }
    }
}
