import Foundation
import MigaTestSupport
import XCTest
@testable import MigaCore

/// Every input kept in Tests/Fixtures/fuzz/desktop-entry (crashes the fuzzer found, and
/// hand-made nasty ones) goes through the same calls as fuzz/DesktopEntryFuzz.swift, so an
/// old crash comes back as a failing test, not only in a fuzzing run.
final class FuzzRegressionTests: XCTestCase {
    static let folder = Fixtures.path("fuzz/desktop-entry")

    func testEveryKeptDesktopEntryInputIsReadOrRefused() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder).sorted()
        XCTAssertFalse(names.isEmpty)
        for name in names {
            let data = try XCTUnwrap(FileManager.default.contents(atPath: Self.folder + "/" + name))
            let text = String(decoding: data, as: UTF8.self)
            do {
                let entry = try DesktopEntry(text: text, name: name)
                for group in entry.groups {
                    if let exec = entry.rawValue("Exec", in: group), let line = try? ExecLine(rawValue: exec) {
                        _ = line.expand(urls: ["u"], icon: "i", name: "n", location: "/l")
                    }
                }
            } catch let error as DesktopEntryError {
                XCTAssertFalse(error.description.isEmpty, name)
            }
        }
    }
}
