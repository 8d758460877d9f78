import TOML
import XCTest

final class StringTests: XCTestCase {
    func testBasic() {
        assertParses(#"a = "I'm a string. \"You can quote me\". Name\tJos\u00E9\nLocation\tSF.""#,
                     ["a": "I'm a string. \"You can quote me\". Name\tJosé\nLocation\tSF."])
        assertParses(#"a = """#, ["a": ""])
        assertParses(#"a = "\b\t\n\f\r\"\\""#, ["a": "\u{8}\t\n\u{c}\r\"\\"])
        assertParses(#"a = "\u0041\U0001F600\u00e9\U0010FFFF\u0000""#, ["a": "A😀é\u{10FFFF}\u{0}"])
        assertParses("a = \"tab\there\"", ["a": "tab\there"])
        assertParses("a = \"ünïcödé 日本 😀\"", ["a": "ünïcödé 日本 😀"])
        assertParses(##"a = "# not a comment""##, ["a": "# not a comment"])
    }

    func testLiteral() {
        assertParses(#"a = 'C:\Users\nodejs\templates'"#, ["a": #"C:\Users\nodejs\templates"#])
        assertParses(#"a = '<\i\c*\s*>'"#, ["a": #"<\i\c*\s*>"#])
        assertParses("a = ''", ["a": ""])
        assertParses(#"a = 'Tom "Dubs" Preston-Werner'"#, ["a": #"Tom "Dubs" Preston-Werner"#])
    }

    func testMultilineBasic() {
        assertParses("a = \"\"\"\nRoses are red\nViolets are blue\"\"\"", ["a": "Roses are red\nViolets are blue"])
        assertParses("a = \"\"\"\r\nRoses\r\nViolets\"\"\"", ["a": "Roses\nViolets"])  // CRLF stored as LF
        assertParses("a = \"\"\"\n\n\"\"\"", ["a": "\n"])
        assertParses("a = \"\"\"\"\"\"", ["a": ""])
        assertParses("a = \"\"\"The quick brown \\\n\n\n  fox jumps over \\\n    the lazy dog.\"\"\"",
                     ["a": "The quick brown fox jumps over the lazy dog."])
        assertParses("a = \"\"\"\\\n       The quick brown \\\n       fox.\\\n       \"\"\"", ["a": "The quick brown fox."])
        assertParses("a = \"\"\"x \\  \t\r\n   y\"\"\"", ["a": "x y"])  // spaces after the backslash are fine
        assertParses(#"a = """Here are two quotation marks: "". Simple enough.""""#, ["a": #"Here are two quotation marks: "". Simple enough."#])
        assertParses(##"a = """Here are three quotation marks: ""\".""""##, ["a": #"Here are three quotation marks: """."#])
        assertParses(#"a = """"This," she said, "is just a pointless statement."""""#,
                     ["a": #""This," she said, "is just a pointless statement.""#])
        assertParses(##"a = """a""""""##, ["a": ##"a"""##])
        assertParses("a = \"\"\"tab\there # no comment\"\"\"", ["a": "tab\there # no comment"])
        assertParses(##"a = """\u00e9\""""""##, ["a": "é\"\""])
    }

    func testMultilineLiteral() {
        assertParses("a = '''\nThe first newline is\ntrimmed in raw strings.\n   All other whitespace\n   is preserved.\n'''",
                     ["a": "The first newline is\ntrimmed in raw strings.\n   All other whitespace\n   is preserved.\n"])
        assertParses(#"a = '''I [dw]on't need \d{2} apples'''"#, ["a": #"I [dw]on't need \d{2} apples"#])
        assertParses("a = '''Here are fifteen quotation marks: \"\"\"\"\"\"\"\"\"\"\"\"\"\"\"'''",
                     ["a": "Here are fifteen quotation marks: \"\"\"\"\"\"\"\"\"\"\"\"\"\"\""])
        assertParses("a = ''''That,' she said, 'is still pointless.''''", ["a": "'That,' she said, 'is still pointless.'"])
        assertParses("a = '''a\\\nb'''", ["a": "a\\\nb"])  // no line-ending backslash in literal strings
        assertParses("a = '''\r\nx\r\n'''", ["a": "x\n"])
    }

    func testAccessor() {
        let t = parsed("a = 'x'\nb = 1")
        XCTAssertEqual(t["a"]?.string, "x")
        XCTAssertNil(t["b"]?.string)
        XCTAssertEqual(t["a"]?.kindName, "string")
    }

    func testUnterminated() {
        assertFails(#"a = "abc"#, line: 1, column: 5, "unterminated string")
        assertFails("a = 'abc", line: 1, column: 5, "unterminated string")
        assertFails("a = \"abc\nb = 1\"", line: 1, column: 5, "unterminated string")
        assertFails("a = 'abc\nb'", line: 1, column: 5, "unterminated string")
        assertFails("a = \"\"\"", line: 1, column: 5, "unterminated multi-line string")
        assertFails("a = '''", line: 1, column: 5, "unterminated multi-line string")
        assertFails("x = 1\na = \"\"\"\nabc\ndef\"\"", line: 2, column: 5, "unterminated multi-line string")
        assertFails("a = '''\nabc\n''", line: 1, column: 5, "unterminated multi-line string")
        assertFails(#"a = "\"#, line: 1, column: 6, "followed by end of file")
        assertFails(##"a = """\"""##, line: 1, column: 5, "unterminated multi-line string")
    }

    func testInvalidEscapes() {
        assertFails(#"a = "\a""#, line: 1, column: 6, "invalid escape sequence `\\a`")
        assertFails(#"a = "\x41""#, line: 1, column: 6, "invalid escape")
        assertFails(#"a = "\e""#, line: 1, column: 6, "invalid escape")  // TOML 1.1 only
        assertFails(#"a = "\/""#, line: 1, column: 6, "invalid escape")
        assertFails(#"a = "a \ b""#, line: 1, column: 8, "invalid escape")
        assertFails(#"a = "\u12""#, line: 1, column: 6, "4 hexadecimal digits")
        assertFails(#"a = "\u12G4""#, line: 1, column: 6, "4 hexadecimal digits")
        assertFails(#"a = "\U0000004""#, line: 1, column: 6, "8 hexadecimal digits")
        assertFails(#"a = "\uD800""#, line: 1, column: 6, "not a Unicode scalar value")
        assertFails(#"a = "\uDFFF""#, line: 1, column: 6, "not a Unicode scalar value")
        assertFails(#"a = "\U00110000""#, line: 1, column: 6, "not a Unicode scalar value")
        assertFails(#"a = "\UFFFFFFFF""#, line: 1, column: 6, "not a Unicode scalar value")
        assertFails("a = \"\"\"x\\ y\"\"\"", line: 1, column: 9, "invalid escape")
        assertFails("a = \"\"\"\nfoo \\ \\n\nbar\"\"\"", line: 2, column: 5, "invalid escape")
    }

    func testQuotesInMultilineStrings() {
        assertFails(##"a = """Here are three quotation marks: """.""""##, line: 1, column: 43, "expected end of line")
        assertFails(##"a = """6 quotes: """""""##, line: 1, column: 18, "too many quotes")
        assertFails("a = '''6 apostrophes: ''''''", line: 1, column: 23, "too many quotes")
    }

    func testNotAString() {
        assertFails("a = abc", line: 1, column: 5, "strings must be quoted")
        assertFails("a = [abc]", line: 1, column: 6, "strings must be quoted")
        assertFails(#"a = "first" "second""#, line: 1, column: 13, "expected end of line")
        assertFails(#"a = "x"y"#, line: 1, column: 8)
    }
}
