import XCTest
@testable import MigaCore

final class EventStoreTests: XCTestCase {
    func testRecordsEveryColumnAndQueries() throws {
        let folder = try TemporaryDirectory()
        let store = try EventStore(path: folder.path + "/data/miga/miga.sqlite3")
        let events = [
            Event(timestamp: 1_000, utcOffsetMinutes: 60, session: "s1", type: .sessionStart, app: "discord", contentID: "a"),
            Event(timestamp: 2_000, utcOffsetMinutes: 60, session: "s1", type: .exitSelected, app: "discord", waitMilliseconds: 999),
            Event(timestamp: 3_000, utcOffsetMinutes: -300, session: "s2", type: .openSelected, app: "discord", waitMilliseconds: 31_000),
            Event(timestamp: 4_000, utcOffsetMinutes: 0, session: "s3", type: .gatewaySkipped, app: "x",
                  detail: Event.reasonDetail("trial_expired")),
        ]
        try store.record(events)
        let stored = try store.allEvents()
        XCTAssertEqual(stored.map { var e = $0; e.id = nil; return e }, events)
        XCTAssertEqual(stored.last?.detail, #"{"reason":"trial_expired"}"#)
        XCTAssertEqual(try store.lastOpen(app: "discord"), Date(timeIntervalSince1970: 3))
        XCTAssertNil(try store.lastOpen(app: "x"))
        XCTAssertEqual(try store.exitCount(since: Date(timeIntervalSince1970: 1.5)), 1)
        XCTAssertEqual(try store.exitCount(since: Date(timeIntervalSince1970: 2.5)), 0)
        XCTAssertEqual(try store.integrityCheck(), "ok")
    }

    func testUsesWALAndPrivateFolder() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path + "/new/miga.sqlite3"
        _ = try EventStore(path: path)
        let mode = try FileManager.default.attributesOfItem(atPath: folder.path + "/new")[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o700)
        var header = [UInt8](repeating: 0, count: 20)
        let handle = try XCTUnwrap(FileHandle(forReadingAtPath: path))
        header = Array(handle.readData(ofLength: 20))
        XCTAssertEqual(header[18], 2, "file format write version 2 means WAL")
    }

    func testAForeignFileIsReportedAndNeverOverwritten() throws {
        let folder = try TemporaryDirectory()
        let text = String(repeating: "my precious notes\n", count: 300)
        let path = try folder.write(text, to: "miga.sqlite3")
        XCTAssertThrowsError(try EventStore(path: path)) { error in
            XCTAssertEqual(error as? StoreError, .notADatabase(path: path))
            XCTAssertTrue("\(error)".contains("move it aside"))
        }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), text)
    }
}
