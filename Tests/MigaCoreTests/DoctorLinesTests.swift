import XCTest
@testable import MigaCore

/// `miga doctor`'s findings fit in 80 columns: a long one wraps under its own text, the
/// marks a column of their own.
final class DoctorLinesTests: XCTestCase {
    func testALongFindingWrapsUnderItsTextWithin80Columns() {
        let finding = Doctor.Finding(status: .note, subject: "browser Firefox (Flatpak)",
                                     message: "installed as a Flatpak (~/.var/app/org.mozilla.firefox); it reaches miga only through the WebExtensions portal, once allowed",
                                     fix: "flatpak permission-set webextensions miga.gateway org.mozilla.firefox yes, then restart Firefox")
        let lines = finding.lines(mark: "note    ")
        XCTAssertGreaterThan(lines.count, 2, "\(lines)")
        for line in lines { XCTAssertLessThanOrEqual(DisplayWidth.of(line), 80, line) }
        XCTAssertTrue(lines[0].hasPrefix("note     browser Firefox (Flatpak): installed as a Flatpak"), lines[0])
        let fix = lines.firstIndex { $0.hasPrefix("         fix: flatpak permission-set") }
        XCTAssertNotNil(fix, "\(lines)")
        for (index, line) in lines.enumerated().dropFirst() where index != fix {
            XCTAssertTrue(line.hasPrefix(index < fix ?? 0 ? "         " : "              "), "indented under its text: \(line)")
            XCTAssertFalse(line.hasPrefix(index < fix ?? 0 ? "          " : "               "), "one indent: \(line)")
        }
        let words = { (text: String) in text.split(separator: " ").joined(separator: " ") }
        XCTAssertEqual(words(lines.joined(separator: " ")),
                       words("note browser Firefox (Flatpak): " + finding.message + " fix: " + (finding.fix ?? "")), "every word kept, in order")
    }

    func testAShortFindingIsOneLineAndAnOkHasNoFix() {
        XCTAssertEqual(Doctor.Finding(status: .ok, subject: "database", message: "ok", fix: "x").lines(mark: "ok      "),
                       ["ok       database: ok"])
        XCTAssertEqual(Doctor.Finding(status: .problem, subject: "app chat", message: "no shim", fix: "miga install").lines(mark: "problem "),
                       ["problem  app chat: no shim", "         fix: miga install"])
    }

    /// A word longer than the room (a path) is split, never left to run past the edge.
    func testAnUnbrokenPathStillFits() {
        let path = "~/" + String(repeating: "very-long-folder/", count: 8) + "miga.gateway.json"
        let lines = Doctor.Finding(status: .problem, subject: "browser Chromium", message: "\(path) names /nowhere", fix: "miga install")
            .lines(mark: "problem ")
        for line in lines { XCTAssertLessThanOrEqual(DisplayWidth.of(line), 80, line) }
    }
}
