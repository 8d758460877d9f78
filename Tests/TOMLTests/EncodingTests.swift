import TOML
import XCTest

/// Documents must be UTF-8; bytes that are not are reported at the bad byte, never crash.
final class EncodingTests: XCTestCase {
    func testByteOrderMark() throws {
        XCTAssertEqual(try TOML.parse(bytes: [0xEF, 0xBB, 0xBF] + Array("a = 1".utf8)), ["a": 1])
        XCTAssertEqual(try TOML.parse("\u{FEFF}a = 1"), ["a": 1])
        // Columns do not count the BOM.
        assertFails(bytes: [0xEF, 0xBB, 0xBF] + Array("a = ?".utf8), line: 1, column: 5)
        // A BOM anywhere else is just an unexpected character.
        assertFails(bytes: [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("a=1".utf8), line: 1, column: 1, "U+FEFF")
        assertFails("a = \u{FEFF}1", line: 1, column: 5, "U+FEFF")
        // ...but fine inside strings.
        XCTAssertEqual(try TOML.parse("a = \"\u{FEFF}\""), ["a": "\u{FEFF}"])
    }

    func testMultibyteText() throws {
        let t = try TOML.parse(bytes: Array("# ünïcödé\n\"日本\" = \"😀 ✓\"\n'ключ' = '''Ω'''".utf8))
        XCTAssertEqual(t, ["日本": "😀 ✓", "ключ": "Ω"])
    }

    func testInvalidUTF8() {
        assertFails(bytes: Array("a = \"".utf8) + [0xFF] + Array("\"".utf8), line: 1, column: 6, "invalid UTF-8 (byte 0xFF)")
        assertFails(bytes: Array("# x\n# ".utf8) + [0xC3], line: 2, column: 3, "invalid UTF-8")  // truncated at end of file
        assertFails(bytes: Array("a = 'x".utf8) + [0xC3, 0x28] + Array("'".utf8), line: 1, column: 7, "invalid UTF-8")
        assertFails(bytes: Array("a = '".utf8) + [0xC0, 0x80] + Array("'".utf8), line: 1, column: 6, "0xC0")  // overlong NUL
        assertFails(bytes: Array("a = '".utf8) + [0xE0, 0x80, 0x80] + Array("'".utf8), line: 1, column: 6)  // overlong
        assertFails(bytes: Array("a = '".utf8) + [0xED, 0xA0, 0x80] + Array("'".utf8), line: 1, column: 6, "0xED")  // surrogate
        assertFails(bytes: Array("a = '".utf8) + [0xF4, 0x90, 0x80, 0x80] + Array("'".utf8), line: 1, column: 6)  // > U+10FFFF
        assertFails(bytes: Array("a = '".utf8) + [0xF8, 0x88, 0x80, 0x80, 0x80] + Array("'".utf8), line: 1, column: 6)
        assertFails(bytes: Array("a = '".utf8) + [0x80] + Array("'".utf8), line: 1, column: 6)  // stray continuation
        assertFails(bytes: Array("a = '日".utf8) + [0xE6, 0x97] + Array("'".utf8), line: 1, column: 7)
        assertFails(bytes: [0xFF, 0xFE] + Array("a\0=\01\0".utf8), line: 1, column: 1, "invalid UTF-8")  // UTF-16 BOM
    }

    func testUTF16WithoutBOMIsRejected() {
        assertFails(bytes: [0x61, 0x00, 0x3D, 0x00, 0x31, 0x00], line: 1, column: 2, "U+0000")
    }

    func testNonContiguousCollections() throws {
        // `parse(bytes:)` takes any collection, not just arrays.
        let bytes = Array("a = 1\nb = 'x'".utf8)
        XCTAssertEqual(try TOML.parse(bytes: bytes.lazy.map { $0 }), ["a": 1, "b": "x"])
        XCTAssertEqual(try TOML.parse(bytes: bytes[...]), ["a": 1, "b": "x"])
        XCTAssertEqual(try TOML.parse(bytes: [UInt8]()), [:])
    }

    func testEmptyDocuments() {
        for text in ["", " ", "\t", "\n", "\r\n", "\n\n\n", "  \n\t\r\n"] {
            assertParses(text, [:])
        }
    }

    func testLineEndings() {
        assertParses("os = \"DOS\"\r\nnewline = \"crlf\"\r\n", ["os": "DOS", "newline": "crlf"])
        assertParses("a = 1\n\r\nb = 2\r\n\nc = 3", ["a": 1, "b": 2, "c": 3])
    }
}
