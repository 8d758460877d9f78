import TOML
import XCTest

final class ArrayTests: XCTestCase {
    func testValues() {
        assertParses("""
            integers = [ 1, 2, 3 ]
            colors = [ "red", "yellow", "green" ]
            nested_arrays_of_ints = [ [ 1, 2 ], [3, 4, 5] ]
            nested_mixed_array = [ [ 1, 2 ], ["a", "b", "c"] ]
            string_array = [ "all", 'strings', \"\"\"are the same\"\"\", '''type''' ]
            numbers = [ 0.1, 0.2, 0.5, 1, 2, 5 ]
            contributors = [
              "Foo Bar <foo@example.com>",
              { name = "Baz Qux", email = "bazqux@example.com", url = "https://example.com/bazqux" }
            ]
            integers2 = [
              1, 2, 3
            ]
            integers3 = [
              1,
              2, # this is ok
            ]
            empty = []
            empty2 = [ ]
            empty3 = [
            ]
            empty_nested = [[], [[]]]
            trailing = [1,]
            """, [
                "integers": [1, 2, 3],
                "colors": ["red", "yellow", "green"],
                "nested_arrays_of_ints": [[1, 2], [3, 4, 5]],
                "nested_mixed_array": [[1, 2], ["a", "b", "c"]],
                "string_array": ["all", "strings", "are the same", "type"],
                "numbers": [0.1, 0.2, 0.5, 1, 2, 5],
                "contributors": ["Foo Bar <foo@example.com>", ["name": "Baz Qux", "email": "bazqux@example.com", "url": "https://example.com/bazqux"]],
                "integers2": [1, 2, 3],
                "integers3": [1, 2],
                "empty": [], "empty2": [], "empty3": [],
                "empty_nested": [[], [[]]],
                "trailing": [1],
            ])
    }

    func testCRLFAndTabsInside() {
        assertParses("a = [\r\n\t1,\r\n\t2 # c\r\n]\r\n", ["a": [1, 2]])
    }

    func testAccessor() {
        let t = parsed("a = [1, 'x']")
        XCTAssertEqual(t["a"]?.array, [1, "x"])
        XCTAssertEqual(t["a"]?.array?[1].string, "x")
        XCTAssertEqual(t["a"]?.kindName, "array")
    }

    func testInvalid() {
        assertFails("a = [1, 2}", line: 1, column: 10, "expected `,` or `]` after an array element, found `}`")
        assertFails("a = [1,,2]", line: 1, column: 8, "expected a value")
        assertFails("a = [1,2,,]", line: 1, column: 10, "expected a value")
        assertFails("a = [,]", line: 1, column: 6, "expected a value")
        assertFails("a = [,,]", line: 1, column: 6, "expected a value")
        assertFails("a = [true false]", line: 1, column: 11, "expected `,` or `]`")
        assertFails("a = [ 1 2 3 ]", line: 1, column: 9, "expected `,` or `]`")
        assertFails("a = [ 1, 2, 3", line: 1, column: 14, "found end of file")
        assertFails("a = [1,", line: 1, column: 8, "expected `]` to close the array")
        assertFails("a = [", line: 1, column: 6, "expected `]` to close the array")
        assertFails("a = [\n1,\n2\n", line: 4, column: 1, "found end of file")
        assertFails("a = [42 #]", line: 1, column: 11)
        assertFails("a = [\n  \"x\",\n  I don't belong,\n]", line: 3, column: 3, "strings must be quoted")
        assertFails("a = [1]]", line: 1, column: 8, "expected end of line")
        assertFails("a = [{ key = 42 }", line: 1, column: 18, "expected `,` or `]`")
        assertFails("a = [1,{a=1]", line: 1, column: 12, "expected `,` or `}`")
    }
}
