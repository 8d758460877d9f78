import TOML
import XCTest

final class FloatTests: XCTestCase {
    func testValid() {
        assertParses(
            "a = +1.0\nb = 3.1415\nc = -0.01\nd = 5e+22\ne = 1e06\nf = -2E-2\ng = 6.626e-34\nh = 224_617.445_991_228\ni = 0.0\nj = 1e1_0\nk = 0e0",
            ["a": 1.0, "b": 3.1415, "c": -0.01, "d": 5e22, "e": 1e6, "f": -2e-2, "g": 6.626e-34, "h": 224_617.445_991_228,
             "i": 0.0, "j": 1e10, "k": 0.0])
    }

    func testNegativeZeroKeepsItsSign() {
        let t = parsed("a = -0.0\nb = +0.0")
        XCTAssertEqual(t["a"]?.double?.sign, .minus)
        XCTAssertEqual(t["b"]?.double?.sign, .plus)
    }

    func testSpecial() {
        let t = parsed("a = inf\nb = +inf\nc = -inf\nd = nan\ne = +nan\nf = -nan")
        XCTAssertEqual(t["a"], .float(.infinity))
        XCTAssertEqual(t["b"], .float(.infinity))
        XCTAssertEqual(t["c"], .float(-.infinity))
        for key in ["d", "e", "f"] {
            XCTAssertEqual(t[key]?.double?.isNaN, true, key)
        }
        XCTAssertEqual(t["f"]?.double?.sign, .minus)
        XCTAssertEqual(t.keys, ["a", "b", "c", "d", "e", "f"])
    }

    func testPrecision() {
        let t = parsed("a = 0.1\nb = 1.7976931348623157e308\nc = 5e-324\nd = 3.141592653589793")
        XCTAssertEqual(t["a"]?.double, 0.1)
        XCTAssertEqual(t["b"]?.double, .greatestFiniteMagnitude)
        XCTAssertEqual(t["c"]?.double, .leastNonzeroMagnitude)
        XCTAssertEqual(t["d"]?.double, .pi)
    }

    func testTooLarge() {
        assertFails("a = 1e400", line: 1, column: 5, "too large")
    }

    func testInvalid() {
        for bad in ["1.", ".5", "-.5", "1.e2", "1e", "1e+", "1e_2", "1_.2", "1._2", "1.2_", "1e2_", "1__0.0", "03.14",
                    "-03.14", "1e2.3", "1.2.3", "0..1", "1ee2", "Inf", "NaN", "in", "-in", "na", "+na", "in_f", "infinity",
                    "nan1", "1.0f", "_1.0", "1,5"] {
            assertFails("x = \(bad)", line: 1, column: bad == "1,5" ? 6 : 5)
        }
    }
}
