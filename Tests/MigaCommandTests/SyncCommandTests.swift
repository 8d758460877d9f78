import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// DESIGN "One history across a person's machines" in-process: two homes as two machines,
/// their sync folders kept level by copying (moved from MigaCLITests' SyncCLITests, which
/// keeps the gates and the editor).
final class SyncCommandTests: XCTestCase {
    var laptop: CommandHome!
    var desktop: CommandHome!

    override func setUpWithError() throws {
        laptop = try CommandHome()
        desktop = try CommandHome()
        for home in [laptop!, desktop!] { try home.writeConfig("timer_seconds = 15\ngrace_minutes = 0\n") }
    }

    /// `sync_config = true`: the newest copy wins whole, one that would cut a machine off is
    /// not taken, and a conflict copy is `doctor`'s to report.
    func testTheSharedConfigNewestWinsAndConflictCopiesAreReported() throws {
        for home in [laptop!, desktop!] {
            XCTAssertEqual(try home.miga(["config", "set", "sync_folder", "~/Sync/miga"]).status, 0)
            let shared = try home.miga(["config", "set", "sync_config", "true"])
            XCTAssertEqual(shared.status, 0, shared.stderr)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: desktop.syncFolder + "/config.toml"))
        let set = try laptop.miga(["config", "set", "timer_seconds", "40"])
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertEqual(try laptop.miga(["config", "get", "timer_seconds"]).stdout, "40\n") // and shares it
        // The folder carried across, times kept (as a sync tool keeps them).
        let copy = try laptop.run("/bin/cp", ["-p", laptop.syncFolder + "/config.toml", desktop.syncFolder + "/config.toml"])
        XCTAssertEqual(copy.status, 0, copy.stderr)
        XCTAssertEqual(try desktop.miga(["config", "get", "timer_seconds"]).stdout, "40\n", "the newer copy applies on the desktop")
        XCTAssertEqual(try String(contentsOfFile: desktop.configFile, encoding: .utf8),
                       try String(contentsOfFile: laptop.configFile, encoding: .utf8))

        // A newer shared copy that would turn sharing off here is not taken.
        // (Each as miga writes it, first line and all: a file without that line is never taken.)
        let cutOff = desktop.syncFolder + "/config.toml"
        let header = String(try String(contentsOfFile: cutOff, encoding: .utf8).prefix { $0 != "\n" }) + "\n"
        XCTAssertTrue(header.hasPrefix("# miga sync_config "), header)
        try (header + "timer_seconds = 20\nsync_folder = \"\"\n").write(toFile: cutOff, atomically: true, encoding: .utf8)
        XCTAssertEqual(try desktop.miga(["config", "get", "timer_seconds"]).stdout, "40\n")
        try (header + "timer_seconds = \"soon\"\nsync_folder = \"~/Sync/miga\"\nsync_config = true\n").write(toFile: cutOff, atomically: true, encoding: .utf8)
        XCTAssertEqual(try desktop.miga(["config", "get", "timer_seconds"]).stdout, "40\n", "nor one with problems")

        try "timer_seconds = 25\n".write(toFile: desktop.syncFolder + "/config.sync-conflict-20261127-101010-ABCDEFG.toml",
                                         atomically: true, encoding: .utf8)
        let doctor = try desktop.miga(["doctor"])
        XCTAssertTrue(DoctorText.unwrapped(doctor.stdout).contains("config.sync-conflict-20261127-101010-ABCDEFG.toml is a conflict copy of the shared config"), doctor.stdout)
        XCTAssertTrue(DoctorText.unwrapped(doctor.stdout).contains("sharing through ~/Sync/miga as \(try desktop.deviceID()); 0 other machines seen"), doctor.stdout)
    }
}
