import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// `miga doctor` as a person reads it in an 80-column terminal: no line runs past the edge; a
/// long finding wraps under its own text, its words all there.
final class DoctorWidthCommandTests: XCTestCase {
    var home: CommandHome!

    override func setUpWithError() throws {
        home = try CommandHome()
    }

    func testEveryLineFitsIn80ColumnsAndALongFindingWrapsUnderItsText() throws {
        XCTAssertEqual(try home.miga(["config", "set", "terminal", "kitty-that-is-not-installed-on-this-machine"]).status, 0)
        XCTAssertEqual(try home.miga(["config", "apps", "add", "a-chat-app-with-a-rather-long-name", "--command", "true"]).status, 0)
        let doctor = try home.miga(["doctor"])
        let lines = doctor.stdout.split(separator: "\n").map(String.init)
        for line in lines { XCTAssertLessThanOrEqual(DisplayWidth.of(line), 80, "runs past 80 columns: \(line)") }
        let long = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("problem  terminal: ") }, doctor.stdout)
        XCTAssertTrue(lines.indices.contains(long + 1) && lines[long + 1].hasPrefix("         ") && !lines[long + 1].hasPrefix("          "),
                      "wrapped under its text:\n\(doctor.stdout)")
        XCTAssertTrue(DoctorText.unwrapped(doctor.stdout).contains(
            #"problem  terminal: terminal = "kitty-that-is-not-installed-on-this-machine" in config.toml is not installed"#), doctor.stdout)
    }
}
