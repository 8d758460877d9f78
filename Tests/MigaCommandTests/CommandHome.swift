import ArgumentParser
import Foundation
import MigaCore
import MigaTestSupport
@testable import miga
import XCTest

/// A throwaway HOME, as MigaCLITests' `MigaHome` makes for the built binary, in which
/// `miga(_:)` runs a command in this process: parsed by ArgumentParser as the binary parses
/// it, run on a test context (this home, output and messages kept), with the binary's exit
/// status and the text its standard output and error would have shown. No process starts, so
/// a case runs in milliseconds; terminals, signals, exec and shells stay with the binary.
final class CommandHome {
    let root: String
    let home: String
    /// The path the binary would have (shims and manifests name it); nothing runs it here.
    let binary: String
    /// The real clock by default, as the binary has; a test may give a `FakeClock`.
    var clock: any MigaClock = SystemClock()

    init() throws {
        root = NSTemporaryDirectory() + "miga-command-" + UUID().uuidString.prefix(8)
        home = root + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        binary = ProcessInfo.processInfo.environment["MIGA_TEST_BINARY"]
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("miga").path
        // An app to gate: a program that does nothing (commands check that an app's command runs).
        try writeFile("bin/recorder", mode: 0o755, "#!/bin/sh\nexit 0\n")
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// The checkout this test file belongs to (for fixtures).
    static let repository = Fixtures.repository

    /// An app to gate, where MigaCLITests' fake app is: commands check it, nothing runs it.
    var recorder: String { root + "/bin/recorder" }

    var database: String { home + "/.local/share/miga/miga.sqlite3" }
    var configFile: String { home + "/.config/miga/config.toml" }

    /// The environment a person's shell would give miga: HOME, a plain PATH, UTF-8.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ["HOME": home, "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm-256color"]
        environment.merge(extra) { $1 }
        return environment.filter { !$0.value.isEmpty }
    }

    @discardableResult
    func writeFile(_ relative: String, mode: Int = 0o644, _ text: String) throws -> String {
        let path = root + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    func writeConfig(_ text: String) throws {
        try FileManager.default.createDirectory(atPath: home + "/.config/miga", withIntermediateDirectories: true)
        try text.write(toFile: configFile, atomically: true, encoding: .utf8)
    }

    func events() throws -> [Event] {
        guard FileManager.default.fileExists(atPath: database) else { return [] }
        return try EventStore(path: database).allEvents()
    }

    struct Output { var status: Int32; var stdout: String; var stderr: String }

    func sqlite(_ sql: String) throws -> String {
        try run("/usr/bin/sqlite3", [database, sql]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs a helper program (the seller's tool, sqlite3), not miga, and waits for it.
    @discardableResult
    func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment ?? self.environment()
        process.standardInput = FileHandle.nullDevice
        let out = root + "/out-" + UUID().uuidString, err = root + "/err-" + UUID().uuidString
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: out); try? FileManager.default.removeItem(atPath: err) }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        try process.run()
        process.waitUntilExit()
        func read(_ path: String) -> String { String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self) }
        return Output(status: process.terminationStatus, stdout: read(out), stderr: read(err))
    }

    /// `miga ARGUMENTS` in this process, with `environment` (default: `environment()`).
    func miga(_ arguments: [String], environment: [String: String]? = nil) throws -> Output {
        Self.standardInputFromNowhere()
        let output = CapturedOutput(), messages = CollectingSink()
        let environment = environment ?? self.environment()
        // The binary reads TZ for local days; in-process, the clock says the offset.
        let clock = environment["TZ"] == "UTC" ? UTCClock() : self.clock
        let status = Self.run(arguments, on: try TestContext.make(root: root, environment: environment, clock: clock,
                                                                  messages: messages, output: output, executablePath: binary))
        // What StandardErrorSink writes for each line.
        let stderr = messages.lines.map { TerminalText.visible($0) + "\n" }.joined()
        return Output(status: status.code, stdout: output.text + status.stdout, stderr: stderr + status.stderr)
    }

    /// Standard input /dev/null, as MigaCLITests starts the binary: a command that would ask
    /// on a terminal (`data delete`) refuses instead, even when the tests run at one.
    static func standardInputFromNowhere() {
        _ = nowhere
    }

    private static let nowhere: Void = {
        let fd = open("/dev/null", O_RDONLY)
        if fd >= 0, fd != 0 { dup2(fd, 0); close(fd) }
    }()

    /// Parses `arguments` as `miga` does and runs the command on `context`: its exit status,
    /// and what ArgumentParser itself prints (help, a usage error).
    static func run(_ arguments: [String], on context: MigaContext) -> (code: Int32, stdout: String, stderr: String) {
        let command: ParsableCommand
        do {
            command = try Miga.parseAsRoot(arguments)
        } catch {
            let code = Miga.exitCode(for: error)
            let message = Miga.fullMessage(for: error) + "\n"
            return code == .success ? (0, message, "") : (code.rawValue, "", message)
        }
        guard let command = command as? any ContextCommand else {
            XCTFail("`miga \(arguments.joined(separator: " "))` is not a ContextCommand: run it through the binary")
            return (70, "", "")
        }
        return (CommandSupport.status(of: command.run(_:), in: context), "", "")
    }
}

/// The real time in UTC, as the binary keeps it with TZ=UTC.
struct UTCClock: MigaClock {
    let system = SystemClock()
    func now() -> Date { system.now() }
    func monotonicNanoseconds() -> UInt64 { system.monotonicNanoseconds() }
    func utcOffsetMinutes(at date: Date) -> Int { 0 }
    func sinceBoot() -> BootTime? { system.sinceBoot() }
}

/// The last part of a path (the test's own, not miga's), as MigaCLITests names it.
enum FilePathName {
    /// This month's journal file name (UTC).
    static func month() -> String {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        return "events-" + EventTimestamp.format(unixMilliseconds: now, offsetMinutes: 0).prefix(7) + ".jsonl"
    }
}
