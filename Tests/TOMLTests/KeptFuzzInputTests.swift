import Foundation
import MigaTestSupport
import XCTest
import TOML

/// Every input kept in Tests/Fixtures/fuzz/toml (the typos that made toml++ abort miga, and any
/// crash the fuzzer finds) is refused with a position or parsed, as fuzz/TOMLFuzz.swift calls it.
final class KeptFuzzInputTests: XCTestCase {
    func testEveryKeptInputIsReadOrRefusedWithAPosition() throws {
        let folder = Fixtures.path("fuzz/toml")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        XCTAssertGreaterThanOrEqual(names.count, 10)
        for name in names {
            let data = try XCTUnwrap(FileManager.default.contents(atPath: folder + "/" + name))
            do {
                _ = try TOML.parse(bytes: data)
            } catch let error as TOMLError {
                XCTAssertGreaterThanOrEqual(error.line, 1, name)
                XCTAssertFalse(error.message.isEmpty, name)
            }
        }
    }
}
