import TOML
import XCTest

/// Control characters: forbidden in strings and comments (except tab), CR only as part of CRLF.
final class ControlTests: XCTestCase {
    func testAllowed() {
        assertParses("a = \"x\ty\" # tab\there\r\nb = 'x\ty'\r\n", ["a": "x\ty", "b": "x\ty"])
        assertParses("\ta\t=\t1\t", ["a": 1])
    }

    func testEveryControlCharacterInEveryContext() {
        let controls = Array(UInt8(0)...UInt8(0x1F)).filter { $0 != 0x09 && $0 != 0x0A && $0 != 0x0D } + [0x7F]
        for c in controls {
            let ch = String(UnicodeScalar(c))
            assertFails("a = \"x\(ch)\"", line: 1, column: 7, "control character")
            assertFails("a = 'x\(ch)'", line: 1, column: 7, "control character")
            assertFails("a = \"\"\"x\(ch)\"\"\"", line: 1, column: 9, "control character")
            assertFails("a = '''x\(ch)'''", line: 1, column: 9, "control character")
            assertFails("a = 1 # x\(ch)", line: 1, column: 10, "control character")
            assertFails("# x\(ch)\na = 1", line: 1, column: 4, "control character")
            assertFails("a = \(ch)1", line: 1, column: 5, "expected a value")
            assertFails("a = 1\(ch)", line: 1, column: 6)
            assertFails("\(ch)", line: 1, column: 1)
        }
    }

    func testBareCarriageReturn() {
        assertFails("a = 1\rb = 2", line: 1, column: 6, "carriage return")
        assertFails("\r", line: 1, column: 1, "carriage return")
        assertFails("a = 1 # comment\r", line: 1, column: 16, "carriage return")
        assertFails("a = \"x\ry\"", line: 1, column: 7, "carriage return")
        assertFails("a = '''x\ry'''", line: 1, column: 9, "carriage return")
        assertFails("a = \"\"\"x\ry\"\"\"", line: 1, column: 9, "carriage return")
        assertFails("a = [1,\r2]", line: 1, column: 8, "carriage return")
    }

    func testNul() {
        assertFails(bytes: Array("a = 1".utf8) + [0], line: 1, column: 6, "U+0000")
        assertFails(bytes: [0], line: 1, column: 1, "U+0000")
        assertFails(bytes: Array("a = \"".utf8) + [0] + Array("\"".utf8), line: 1, column: 6, "U+0000")
        assertFails("a = 1\0", line: 1, column: 6, "U+0000")
    }
}
