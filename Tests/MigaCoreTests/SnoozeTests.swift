import Foundation
import XCTest
@testable import MigaCore
import MigaTestSupport

/// `miga snooze`'s rules: what a duration may be, and that a snooze file can only ever mean
/// a gate passes until a near time, never for ever.
final class SnoozeTests: XCTestCase {
    func testDurationsAsPeopleTypeThem() {
        for (text, minutes) in [("20m", 20), ("1h", 60), ("1h30m", 90), ("90", 90), (" 5M ", 5), ("4h", 240), ("2h0m", 120)] {
            XCTAssertEqual(try Snooze.minutes(from: text).get(), minutes, text)
        }
        for text in ["0", "4m", "9h", "4h1m", "241"] {
            XCTAssertEqual(Snooze.minutes(from: text), .failure(.outOfRange(text)), text)
        }
        for text in ["", "m", "abc", "-5", "20 m", "1.5h", "٣٠m", "9999999h", "20s"] {
            XCTAssertEqual(Snooze.minutes(from: text), .failure(.notADuration(text)), text)
        }
        XCTAssertEqual(SnoozeError.outOfRange("9h").description,
                       "a snooze lasts 5 minutes to 4 hours, not 9h; `miga snooze 20m` snoozes every gate for 20 minutes")
    }

    func testOnlyAReadableNearSnoozeLetsGatesPass() throws {
        let folder = try TemporaryDirectory()
        let paths = MigaPaths(configDirectory: folder.path + "/c", dataDirectory: folder.path + "/d", stateDirectory: folder.path + "/s")
        let now: Int64 = 1_795_000_000_000
        XCTAssertNil(Snooze.active(paths: paths, nowMilliseconds: now))
        try Snooze(until: now + 20 * 60_000, apps: []).save(paths: paths)
        let all = try XCTUnwrap(Snooze.active(paths: paths, nowMilliseconds: now))
        XCTAssertTrue(all.covers("discord") && all.covers("reddit.com"))
        XCTAssertFalse(all.covers(Snooze.gateName), "a snooze never lets the next snooze skip its pause")
        XCTAssertNil(Snooze.active(paths: paths, nowMilliseconds: now + 20 * 60_000), "it ends by itself")
        try Snooze(until: now + 60_000, apps: ["discord"]).save(paths: paths)
        let one = try XCTUnwrap(Snooze.active(paths: paths, nowMilliseconds: now))
        XCTAssertTrue(one.covers("discord"))
        XCTAssertFalse(one.covers("slack"))
        for hostile in ["{\"until\":\(Int64.max),\"apps\":[]}", "{\"until\":\(now + 5 * 3_600_000)}", "{\"until\":\"soon\"}",
                        "not json", "{\"until\":1e400}", String(repeating: "[", count: 100_000)] {
            try hostile.write(toFile: Snooze.path(paths), atomically: true, encoding: .utf8)
            XCTAssertNil(Snooze.active(paths: paths, nowMilliseconds: now), hostile.prefix(40) + "")
        }
        try FileManager.default.removeItem(atPath: Snooze.path(paths))
        XCTAssertEqual(mkfifo(Snooze.path(paths), 0o600), 0)
        XCTAssertNil(Snooze.active(paths: paths, nowMilliseconds: now), "a FIFO is never opened for a blocking read")
        try "{\"until\":\(now + 60_000),\"apps\":[\"../x\",\"ok\",7]}".write(toFile: folder.path + "/s/other", atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: Snooze.path(paths))
        try FileManager.default.moveItem(atPath: folder.path + "/s/other", toPath: Snooze.path(paths))
        XCTAssertEqual(Snooze.active(paths: paths, nowMilliseconds: now)?.apps, ["ok"], "names that are no app's are dropped")
        XCTAssertTrue(try Snooze.end(paths: paths, nowMilliseconds: now))
        XCTAssertFalse(try Snooze.end(paths: paths, nowMilliseconds: now), "nothing to end")
        try "{\"until\":\(now + 60_000),\"apps\":[\"../x\"]}".write(toFile: Snooze.path(paths), atomically: true, encoding: .utf8)
        XCTAssertNil(Snooze.active(paths: paths, nowMilliseconds: now), "naming only what is no app never means every gate")
    }
}
