import Foundation
import XCTest
import MigaCore

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
}
