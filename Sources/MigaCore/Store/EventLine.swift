import FoundationEssentials
// fuzz/run.sh compiles this file and the JSON target's files as one module.
#if canImport(JSON)
import JSON
#endif

/// One event as a line of `miga events export`, and back (DESIGN "Events"):
/// `{"ts":"2026-11-21T09:30:00.000+01:00","type":"exit_selected","app":"discord","session":"…","content_id":null,"wait_ms":31000,"detail":null}`
public enum EventLine {
    public static let csvHeader = "ts,type,app,session,content_id,wait_ms,detail"
    static let keys: Set<String> = ["ts", "type", "app", "session", "content_id", "wait_ms", "detail"]

    public static func jsonl(_ event: Event) -> String {
        let ts = EventTimestamp.format(unixMilliseconds: event.timestamp, offsetMinutes: event.utcOffsetMinutes)
        let content = event.contentID.map(JSONText.string) ?? "null"
        let wait = event.waitMilliseconds.map(String.init) ?? "null"
        return "{\"ts\":\"\(ts)\",\"type\":\"\(event.type.rawValue)\",\"app\":\(JSONText.string(event.app)),"
            + "\"session\":\(JSONText.string(event.session)),\"content_id\":\(content),\"wait_ms\":\(wait),"
            + "\"detail\":\(detail(event.detail))}"
    }

    public static func csv(_ event: Event) -> String {
        func field(_ text: String?) -> String {
            guard let text else { return "" }
            guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
            return "\"" + text.replacingEvery("\"", with: "\"\"") + "\""
        }
        let ts = EventTimestamp.format(unixMilliseconds: event.timestamp, offsetMinutes: event.utcOffsetMinutes)
        return [ts, event.type.rawValue, event.app, event.session, event.contentID, event.waitMilliseconds.map(String.init), event.detail]
            .map(field).joined(separator: ",")
    }

    /// `detail` is JSON text in the database; it is written as JSON, not as a string of it.
    private static func detail(_ text: String?) -> String {
        guard let text else { return "null" }
        if (try? JSONValue.parse(text)) != nil {
            return text
        }
        return JSONText.string(text)
    }

    /// Parses one exported line; throws the problem (without the line number, which the
    /// caller adds).
    public static func parse(_ line: Data) throws -> Event {
        guard let fields = (try? JSONValue.parse(line))?.object else { throw LineProblem("not a JSON object") }
        return try event(from: fields)
    }

    /// One CSV record as `events export --format csv` writes it (RFC 4180, the header's order),
    /// checked exactly as a JSON line is.
    public static func parseCSV(_ record: String) throws -> Event {
        let values = try csvFields(record)
        let names = csvHeader.split(separator: ",").map(String.init)
        guard values.count == names.count else {
            throw LineProblem("\(values.count) fields where the header has \(names.count) (\(csvHeader))")
        }
        var fields: [String: JSONValue] = [:]
        for (name, value) in zip(names, values) where !value.isEmpty {
            switch name {
            case "wait_ms":
                guard let number = Int(value) else { throw LineProblem("\"wait_ms\" must be a whole number of milliseconds") }
                fields[name] = .number(String(number))
            case "detail":
                guard let object = try? JSONValue.parse(value), object.object != nil else {
                    throw LineProblem("\"detail\" must be a JSON object or empty")
                }
                fields[name] = object
            default:
                fields[name] = .string(value)
            }
        }
        return try event(from: fields)
    }

    /// Splits an RFC 4180 record: fields separated by commas, a field in double quotes may
    /// hold commas, line breaks and doubled quotes.
    static func csvFields(_ record: String) throws -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var afterQuote = false
        var characters = record.unicodeScalars.makeIterator()
        while let character = characters.next() {
            if quoted {
                if character == "\"" {
                    quoted = false
                    afterQuote = true
                } else {
                    field.unicodeScalars.append(character)
                }
            } else if character == "," {
                fields.append(field)
                field = ""
                afterQuote = false
            } else if character == "\"" {
                if afterQuote {
                    field.append("\"") // a doubled quote inside a quoted field
                    quoted = true
                    afterQuote = false
                } else if field.isEmpty {
                    quoted = true
                } else {
                    throw LineProblem("a quote in the middle of an unquoted field")
                }
            } else if character == "\r" {
                continue
            } else {
                guard !afterQuote else { throw LineProblem("text after a closing quote") }
                field.unicodeScalars.append(character)
            }
        }
        guard !quoted else { throw LineProblem("a quoted field that never ends") }
        fields.append(field)
        return fields
    }

    private static func event(from fields: [String: JSONValue]) throws -> Event {
        if let unknown = fields.keys.first(where: { !keys.contains($0) }) {
            throw LineProblem("unknown key \"\(TerminalText.excerpt(unknown))\"")
        }
        guard let tsText = fields["ts"]?.string else { throw LineProblem("\"ts\" is missing or not a string") }
        guard let ts = EventTimestamp.parse(tsText) else {
            throw LineProblem("\"ts\" is not a time like 2026-11-21T09:30:00.000+01:00")
        }
        guard let typeText = fields["type"]?.string else { throw LineProblem("\"type\" is missing or not a string") }
        guard let type = EventType(rawValue: typeText) else { throw LineProblem("unknown event type \"\(TerminalText.excerpt(typeText))\"") }
        guard let app = fields["app"]?.string, !app.isEmpty else { throw LineProblem("\"app\" is missing or empty") }
        guard let session = fields["session"]?.string, !session.isEmpty else {
            throw LineProblem("\"session\" is missing or empty")
        }
        let contentID: String?
        switch fields["content_id"] {
        case nil, .null?: contentID = nil
        case .string(let text)?: contentID = text
        default: throw LineProblem("\"content_id\" must be a string or null")
        }
        var wait: Int?
        switch fields["wait_ms"] {
        case nil, .null?: wait = nil
        case .number?, .bool?: // a boolean is a number that is not a whole number of milliseconds
            guard let number = fields["wait_ms"]?.double, number >= 0, number == number.rounded(), number < 1e12 else {
                throw LineProblem("\"wait_ms\" must be a whole number of milliseconds")
            }
            wait = Int(number)
        default: throw LineProblem("\"wait_ms\" must be a number or null")
        }
        var detail: String?
        switch fields["detail"] {
        case nil, .null?: detail = nil
        case let value? where value.object != nil:
            detail = value.text
        default: throw LineProblem("\"detail\" must be a JSON object or null")
        }
        return Event(timestamp: ts.unixMilliseconds, utcOffsetMinutes: ts.offsetMinutes, session: session, type: type,
                     app: app, contentID: contentID, waitMilliseconds: wait, detail: detail)
    }

    public struct LineProblem: Error, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }
}
