import Foundation
import TOML
import XCTest

/// Inputs that crashed or could hang other parsers: each must end in a value or a `TOMLError`.
final class RobustnessTests: XCTestCase {
    func testKnownCrashers() {
        assertFails("[", line: 1, column: 2, "expected a table name, found end of file")
        assertFails("[=x]", line: 1, column: 2, "expected a table name")
        assertFails("[.apps]", line: 1, column: 2, "expected a table name")
        assertFails("a = [1, 2}", line: 1, column: 10, "expected `,` or `]`")
        assertFails("[a]\n[a]", line: 2, column: 2, "duplicate table")
        assertFails("a = \"unterminated", line: 1, column: 5, "unterminated string")
        assertFails("a = \"\"\"", line: 1, column: 5, "unterminated multi-line string")
        assertFails("[[", line: 1, column: 3, "expected a table name")
        assertFails("[[a", line: 1, column: 4, "expected `]]`")
        assertFails("{", line: 1, column: 1, "expected a key")
        assertFails("]", line: 1, column: 1, "expected a key")
        assertFails("a = {", line: 1, column: 6)
        assertFails("a = [", line: 1, column: 6)
        assertFails("a = '", line: 1, column: 5)
        assertFails("a = \"\\u", line: 1, column: 6)
        assertFails("a = \"\\U0000", line: 1, column: 6)
        assertFails("a = 0x", line: 1, column: 5)
        assertFails("a = -", line: 1, column: 5)
        assertFails("a = +", line: 1, column: 5)
        assertFails("a = 1979-", line: 1, column: 5)
        assertFails("a = 1979-05-27T", line: 1, column: 5)
        assertFails("a = 1979-05-27 07:", line: 1, column: 16)
        assertFails("a = 07:", line: 1, column: 5)
        assertFails("a.", line: 1, column: 3)
        assertFails("\"", line: 1, column: 1)
        assertFails("'''", line: 1, column: 1)
        assertFails("a = \"\"\"\\", line: 1, column: 8)
        assertFails("a = \"\"\"\\ ", line: 1, column: 8)
    }

    func testDeepNestingIsCappedNotRecursedThrough() {
        let deepArray = "a = " + String(repeating: "[", count: 100_000)
        assertFails(deepArray, line: 1, column: 105, "nesting deeper than 100")
        assertFails("a = " + String(repeating: "{b=", count: 100_000), line: 1, column: 303, "nesting deeper than 100")
        assertFails("a = " + String(repeating: "[{b=", count: 50_000), line: 1, column: 5 + 4 * 49 + 2, "nesting deeper than 100")  // at the key `b` whose value would be too deep
        assertFails("[" + Array(repeating: "a", count: 100_000).joined(separator: ".") + "]", line: 1, column: 202, "nesting deeper than 100")
        assertFails(Array(repeating: "a", count: 100_000).joined(separator: ".") + " = 1", line: 1, column: 201, "nesting deeper than 100")
        // Header depth and key depth add up.
        let header = "[" + Array(repeating: "h", count: 60).joined(separator: ".") + "]\n"
        assertFails(header + Array(repeating: "k", count: 50).joined(separator: ".") + " = 1", line: 2, column: 81, "nesting deeper")
        assertFails(header + "k = " + String(repeating: "[", count: 50), line: 2, column: 5 + 40, "nesting deeper")
    }

    func testNestingUpToTheLimitWorks() throws {
        let ok = "a = " + String(repeating: "[", count: 99) + String(repeating: "]", count: 99)
        var value = try XCTUnwrap(TOML.parse(ok)["a"])
        var depth = 1
        while case .array(let inner) = value, let first = inner.first {
            value = first
            depth += 1
        }
        XCTAssertEqual(depth, 99)
        XCTAssertNoThrow(try TOML.parse("[" + Array(repeating: "a", count: 100).joined(separator: ".") + "]"))
    }

    func testDeepNestingOnASmallStack() {
        // miga might parse off the main thread; 100 levels must fit in a 512 KiB thread stack
        // even in a debug build.
        let done = expectation(description: "parsed")
        let thread = Thread {
            _ = try? TOML.parse("a = " + String(repeating: "[{b=", count: 50) + String(repeating: "}]", count: 50))
            _ = try? TOML.parse("a = " + String(repeating: "[", count: 100_000))
            done.fulfill()
        }
        thread.stackSize = 512 * 1024
        thread.start()
        wait(for: [done], timeout: 60)
    }

    func testHugeSingleLineString() throws {
        let payload = String(repeating: "abcdefgh", count: 512 * 1024)  // 4 MiB
        let table = try TOML.parse("a = \"" + payload + "\"")
        XCTAssertEqual(table["a"]?.string?.utf8.count, payload.utf8.count)
        let literal = try TOML.parse("a = '''" + payload + "'''")
        XCTAssertEqual(literal["a"]?.string, payload)
        let escaped = try TOML.parse("a = \"" + String(repeating: "\\n", count: 1 << 20) + "\"")
        XCTAssertEqual(escaped["a"]?.string?.utf8.count, 1 << 20)
        assertFails("a = \"" + payload, line: 1, column: 5, "unterminated string")
    }

    func testManyKeysComplete() throws {
        var text = ""
        for i in 0..<10_000 { text += "unknown_key_\(i) = \(i)\n" }
        let table = try TOML.parse(text)
        XCTAssertEqual(table.count, 10_000)
        XCTAssertEqual(table["unknown_key_9999"], 9999)
        XCTAssertEqual(table.keys.first, "unknown_key_0")
        XCTAssertEqual(table.position(of: "unknown_key_9999"), TOMLPosition(line: 10_000, column: 1))
    }

    func testManyTablesAndArrayElementsComplete() throws {
        var text = ""
        for i in 0..<5_000 { text += "[t\(i)]\nx = \(i)\n[[list]]\ny = \(i)\n" }
        let table = try TOML.parse(text)
        XCTAssertEqual(table.count, 5_001)
        XCTAssertEqual(table["list"]?.array?.count, 5_000)
        XCTAssertEqual(table["list"]?.array?.last?.table?["y"], 4999)
    }

    func testWideInlineTableAndArray() throws {
        let inline = "a = {" + (0..<10_000).map { "k\($0) = \($0)" }.joined(separator: ", ") + "}"
        XCTAssertEqual(try TOML.parse(inline)["a"]?.table?.count, 10_000)
        let array = "a = [" + (0..<10_000).map { "\($0)" }.joined(separator: ",") + "]"
        XCTAssertEqual(try TOML.parse(array)["a"]?.array?.count, 10_000)
    }

    func testLongErrorTokensAreShortenedInMessages() {
        let long = String(repeating: "x", count: 10_000)
        do {
            _ = try TOML.parse("a = " + long)
            XCTFail("should fail")
        } catch let error as TOMLError {
            XCTAssertLessThan(error.message.count, 100)
        } catch {
            XCTFail("\(error)")
        }
    }
}
