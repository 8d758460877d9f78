import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// Files that are not what their names say: a FIFO where a config, content pack, licence or
/// desktop entry should be (a plain read would block for ever), and files far too large.
/// miga reads regular files only, within a size limit; the gate still opens the app.
final class HostileFileTests: XCTestCase {
    var home: MigaHome!

    override func setUpWithError() throws {
        home = try MigaHome()
    }

    /// Runs miga, killed after 20 s: a test of "never blocks" must not block itself.
    func boundedMiga(_ arguments: [String], environment: [String: String]? = nil,
                     file: StaticString = #filePath, line: UInt = #line) throws -> MigaHome.Output {
        let output = try home.run("/usr/bin/timeout", ["-s", "KILL", "20", home.binary] + arguments, environment: environment)
        XCTAssertNotEqual(output.status, 137, "miga \(arguments.joined(separator: " ")) hung", file: file, line: line)
        return output
    }

    func makeFIFO(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(path, 0o644), 0, "mkfifo \(path)")
    }

    func isFIFO(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO
    }

    func testAFIFOAsConfigFailsOpenAndIsNeverWrittenOver() throws {
        try makeFIFO(home.configFile)
        let gate = try boundedMiga(["gate", "--app", "chat", "--", home.recorder, "opens"])
        XCTAssertEqual(gate.status, 0, gate.stderr)
        XCTAssertEqual(home.recordedArguments(), ["opens"])
        XCTAssertTrue(gate.stderr.contains("config.toml: it is a FIFO, not a regular file; move it aside"), gate.stderr)
        XCTAssertEqual(try home.events().first?.detail, #"{"reason":"config_error"}"#)

        for arguments in [["config", "show"], ["config", "set", "timer_seconds", "20"], ["config", "sites", "add", "a.example"]] {
            let output = try boundedMiga(arguments)
            XCTAssertEqual(output.status, 1, "\(arguments)")
            XCTAssertTrue(output.stderr.contains("is a FIFO"), "\(arguments): \(output.stderr)")
        }
        XCTAssertTrue(isFIFO(home.configFile), "the person's file is left as it was")
    }

    func testAnOversizedConfigIsRefusedWithItsLimit() throws {
        try home.writeConfig("# " + String(repeating: "x", count: 1 << 20) + "\n")
        let output = try boundedMiga(["config", "show"])
        XCTAssertEqual(output.status, 1)
        XCTAssertTrue(output.stderr.contains("larger than 1 MiB; move it aside"), output.stderr)
    }

    func testAFIFOContentPackIsSkippedWithAWarning() throws {
        let pack = home.home + "/.local/share/miga/quotes/stuck.toml"
        try makeFIFO(pack)
        let list = try boundedMiga(["content", "list"])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stderr.contains("stuck.toml") && list.stderr.contains("FIFO"), list.stderr)
        XCTAssertTrue(list.stdout.contains("quote"), "the bundled items are still listed")
        let validate = try boundedMiga(["content", "validate", pack])
        XCTAssertEqual(validate.status, 1)
        XCTAssertTrue(validate.stderr.contains("FIFO"), validate.stderr)
    }

    func testLicenseActivateRefusesAFIFO() throws {
        let fifo = home.root + "/miga.license"
        try makeFIFO(fifo)
        let output = try boundedMiga(["license", "activate", fifo])
        XCTAssertEqual(output.status, 1)
        XCTAssertTrue(output.stderr.contains("it is a FIFO, not a regular file"), output.stderr)
    }

    func testAFIFODesktopEntryIsSkippedWithAWarning() throws {
        let system = home.root + "/sys"
        try home.writeFile("sys/applications/rec.desktop", "[Desktop Entry]\nType=Application\nName=Rec\nExec=\(home.recorder) %u\n")
        try makeFIFO(system + "/applications/stuck.desktop")
        let environment = home.environment(["XDG_DATA_DIRS": system])
        let added = try boundedMiga(["config", "apps", "add", "rec", "--command", home.recorder], environment: environment)
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertTrue(added.stderr.contains("stuck.desktop") && added.stderr.contains("FIFO"), added.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: home.home + "/.local/share/applications/rec.desktop"), "the real entry still got its shim")
    }

    /// Whatever command comes first, with the usual umask 022: miga's folders are 0700 and
    /// its database (with its WAL and shared-memory files) 0600.
    func testFilesArePrivateWhateverTheFirstCommand() throws {
        try home.writeFile("bin/chat", mode: 0o755, "#!/bin/sh\n")
        let environment = home.environment(["PATH": "\(home.root)/bin:/usr/bin:/bin"])
        for arguments in [["config", "apps", "add", "chat"], ["gate", "--app", "chat", "--", "/bin/true"]] {
            let output = try home.run("/bin/sh", ["-c", "umask 022; exec \"$0\" \"$@\"", home.binary] + arguments, environment: environment)
            XCTAssertEqual(output.status, 0, output.stderr)
        }
        for folder in [".local/share/miga", ".local/share/miga/bin", ".local/state/miga", ".config/miga"] {
            XCTAssertEqual(AtomicFile.mode(of: home.home + "/" + folder), 0o700, folder)
        }
        for file in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: home.database + file) {
            XCTAssertEqual(AtomicFile.mode(of: home.database + file), 0o600, "miga.sqlite3\(file)")
        }
        XCTAssertEqual(try home.sqlite("PRAGMA application_id"), "\(0x6D69_6761)", "marked as miga's")
    }

    /// Another program's SQLite file at miga's path is never given miga's tables: the gate
    /// fails open and says what to do, and the file is left byte for byte.
    func testAnotherProgramsDatabaseIsNeverTouched() throws {
        try FileManager.default.createDirectory(atPath: (home.database as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = try home.run("/usr/bin/sqlite3", [home.database, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine');"])
        let before = try XCTUnwrap(FileManager.default.contents(atPath: home.database))
        let gate = try boundedMiga(["gate", "--app", "chat", "--", home.recorder, "opens"])
        XCTAssertEqual(gate.status, 0, gate.stderr)
        XCTAssertEqual(home.recordedArguments(), ["opens"])
        XCTAssertTrue(gate.stderr.contains("another program's SQLite database, not miga's"), gate.stderr)
        let stats = try boundedMiga(["stats"])
        XCTAssertEqual(stats.status, 1)
        XCTAssertTrue(stats.stderr.contains("move it aside"), stats.stderr)
        XCTAssertEqual(FileManager.default.contents(atPath: home.database), before, "left byte for byte")
        XCTAssertEqual(try home.sqlite("SELECT group_concat(name) FROM sqlite_master"), "notes")
    }

    /// The typos that made the old TOML library abort the process (exit 134, for every gate
    /// and every link): each is now a line-and-column error, the gate opens the app, links
    /// still open, and a content pack with one is skipped.
    func testTOMLTyposThatOnceAbortedMigaFailOpen() throws {
        try home.writeFile("bin/browser", mode: 0o755, "#!/bin/sh\nexec \(shellQuote(home.recorder)) \"$@\"\n")
        for typo in ["[", "[=x]", "[.apps]", "sites = [\"a.example\"}", "timer_seconds = 20\n[apps.x]\n[apps.x]\n"] {
            try home.writeConfig(typo + "\n")
            try? FileManager.default.removeItem(atPath: home.root + "/recorded.argv")
            let gate = try boundedMiga(["gate", "--app", "chat", "--", home.recorder, "opens"])
            XCTAssertEqual(gate.status, 0, "\(typo): \(gate.stderr)")
            XCTAssertEqual(home.recordedArguments(), ["opens"], typo)
            XCTAssertTrue(gate.stderr.contains("config.toml:"), gate.stderr)
            let show = try boundedMiga(["config", "show"])
            XCTAssertEqual(show.status, 1, typo)
            XCTAssertNotNil(show.stderr.range(of: #"config\.toml:\d+:\d+: "#, options: .regularExpression), show.stderr)
            let pack = try home.writeFile("home/.local/share/miga/quotes/typo.toml", typo + "\n")
            let validate = try boundedMiga(["content", "validate", pack])
            XCTAssertEqual(validate.status, 1, typo)
            XCTAssertTrue(validate.stderr.contains("typo.toml:"), validate.stderr)
        }
    }

    /// Thousands of unknown keys are warned about in one pass (it took 30 s for 10,000).
    func testTenThousandUnknownKeysAreWarnedAboutWithTheirLines() throws {
        try home.writeConfig((1...10_000).map { "unknown_\($0) = \($0)" }.joined(separator: "\n") + "\nsites = []\n")
        let output = try boundedMiga(["config", "show"])
        XCTAssertEqual(output.status, 0)
        let lines = output.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 10_000)
        XCTAssertEqual(lines.last.map(String.init), "miga: warning: \(home.configFile):10000: unknown key \"unknown_10000\" ignored")
    }

    /// The default browser's entry is a FIFO: `open-url` says it has no browser, never hangs.
    func testAFIFOBrowserEntryNeverBlocksALink() throws {
        try makeFIFO(home.root + "/sys/applications/web.desktop")
        try home.writeFile("etc/mimeapps.list", "[Default Applications]\nx-scheme-handler/https=web.desktop\n")
        let output = try boundedMiga(["open-url", "https://www.debian.org/"],
                                     environment: home.environment(["XDG_DATA_DIRS": home.root + "/sys", "XDG_CONFIG_DIRS": home.root + "/etc"]))
        XCTAssertEqual(output.status, 1, output.stderr)
        XCTAssertTrue(output.stderr.contains("browser"), output.stderr)
    }
}
