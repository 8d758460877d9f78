import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// DESIGN "One history across a person's machines" through the built binary: two homes as
/// two machines, their sync folders kept level by copying (as a person with a USB stick
/// would); `SyncthingTests` does the same through real Syncthing.
/// The cases that need no process of their own run in-process in MigaCommandTests' SyncCommandTests.
final class SyncCLITests: XCTestCase {
    var laptop: MigaHome!
    var desktop: MigaHome!

    override func setUpWithError() throws {
        laptop = try MigaHome()
        desktop = try MigaHome()
        for home in [laptop!, desktop!] { try home.writeConfig("timer_seconds = 15\ngrace_minutes = 0\n") }
    }

    /// A gate of discord on `home`'s terminal, left by Exit; returns the first screen, and
    /// waits for `then` (a line the gate shows once it has folded the other machines in).
    @discardableResult
    static func exitAGate(on home: MigaHome, then: String? = nil) throws -> String {
        let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) gate --app discord -- \(shellQuote(home.recorder)) x",
                                        environment: home.environment(["TZ": "UTC"]))
        let first = terminal.waitFor("[e] Exit")
        if let then { terminal.waitFor(then) }
        try terminal.press("e")
        terminal.waitFor("STATUS=0")
        try waitForJournal(of: home, toEndWith: "exit_selected")
        return first
    }

    /// A gate appends to its journal after it ends, by a process of its own (`miga sync
    /// push`), never on its way out: waits for that, as a person copying a stick later would.
    static func waitForJournal(of home: MigaHome, toEndWith type: String) throws {
        let own = home.syncFolder + "/" + (try home.deviceID())
        eventually(timeout: 10, "\(type) at the end of \(own)'s journal") {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: own)) ?? []).filter { $0.hasPrefix("events-") }.sorted()
            guard let last = names.last, let text = try? String(contentsOfFile: own + "/" + last, encoding: .utf8) else { return false }
            return text.split(separator: "\n").last?.contains("\"type\":\"\(type)\"") == true
        }
    }

    /// What a person does with a stick: each machine's own subfolder copied to the other
    /// machine's folder, never over the other machine's own.
    static func carry(from source: MigaHome, to target: MigaHome) throws {
        let id = try source.deviceID()
        let copy = try source.run("/bin/cp", ["-a", source.syncFolder + "/" + id, target.syncFolder + "/"])
        XCTAssertEqual(copy.status, 0, copy.stderr)
    }

    func stats(_ home: MigaHome, _ extra: [String] = []) throws -> String {
        let output = try home.miga(["stats", "--json"] + extra, environment: home.environment(["TZ": "UTC"]))
        XCTAssertEqual(output.status, 0, output.stderr)
        return output.stdout
    }

    func testTwoMachinesThroughACopiedFolderShowOneHistory() throws {
        // The laptop had a history before sync: turning sync on writes it once.
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let earlier = max(now - now % 86_400_000, now - 60_000)
        let ts = EventTimestamp.format(unixMilliseconds: earlier, offsetMinutes: 0)
        let history = try laptop.writeFile("before.jsonl", """
            {"ts":"\(ts)","type":"session_start","app":"discord","session":"before","content_id":null,"wait_ms":null,"detail":null}
            {"ts":"\(ts)","type":"exit_selected","app":"discord","session":"before","content_id":null,"wait_ms":15000,"detail":null}

            """)
        XCTAssertEqual(try laptop.miga(["events", "import", history]).status, 0)
        let on = try laptop.miga(["config", "set", "sync_folder", "~/Sync/miga"])
        XCTAssertEqual(on.status, 0, on.stderr)
        let laptopID = try laptop.deviceID()
        XCTAssertTrue(on.stdout.contains("This machine is \(laptopID): 2 events written to \(laptop.syncFolder)/\(laptopID)."), on.stdout)
        XCTAssertTrue(try desktop.miga(["config", "set", "sync_folder", "~/Sync/miga"]).stdout.contains(": 0 events written"))
        XCTAssertNotEqual(try desktop.deviceID(), laptopID)

        // The desktop's gate before any copy knows only its own day.
        XCTAssertFalse(try Self.exitAGate(on: desktop).contains("time today"))
        try Self.carry(from: laptop, to: desktop)
        try Self.carry(from: desktop, to: laptop)
        // The laptop's gate draws its first frame from what it has, then folds the desktop's
        // gate in: "3rd time today" (its own earlier one, the desktop's, this one).
        let first = try Self.exitAGate(on: laptop, then: "3rd time today")
        XCTAssertTrue(first.contains("2nd time today") || first.contains("3rd time today"), first)
        try Self.carry(from: laptop, to: desktop)

        let one = try stats(laptop), other = try stats(desktop)
        XCTAssertEqual(one, other, "one history on both")
        XCTAssertTrue(one.contains("\"sessions\":3,\"exits\":3,\"opens\":0"), one)
        XCTAssertTrue(one.contains("\"streak\":{\"current\":1,"), one)
        // Folding again, and copying again, counts nothing twice.
        try Self.carry(from: desktop, to: laptop)
        try Self.carry(from: laptop, to: desktop)
        XCTAssertEqual(try stats(laptop), one)
        XCTAssertEqual(try stats(desktop), one)
        XCTAssertEqual(try laptop.events().count, try desktop.events().count)

        let byMachine = try stats(desktop, ["--by-machine"])
        XCTAssertTrue(byMachine.contains("\"machines\":[{\"device\":\"\(try desktop.deviceID())\""), byMachine)
        XCTAssertTrue(byMachine.contains("\"this_machine\":true,\"sessions\":1,\"exits\":1"), byMachine)
        XCTAssertTrue(byMachine.contains("{\"device\":\"\(laptopID)\""), byMachine)
        XCTAssertTrue(byMachine.contains("\"this_machine\":false,\"sessions\":2,\"exits\":2"), byMachine)
        let table = try desktop.miga(["stats", "--by-machine"]).stdout
        XCTAssertTrue(table.contains("machine") && table.contains("(this)"), table)

        let status = try desktop.miga(["sync", "status", "--json"])
        XCTAssertEqual(status.status, 0, status.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["device"] as? String, try desktop.deviceID())
        XCTAssertEqual(json["folder"] as? String, desktop.syncFolder)
        let machines = try XCTUnwrap(json["machines"] as? [[String: Any]])
        XCTAssertEqual(machines.count, 2)
        XCTAssertEqual(machines.compactMap { $0["events"] as? Int }.reduce(0, +), try desktop.events().count)
        XCTAssertEqual(machines.first?["this_machine"] as? Bool, true)
        XCTAssertNotNil((machines.last?["last_write"] as? String)?.range(of: #"^\d{4}-\d\d-\d\dT"#, options: .regularExpression))
        XCTAssertEqual((json["skipped"] as? [Any])?.count, 0)
        XCTAssertEqual(json["behind"] as? Bool, false)

        // Turning sync off writes no more and leaves the folder as it is.
        let off = try desktop.miga(["config", "set", "sync_folder", ""])
        XCTAssertTrue(off.stdout.contains("Sync is off"), off.stdout)
        let desktopJournal = desktop.syncFolder + "/" + (try desktop.deviceID())
        let before = try FileManager.default.subpathsOfDirectory(atPath: desktop.syncFolder).sorted()
            .map { try? String(contentsOfFile: desktop.syncFolder + "/" + $0, encoding: .utf8) }
        XCTAssertFalse(try String(contentsOfFile: desktopJournal + "/" + FilePathName.month(), encoding: .utf8).isEmpty)
        try Self.exitAGate(on: desktop)
        XCTAssertEqual(try FileManager.default.subpathsOfDirectory(atPath: desktop.syncFolder).sorted()
            .map { try? String(contentsOfFile: desktop.syncFolder + "/" + $0, encoding: .utf8) }, before)
        XCTAssertEqual(try desktop.miga(["sync", "status"]).stdout.hasPrefix("Sync is off"), true)
    }

    /// What cannot be used is said, once, and never keeps an app from opening: a bad folder,
    /// an id that cannot be kept, a damaged journal line, the database inside the folder.
    func testProblemsAreSaidOnceAndNeverInTheWay() throws {
        let relative = try laptop.miga(["config", "set", "sync_folder", "Sync/miga"])
        XCTAssertEqual(relative.status, 1)
        XCTAssertTrue(relative.stderr.contains("sync_folder must be an absolute path or one starting with ~/, like ~/Sync/miga"), relative.stderr)
        XCTAssertFalse(try String(contentsOfFile: laptop.configFile, encoding: .utf8).contains("sync_folder"), "nothing written")

        XCTAssertEqual(try laptop.miga(["config", "set", "sync_folder", "~/Sync/miga"]).status, 0)
        try Self.exitAGate(on: laptop)
        // Another machine's file, with a damaged line in the middle.
        let other = laptop.syncFolder + "/cccccccccccccccc"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let line = { (session: String) in
            "{\"ts\":\"\(EventTimestamp.format(unixMilliseconds: now - 1_000, offsetMinutes: 0))\",\"type\":\"exit_selected\",\"app\":\"discord\",\"session\":\"\(session)\",\"content_id\":null,\"wait_ms\":15000,\"detail\":null}\n"
        }
        try ("{\"miga_journal\":1,\"device\":\"cccccccccccccccc\",\"host\":\"den\"}\n" + line("a") + "{\"ts\": garbage\n" + line("b"))
            .write(toFile: other + "/" + FilePathName.month(), atomically: true, encoding: .utf8)
        let first = try laptop.miga(["status"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.hasPrefix("miga 3 exits"), first.stdout)
        XCTAssertEqual(first.stderr, "miga: sync: \(laptop.syncFolder)/cccccccccccccccc/\(FilePathName.month()) 1 line could not be read (damaged, or events of a newer miga)\n")
        XCTAssertEqual(try laptop.miga(["status"]).stderr, "", "said once")
        let status = try laptop.miga(["sync", "status"]).stdout
        XCTAssertTrue(status.contains("den") && status.contains("2 events") && status.contains("Skipped:"), status)

        // An id that cannot be kept (the state folder is a file): the gate still opens the app.
        let state = laptop.root + "/state-file"
        try "".write(toFile: state, atomically: true, encoding: .utf8)
        let environment = laptop.environment(["XDG_STATE_HOME": state])
        let gate = try laptop.miga(["gate", "--app", "discord", "--", laptop.recorder, "y"], environment: environment)
        XCTAssertEqual(gate.status, 0, gate.stderr)
        XCTAssertEqual(laptop.recordedArguments(), ["y"])
        let said = try laptop.miga(["sync", "status"], environment: environment)
        XCTAssertTrue(said.stderr.contains("cannot keep this machine's id in \(state)/miga/device"), said.stderr)

        // The database inside the folder: doctor says so.
        let inside = try desktop.miga(["config", "set", "sync_folder", "~/.local"])
        XCTAssertTrue(inside.stdout.contains("warning: miga's database"), inside.stdout)
        XCTAssertTrue(DoctorText.unwrapped(try desktop.miga(["doctor"]).stdout).contains("is inside the sync folder"))
    }

    /// The editor's `set sync_folder` turns sync on as `config set` does: on `save`, this
    /// machine's history goes to the folder at once.
    func testTheEditorTurnsSyncOnAndWritesTheHistoryOnSave() throws {
        XCTAssertEqual(try laptop.miga(["gate", "--app", "discord", "--", "/bin/true"]).status, 0) // one event (no terminal)
        let terminal = try TmuxTerminal(home: laptop, command: "\(shellQuote(laptop.binary)) config", environment: laptop.environment())
        terminal.waitFor("Tab completes.")
        terminal.waitForPrompt("> ")
        try terminal.enter("set sync_folder ~/Sync/miga")
        terminal.waitFor("sync_folder = \"~/Sync/miga\"")
        terminal.waitForPrompt("> ")
        try terminal.enter("save")
        let id = try { () throws -> String in
            terminal.waitFor("written to")
            return try laptop.deviceID()
        }()
        XCTAssertTrue(terminal.screen().contains("This machine is \(id): 1 event written to \(laptop.syncFolder)/\(id)."), terminal.screen())
        terminal.waitForPrompt("> ")
        try terminal.enter("quit")
        terminal.waitFor("STATUS=0")
        let journal = try String(contentsOfFile: laptop.syncFolder + "/\(id)/" + FilePathName.month(), encoding: .utf8)
        XCTAssertTrue(journal.contains("\"type\":\"gateway_skipped\""), journal)
    }
}

/// The last part of a path (the test's own, not miga's).
enum FilePathName {
    /// This month's journal file name (UTC).
    static func month() -> String {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        return "events-" + EventTimestamp.format(unixMilliseconds: now, offsetMinutes: 0).prefix(7) + ".jsonl"
    }
}
