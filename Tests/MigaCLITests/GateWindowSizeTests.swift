import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// The window's size is fixed for a gate's whole life (DESIGN "Real desktops"): the same
/// Xvfb, xdotool and AT-SPI as GateWindowTests, through every state a gate can pass.
extension GateWindowTests {
    /// The typed challenge, the intention and "For how long?" all asked, with an alternative
    /// beside Exit: the window's geometry (xdotool) is the same from the countdown through
    /// each question and back to the celebration, it fits a 1024×768 screen with room for a
    /// panel and a title bar, and the item stays where it was (the card never moves).
    func testTheWindowIsOneSizeFromItsFirstFrameToTheCelebration() throws {
        try home.writeConfig("""
            timer_seconds = 15
            intention = true
            ask_minutes = true

            [apps.chat]
            command = "\(home.recorder)"
            challenge = "type"

            [[alternative]]
            label = "Walk"
            command = ["sh", "-c", "echo done > \(home.root)/walk-ran"]
            """)
        let gate = try startGate()
        let id = try window()
        try waitForEvents([.sessionStart])
        try eventually("the first frame") { try self.buttonsDrawn(id) }
        let first = try geometry(id)
        let parts = try showing()
        XCTAssertTrue(parts.contains("push button: Instead: Walk (1)"), "\(parts)")
        // The item: the first label after the header ("miga · chat").
        let item = try XCTUnwrap(parts.drop { $0 != "label: miga · chat" }.dropFirst().first { $0.hasPrefix("label: ") })
        let itemPlace = try place(of: item, in: id)
        var seen: [String: (x: Int, y: Int, width: Int, height: Int)] = ["the countdown": first]
        func same(_ state: String, file: StaticString = #filePath, line: UInt = #line) throws {
            seen[state] = try geometry(id)
            let place = try self.place(of: item, in: id)
            XCTAssertTrue(place == itemPlace, "\(state): the item moved from \(itemPlace) to \(place)", file: file, line: line)
        }

        try eventually(timeout: 30, "the countdown to end") { try home.events().contains { $0.type == .gatewayCompleted } }
        try same("ready")
        try press("o", in: id)
        try waitForShowing(Self.typeThis, "the challenge")
        try same("the challenge")
        try type(Self.sentence)
        try press("Return", in: id)
        try waitForShowing(Self.intention, "the intention question")
        try same("the intention question")
        try type("a walk after")
        try press("Return", in: id)
        try waitForShowing(Self.howLong, "the minutes question")
        try same("the minutes question")
        _ = try screenshot("window-size-how-long")
        try press("Escape", in: id)
        try waitForShowing(Self.choices, "the three choices again")
        try same("the choices again")

        let pid = try windowPID(id)
        try press("e", in: id)
        try eventually("the celebration to show") { try !self.buttonsDrawn(id) }
        try holdingStill([gate.pid, pid]) {
            seen["the celebration"] = try geometry(id)
            _ = try screenshot("window-size-celebration")
        }
        XCTAssertEqual(gate.wait().status, 0)
        XCTAssertNil(home.recordedArguments(), "Exit opens nothing")

        for (state, geometry) in seen {
            XCTAssertTrue(geometry == first, "\(state): \(geometry), at first \(first)")
        }
        XCTAssertEqual(first.width, 600, "as wide as the card")
        XCTAssertLessThanOrEqual(first.height, 640, "within 1024×768, a panel and a title bar: \(first)")
    }
}
