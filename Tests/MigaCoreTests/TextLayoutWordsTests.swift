@testable import MigaCore
import XCTest

/// The gate's word split and cell widths have fast paths for plain ASCII; they must say what
/// the general paths say, whatever the text.
final class TextLayoutWordsTests: XCTestCase {
    private func characterWords(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
    }

    func testTheASCIISplitIsTheCharacterSplit() {
        let pieces = ["a", "word", " ", "  ", "\t", "\n", "\r", "\r\n", "é", "日本", "e\u{301}", "-", "👍🏽", "x\ny"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            XCTAssertEqual(TextLayout.words(of: text), characterWords(text), text.debugDescription)
        }
        XCTAssertEqual(TextLayout.words(of: "one  two\tthree\nfour "), ["one", "two", "three", "four"])
        XCTAssertEqual(TextLayout.words(of: "a\r\nb"), ["a\r\nb"]) // "\r\n" is one Character, not a newline
    }

    func testPrintableASCIIIsACellAByteAndTheRestAsBefore() {
        XCTAssertEqual(DisplayWidth.of("Hello, world!"), 13)
        XCTAssertEqual(DisplayWidth.of(""), 0)
        XCTAssertEqual(DisplayWidth.of("日本"), 4)
        XCTAssertEqual(DisplayWidth.of("tab\there"), 8) // a control character counts one cell, as before
        for byte in UInt8(0x20)..<0x7F {
            let text = String(decoding: [byte, byte], as: UTF8.self)
            XCTAssertEqual(DisplayWidth.of(text), 2, text)
        }
    }
}
