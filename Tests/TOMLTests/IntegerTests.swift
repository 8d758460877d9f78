import TOML
import XCTest

final class IntegerTests: XCTestCase {
    func testDecimal() {
        assertParses(
            "a = 99\nb = +17\nc = -5\nd = 0\ne = +0\nf = -0\ng = 1_000\nh = 5_349_221\ni = 1_2_3_4_5",
            ["a": 99, "b": 17, "c": -5, "d": 0, "e": 0, "f": 0, "g": 1000, "h": 5_349_221, "i": 12345])
    }

    func testRadix() {
        assertParses(
            "h1 = 0xDEADBEEF\nh2 = 0xdeadbeef\nh3 = 0xdead_beef\nh4 = 0x00ff\no1 = 0o01234567\no2 = 0o755\nb1 = 0b11010110\nb2 = 0b0_1",
            ["h1": 0xDEADBEEF, "h2": 0xDEADBEEF, "h3": 0xDEADBEEF, "h4": 255, "o1": 0o1234567, "o2": 0o755, "b1": 0b11010110, "b2": 1])
    }

    func testLimits() {
        assertParses(
            "max = 9223372036854775807\nmin = -9223372036854775808\nhex = 0x7FFFFFFFFFFFFFFF\nbin = 0b111111111111111111111111111111111111111111111111111111111111111",
            ["max": .integer(.max), "min": .integer(.min), "hex": .integer(.max), "bin": .integer(.max)])
    }

    func testOverflowIsAnError() {
        assertFails("a = 9223372036854775808", line: 1, column: 5, "does not fit in 64 bits")
        assertFails("a = -9223372036854775809", line: 1, column: 5, "does not fit in 64 bits")
        assertFails("a = 0x8000000000000000", line: 1, column: 5, "does not fit")
        assertFails("a = 0xFFFFFFFFFFFFFFFFFF", line: 1, column: 5, "does not fit")
        assertFails("a = 99999999999999999999999999999999999999", line: 1, column: 5, "does not fit")
    }

    func testAccessors() {
        let t = parsed("a = 42\nb = 9223372036854775807\nc = 'x'")
        XCTAssertEqual(t["a"]?.integer, 42)
        XCTAssertEqual(t["a"]?.int, 42)
        XCTAssertEqual(t["b"]?.int, Int(exactly: Int64.max))
        XCTAssertNil(t["a"]?.double, "integers are not silently floats")
        XCTAssertNil(t["c"]?.integer)
        XCTAssertEqual(t["a"]?.kindName, "integer")
    }

    func testInvalid() {
        assertFails("a = 01", line: 1, column: 5, "leading zeros")
        assertFails("a = -01", line: 1, column: 5, "leading zeros")
        assertFails("a = 0_0", line: 1, column: 5, "leading zeros")
        assertFails("a = 1__2", line: 1, column: 5)
        assertFails("a = _1", line: 1, column: 5)
        assertFails("a = 1_", line: 1, column: 5)
        assertFails("a = 0x", line: 1, column: 5)
        assertFails("a = 0x_1", line: 1, column: 5)
        assertFails("a = 0b2", line: 1, column: 5)
        assertFails("a = 0o8", line: 1, column: 5)
        assertFails("a = 0xG", line: 1, column: 5)
        assertFails("a = 0X1", line: 1, column: 5)
        assertFails("a = -0x1", line: 1, column: 5, "cannot have a sign")
        assertFails("a = +0b1", line: 1, column: 5, "cannot have a sign")
        assertFails("a = ++1", line: 1, column: 5)
        assertFails("a = 1 2", line: 1, column: 7)
        assertFails("a = 1٠", line: 1, column: 6)
        assertFails("\n\na = 12a", line: 3, column: 5, "invalid number")
    }
}
