/// A JSON document from outside miga (a browser's message, an import line, a licence),
/// read strictly by RFC 8259 and never trusted: any byte string is either a value or an
/// error, never a crash, and nesting is bounded so a hostile `[[[[…` cannot exhaust the stack.
/// Numbers keep the text they were written with; callers ask for the reading they need.
/// Unlike Foundation's JSONSerialization on Linux, which miga used before, a trailing comma
/// (`[1,]`) is an error; like it, a leading byte order mark is passed over and a number
/// beyond Double's range is refused.
public indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    /// A repeated key keeps its last value.
    case object([String: JSONValue])

    /// Deeper than this is refused (JSONSerialization's own limit).
    static let depthLimit = 512

    public struct SyntaxError: Error, CustomStringConvertible, Equatable {
        /// What is wrong, in words a person (or an extension's developer) can act on.
        public enum Reason: Equatable, Sendable {
            case syntax, tooDeep, numberOutOfRange, invalidUTF8
        }
        public var offset: Int
        public var reason: Reason = .syntax

        public init(offset: Int, reason: Reason = .syntax) {
            self.offset = offset
            self.reason = reason
        }

        public var description: String {
            switch reason {
            case .syntax: return "not valid JSON (at byte \(offset + 1))"
            case .tooDeep: return "JSON nested deeper than \(JSONValue.depthLimit) levels (at byte \(offset + 1))"
            case .numberOutOfRange: return "a JSON number too large to represent (at byte \(offset + 1))"
            case .invalidUTF8: return "not UTF-8 (at byte \(offset + 1))"
            }
        }
    }

    /// Inlinable, and without a `Result`: called with `Data` from another module, the generic
    /// entry made the runtime build the metadata of a `Result` and its closures, 0.2M
    /// instructions of the first parse (a gate reads its entitlement before its first frame).
    @inlinable
    public static func parse<Bytes: Collection>(_ bytes: Bytes) throws -> JSONValue where Bytes.Element == UInt8 {
        var failure: (any Error)?
        let parsed = bytes.withContiguousStorageIfAvailable { buffer -> JSONValue? in
            do {
                return try parse(UnsafeRawBufferPointer(buffer))
            } catch {
                failure = error
                return nil
            }
        }
        if let failure { throw failure }
        if let parsed, let value = parsed { return value }
        return try Array(bytes).withUnsafeBytes { try parse($0) }
    }

    public static func parse(_ text: String) throws -> JSONValue {
        var text = text
        return try text.withUTF8 { try parse(UnsafeRawBufferPointer($0)) }
    }

    public static func parse(_ bytes: UnsafeRawBufferPointer) throws -> JSONValue {
        var reader = JSONReader(bytes: bytes)
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { reader.position = 3 }
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.position == bytes.count else { throw SyntaxError(offset: reader.position) }
        return value
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    public var object: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// A number's value as the nearest Double.
    public var double: Double? {
        if case .number(let text) = self { return Double(text) }
        return nil
    }

    /// A number that is exactly a whole number in Int64's range (`3`, `3.0`, `3e2`).
    public var integer: Int64? {
        guard case .number(let text) = self else { return nil }
        if let exact = Int64(text) { return exact }
        guard let value = Double(text), value == value.rounded(), abs(value) < 9.2e18 else { return nil }
        return Int64(value)
    }

    /// Compact JSON text, objects' keys sorted, numbers as they were written.
    public var text: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let text): return text
        case .string(let text): return JSONText.string(text)
        case .array(let values): return "[" + values.map(\.text).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.keys.sorted().map { JSONText.string($0) + ":" + members[$0]!.text }.joined(separator: ",") + "}"
        }
    }
}

/// The parser's cursor over the bytes.
private struct JSONReader {
    let bytes: UnsafeRawBufferPointer
    var position = 0

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    func fail() -> JSONValue.SyntaxError { JSONValue.SyntaxError(offset: position) }

    mutating func skipSpace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
    }

    mutating func expect(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        guard bytes.count - position >= count else { throw fail() }
        for index in 0..<count where bytes[position + index] != word.utf8Start[index] { throw fail() }
        position += count
    }

    mutating func value(depth: Int) throws -> JSONValue {
        guard depth < JSONValue.depthLimit else { throw JSONValue.SyntaxError(offset: position, reason: .tooDeep) }
        guard let byte = current else { throw fail() }
        switch byte {
        case UInt8(ascii: "{"):
            position += 1
            var members: [String: JSONValue] = [:]
            skipSpace()
            if current == UInt8(ascii: "}") { position += 1; return .object(members) }
            while true {
                skipSpace()
                guard current == UInt8(ascii: "\"") else { throw fail() }
                let key = try string()
                skipSpace()
                guard current == UInt8(ascii: ":") else { throw fail() }
                position += 1
                skipSpace()
                members[key] = try value(depth: depth + 1)
                skipSpace()
                switch current {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "}"): position += 1; return .object(members)
                default: throw fail()
                }
            }
        case UInt8(ascii: "["):
            position += 1
            var values: [JSONValue] = []
            skipSpace()
            if current == UInt8(ascii: "]") { position += 1; return .array(values) }
            while true {
                skipSpace()
                values.append(try value(depth: depth + 1))
                skipSpace()
                switch current {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "]"): position += 1; return .array(values)
                default: throw fail()
                }
            }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        default: return .number(try number())
        }
    }

    /// -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
    mutating func number() throws -> String {
        let start = position
        func isDigit(_ byte: UInt8?) -> Bool { byte.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
        if current == UInt8(ascii: "-") { position += 1 }
        if current == UInt8(ascii: "0") {
            position += 1
        } else {
            guard isDigit(current) else { throw fail() }
            while isDigit(current) { position += 1 }
        }
        if current == UInt8(ascii: ".") {
            position += 1
            guard isDigit(current) else { throw fail() }
            while isDigit(current) { position += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard isDigit(current) else { throw fail() }
            while isDigit(current) { position += 1 }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard Double(text)?.isFinite == true else { throw JSONValue.SyntaxError(offset: start, reason: .numberOutOfRange) }
        return text
    }

    /// A string literal, the cursor on its opening quote. Raw bytes must be valid UTF-8 and
    /// no control character; `\u` escapes must pair their surrogates.
    mutating func string() throws -> String {
        position += 1
        // Runs of plain bytes are appended as Strings: appending their scalars to a scalar
        // view took the generic append(contentsOf:), whose first use made the runtime search
        // its conformances (0.85M instructions, before every link `open-url` passes on).
        // A run of ASCII (most of what miga reads: paths, ids, host names) needs no UTF-8
        // check: String(decoding:) takes it as it is, where the generic String(validating:)
        // costs some 30 instructions a byte more.
        var text = ""
        var runStart = position
        var runIsASCII = true
        func flushRun(_ end: Int) throws {
            defer { runIsASCII = true }
            guard end > runStart else { return }
            let bytes = UnsafeRawBufferPointer(rebasing: bytes[runStart..<end])
            if runIsASCII {
                text += String(decoding: bytes, as: UTF8.self)
                return
            }
            guard let run = String(validating: bytes, as: UTF8.self) else {
                throw JSONValue.SyntaxError(offset: runStart, reason: .invalidUTF8)
            }
            text += run
        }
        while true {
            guard let byte = current else { throw fail() }
            switch byte {
            case UInt8(ascii: "\""):
                try flushRun(position)
                position += 1
                return text
            case UInt8(ascii: "\\"):
                try flushRun(position)
                position += 1
                guard let escaped = current else { throw fail() }
                position += 1
                switch escaped {
                case UInt8(ascii: "\""): text.unicodeScalars.append("\"")
                case UInt8(ascii: "\\"): text.unicodeScalars.append("\\")
                case UInt8(ascii: "/"): text.unicodeScalars.append("/")
                case UInt8(ascii: "b"): text.unicodeScalars.append("\u{08}")
                case UInt8(ascii: "f"): text.unicodeScalars.append("\u{0C}")
                case UInt8(ascii: "n"): text.unicodeScalars.append("\n")
                case UInt8(ascii: "r"): text.unicodeScalars.append("\r")
                case UInt8(ascii: "t"): text.unicodeScalars.append("\t")
                case UInt8(ascii: "u"):
                    let unit = try hex4()
                    if (0xD800...0xDBFF).contains(unit) {
                        guard current == UInt8(ascii: "\\") else { throw fail() }
                        position += 1
                        guard current == UInt8(ascii: "u") else { throw fail() }
                        position += 1
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail() }
                        text.unicodeScalars.append(Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!)
                    } else {
                        guard let scalar = Unicode.Scalar(unit) else { throw fail() } // a lone low surrogate
                        text.unicodeScalars.append(scalar)
                    }
                default: throw fail()
                }
                runStart = position
            case 0..<0x20: throw fail()
            case 0x80...:
                runIsASCII = false
                position += 1
            default: position += 1
            }
        }
    }

    mutating func hex4() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current else { throw fail() }
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: throw fail()
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }
}
