import Foundation
import XCTest
import MigaCore

/// The `shell/` init snippets and the PATH shim template, in the real shells: the shim folder
/// ends up first on PATH exactly once, and a gated command reaches the real program with its
/// arguments intact, through the gate, without recursion.
final class ShellIntegrationTests: XCTestCase {
    var home: MigaHome!
    var shims: String { home.home + "/.local/share/miga/bin" }
    let arguments = ["--flag", "a b", "", "ünï \"q\" $HOME"]

    override func setUpWithError() throws {
        home = try MigaHome()
        let template = try String(contentsOfFile: MigaHome.repository + "/shell/shim.sh", encoding: .utf8)
        try home.writeFile("home/.local/share/miga/bin/chat", mode: 0o755, template
            .replacingOccurrences(of: "@MIGA@", with: home.binary)
            .replacingOccurrences(of: "@NAME@", with: "chat")
            .replacingOccurrences(of: "@COMMAND@", with: "chat"))
        try home.writeFile("real/chat", mode: 0o755, "#!/bin/sh\nexec \(shellQuote(home.recorder)) \"$@\"\n")
    }

    func shell(_ executable: String, _ flags: [String], script: String, environment extra: [String: String] = [:]) throws -> MigaHome.Output {
        let path = "/usr/bin:/bin:\(home.root)/real"
        return try home.run(executable, flags + [script], environment: home.environment(["PATH": path].merging(extra) { $1 }))
    }

    /// Runs the gated command the way a person types it, then reports PATH and where `chat` is.
    func check(_ executable: String, _ flags: [String], snippet: String, callLine: String,
               file: StaticString = #filePath, line: UInt = #line) throws {
        let call = callLine
        let output = try shell(executable, flags, script: """
            \(snippet)
            \(snippet)
            \(call)
            echo "PATH=$PATH"
            """)
        XCTAssertEqual(output.status, 0, output.stderr, file: file, line: line)
        let reported = output.stdout.split(separator: "\n").first { $0.hasPrefix("PATH=") }.map { String($0.dropFirst(5)) } ?? ""
        let entries = reported.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(entries.first, shims, "shim folder first: \(reported)", file: file, line: line)
        XCTAssertEqual(entries.filter { $0 == shims }.count, 1, "only once even when sourced twice: \(reported)", file: file, line: line)
        XCTAssertTrue(entries.contains("\(home.root)/real"), "the rest of PATH kept: \(reported)", file: file, line: line)
        XCTAssertEqual(home.recordedArguments(), arguments, "argv through the shim and the gate", file: file, line: line)
        let events = try home.events()
        XCTAssertEqual(events.count, 1, "one gate, no recursion", file: file, line: line)
        XCTAssertEqual(events.first?.app, "chat", file: file, line: line)
    }

    var quotedCall: String { "chat " + arguments.map(shellQuote).joined(separator: " ") }

    func testBash() throws {
        try check("/bin/bash", ["--norc", "--noprofile", "-c"], snippet: ". \(shellQuote(MigaHome.repository + "/shell/miga.sh"))", callLine: quotedCall)
    }

    func testDash() throws {
        try check("/usr/bin/dash", ["-c"], snippet: ". \(shellQuote(MigaHome.repository + "/shell/miga.sh"))", callLine: quotedCall)
    }

    func testZsh() throws {
        try check("/usr/bin/zsh", ["-f", "-c"], snippet: "source \(shellQuote(MigaHome.repository + "/shell/miga.zsh"))", callLine: quotedCall)
    }

    func testFish() throws {
        // fish quotes differently: single quotes with \' and \\ inside.
        let call = "chat " + arguments.map { "'" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'" }.joined(separator: " ")
        try check("/usr/bin/fish", ["--no-config", "-c"], snippet: "source \(shellQuote(MigaHome.repository + "/shell/miga.fish"))", callLine: call)
    }

    func testAFolderAlreadyOnPathMovesToTheFrontAndXDGDataHomeIsHonoured() throws {
        let data = home.root + "/data"
        for (executable, flags, file) in [("/bin/bash", ["--norc", "--noprofile", "-c"], "miga.sh"), ("/usr/bin/zsh", ["-f", "-c"], "miga.zsh"),
                                          ("/usr/bin/fish", ["--no-config", "-c"], "miga.fish"), ("/usr/bin/dash", ["-c"], "miga.sh")] {
            let source = executable.hasSuffix("fish") || executable.hasSuffix("zsh") ? "source" : "."
            let output = try home.run(executable, flags + ["\(source) \(shellQuote(MigaHome.repository + "/shell/" + file)); echo \"PATH=$PATH\""],
                                      environment: home.environment(["PATH": "/usr/bin:\(data)/miga/bin:/bin:\(data)/miga/bin", "XDG_DATA_HOME": data]))
            XCTAssertEqual(output.stdout.trimmingCharacters(in: .newlines), "PATH=\(data)/miga/bin:/usr/bin:/bin", "\(executable): \(output.stderr)")
            let relative = try home.run(executable, flags + ["\(source) \(shellQuote(MigaHome.repository + "/shell/" + file)); echo \"PATH=$PATH\""],
                                        environment: home.environment(["PATH": "/usr/bin:/bin", "XDG_DATA_HOME": "relative/dir"]))
            XCTAssertEqual(relative.stdout.trimmingCharacters(in: .newlines), "PATH=\(shims):/usr/bin:/bin", "\(executable): a relative XDG_DATA_HOME is ignored")
        }
    }
}
