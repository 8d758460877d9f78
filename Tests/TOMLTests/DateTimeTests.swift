import TOML
import XCTest

final class DateTimeTests: XCTestCase {
    func testOffsetDateTime() {
        let t = parsed("""
            odt1 = 1979-05-27T07:32:00Z
            odt2 = 1979-05-27T00:32:00-07:00
            odt3 = 1979-05-27T00:32:00.999999+07:30
            odt4 = 1979-05-27 07:32:00Z
            odt5 = 1979-05-27t07:32:00z
            odt6 = 1979-05-27T07:32:00-00:00
            """)
        XCTAssertEqual(t["odt1"], .offsetDateTime(TOMLDateTime(date: date(1979, 5, 27), time: time(7, 32, 0), offsetMinutes: 0)))
        XCTAssertEqual(t["odt2"], .offsetDateTime(TOMLDateTime(date: date(1979, 5, 27), time: time(0, 32, 0), offsetMinutes: -420)))
        XCTAssertEqual(t["odt3"], .offsetDateTime(TOMLDateTime(date: date(1979, 5, 27), time: time(0, 32, 0, 999_999_000), offsetMinutes: 450)))
        XCTAssertEqual(t["odt4"], t["odt1"])
        XCTAssertEqual(t["odt5"], t["odt1"])
        XCTAssertEqual(t["odt6"], t["odt1"])
        XCTAssertEqual(t.keys, ["odt1", "odt2", "odt3", "odt4", "odt5", "odt6"])
        if case .offsetDateTime(let dt)? = t["odt3"] {
            XCTAssertEqual(dt.description, "1979-05-27T00:32:00.999999+07:30")
        } else {
            XCTFail("odt3")
        }
    }

    func testLocal() {
        let t = parsed("""
            ldt1 = 1979-05-27T07:32:00
            ldt2 = 1979-05-27 00:32:00.999999
            ld1 = 1979-05-27
            lt1 = 07:32:00
            lt2 = 00:32:00.999999
            lt3 = 23:59:60
            ns = 00:00:00.123456789987
            """)
        XCTAssertEqual(t["ldt1"], .localDateTime(TOMLDateTime(date: date(1979, 5, 27), time: time(7, 32, 0))))
        XCTAssertEqual(t["ldt2"], .localDateTime(TOMLDateTime(date: date(1979, 5, 27), time: time(0, 32, 0, 999_999_000))))
        XCTAssertEqual(t["ld1"], .localDate(date(1979, 5, 27)))
        XCTAssertEqual(t["lt1"], .localTime(time(7, 32, 0)))
        XCTAssertEqual(t["lt2"], .localTime(time(0, 32, 0, 999_999_000)))
        XCTAssertEqual(t["lt3"], .localTime(time(23, 59, 60)), "leap second, as toml-test expects")
        XCTAssertEqual(t["ns"], .localTime(time(0, 0, 0, 123_456_789)), "truncated past nanoseconds")
        XCTAssertEqual(t["ldt1"]?.kindName, "local date-time")
    }

    func testEdgesAndLeapYears() {
        let t = parsed("a = 0001-01-01\nb = 9999-12-31\nc = 2000-02-29\nd = 2024-02-29T00:00:00Z\ne = 0000-01-01\nf = 1600-02-29")
        XCTAssertEqual(t["a"], .localDate(date(1, 1, 1)))
        XCTAssertEqual(t["b"], .localDate(date(9999, 12, 31)))
        XCTAssertEqual(t["c"], .localDate(date(2000, 2, 29)))
        XCTAssertEqual(t["e"], .localDate(date(0, 1, 1)))
        XCTAssertEqual(t["f"], .localDate(date(1600, 2, 29)))
    }

    func testDateFollowedBySomethingElse() {
        assertParses("a = 1979-05-27 # comment", ["a": .localDate(date(1979, 5, 27))])
        assertParses("a = [1979-05-27 , 07:32:00]", ["a": [.localDate(date(1979, 5, 27)), .localTime(time(7, 32, 0))]])
        assertParses("a = {d = 1979-05-27T07:32:00Z}", ["a": ["d": .offsetDateTime(TOMLDateTime(date: date(1979, 5, 27), time: time(7, 32, 0), offsetMinutes: 0))]])
        assertFails("a = 1979-05-27 07", line: 1, column: 16, "expected end of line")
    }

    func testInvalid() {
        let bad: [(String, String)] = [
            ("2100-02-29", "day must be 01 to 28"), ("1988-02-30", "day"), ("2006-01-32", "day"), ("2006-01-00", "day"),
            ("2006-04-31", "day must be 01 to 30"), ("2006-13-01", "month"), ("2006-00-01", "month"),
            ("2006-01-01T24:00:00", "hour"), ("2006-01-01T00:60:00", "minute"), ("2006-01-01T00:00:61", "second"),
            ("24:00:00", "hour"), ("00:60:00", "minute"), ("00:00:61", "second"),
            ("1987-7-05", "YYYY-MM-DD"), ("1987-07-5", "YYYY-MM-DD"), ("87-07-05", "YYYY-MM-DD"), ("10000-01-01", "YYYY-MM-DD"),
            ("02026-05-07", "YYYY-MM-DD"), ("1987-07-05T17:45Z", "seconds are required"), ("17:45", "seconds are required"),
            ("1:32:00", "HH:MM:SS"), ("01:32:0", "HH:MM:SS"), ("1987-07-0517:45:00", "between date and time"),
            ("2006-01-30T", "between date and time"), ("1997-09-09T09:09:09.", "digits after"),
            ("12:13:14.", "digits after"), ("1997-09-09T09:09:09.Z", "digits after"),
            ("1997-09-09T09:09:09+09", "UTC offset"), ("1997-09-09T09:09:09+0909", "UTC offset"),
            ("1997-09-09T09:09:09+9:09", "UTC offset"), ("1997-09-09T09:09:09+", "UTC offset"),
            ("1985-06-18 17:04:07+24:00", "offset out of range"), ("1985-06-18 17:04:07+12:60", "offset out of range"),
            ("1997-09-09T09:09:09Zx", "after the UTC offset"), ("1997-09-09T09:09:09x", "after the time"),
            ("2020-01-01x", "between date and time"), ("1979-05-27T07:32:00+07:00:00", "after the UTC offset"),
        ]
        for (value, message) in bad {
            // Errors inside the time part of a date-time point at the time.
            let inTime = ["hour", "minute", "second", "seconds are required", "digits after", "HH:MM:SS"].contains(message)
            let column = inTime && value.count > 10 && value.contains("-") ? 16 : 5
            assertFails("x = \(value)", line: 1, column: column, message)
        }
        assertFails("x = T", line: 1, column: 5)
        assertFails("x = 1979-05-27T07:32:00ZZ", line: 1, column: 5)
    }
}
