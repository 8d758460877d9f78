import TOML
import XCTest

final class BoolTests: XCTestCase {
    func testValid() {
        assertParses("t = true\nf = false\n", ["t": .boolean(true), "f": .boolean(false)])
        assertParses("a = [true,false]", ["a": [true, false]])
        assertParses("a = {x=true}", ["a": ["x": true]])
    }

    func testInvalid() {
        assertFails("a = True", line: 1, column: 5, "lower-case")
        assertFails("a = FALSE", line: 1, column: 5, "lower-case")
        assertFails("a = tru", line: 1, column: 5, "invalid value `tru`")
        assertFails("a = truer", line: 1, column: 5)
        assertFails("a = falsey", line: 1, column: 5)
        assertFails("a = t", line: 1, column: 5)
        assertFails("\na = true false", line: 2, column: 10, "expected end of line")
    }
}
