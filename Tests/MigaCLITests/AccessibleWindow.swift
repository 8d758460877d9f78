import Foundation
import XCTest
import MigaTestSupport

/// A window of miga's (the gate window, the miga app: both titled "miga") as a screen reader
/// is told it, over AT-SPI on the test's own session bus (`atspi-names.py --showing`), and
/// photographed as a person sees it. One place for what every window test reads.
struct AccessibleWindow {
    let home: MigaHome
    let environment: [String: String]

    /// What the window shows now, as `ROLE: NAME` lines (`label: For how long?`, `push button:
    /// Exit (e)`), each with its place in the window (` @X,Y,WxH`) when `places`.
    func showing(places: Bool = false) throws -> [String] {
        let read = try home.run("/usr/bin/python3", [MigaHome.repository + "/Tests/Fixtures/x11/atspi-names.py", "miga", "--showing"]
                                + (places ? ["--extents"] : []), environment: environment)
        guard read.status == 0 else { return [] }
        return read.stdout.split(separator: "\n").map(String.init)
    }

    /// Waits until the window shows `part` (a line of `showing()`), so the next keys go to what
    /// is now on screen; what it shows then.
    @discardableResult
    func waitForShowing(_ part: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        var seen: [String] = []
        try eventually(what, file: file, line: line) {
            seen = try showing()
            return seen.contains(part)
        }
        if !seen.contains(part) { XCTFail("\(what): \(part) is not among \(seen)", file: file, line: line) }
        return seen
    }

    /// The whole screen as a PNG, checked for a drawn window (many colours, not one flat fill);
    /// a window is mapped a moment before its first frame, so the picture is taken again until
    /// it shows one (up to 10 s). MIGA_SCREENSHOTS=DIR keeps a copy.
    @discardableResult
    func screenshot(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let path = home.root + "/\(name).png"
        var colours = 0
        let deadline = Date().addingTimeInterval(10)
        repeat {
            XCTAssertEqual(try home.run("/usr/bin/import", ["-window", "root", path], environment: environment).status, 0, file: file, line: line)
            let counted = try home.run("/usr/bin/convert", [path, "-format", "%k", "info:"], environment: environment)
            colours = Int(counted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            if colours > 20 { break }
            usleep(100_000)
        } while Date() < deadline
        XCTAssertGreaterThan(colours, 20, "\(name): the screen looks blank (\(colours) colours)", file: file, line: line)
        if let keep = ProcessInfo.processInfo.environment["MIGA_SCREENSHOTS"] {
            try? FileManager.default.removeItem(atPath: keep + "/\(name).png")
            try? FileManager.default.copyItem(atPath: path, toPath: keep + "/\(name).png")
        }
        return path
    }
}
