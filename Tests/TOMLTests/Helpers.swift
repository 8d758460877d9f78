import TOML
import XCTest

/// Parses `toml` and compares with `expected` (keys in order, values exactly).
func assertParses(_ toml: String, _ expected: TOMLTable, file: StaticString = #filePath, line: UInt = #line) {
    do {
        let table = try TOML.parse(toml)
        XCTAssertEqual(table, expected, file: file, line: line)
        XCTAssertEqual(table.keys, expected.keys, "key order", file: file, line: line)
    } catch {
        XCTFail("unexpected error: \(error)\n--- input ---\n\(toml)", file: file, line: line)
    }
}

/// Parses `toml` and returns the table, failing the test on error.
func parsed(_ toml: String, file: StaticString = #filePath, line: UInt = #line) -> TOMLTable {
    do {
        return try TOML.parse(toml)
    } catch {
        XCTFail("unexpected error: \(error)", file: file, line: line)
        return TOMLTable()
    }
}

/// Expects a `TOMLError` at `errorLine` (and `column`, when given) whose message contains `message`.
func assertFails(
    _ toml: String, line errorLine: Int, column: Int? = nil, _ message: String? = nil,
    file: StaticString = #filePath, line: UInt = #line
) {
    assertFails(bytes: Array(toml.utf8), line: errorLine, column: column, message, file: file, line: line)
    // The String entry point must agree with the bytes one.
    do {
        _ = try TOML.parse(toml)
        XCTFail("String input parsed but should not", file: file, line: line)
    } catch let error as TOMLError {
        XCTAssertEqual(error.line, errorLine, "String input: \(error)", file: file, line: line)
    } catch {
        XCTFail("not a TOMLError: \(error)", file: file, line: line)
    }
}

func assertFails(
    bytes: [UInt8], line errorLine: Int, column: Int? = nil, _ message: String? = nil,
    file: StaticString = #filePath, line: UInt = #line
) {
    do {
        let table = try TOML.parse(bytes: bytes)
        XCTFail("parsed but should not: \(table)\n--- input ---\n\(String(decoding: bytes, as: UTF8.self))", file: file, line: line)
    } catch let error as TOMLError {
        XCTAssertEqual(error.line, errorLine, "\(error)", file: file, line: line)
        if let column {
            XCTAssertEqual(error.column, column, "\(error)", file: file, line: line)
        }
        if let message {
            XCTAssertTrue(error.message.contains(message), "message \"\(error.message)\" lacks \"\(message)\"", file: file, line: line)
        }
        XCTAssertFalse(error.message.isEmpty, file: file, line: line)
    } catch {
        XCTFail("not a TOMLError: \(error)", file: file, line: line)
    }
}

func date(_ y: Int, _ m: Int, _ d: Int) -> TOMLDate { TOMLDate(year: y, month: m, day: d) }
func time(_ h: Int, _ m: Int, _ s: Int, _ ns: Int = 0) -> TOMLTime { TOMLTime(hour: h, minute: m, second: s, nanosecond: ns) }
