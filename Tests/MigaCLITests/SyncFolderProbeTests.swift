import Foundation
import XCTest
import MigaCore

/// DESIGN "The sync folder is someone else's disk", through the built binary: what a peer (or
/// a broken sync tool, or anyone with write access to a shared folder) can put in the folder,
/// and what miga must then never do — write through a link, replace a file it did not write,
/// let a copy dated in the future win for ever, let another machine decide this one's grace,
/// or look at a flooded folder without end. Each test here failed before its fix.
final class SyncFolderProbeTests: XCTestCase {
    var home: MigaHome!
    var folder: String { home.home + "/Sync/miga" }

    override func setUpWithError() throws {
        home = try MigaHome()
        try home.writeConfig("timer_seconds = 15\ngrace_minutes = 0\n")
        let on = try home.miga(["config", "set", "sync_folder", "~/Sync/miga"])
        XCTAssertEqual(on.status, 0, on.stderr)
    }

    private var device: String {
        get throws { try home.deviceID() }
    }

    private func read(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    /// A shared config.toml as miga writes it: its first line names the machine and the time.
    private func sharedConfig(_ body: String, device: String = "cccccccccccccccc", written: Date) -> String {
        let time = EventTimestamp.format(unixMilliseconds: Int64(written.timeIntervalSince1970 * 1000), offsetMinutes: 0)
        return "# miga sync_config \(device) \(time)\n" + body
    }

    private func turnOnSharedConfig() throws -> MigaHome.Output {
        try home.miga(["config", "set", "sync_config", "true"])
    }

    // MARK: a way in

    /// A peer replaces the shared config.toml with a link to a file of the person's: miga must
    /// neither write through it (into ~/.bashrc: code at the next shell) nor take it.
    func testASharedConfigThatIsALinkIsNeverWrittenThroughNorTaken() throws {
        let bashrc = try home.writeFile("home/.bashrc", "# the person's own\nalias ll='ls -l'\n")
        let before = try XCTUnwrap(read(bashrc))
        XCTAssertEqual(try turnOnSharedConfig().status, 0)
        let shared = folder + "/config.toml"
        XCTAssertTrue(FileManager.default.fileExists(atPath: shared), "shared at first")
        try FileManager.default.removeItem(atPath: shared)
        try FileManager.default.createSymbolicLink(atPath: shared, withDestinationPath: bashrc)
        // This machine's copy is newer (a later edit): before the fix it went through the link.
        XCTAssertEqual(try home.miga(["config", "set", "timer_seconds", "30"]).status, 0)
        let get = try home.miga(["config", "get", "timer_seconds"])
        XCTAssertEqual(get.stdout, "30\n", get.stderr)
        XCTAssertEqual(read(bashrc), before, "the link's target is byte-identical")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: shared), bashrc, "the link is left as it is")
        let status = try home.miga(["sync", "status"])
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertEqual(read(bashrc), before)
        // Nor is the link's target taken as config when it looks newer.
        try sharedConfig("timer_seconds = 45\nsync_folder = \"~/Sync/miga\"\nsync_config = true\n", written: Date().addingTimeInterval(60))
            .write(toFile: bashrc, atomically: false, encoding: .utf8)
        XCTAssertEqual(try home.miga(["config", "get", "timer_seconds"]).stdout, "30\n", "a link is nobody's config")
    }

    // MARK: someone else's files

    /// This machine's own folder in the sync folder replaced by a link to a folder of someone
    /// else's: no journal line lands there, and `data delete` removes nothing there.
    func testThisMachinesFolderReplacedByALinkIsNeitherWrittenNorEmptiedThrough() throws {
        let id = try device
        let elsewhere = home.root + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let theirs = elsewhere + "/events-2026-11.jsonl"
        try "their own file\n".write(toFile: theirs, atomically: true, encoding: .utf8)
        try? FileManager.default.removeItem(atPath: folder + "/" + id)
        try FileManager.default.createSymbolicLink(atPath: folder + "/" + id, withDestinationPath: elsewhere)

        let gate = try home.miga(["gate", "--app", "demo", "--", home.recorder, "x"])
        XCTAssertEqual(gate.status, 0, gate.stderr) // no terminal: fails open, and records why
        let status = try home.miga(["sync", "status"])
        XCTAssertTrue(status.stdout.contains("not a folder of yours") || status.stderr.contains("not a folder of yours"),
                      status.stdout + status.stderr)
        XCTAssertEqual(try String(contentsOfFile: theirs, encoding: .utf8), "their own file\n", "nothing appended through the link")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere), ["events-2026-11.jsonl"])

        let delete = try home.miga(["data", "delete", "--yes"])
        XCTAssertEqual(delete.status, 0, delete.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: theirs), "data delete unlinks nothing through the link")
    }

    /// Turning `sync_config` on over a config.toml already in the folder that miga did not
    /// write: it is left byte-identical, and miga says why it does not share.
    func testAForeignConfigInTheFolderIsNeverReplaced() throws {
        let shared = folder + "/config.toml"
        let foreign = "# the team's editor settings, not miga's\n[editor]\ntabs = 4\n"
        try foreign.write(toFile: shared, atomically: true, encoding: .utf8)
        let on = try turnOnSharedConfig()
        XCTAssertEqual(on.status, 0, on.stderr)
        XCTAssertTrue((on.stdout + on.stderr).contains("was not written by miga"), on.stdout + on.stderr)
        XCTAssertEqual(try String(contentsOfFile: shared, encoding: .utf8), foreign)
        XCTAssertEqual(try home.miga(["config", "set", "timer_seconds", "30"]).status, 0)
        XCTAssertEqual(try home.miga(["config", "get", "timer_seconds"]).stdout, "30\n")
        XCTAssertEqual(try String(contentsOfFile: shared, encoding: .utf8), foreign, "still the other program's")
        // Moved aside, as the message says: miga shares its own, marked as miga's.
        try FileManager.default.moveItem(atPath: shared, toPath: shared + ".theirs")
        _ = try home.miga(["config", "get", "timer_seconds"])
        let mine = try String(contentsOfFile: shared, encoding: .utf8)
        XCTAssertTrue(mine.hasPrefix("# miga sync_config \(try device) "), mine)
        XCTAssertTrue(mine.contains("timer_seconds = 30"), mine)
    }

    /// A shared copy dated far in the future wins once at most: the person's next change
    /// here sticks, and reaches the folder.
    func testASharedConfigFromTheFutureDoesNotWinForEver() throws {
        XCTAssertEqual(try turnOnSharedConfig().status, 0)
        let shared = folder + "/config.toml"
        let future = Date().addingTimeInterval(10 * 365 * 86_400)
        try sharedConfig("timer_seconds = 20\ngrace_minutes = 0\nsync_folder = \"~/Sync/miga\"\nsync_config = true\n", written: future)
            .write(toFile: shared, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: future], ofItemAtPath: shared)
        XCTAssertEqual(try home.miga(["config", "get", "timer_seconds"]).stdout, "20\n", "the other machine's change applies")
        let set = try home.miga(["config", "set", "timer_seconds", "35"])
        XCTAssertEqual(set.status, 0, set.stderr)
        for _ in 0..<3 {
            XCTAssertEqual(try home.miga(["config", "get", "timer_seconds"]).stdout, "35\n", "the person's change stays")
        }
        XCTAssertTrue(try String(contentsOfFile: shared, encoding: .utf8).contains("timer_seconds = 35"), "and is what the folder shares")
    }

    // MARK: other machines decide nothing here

    /// Another machine's journal naming this machine's Open with "5 more minutes": this
    /// machine's grace stays as its own Open set it.
    func testAnotherMachinesExtensionOfThisMachinesSessionExtendsNothing() throws {
        let now = Date()
        let opened = now.addingTimeInterval(-9 * 60)
        let stamp = { (date: Date) in EventTimestamp.format(unixMilliseconds: Int64(date.timeIntervalSince1970 * 1000), offsetMinutes: 0) }
        let open = try home.writeFile("open.jsonl", """
            {"ts":"\(stamp(opened))","type":"open_selected","app":"discord","session":"mine","content_id":null,"wait_ms":15000,"detail":{"minutes":10}}

            """)
        XCTAssertEqual(try home.miga(["events", "import", open]).status, 0)
        func graceUntil() throws -> Double? {
            let status = try home.miga(["status", "--json"], environment: home.environment(["TZ": "UTC"]))
            XCTAssertEqual(status.status, 0, status.stderr)
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
            let grace = (json["grace"] as? [[String: Any]])?.first { $0["app"] as? String == "discord" }
            return (grace?["until"] as? String).flatMap { EventTimestamp.parse($0) }.map { Double($0.unixMilliseconds) / 1000 }
        }
        let before = try XCTUnwrap(try graceUntil(), "the Open's ten minutes run")
        let peer = folder + "/cccccccccccccccc"
        try FileManager.default.createDirectory(atPath: peer, withIntermediateDirectories: true)
        try """
            {"miga_journal":1,"device":"cccccccccccccccc","host":"peer"}
            {"ts":"\(stamp(now.addingTimeInterval(-60)))","type":"timebox_ended","app":"discord","session":"mine","content_id":null,"wait_ms":null,"detail":{"minutes":10,"choice":"extend","used":8}}

            """.write(toFile: peer + "/events-\(stamp(now).prefix(7)).jsonl", atomically: true, encoding: .utf8)
        let after = try XCTUnwrap(try graceUntil())
        XCTAssertEqual(try home.sqlite("SELECT count(*) FROM events WHERE device = 'cccccccccccccccc'"), "1", "the peer's event is folded in")
        XCTAssertEqual(after, before, accuracy: 1, "another machine's extension adds nothing here")
    }

    // MARK: bounded work

    /// A folder flooded with other files: the fold looks at a bounded number of entries
    /// (not of matches) and says so; the record of what was read goes with files that go.
    func testAFloodedFolderIsLookedAtBoundedlyAndItsBookkeepingTrimmed() throws {
        for index in 0..<2_000 {
            XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/other-\(index)", contents: nil))
        }
        let status = try home.miga(["sync", "status"])
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue((status.stdout + status.stderr).contains("entries; only the first listed are read"), status.stdout + status.stderr)

        // Conflict copies of a peer's journal, read once, then removed by the person.
        let peer = folder + "/cccccccccccccccc"
        try FileManager.default.createDirectory(atPath: peer, withIntermediateDirectories: true)
        for index in 0..<2_000 { try? FileManager.default.removeItem(atPath: folder + "/other-\(index)") }
        let line = "{\"miga_journal\":1,\"device\":\"cccccccccccccccc\",\"host\":\"peer\"}\n"
        for index in 0..<50 {
            try line.write(toFile: peer + "/events-2026-11.sync-conflict-20261127-1010\(String(format: "%02d", index))-ABCDEFG.jsonl",
                           atomically: true, encoding: .utf8)
        }
        XCTAssertEqual(try home.miga(["sync", "status"]).status, 0)
        XCTAssertEqual(try home.sqlite("SELECT count(*) FROM sync_read WHERE file LIKE 'cccccccccccccccc/%'"), "50")
        for name in try FileManager.default.contentsOfDirectory(atPath: peer) { try FileManager.default.removeItem(atPath: peer + "/" + name) }
        try line.write(toFile: peer + "/events-2026-11.jsonl", atomically: true, encoding: .utf8)
        XCTAssertEqual(try home.miga(["sync", "status"]).status, 0)
        XCTAssertEqual(try home.sqlite("SELECT count(*) FROM sync_read WHERE file LIKE 'cccccccccccccccc/%'"), "1", "the record follows the folder")
    }
}
