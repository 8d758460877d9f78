/// Entry points of the TOML 1.0.0 parser.
///
/// Built for untrusted input: any malformed document produces a `TOMLError` with line and column
/// (never a crash or a hang), time is linear in the input size, and nesting is capped at
/// 100 levels of tables and arrays.
public enum TOML {
    /// Parses a whole document.
    public static func parse(_ text: String) throws -> TOMLTable {
        var text = text
        // A Swift String is always valid UTF-8, so no validation pass is needed.
        return try text.withUTF8 { buffer throws(TOMLError) in try parse(buffer: buffer, validate: false) }
    }

    /// Parses a document from raw bytes (a file's contents). Invalid UTF-8 is reported as a
    /// `TOMLError` at the offending byte. A leading UTF-8 byte-order mark is skipped.
    public static func parse<Bytes: Collection>(bytes: Bytes) throws -> TOMLTable where Bytes.Element == UInt8 {
        let result = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(TOMLError) in try parse(buffer: buffer, validate: true) }
        }
        if let result {
            return try result.get()
        }
        let copy = Array(bytes)
        return try copy.withUnsafeBufferPointer { buffer throws(TOMLError) in try parse(buffer: buffer, validate: true) }
    }

    static func parse(buffer: UnsafeBufferPointer<UInt8>, validate: Bool) throws(TOMLError) -> TOMLTable {
        var parser = Parser(bytes: buffer)
        if validate, let bad = firstInvalidUTF8(in: buffer) {
            throw parser.error("invalid UTF-8 (byte 0x\(String(buffer[bad], radix: 16, uppercase: true)))", at: bad)
        }
        return try parser.parseDocument()
    }
}
