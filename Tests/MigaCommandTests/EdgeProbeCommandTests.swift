import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// Edges of uninstall, the purge and the sync folder, in-process: uninstall gives back what
/// the person has now, a purge takes this machine's journal from the sync folder, and text
/// from that folder reaches the output only through the sanitiser (moved from MigaCLITests).
final class EdgeProbeCommandTests: XCTestCase {
    var home: CommandHome!

    override func setUpWithError() throws {
        home = try CommandHome()
        // Two browsers installed system-wide; the distribution's default is web.desktop.
        for (id, name) in [("web", "Web"), ("chromium", "Chromium")] {
            try home.writeFile("sys/applications/\(id).desktop", """
                [Desktop Entry]
                Type=Application
                Name=\(name)
                Exec=\(home.recorder) %u
                MimeType=x-scheme-handler/http;x-scheme-handler/https;

                """)
        }
        try home.writeFile("etc/mimeapps.list", "[Default Applications]\nx-scheme-handler/https=web.desktop\n")
    }

    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        home.environment(["XDG_DATA_DIRS": home.root + "/sys", "XDG_CONFIG_DIRS": home.root + "/etc",
                          "PATH": "\(home.root)/bin:/usr/bin:/bin", "TZ": "UTC"].merging(extra) { $1 })
    }

    @discardableResult
    func miga(_ arguments: String..., file: StaticString = #filePath, line: UInt = #line) throws -> CommandHome.Output {
        try home.miga(arguments, environment: environment())
    }

    var mimeApps: String { home.home + "/.config/mimeapps.list" }

    func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    /// What `xdg-settings set default-web-browser` does to mimeapps.list (xdg-mime's generic
    /// `make_default`): the type's line in [Default Applications] replaced by the new browser.
    func chooseBrowserAsXdgMimeDoes(_ id: String) throws {
        var lines = try XCTUnwrap(read(mimeApps)).components(separatedBy: "\n")
        var inDefaults = false
        for index in lines.indices {
            let line = lines[index]
            if line.hasPrefix("[") { inDefaults = line == "[Default Applications]" }
            for type in ["x-scheme-handler/http", "x-scheme-handler/https"] where inDefaults && line.hasPrefix(type + "=") {
                lines[index] = type + "=" + id
            }
        }
        try lines.joined(separator: "\n").write(toFile: mimeApps, atomically: true, encoding: .utf8)
    }

    /// What GNOME (GLib's g_app_info_set_as_default_for_type) does: the default line set to the
    /// new browser alone, and it put first in [Added Associations], the others kept after it.
    func chooseBrowserAsGnomeDoes(_ id: String) throws {
        var lines = try XCTUnwrap(read(mimeApps)).components(separatedBy: "\n")
        var group = ""
        for index in lines.indices {
            let line = lines[index]
            if line.hasPrefix("[") { group = line }
            for type in ["x-scheme-handler/http", "x-scheme-handler/https"] where line.hasPrefix(type + "=") {
                if group == "[Default Applications]" { lines[index] = type + "=" + id + ";" }
                if group == "[Added Associations]" {
                    let others = line.dropFirst(type.count + 1).split(separator: ";").filter { $0 != id }
                    lines[index] = type + "=" + ([id] + others.map(String.init)).joined(separator: ";") + ";"
                }
            }
        }
        try lines.joined(separator: "\n").write(toFile: mimeApps, atomically: true, encoding: .utf8)
    }

    func testUninstallKeepsTheBrowserThePersonChoseWhileMigaWasInstalled() throws {
        let mine = """
            # mine
            [Default Applications]
            x-scheme-handler/https=web.desktop
            application/pdf=evince.desktop;

            [Added Associations]
            image/png=eog.desktop;

            """
        try home.writeFile("home/.config/mimeapps.list", mine)
        let install = try miga("install")
        XCTAssertEqual(install.status, 0, install.stderr)
        XCTAssertTrue(read(mimeApps)!.contains("x-scheme-handler/https=miga-url-handler.desktop;web.desktop;"), read(mimeApps)!)

        try chooseBrowserAsXdgMimeDoes("chromium.desktop")
        let uninstall = try miga("uninstall")
        XCTAssertEqual(uninstall.status, 0, uninstall.stderr)
        let after = try XCTUnwrap(read(mimeApps), "the file the person also edited stays")
        XCTAssertFalse(after.contains("miga-url-handler"), after)
        XCTAssertTrue(after.contains("[Default Applications]\nx-scheme-handler/https=chromium.desktop\n"), "the person's choice, not the old one:\n\(after)")
        XCTAssertTrue(after.contains("x-scheme-handler/http=chromium.desktop\n"), after)
        XCTAssertTrue(after.contains("# mine\n") && after.contains("application/pdf=evince.desktop;\n") && after.contains("image/png=eog.desktop;\n"), after)
        XCTAssertTrue(uninstall.stdout.contains("removed miga's lines from ~/.config/mimeapps.list; web links go to chromium.desktop"), uninstall.stdout)
        XCTAssertFalse(uninstall.stdout.contains("restored the default browser"), uninstall.stdout)
    }

    func testUninstallNeverDeletesAListMigaCreatedOnceThePersonChoseABrowserInIt() throws {
        XCTAssertFalse(FileManager.default.fileExists(atPath: mimeApps))
        XCTAssertEqual(try miga("install").status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: mimeApps), "miga made it")

        try chooseBrowserAsGnomeDoes("chromium.desktop")
        let uninstall = try miga("uninstall")
        XCTAssertEqual(uninstall.status, 0, uninstall.stderr)
        let after = try XCTUnwrap(read(mimeApps), "deleted with the person's choice in it")
        XCTAssertFalse(after.contains("miga-url-handler"), after)
        XCTAssertTrue(after.contains("[Default Applications]\nx-scheme-handler/http=chromium.desktop;\nx-scheme-handler/https=chromium.desktop;\n"), after)
        XCTAssertTrue(after.contains("[Added Associations]\nx-scheme-handler/http=chromium.desktop;\n"), after)
        XCTAssertTrue(uninstall.stdout.contains("web links go to chromium.desktop"), uninstall.stdout)
    }

    func testUninstallWithoutAChangeStillRestoresTheFileExactly() throws {
        let mine = "[Default Applications]\nx-scheme-handler/https=web.desktop\ntext/html=web.desktop\n"
        try home.writeFile("home/.config/mimeapps.list", mine)
        XCTAssertEqual(try miga("install").status, 0)
        let uninstall = try miga("uninstall")
        XCTAssertEqual(uninstall.status, 0, uninstall.stderr)
        XCTAssertEqual(read(mimeApps), mine)
        XCTAssertTrue(uninstall.stdout.contains("web links go to web.desktop"), uninstall.stdout)
    }

    func testPurgeNamesAndRemovesThisMachinesJournalAndTheHistoryStaysGone() throws {
        let folder = home.home + "/Sync/miga"
        let other = folder + "/cccccccccccccccc"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let ts = EventTimestamp.format(unixMilliseconds: now - 60_000, offsetMinutes: 0)
        let line = { (session: String) in
            "{\"ts\":\"\(ts)\",\"type\":\"exit_selected\",\"app\":\"discord\",\"session\":\"\(session)\",\"content_id\":null,\"wait_ms\":15000,\"detail\":null}\n"
        }
        let othersJournal = "{\"miga_journal\":1,\"device\":\"cccccccccccccccc\",\"host\":\"den\"}\n" + line("theirs")
        try othersJournal.write(toFile: other + "/" + FilePathName.month(), atomically: true, encoding: .utf8)
        let history = try home.writeFile("mine.jsonl", line("mine-1") + line("mine-2") + line("mine-3"))
        XCTAssertEqual(try miga("events", "import", history).status, 0)
        let on = try miga("config", "set", "sync_folder", "~/Sync/miga")
        XCTAssertEqual(on.status, 0, on.stderr)
        let device = try String(contentsOfFile: home.home + "/.local/state/miga/device", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let own = folder + "/" + device
        XCTAssertTrue(FileManager.default.fileExists(atPath: own + "/" + FilePathName.month()))

        let asked = try miga("uninstall", "--purge")
        XCTAssertEqual(asked.status, 1, asked.stderr)
        XCTAssertTrue(asked.stderr.contains("this machine's journal in the sync folder, ~/Sync/miga/\(device) (1 file; the other machines' journals there stay)"),
                      asked.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: own), "nothing removed without --yes")

        let purge = try miga("uninstall", "--purge", "--yes")
        XCTAssertEqual(purge.status, 0, purge.stderr)
        XCTAssertTrue(purge.stdout.contains("removed this machine's 1 journal file from ~/Sync/miga; the other machines' journals stay"), purge.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: own), "this machine's journal goes")
        XCTAssertEqual(read(other + "/" + FilePathName.month()), othersJournal, "the other machine's stays, byte for byte")

        // Sharing again (a new id: the old one went with the state folder) brings back the
        // other machine's one event, never this machine's three.
        XCTAssertEqual(try miga("config", "set", "sync_folder", "~/Sync/miga").status, 0)
        let stats = try miga("stats", "--json")
        XCTAssertEqual(stats.status, 0, stats.stderr)
        let totals = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(totals["exits"] as? Int, 1, stats.stdout)
    }

    func testNamesFromTheSyncFolderReachTheTerminalOnlySanitised() throws {
        XCTAssertEqual(try miga("config", "set", "sync_folder", "~/Sync/miga").status, 0)
        let folder = home.home + "/Sync/miga"
        let other = folder + "/dddddddddddddddd"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        let ts = EventTimestamp.format(unixMilliseconds: Int64(Date().timeIntervalSince1970 * 1000) - 60_000, offsetMinutes: 0)
        // An app name with a clear-screen and a clipboard write, an intention that would forge
        // a line, a host name with a C1 CSI: written by JSON's escapes, real characters once read.
        let app = "disc\u{1B}[2J\u{1B}]52;c;aGk=\u{07}ord"
        func line(_ object: [String: Any]) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self) + "\n"
        }
        let events = try line(["miga_journal": 1, "device": "dddddddddddddddd", "host": "den\u{9B}2Jhost"])
            + line(["ts": ts, "type": "session_start", "app": app, "session": "s1", "content_id": NSNull(), "wait_ms": NSNull(), "detail": NSNull()])
            + line(["ts": ts, "type": "open_selected", "app": app, "session": "s1", "content_id": NSNull(), "wait_ms": 15000,
                        "detail": ["intention": "reply\nUp to date.\u{1B}[31m"]])
        try events.write(toFile: other + "/" + FilePathName.month(), atomically: true, encoding: .utf8)
        // A conflict copy of a journal with a damaged line (skipped, by name), and one of the config.
        let skippedName = FilePathName.month().replacingOccurrences(of: ".jsonl", with: ".sync-conflict-\u{1B}]0;pwned\u{07}.jsonl")
        try "{\"miga_journal\":1,\"device\":\"dddddddddddddddd\"}\n{\"ts\": garbage\n".write(toFile: other + "/" + skippedName, atomically: true, encoding: .utf8)
        try "timer_seconds = 25\n".write(toFile: folder + "/config.sync-conflict-\u{1B}[2J.toml", atomically: true, encoding: .utf8)

        func assertClean(_ output: CommandHome.Output, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
            for text in [output.stdout, output.stderr] {
                let controls = text.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
                XCTAssertTrue(controls.isEmpty, "\(what) wrote \(controls.map { String($0.value, radix: 16) }) raw:\n\(text.debugDescription)", file: file, line: line)
            }
        }
        let stats = try miga("stats")
        XCTAssertEqual(stats.status, 0, stats.stderr)
        XCTAssertTrue(stats.stdout.contains("disc\u{FFFD}[2J\u{FFFD}]52;c;aGk=\u{FFFD}ord"), stats.stdout)
        assertClean(stats, "stats")
        let byMachine = try miga("stats", "--by-machine")
        XCTAssertTrue(byMachine.stdout.contains("den\u{FFFD}2Jhost"), byMachine.stdout)
        assertClean(byMachine, "stats --by-machine")
        let week = try miga("stats", "--week")
        XCTAssertTrue(week.stdout.contains("What you came to do\n    1× reply"), week.stdout)
        assertClean(week, "stats --week")
        let sync = try miga("sync", "status")
        XCTAssertTrue(sync.stdout.contains("den\u{FFFD}2Jhost") && sync.stdout.contains("sync-conflict-\u{FFFD}]0;pwned\u{FFFD}.jsonl"), sync.stdout)
        assertClean(sync, "sync status")
        let doctor = try miga("doctor")
        XCTAssertTrue(DoctorText.unwrapped(doctor.stdout).contains("config.sync-conflict-\u{FFFD}[2J.toml is a conflict copy"), doctor.stdout)
        assertClean(doctor, "doctor")

        // --json keeps the names as they are, escaped by the JSON writer (C1 included), so a
        // script reads them exactly and a terminal shows no sequence.
        for arguments in [["stats", "--json", "--by-machine"], ["sync", "status", "--json"]] {
            let json = try home.miga(arguments, environment: environment())
            assertClean(json, arguments.joined(separator: " "))
            XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)), json.stdout)
        }
        let parsed = try JSONSerialization.jsonObject(with: Data(try miga("stats", "--json").stdout.utf8)) as? [String: Any]
        let apps = try XCTUnwrap(parsed?["apps"] as? [[String: Any]])
        XCTAssertEqual(apps.first?["app"] as? String, "disc\u{1B}[2J\u{1B}]52;c;aGk=\u{07}ord")
        let machines = try JSONSerialization.jsonObject(with: Data(try miga("sync", "status", "--json").stdout.utf8)) as? [String: Any]
        XCTAssertTrue((machines?["machines"] as? [[String: Any]])?.contains { $0["host"] as? String == "den\u{9B}2Jhost" } ?? false,
                      "\(machines ?? [:])")
    }
}
