import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// Output that cannot be written (a full disk, a closed pipe, standard input that is a folder)
/// is a clear error, never a crash; and a gate whose messages cannot be written still opens
/// the app. Foundation's FileHandle traps on such errors, so these would crash without care.
final class BrokenOutputTests: XCTestCase {
    var home: MigaHome!

    override func setUpWithError() throws {
        home = try MigaHome()
    }

    /// Runs `miga ARGUMENTS` through sh, so the test can redirect its descriptors.
    func miga(_ arguments: String, redirect: String) throws -> MigaHome.Output {
        try home.run("/bin/sh", ["-c", "exec \(shellQuote(home.binary)) \(arguments) \(redirect)"])
    }

    func testAFullDiskIsAnErrorNamingIt() throws {
        _ = try home.miga(["gate", "--app", "chat", "--", "/bin/true"]) // one event to export
        for command in ["events export", "stats", "content list", "--help"] {
            let output = try miga(command, redirect: ">/dev/full")
            XCTAssertEqual(output.status, 1, command)
            XCTAssertEqual(output.stderr, "miga: write to standard output: No space left on device\n", command)
        }
    }

    func testStandardInputThatIsAFolderIsAnError() throws {
        let output = try miga("events import -", redirect: "</")
        XCTAssertEqual(output.status, 1)
        XCTAssertEqual(output.stderr, "miga: read standard input: Is a directory\n")
        XCTAssertEqual(try home.events().count, 0, "nothing imported")
    }

    /// `miga events export | head -1`: the reader had what it wanted, so miga ends quietly with
    /// 0 (DESIGN), whether the shell leaves SIGPIPE at its default or ignores it.
    func testAnExportIntoAPipeWhoseReaderLeftEndsQuietly() throws {
        // Far more than a pipe holds, so a write after the reader left must fail.
        let lines = (0..<3000).map { index in
            #"{"ts":"2026-11-21T09:30:00.000+01:00","type":"exit_selected","app":"chat","session":"s\#(index)","content_id":null,"wait_ms":31000,"detail":null}"#
        }
        let file = try home.writeFile("events.jsonl", lines.joined(separator: "\n"))
        XCTAssertEqual(try home.miga(["events", "import", file]).status, 0)
        for setup in ["", "trap '' PIPE; "] {
            let output = try home.run("/bin/bash", ["-c", "set -o pipefail; \(setup)\(shellQuote(home.binary)) events export | head -c 1 >/dev/null"])
            XCTAssertEqual(output.status, 0, "\(setup): the pipeline's status is miga's")
            XCTAssertEqual(output.stderr, "", setup)
        }
    }

    /// A gate whose standard error is a pipe nobody reads (a launcher's log reader quit): its
    /// one message cannot be written, and SIGPIPE must not kill it before the app opens.
    func testAGateWhoseStderrReaderLeftStillOpensTheApp() throws {
        try home.run(home.recorder, ["without miga"])
        let withoutMiga = try XCTUnwrap(home.recordedIgnoredSignals())
        let output = try home.start(home.binary, ["gate", "--app", "chat", "--", home.recorder, "still opens"], stderrReaderGone: true).wait()
        XCTAssertEqual(output.status, 0)
        XCTAssertEqual(home.recordedArguments(), ["still opens"])
        XCTAssertEqual(home.recordedIgnoredSignals(), withoutMiga, "miga's own SIGPIPE ignore does not reach the app")
    }

    /// The gate fails open (no terminal, no display) and says so on standard error; with that
    /// unwritable the app must open all the same.
    func testAGateWhoseMessagesCannotBeWrittenStillOpensTheApp() throws {
        let output = try miga("gate --app chat -- \(shellQuote(home.recorder)) still opens", redirect: "2>/dev/full")
        XCTAssertEqual(output.status, 0)
        XCTAssertEqual(home.recordedArguments(), ["still", "opens"])
    }
}
