import XCTest
@testable import MigaCore

final class KeyMapTests: XCTestCase {
    func keys(_ bytes: [UInt8]) -> [GatewayTUI.Key] { GatewayTUI.keys(from: bytes) }

    func testDesignKeys() {
        for exit in ["e", "q", "E"] { XCTAssertEqual(keys(Array(exit.utf8)), [.choice(.exit)], exit) }
        XCTAssertEqual(keys([0x1B]), [.choice(.exit)], "a lone Esc is Exit")
        XCTAssertEqual(keys([0x03]), [.choice(.exit)], "Ctrl-C is Exit")
        XCTAssertEqual(keys(Array("n ".utf8)), [.choice(.readNext), .choice(.readNext)])
        XCTAssertEqual(keys(Array("o".utf8) + [0x0D]), [.choice(.open), .choice(.open)])
        XCTAssertEqual(keys([0x1A]), [.suspend])
    }

    func testEscapeSequencesAreNotExit() {
        XCTAssertEqual(keys(Array("\u{1B}[A\u{1B}[B\u{1B}OP\u{1B}[15~".utf8)), [], "arrows and F-keys are ignored")
        XCTAssertEqual(keys(Array("\u{1B}[Cn".utf8)), [.choice(.readNext)])
        XCTAssertEqual(keys(Array("xyz".utf8)), [])
    }
}
