import XCTest
@testable import MigaCore

/// The gate's and the stats' colours read on a white terminal as well as on a black one.
final class TerminalPaletteTests: XCTestCase {
    /// An SGR colour as xterm draws it: the basic eight as xterm's defaults (which most
    /// terminals resemble), 38;5;N from the 6×6×6 cube.
    func rgb(_ sgr: String) throws -> (Double, Double, Double) {
        let basic: [String: (Double, Double, Double)] = ["32": (0, 205, 0), "33": (205, 205, 0), "36": (0, 205, 205)]
        if let color = basic[sgr] { return color }
        let index = try XCTUnwrap(Int(try XCTUnwrap(sgr.split(separator: ";").last))) - 16
        XCTAssertTrue(sgr.hasPrefix("38;5;") && (0..<216).contains(index), sgr)
        let levels: [Double] = [0, 95, 135, 175, 215, 255]
        return (levels[index / 36], levels[index / 6 % 6], levels[index % 6])
    }

    /// WCAG 2 contrast ratio between a colour and white or black.
    func contrast(_ sgr: String, onWhite: Bool) throws -> Double {
        func linear(_ channel: Double) -> Double {
            let c = channel / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        let (r, g, b) = try rgb(sgr)
        let luminance = 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
        return onWhite ? 1.05 / (luminance + 0.05) : (luminance + 0.05) / 0.05
    }

    func roles(_ palette: TerminalPalette) -> [String] { [palette.accent, palette.good, palette.notice] }

    func testTheShadesReadWhereTheyAreUsed() throws {
        for sgr in roles(.either) {
            XCTAssertGreaterThanOrEqual(try contrast(sgr, onWhite: true), 4.0, sgr)
            XCTAssertGreaterThanOrEqual(try contrast(sgr, onWhite: false), 4.0, sgr)
        }
        for sgr in roles(.light) { XCTAssertGreaterThanOrEqual(try contrast(sgr, onWhite: true), 4.5, sgr) }
        for sgr in roles(.dark) { XCTAssertGreaterThanOrEqual(try contrast(sgr, onWhite: false), 7.0, sgr) }
        // What a person on a white background was given before: under 2.5:1.
        for sgr in roles(.dark) { XCTAssertLessThan(try contrast(sgr, onWhite: true), 2.5, sgr) }
    }

    func testThePaletteFollowsWhatTheTerminalSays() {
        XCTAssertEqual(TerminalPalette(environment: ["TERM": "xterm-256color", "COLORFGBG": "0;15"]), .light)
        XCTAssertEqual(TerminalPalette(environment: ["TERM": "rxvt-unicode-256color", "COLORFGBG": "0;default;15"]), .light)
        XCTAssertEqual(TerminalPalette(environment: ["TERM": "xterm-256color", "COLORFGBG": "15;0"]), .dark)
        XCTAssertEqual(TerminalPalette(environment: ["TERM": "vt220", "COLORFGBG": "0;7"]), .plain, "light, 8 colours: no hue")
        XCTAssertEqual(TerminalPalette(environment: ["TERM": "xterm"]), .either, "xterm has 256 colours and may well be white")
        XCTAssertEqual(TerminalPalette(environment: ["TERM": "xterm-256color"]), .either, "background unknown")
        XCTAssertEqual(TerminalPalette(environment: ["TERM": "xterm", "COLORTERM": "truecolor"]), .either)
        XCTAssertEqual(TerminalPalette(environment: ["TERM": "xterm-kitty"]), .either)
        XCTAssertEqual(TerminalPalette(environment: ["TERM": "linux"]), .dark, "the console is dark")
        for odd in ["", ";", "0;99", "x;y", "0;-1", "0;\u{1B}[31m"] {
            XCTAssertEqual(TerminalPalette(environment: ["TERM": "xterm-256color", "COLORFGBG": odd]), .either, odd)
        }
    }

    func testTheGateDrawsWithThePalette() {
        let item = ContentItem(id: "q", kind: .quote, category: "c", text: "Breathe.")
        let session = GateSession(app: "chat", timerSeconds: 30, item: item, startedAt: 0)
        let style = GateStyle(config: MigaConfig(), environment: ["TERM": "xterm-256color", "COLORFGBG": "0;15", "LANG": "C.UTF-8"])
        let frame = GateScreen(style: style).frame(for: session, at: 5_000_000_000, columns: 100, rows: 30)
        XCTAssertTrue(frame.contains("\u{1B}[38;5;24m") && frame.contains("\u{1B}[1;38;5;22m"), frame)
        for basic in ["\u{1B}[36m", "\u{1B}[32m", "\u{1B}[33m", ";36m", ";32m"] { XCTAssertFalse(frame.contains(basic), basic) }
    }
}
