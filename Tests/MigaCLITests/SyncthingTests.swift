import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// DESIGN "One history across a person's machines", the real thing: two homes on this
/// machine, each with its own Syncthing (`SyncthingPair`: localhost only, no discovery or
/// relays) sharing `~/Sync/miga`, gates on both, and both machines' numbers converging.
/// miga never starts or talks to Syncthing: it only reads and writes the folder.
final class SyncthingTests: XCTestCase {
    /// How long both machines' numbers may take to agree once the last event was recorded: the
    /// watcher's second, a scan, the copy, and the next miga run's fold. Measured at about
    /// 1–2 s here (the tests print it); the bound leaves room for a loaded CI machine.
    static let convergenceBound = 30.0

    func testTwoMachinesThroughSyncthingConvergeOnOneHistory() throws {
        let laptop = try MigaHome(), desktop = try MigaHome()
        for home in [laptop, desktop] { try home.writeConfig("timer_seconds = 15\ngrace_minutes = 0\n") }
        let pair = try SyncthingPair(folderA: laptop.syncFolder, folderB: desktop.syncFolder,
                                     scratch: laptop.root + "/syncthing")
        defer { pair.stop() }
        for home in [laptop, desktop] {
            let on = try home.miga(["config", "set", "sync_folder", "~/Sync/miga"])
            XCTAssertEqual(on.status, 0, on.stderr)
        }

        try SyncCLITests.exitAGate(on: laptop)
        try SyncCLITests.exitAGate(on: desktop)
        try converge(laptop, desktop, pair: pair, on: "\"sessions\":2,\"exits\":2")

        // One launch on the laptop, timed until the desktop counts it (the watcher's second,
        // the copy, the desktop's next fold).
        let single = try exported(desktop)
        XCTAssertEqual(try laptop.miga(["gate", "--app", "signal", "--", "/bin/true"]).status, 0)
        let sent = Date()
        eventually(timeout: Self.convergenceBound, "the desktop to count the laptop's launch\n\(pair.logTails())") {
            (try? self.exported(desktop)) == single + 1
        }
        print("syncthing: one launch on the laptop reached the desktop's numbers in \(String(format: "%.1f", Date().timeIntervalSince(sent))) s")

        // The desktop's next gate counts the laptop's: its third today.
        try SyncCLITests.exitAGate(on: desktop, then: "3rd time today")
        try converge(laptop, desktop, pair: pair, on: "\"sessions\":3,\"exits\":3")

        // Both machines recording at once while Syncthing copies: launches with no terminal
        // (each fails open and records why), twenty on each, interleaved.
        let before = try exported(laptop)
        XCTAssertEqual(try exported(desktop), before)
        var children: [MigaHome.Child] = []
        for _ in 0..<20 {
            for home in [laptop, desktop] {
                children.append(try home.start(home.binary, ["gate", "--app", "discord", "--", "/bin/true"], environment: home.environment()))
            }
        }
        for child in children { XCTAssertEqual(child.wait().status, 0) }
        let start = Date()
        var counts: (Int, Int) = (0, 0)
        // Through Syncthing's watcher alone, as on a person's machines: no scan asked for.
        eventually(timeout: Self.convergenceBound, "both machines to hold every event\n\(pair.logTails())") {
            counts = ((try? self.exported(laptop)) ?? -1, (try? self.exported(desktop)) ?? -2)
            return counts == (before + 40, before + 40)
        }
        print("syncthing: after 40 launches at once, both hold \(counts.0) events \(String(format: "%.1f", Date().timeIntervalSince(start))) s later")
        XCTAssertEqual(try Set(laptop.events().map { "\($0.timestamp) \($0.session) \($0.type)" }).count, counts.0, "none twice")
        XCTAssertEqual(try laptop.events().filter { $0.type == .gatewaySkipped && $0.app == "discord" }.count, 40, "every launch's event, on both")
        XCTAssertEqual(try desktop.events().filter { $0.type == .gatewaySkipped && $0.app == "discord" }.count, 40)

        // One writer per file: Syncthing never had to make a conflict copy.
        for home in [laptop, desktop] {
            let names = try FileManager.default.subpathsOfDirectory(atPath: home.syncFolder)
            XCTAssertFalse(names.contains { $0.contains("sync-conflict") }, "\(names)")
            let status = try home.miga(["sync", "status", "--json"])
            XCTAssertTrue(status.stdout.contains("\"behind\":false") && status.stdout.contains("\"skipped\":[]"), status.stdout)
        }
    }

    /// `sync_config = true` through Syncthing: a change on one machine reaches the other; two
    /// changes made while the machines could not see each other give Syncthing's own conflict
    /// copy, which miga merges with nothing and `doctor` reports.
    func testTheSharedConfigThroughSyncthingAndItsConflictCopy() throws {
        let laptop = try MigaHome(), desktop = try MigaHome()
        for home in [laptop, desktop] { try home.writeConfig("timer_seconds = 15\nsync_folder = \"~/Sync/miga\"\n") }
        let pair = try SyncthingPair(folderA: laptop.syncFolder, folderB: desktop.syncFolder,
                                     scratch: laptop.root + "/syncthing")
        defer { pair.stop() }
        XCTAssertEqual(try laptop.miga(["config", "set", "sync_config", "true"]).status, 0)
        try pair.waitUntilInSync()
        // The desktop turns it on too; the laptop's copy in the folder is the newer one... until
        // the desktop's own change, which is newer still.
        XCTAssertEqual(try desktop.miga(["config", "set", "sync_config", "true"]).status, 0)
        XCTAssertEqual(try desktop.miga(["config", "set", "timer_seconds", "25"]).status, 0)
        _ = try desktop.miga(["config", "get", "timer_seconds"]) // shares it
        try pair.waitUntilInSync()
        eventually(timeout: Self.convergenceBound, "the laptop to take the desktop's timer\n\(pair.logTails())") {
            (try? laptop.miga(["config", "get", "timer_seconds"]).stdout) == "25\n"
        }

        // Apart: each changes the timer; together again, Syncthing keeps the newer and makes a
        // conflict copy of the other.
        try pair.a.post("/rest/system/pause")
        try pair.b.post("/rest/system/pause")
        XCTAssertEqual(try laptop.miga(["config", "set", "timer_seconds", "20"]).status, 0)
        _ = try laptop.miga(["config", "get", "timer_seconds"])
        usleep(50_000)
        XCTAssertEqual(try desktop.miga(["config", "set", "timer_seconds", "40"]).status, 0)
        _ = try desktop.miga(["config", "get", "timer_seconds"])
        try pair.rescan() // each side knows its own change before they meet
        try pair.a.post("/rest/system/resume")
        try pair.b.post("/rest/system/resume")
        var copies: [String] = []
        eventually(timeout: Self.convergenceBound, "a conflict copy of config.toml\n\(pair.logTails())") {
            copies = [laptop, desktop].flatMap { home in
                ((try? FileManager.default.contentsOfDirectory(atPath: home.syncFolder)) ?? [])
                    .filter { $0.hasPrefix("config.sync-conflict-") }.map { home.syncFolder + "/" + $0 }
            }
            return !copies.isEmpty
        }
        try pair.waitUntilInSync()
        eventually(timeout: Self.convergenceBound, "both to apply the newer timer") {
            (try? laptop.miga(["config", "get", "timer_seconds"]).stdout) == "40\n"
                && (try? desktop.miga(["config", "get", "timer_seconds"]).stdout) == "40\n"
        }
        let doctor = try laptop.miga(["doctor"])
        XCTAssertTrue(DoctorText.unwrapped(doctor.stdout).contains("is a conflict copy of the shared config"), doctor.stdout)
        XCTAssertTrue(copies.first.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) }?.contains("timer_seconds = 20") == true, "the older change, kept for the person")
    }

    /// Runs `stats --json` on both until they agree and hold `expected` (a gate's celebration
    /// usually gives Syncthing the time it needs before the first look); returns the seconds.
    @discardableResult
    private func converge(_ one: MigaHome, _ other: MigaHome, pair: SyncthingPair, on expected: String) throws -> Double {
        let start = Date()
        var last = ("", "")
        while Date().timeIntervalSince(start) < Self.convergenceBound {
            last = (try stats(one), try stats(other))
            if last.0 == last.1, last.0.contains(expected) { return Date().timeIntervalSince(start) }
            usleep(200_000)
        }
        XCTFail("stats did not agree within \(Self.convergenceBound) s:\n\(last.0)\n\(last.1)\n\(pair.logTails())")
        return Self.convergenceBound
    }

    private func stats(_ home: MigaHome) throws -> String {
        try home.miga(["stats", "--json"], environment: home.environment(["TZ": "UTC"])).stdout
    }

    private func exported(_ home: MigaHome) throws -> Int {
        try home.miga(["events", "export"]).stdout.split(separator: "\n").count
    }
}
