import ArgumentParser
import Foundation
import MigaCore
import MigaTestSupport
@testable import miga
import XCTest

/// A throwaway HOME (see `TestHome`), as MigaCLITests' `MigaHome` has for the built binary, in which
/// `miga(_:)` runs a command in this process: parsed by ArgumentParser as the binary parses
/// it, run on a test context (this home, output and messages kept), with the binary's exit
/// status and the text its standard output and error would have shown. No process starts, so
/// a case runs in milliseconds; terminals, signals, exec and shells stay with the binary.
final class CommandHome: TestHome, MigaRunning {
    /// The path the binary would have (shims and manifests name it); nothing runs it here.
    let binary = CommandHome.builtBinary
    /// The real clock by default, as the binary has; a test may give a `FakeClock`.
    var clock: any MigaClock = SystemClock()

    init() throws {
        try super.init(prefix: "miga-command-")
        // An app to gate: a program that does nothing (commands check that an app's command runs).
        try writeFile("bin/recorder", mode: 0o755, "#!/bin/sh\nexit 0\n")
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
