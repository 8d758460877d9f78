import ArgumentParser
import Foundation
import MigaCore
import MigaTestSupport
@testable import miga
import XCTest

/// Every command runs on a context (ARCHITECTURE "a new command"), so it can be tested
/// in-process; only the launchers' verbs, which hand the process to a gate, a browser or its
/// host, stay with the binary.
final class CommandShapeTests: XCTestCase {
    static var launchers: [ParsableCommand.Type] { [Gate.self, OpenURL.self, NativeHostCommand.self] }

    func leaves(_ command: ParsableCommand.Type) -> [ParsableCommand.Type] {
        let subcommands = command.configuration.subcommands
        return subcommands.isEmpty ? [command] : subcommands.flatMap(leaves)
    }

    func testEveryCommandButTheLaunchersRunsOnAContext() {
        let commands = leaves(Miga.self)
        XCTAssertGreaterThan(commands.count, 20)
        for command in commands where !Self.launchers.contains(where: { ObjectIdentifier($0) == ObjectIdentifier(command) }) {
            XCTAssertTrue(command is any ContextCommand.Type, "\(command) writes through print: make it a ContextCommand")
        }
    }

    /// What a command writes goes to the context's output, what it says to its messages, and
    /// an error is one `miga: …` line with status 1: nothing reaches this process's own
    /// standard output or error.
    func testOutputMessagesAndErrorsGoThroughTheContext() throws {
        let root = try TemporaryDirectory()
        let output = CapturedOutput(), messages = CollectingSink()
        let context = try TestContext.make(root: root, messages: messages, output: output)
        XCTAssertEqual(CommandHome.run(["config", "get", "timer_seconds"], on: context).code, 0)
        XCTAssertEqual(output.text, "30\n")
        XCTAssertEqual(CommandHome.run(["config", "get", "timer"], on: context).code, 1)
        XCTAssertEqual(messages.lines, ["miga: unknown key \"timer\"; did you mean \"timer_seconds\"?"])
        XCTAssertEqual(output.text, "30\n", "nothing more written")
    }

    /// A reader that left (`miga events export | head -1`) ends the command quietly with 0;
    /// any other failure to write is said, with status 1.
    func testAClosedOutputEndsQuietlyAndOtherWriteErrorsAreSaid() throws {
        struct FailingOutput: TextOutput {
            let error: LinuxError
            func write(_ text: String) throws { throw error }
            func write(_ bytes: Data) throws { throw error }
            var isTerminal: Bool { false }
            var columns: Int? { nil }
        }
        let root = try TemporaryDirectory()
        let closed = LinuxError(operation: "write to standard output", code: 32) // EPIPE
        let full = LinuxError(operation: "write to standard output", code: 28) // ENOSPC
        for (error, status, said) in [(closed, Int32(0), [String]()), (full, 1, ["miga: write to standard output: No space left on device"])] {
            let messages = CollectingSink()
            let context = try TestContext.make(root: root, messages: messages, output: FailingOutput(error: error))
            XCTAssertEqual(CommandHome.run(["content", "list"], on: context).code, status, "\(error)")
            XCTAssertEqual(messages.lines, said)
        }
    }
}
