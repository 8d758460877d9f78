import TOML
import XCTest

final class ArrayOfTablesTests: XCTestCase {
    func testBasic() {
        assertParses("""
            [[products]]
            name = "Hammer"
            sku = 738594937

            [[products]]  # empty table within the array

            [[products]]
            name = "Nail"
            sku = 284758393
            color = "gray"
            """, ["products": [["name": "Hammer", "sku": 738_594_937], [:], ["name": "Nail", "sku": 284_758_393, "color": "gray"]]])
    }

    func testNested() {
        assertParses("""
            [[fruits]]
            name = "apple"

            [fruits.physical]  # subtable
            color = "red"
            shape = "round"

            [[fruits.varieties]]  # nested array of tables
            name = "red delicious"

            [[fruits.varieties]]
            name = "granny smith"

            [[fruits]]
            name = "banana"

            [[fruits.varieties]]
            name = "plantain"
            """, ["fruits": [
                ["name": "apple", "physical": ["color": "red", "shape": "round"],
                 "varieties": [["name": "red delicious"], ["name": "granny smith"]]],
                ["name": "banana", "varieties": [["name": "plantain"]]],
            ]])
    }

    func testImplicitParentAndLaterHeader() {
        assertParses("[[albums.songs]]\nname = 'Glory Days'\n[albums]\nx = 1", ["albums": ["songs": [["name": "Glory Days"]], "x": 1]])
        assertParses("[[a.b]]\nx = 1\n[a.b.c]\ny = 2\n[[a.b]]\nx = 3", ["a": ["b": [["x": 1, "c": ["y": 2]], ["x": 3]]]])
        assertParses("[[a]]\n[a.b]\n[[a]]\n[a.b]", ["a": [["b": [:]], ["b": [:]]]])
        assertParses("[[ a ]]\nb.c = 1\n[[ a ]]\nb.c = 2", ["a": [["b": ["c": 1]], ["b": ["c": 2]]]])
    }

    func testErrors() {
        assertFails("fruits = []\n[[fruits]]", line: 2, column: 3, "already an array value")
        assertFails("a = [{b = 1}]\n[[a]]", line: 2, column: 3, "array value")
        assertFails("a = [{b = 1}]\n[a.c]", line: 2, column: 2, "array value")
        assertFails("[[fruit]]\nname = 'apple'\n[[fruit.variety]]\n[fruit.variety]", line: 4, column: 8, "already an array of tables (line 3)")
        assertFails("[tbl]\n[[tbl]]", line: 2, column: 3, "already a table")
        assertFails("[[tbl]]\n[tbl]", line: 2, column: 2, "already an array of tables")
        assertFails("[[albums.songs]]\n[[albums]]", line: 2, column: 3, "already a table")
        assertFails("[fruit]\napple.color = 'red'\n[[fruit.apple]]", line: 3, column: 9, "already a table")
        assertFails("a = true\n[[a]]", line: 2, column: 3, "already a boolean")
        assertFails("[[tab.arr]]\n[tab]\narr.val1 = 1", line: 3, column: 1, "array of tables")
        assertFails("[[parent.arr]]\n[parent]\nnot-arr = 1\narr = 2", line: 4, column: 1, "duplicate key \"arr\"")
        assertFails("[[]]", line: 1, column: 3, "expected a table name")
        assertFails("[[a]", line: 1, column: 5, "expected `]]`")
        assertFails("[[a] ]", line: 1, column: 5, "expected `]]`")
        assertFails("[[a]]]", line: 1, column: 6, "expected end of line")
        assertFails("a = {}\n[[a.b]]", line: 2, column: 3, "cannot extend inline table")
        assertFails("a = []\n[[a.b]]", line: 2, column: 3, "array value")
    }
}
