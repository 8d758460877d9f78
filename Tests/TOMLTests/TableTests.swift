import TOML
import XCTest

final class TableTests: XCTestCase {
    func testHeaders() {
        assertParses("""
            [table-1]
            key1 = "some string"
            key2 = 123

            [table-2]
            key1 = "another string"
            key2 = 456
            [empty]
            [ spaced . "quoted.key" . 'lit' ]
            x = 1
            [ j . "ʞ" . 'l' ]
            """, [
                "table-1": ["key1": "some string", "key2": 123],
                "table-2": ["key1": "another string", "key2": 456],
                "empty": [:],
                "spaced": ["quoted.key": ["lit": ["x": 1]]],
                "j": ["ʞ": ["l": [:]]],
            ])
    }

    func testImplicitSuperTables() {
        assertParses("[x.y.z.w]\na = 1\n[x]\nb = 2", ["x": ["y": ["z": ["w": ["a": 1]]], "b": 2]])
        assertParses("[a.b.c]\nanswer = 42\n[a]\nbetter = 43", ["a": ["b": ["c": ["answer": 42]], "better": 43]])
        assertParses("[a]\nbetter = 43\n[a.b.c]\nanswer = 42", ["a": ["better": 43, "b": ["c": ["answer": 42]]]])
        assertParses("[a.b.c]\n[a]\nb.d = 1", ["a": ["b": ["c": [:], "d": 1]]])
    }

    func testDottedKeysInTables() {
        assertParses("""
            [fruit]
            apple.color = "red"
            apple.taste.sweet = true
            [fruit.apple.texture]
            smooth = true
            """, ["fruit": ["apple": ["color": "red", "taste": ["sweet": true], "texture": ["smooth": true]]]])
        assertParses("[dog.\"tater.man\"]\ntype.name = \"pug\"", ["dog": ["tater.man": ["type": ["name": "pug"]]]])
        assertParses("a.b.c = 1\n[a.x]\ny = 2", ["a": ["b": ["c": 1], "x": ["y": 2]]])
    }

    func testRootKeysBeforeFirstHeader() {
        assertParses("a = 1\n[t]\na = 2", ["a": 1, "t": ["a": 2]])
    }

    func testAccessor() {
        let t = parsed("[t]\nx = 1")
        XCTAssertEqual(t["t"]?.table?["x"], 1)
        XCTAssertEqual(t["t"]?.kindName, "table")
        XCTAssertNil(t["t"]?.array)
        XCTAssertEqual(t.count, 1)
        XCTAssertFalse(t.isEmpty)
        XCTAssertTrue(TOMLTable().isEmpty)
    }

    func testRedefinition() {
        assertFails("[a]\nb = 1\n\n[a]\nc = 2", line: 4, column: 2, "duplicate table \"a\" (first defined on line 1)")
        assertFails("[a]\n[a]", line: 2, column: 2, "duplicate table")
        assertFails("[a.b]\n[a]\n[a]", line: 3, column: 2, "duplicate table")
        assertFails("[a]\n[a.b]\n[a.b]", line: 3, column: 4, "duplicate table \"a.b\"")
        assertFails("[a.b]\n[a]\n[a.b]", line: 3, column: 4, "duplicate table")
        assertFails("[fruit]\ntype = 'apple'\n[fruit.type]", line: 3, column: 8, "already a string")
        assertFails("[a]\nb = 1\n[a.b]", line: 3, column: 4, "already an integer")
        assertFails("a = 1\n[a.b.c.d]", line: 2, column: 2, "already an integer")
        assertFails("[dependencies.foo]\n[dependencies]\nlibc = 1\n[dependencies]", line: 4, column: 2, "duplicate table")
    }

    func testHeaderCannotRedefineDottedTable() {
        assertFails("[fruit]\napple.color = 'red'\n[fruit.apple]", line: 3, column: 8, "defined by dotted keys on line 2")
        assertFails("[fruit]\napple.taste.sweet = true\n[fruit.apple.taste]", line: 3, column: 14, "dotted keys")
        assertFails("[t1]\nt2.t3.v = 0\n[t1.t2]", line: 3, column: 5, "dotted keys")
        assertFails("a.b = 1\n[a]", line: 2, column: 2, "dotted keys")
        assertFails("[a.b.c]\n[a]\nb.d = 1\n[a.b]", line: 4, column: 4, "dotted keys")
    }

    func testDottedKeysCannotExtendHeaderTable() {
        assertFails("[a.b.c]\nz = 9\n[a]\nb.c.t = 1", line: 4, column: 3, "defined by a header on line 1")
        assertFails("[a.b.c.d]\nz = 9\n[a]\nb.c.d.k.t = 1", line: 4, column: 5, "defined by a header")
        assertFails("[a.b.c]\nz = 9\n[[x]]\n[a]\nb.c.t = 1", line: 5, column: 3, "defined by a header")
        assertFails("[tab.nested]\ninline-t = { nest = {} }\n[tab]\nnested.inline-t.nest = 2", line: 4, column: 1, "defined by a header")
    }

    func testInvalidHeaders() {
        assertFails("[", line: 1, column: 2, "expected a table name")
        assertFails("[=x]", line: 1, column: 2, "expected a table name, found `=`")
        assertFails("[.apps]", line: 1, column: 2, "expected a table name, found `.`")
        assertFails("[]", line: 1, column: 2, "expected a table name")
        assertFails("[a.]", line: 1, column: 4, "expected a key after `.`")
        assertFails("[a..b]", line: 1, column: 4, "expected a key after `.`")
        assertFails("[a", line: 1, column: 3, "expected `]` to close the table header")
        assertFails("[a\n]", line: 1, column: 3, "expected `]` to close the table header, found end of line")
        assertFails("[a b]", line: 1, column: 4, "expected `]`")
        assertFails("[a]b]", line: 1, column: 4, "expected end of line after the table header")
        assertFails("[a[b]", line: 1, column: 3, "expected `]`")
        assertFails("[ [a]]", line: 1, column: 3, "expected a table name")
        assertFails("[a] x = 1", line: 1, column: 5, "expected end of line")
        assertFails("[a#b]", line: 1, column: 3, "expected `]`")
        assertFails("[\"a\nb\"]", line: 1, column: 2, "unterminated")
        assertFails("['''a''']", line: 1, column: 2, "multi-line")
        assertFails("[!]", line: 1, column: 2, "expected a table name")
        assertFails("x = 1\n\n  [a.b.]\n", line: 3, column: 8, "expected a key after `.`")
    }
}
