import XCTest
@testable import MigaCore

final class KeyMapTests: XCTestCase {
    func keys(_ bytes: [UInt8]) -> [TerminalGate.Key] { TerminalGate.keys(from: bytes) }

    func testDesignKeys() {
        for exit in ["e", "q", "E"] { XCTAssertEqual(keys(Array(exit.utf8)), [.choice(.exit)], exit) }
        XCTAssertEqual(keys([0x1B]), [.choice(.exit)], "a lone Esc is Exit")
        XCTAssertEqual(keys([0x03]), [.choice(.exit)], "Ctrl-C is Exit")
        XCTAssertEqual(keys(Array("n ".utf8)), [.choice(.readNext), .choice(.readNext)])
        XCTAssertEqual(keys(Array("o".utf8) + [0x0D]), [.choice(.open), .choice(.open)])
        XCTAssertEqual(keys([0x1A]), [.suspend])
    }

    func testEscapeSequencesAreNotExit() {
        XCTAssertEqual(keys(Array("\u{1B}OP\u{1B}[15~\u{1B}[C\u{1B}[D".utf8)), [], "F-keys and left/right are ignored")
        XCTAssertEqual(keys(Array("\u{1B}[Cn".utf8)), [.choice(.readNext)])
        XCTAssertEqual(keys(Array("xyz".utf8)), [])
    }

    func testScrollKeysInTheFormsTerminalsSend() {
        // CSI (normal cursor mode), SS3 (application cursor mode, as tmux and xterm may send)
        // and the Linux console's Home/End.
        XCTAssertEqual(keys(Array("\u{1B}[A\u{1B}OA\u{1B}[Bj\u{1B}OBk".utf8)),
                       [.scroll(.lineUp), .scroll(.lineUp), .scroll(.lineDown), .scroll(.lineDown), .scroll(.lineDown), .scroll(.lineUp)])
        XCTAssertEqual(keys(Array("\u{1B}[5~\u{1B}[6~".utf8)), [.scroll(.pageUp), .scroll(.pageDown)])
        XCTAssertEqual(keys(Array("\u{1B}[H\u{1B}[1~\u{1B}OF\u{1B}[4~".utf8)),
                       [.scroll(.top), .scroll(.top), .scroll(.bottom), .scroll(.bottom)])
        XCTAssertEqual(keys(Array("\u{1B}[1;5A".utf8)), [.scroll(.lineUp)], "with modifiers")
        XCTAssertEqual(keys(Array("\u{1B}[".utf8)), [], "a cut-off sequence is not Exit")
    }
}
