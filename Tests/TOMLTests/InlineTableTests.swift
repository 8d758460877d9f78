import TOML
import XCTest

final class InlineTableTests: XCTestCase {
    func testValues() {
        assertParses("""
            name = { first = "Tom", last = "Preston-Werner" }
            point = { x = 1, y = 2 }
            animal = { type.name = "pug" }
            empty = {}
            spaced = {   }
            nested = { a = { b = { c = 1 } }, d = [ { e = 2 }, { } ] }
            dotted = { a.b = 1, a.c = 2, "q.k" = 3 }
            multiline = { s = \"\"\"
            x\"\"\", arr = [
              1, # comments and newlines are fine inside an array value
              2,
            ] }
            """, [
                "name": ["first": "Tom", "last": "Preston-Werner"],
                "point": ["x": 1, "y": 2],
                "animal": ["type": ["name": "pug"]],
                "empty": [:],
                "spaced": [:],
                "nested": ["a": ["b": ["c": 1]], "d": [["e": 2], [:]]],
                "dotted": ["a": ["b": 1, "c": 2], "q.k": 3],
                "multiline": ["s": "x", "arr": [1, 2]],
            ])
    }

    func testKeyOrderInside() {
        let t = parsed("a = { z = 1, b = 2, y.x = 3, c = 4 }")
        XCTAssertEqual(t["a"]?.table?.keys, ["z", "b", "y", "c"])
    }

    func testInHeaderTableAndArrayOfTables() {
        assertParses("[product]\ntype = { name = 'Nail' }\n[[x]]\ny = {z = 1}",
                     ["product": ["type": ["name": "Nail"]], "x": [["y": ["z": 1]]]])
    }

    func testImmutable() {
        assertFails("[product]\ntype = { name = 'Nail' }\ntype.edible = false", line: 3, column: 1, "cannot extend inline table \"type\" (defined on line 2)")
        assertFails("[product]\ntype.name = 'Nail'\ntype = { edible = false }", line: 3, column: 1, "duplicate key \"type\"")
        assertFails("a = {}\n[a.b]", line: 2, column: 2, "cannot extend inline table")
        assertFails("a = { b = {} }\n[a.b]", line: 2, column: 2, "cannot extend inline table")
        assertFails("a = { b = {} }\n[[a.b]]", line: 2, column: 3, "cannot extend inline table")
        assertFails("a = { b = 1 }\na.c = 2", line: 2, column: 1, "cannot extend inline table")
        assertFails("a = { b = 1 }\n[a]", line: 2, column: 2, "cannot extend inline table")
        assertFails("tbl = { fruit = { apple.color = 'red' }, fruit.apple.texture = { smooth = true } }", line: 1, column: 42, "cannot extend inline table \"fruit\"")
        assertFails("tab = { inner = { dog = 'best' }, inner.cat = 'worst' }", line: 1, column: 35, "cannot extend inline table")
    }

    func testDuplicatesInside() {
        assertFails("a = {b = 1, b = 2}", line: 1, column: 13, "duplicate key \"b\"")
        assertFails("t = { t2.dupe = 1, t2.dupe = 2 }", line: 1, column: 23, "duplicate key \"dupe\"")
        assertFails("t = { a.b = 1, a.b.c = 2 }", line: 1, column: 18, "already an integer")
        assertFails("a = { b = 1, b.c = 2 }", line: 1, column: 14, "already an integer")
        assertFails("a = { b.a = 1, b = 2, b.c = 3 }", line: 1, column: 16, "duplicate key \"b\"")
        assertFails("t = { x.y = [{}], x.y.z = 1 }", line: 1, column: 21, "array value")
    }

    func testSyntax() {
        assertFails("a = { b = 1, }", line: 1, column: 14, "trailing comma")
        assertFails("a = {,}", line: 1, column: 6, "expected a key")
        assertFails("a = {b = 1,,c = 2}", line: 1, column: 12, "expected a key")
        assertFails("a = { b = 1\n}", line: 1, column: 12, "line break in an inline table")
        assertFails("a = {\nb = 1 }", line: 1, column: 6, "line break")
        assertFails("a = { b = 1,\nc = 2 }", line: 1, column: 13, "line break")
        assertFails("a = { b = 1 c = 2 }", line: 1, column: 13, "expected `,` or `}`")
        assertFails("a = { b = 1", line: 1, column: 12, "expected `}` to close the inline table")
        assertFails("a = {", line: 1, column: 6, "expected `}`")
        assertFails("a = { b }", line: 1, column: 9, "expected `=`")
        assertFails("a = { [b] }", line: 1, column: 7, "expected a key")
        assertFails("a = { b = 1 ]", line: 1, column: 13, "expected `,` or `}`")
        assertFails("a = { b = 1 # c }", line: 1, column: 13, "comment in an inline table")
        assertFails("a = {b=1}}", line: 1, column: 10, "expected end of line")
    }
}
