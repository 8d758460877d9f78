import TOML
import XCTest

/// Positions of keys and values, and the shape of errors, which miga shows to people.
final class PositionTests: XCTestCase {
    func testKeyAndValuePositions() {
        let t = parsed("""
            timer_seconds = 30
              name   =   "x"
            a.b = [1,
              2]
            [apps.discord]
            command = { x = 1 }
            [[list]]
            [[list]]
            """)
        XCTAssertEqual(t.position(of: "timer_seconds"), TOMLPosition(line: 1, column: 1))
        XCTAssertEqual(t.valuePosition(of: "timer_seconds"), TOMLPosition(line: 1, column: 17))
        XCTAssertEqual(t.position(of: "name"), TOMLPosition(line: 2, column: 3))
        XCTAssertEqual(t.valuePosition(of: "name"), TOMLPosition(line: 2, column: 14))
        XCTAssertEqual(t.position(of: "a"), TOMLPosition(line: 3, column: 1))
        XCTAssertNil(t.valuePosition(of: "a"), "tables made by dotted keys have no value text")
        let a = t["a"]?.table
        XCTAssertEqual(a?.position(of: "b"), TOMLPosition(line: 3, column: 3))
        XCTAssertEqual(a?.valuePosition(of: "b"), TOMLPosition(line: 3, column: 7))
        XCTAssertEqual(t.position(of: "apps"), TOMLPosition(line: 5, column: 2))
        XCTAssertNil(t.valuePosition(of: "apps"))
        let apps = t["apps"]?.table
        XCTAssertEqual(apps?.position(of: "discord"), TOMLPosition(line: 5, column: 7))
        let discord = apps?["discord"]?.table
        XCTAssertEqual(discord?.valuePosition(of: "command"), TOMLPosition(line: 6, column: 11))
        XCTAssertEqual(discord?["command"]?.table?.position(of: "x"), TOMLPosition(line: 6, column: 13))
        XCTAssertEqual(t.position(of: "list"), TOMLPosition(line: 7, column: 3), "first [[list]] header")
        XCTAssertNil(t.position(of: "missing"))
        XCTAssertNil(t.valuePosition(of: "missing"))
    }

    func testImplicitTableTakesItsHeaderPosition() {
        let t = parsed("[a.b]\nx = 1\n\n[a]\ny = 2")
        XCTAssertEqual(t.position(of: "a"), TOMLPosition(line: 4, column: 2))
    }

    func testColumnsCountUnicodeScalars() {
        let t = parsed("\"日本語\" = \"é\"\n\"😀\" = 'ü'")
        XCTAssertEqual(t.valuePosition(of: "日本語"), TOMLPosition(line: 1, column: 9))
        XCTAssertEqual(t.valuePosition(of: "😀"), TOMLPosition(line: 2, column: 7))
        assertFails("'é' = 'ü' x", line: 1, column: 11, "expected end of line")
        assertFails("a = '日本' 語", line: 1, column: 10, "`語` (U+8A9E)")
        assertFails("a = \"\t\" ?", line: 1, column: 9)  // a tab is one column
    }

    func testLinesAfterMultilineStrings() {
        assertFails("a = \"\"\"\n1\n2\n\"\"\"\nb = ?", line: 5, column: 5)
        assertFails("a = '''\r\n1\r\n2'''\r\nb = ?", line: 4, column: 5)
        assertFails("a = [\n1,\n# c\n2]\nb = ?", line: 5, column: 5)
    }

    func testErrorDescription() {
        do {
            _ = try TOML.parse("[a]\n[a]")
            XCTFail("should fail")
        } catch let error as TOMLError {
            XCTAssertEqual(error, TOMLError(line: 2, column: 2, message: "duplicate table \"a\" (first defined on line 1)"))
            XCTAssertEqual(error.description, "line 2, column 2: duplicate table \"a\" (first defined on line 1)")
            XCTAssertEqual(error.position, TOMLPosition(line: 2, column: 2))
        } catch {
            XCTFail("not a TOMLError: \(error)")
        }
    }

    func testMessagesAreShortLowercaseAndSingleLine() {
        let bad = ["[", "[=x]", "a = [1, 2}", "a = \"x", "a = 1\na = 2", "a = 0x", "a = 2000-13-01", "'\\n' = 1\n'\\n' = 2",
                   "\"\\n\" = 1\n\"\\n\" = 2", "a = 99999999999999999999"]
        for text in bad {
            do {
                _ = try TOML.parse(text)
                XCTFail("should fail: \(text)")
            } catch let error as TOMLError {
                XCTAssertFalse(error.message.contains("\n"), error.message)
                XCTAssertEqual(error.message.first.map { $0.isUppercase }, false, error.message)
                XCTAssertLessThan(error.message.count, 160, error.message)
            } catch {
                XCTFail("not a TOMLError: \(error)")
            }
        }
        // A key containing a newline is escaped in the message, so it stays on one line.
        assertFails("\"a\\nb\" = 1\n\"a\\nb\" = 2", line: 2, column: 1, #"duplicate key "a\nb""#)
    }

    func testDateTimeDescriptions() {
        XCTAssertEqual(TOMLDate(year: 7, month: 3, day: 9).description, "0007-03-09")
        XCTAssertEqual(TOMLTime(hour: 1, minute: 2, second: 3, nanosecond: 500_000_000).description, "01:02:03.5")
        XCTAssertEqual(TOMLDateTime(date: date(2024, 1, 2), time: time(3, 4, 5), offsetMinutes: -330).description, "2024-01-02T03:04:05-05:30")
        XCTAssertEqual(TOMLDateTime(date: date(2024, 1, 2), time: time(3, 4, 5)).description, "2024-01-02T03:04:05")
    }

    func testTablesBuiltInCodeCompareByContent() {
        XCTAssertEqual(parsed("b = 1\na = 'x'"), TOMLTable([("b", 1), ("a", "x")]))
        XCTAssertNotEqual(parsed("b = 1\na = 'x'"), TOMLTable([("a", "x"), ("b", 1)]), "order matters")
        XCTAssertEqual(TOMLTable([("a", 1), ("a", 2)]), ["a": 2])
    }
}
