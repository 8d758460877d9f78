import TOML
import XCTest

final class KeyTests: XCTestCase {
    func testBareAndQuoted() {
        assertParses("""
            key = 1
            bare_key = 2
            bare-key = 3
            1234 = 4
            "127.0.0.1" = 5
            "character encoding" = 6
            "ʎǝʞ" = 7
            'key2' = 8
            'quoted "value"' = 9
            "" = 10
            true = 11
            inf = 12
            "\\u0041" = 13
            -_- = 14
            """, [
                "key": 1, "bare_key": 2, "bare-key": 3, "1234": 4, "127.0.0.1": 5, "character encoding": 6, "ʎǝʞ": 7,
                "key2": 8, "quoted \"value\"": 9, "": 10, "true": 11, "inf": 12, "A": 13, "-_-": 14,
            ])
        assertParses("'' = 1", ["": 1])
    }

    func testDotted() {
        assertParses("""
            name = "Orange"
            physical.color = "orange"
            physical.shape = "round"
            site."google.com" = true
            fruit . flavor = "banana"
            a . "b.c" . 'd' = 1
            3.14159 = "pi"
            """, [
                "name": "Orange",
                "physical": ["color": "orange", "shape": "round"],
                "site": ["google.com": true],
                "fruit": ["flavor": "banana"],
                "a": ["b.c": ["d": 1]],
                "3": ["14159": "pi"],
            ])
    }

    func testDottedKeysOutOfOrder() {
        assertParses("apple.type = 'fruit'\norange.type = 'fruit'\napple.skin = 'thin'\norange.skin = 'thick'", [
            "apple": ["type": "fruit", "skin": "thin"],
            "orange": ["type": "fruit", "skin": "thick"],
        ])
    }

    func testKeyOrderIsDocumentOrder() {
        let t = parsed("z = 1\na = 2\nm.x = 3\nb = 4\nm.a = 5\n[k]\n[c]")
        XCTAssertEqual(t.keys, ["z", "a", "m", "b", "k", "c"])
        XCTAssertEqual(t["m"]?.table?.keys, ["x", "a"])
    }

    func testDuplicates() {
        assertFails("name = 'Tom'\nname = 'Pradyun'", line: 2, column: 1, "duplicate key \"name\" (first defined on line 1)")
        assertFails("a = 1\n\"a\" = 2", line: 2, column: 1, "duplicate key")
        assertFails("a = 1\n'a' = 2", line: 2, column: 1, "duplicate key")
        assertFails("a = 1\n\"\\u0061\" = 2", line: 2, column: 1, "duplicate key")
        assertFails("\"\" = 1\n'' = 2", line: 2, column: 1, "duplicate key \"\"")
        assertFails("a.b = 1\na.b = 2", line: 2, column: 3, "duplicate key \"b\"")
        assertFails("a.b = 1\na = 2", line: 2, column: 1, "duplicate key \"a\"")
        assertFails("a = {}\na = {}", line: 2, column: 1, "duplicate key")
    }

    func testDottedKeysCannotReachIntoValues() {
        assertFails("a = false\na.b = true", line: 2, column: 1, "already a boolean")
        assertFails("a.b = 1\na.b.c = 2", line: 2, column: 3, "already an integer")
        assertFails("a = [1]\na.b = 2", line: 2, column: 1, "array")
        assertFails("a = 'x'\na.b.c = 2", line: 2, column: 1, "already a string")
    }

    func testInvalidSyntax() {
        assertFails("= 1", line: 1, column: 1, "expected a key")
        assertFails("a b = 1", line: 1, column: 3, "expected `=`")
        assertFails("a\tb = 1", line: 1, column: 3, "expected `=`")
        assertFails("\"a\" \"b\" = 1", line: 1, column: 5, "expected `=`")
        assertFails("bare!key = 1", line: 1, column: 5, "expected `=`")
        assertFails("! = 1", line: 1, column: 1, "expected a key")
        assertFails(". = 1", line: 1, column: 1, "expected a key")
        assertFails(".a = 1", line: 1, column: 1, "expected a key")
        assertFails("a. = 1", line: 1, column: 4, "expected a key after `.`")
        assertFails("a..b = 1", line: 1, column: 3, "expected a key after `.`")
        assertFails("a = 1 b = 2", line: 1, column: 7, "expected end of line")
        assertFails("key", line: 1, column: 4, "expected `=`")
        assertFails("key =", line: 1, column: 6, "expected a value")
        assertFails("key = \n1", line: 1, column: 7, "expected a value")
        assertFails("key\n= 1", line: 1, column: 4, "expected `=`")
        assertFails("a==1", line: 1, column: 3, "expected a value")
        assertFails("a=b=1", line: 1, column: 3)
        assertFails("\"\"\"key\"\"\" = 1", line: 1, column: 1, "multi-line")
        assertFails("'''key''' = 1", line: 1, column: 1, "multi-line")
        assertFails("\"key\nx\" = 1", line: 1, column: 1, "unterminated")
        assertFails("μ = 1", line: 1, column: 1, "`μ` (U+03BC)")
        assertFails("a# = 1", line: 1, column: 2, "expected `=`")
        assertFails("\\u00c0 = 1", line: 1, column: 1, "expected a key")
        assertFails("1.1", line: 1, column: 4, "expected `=`")
        assertFails("partial\"quoted\" = 5", line: 1, column: 8, "expected `=`")
    }
}
