import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// The `shell/` init snippets and the PATH shim template, in the real shells: the shim folder
/// ends up first on PATH exactly once, and a gated command reaches the real program with its
/// arguments intact, through the gate, without recursion.
final class ShellIntegrationTests: XCTestCase {
    var home: MigaHome!
    var shims: String { home.home + "/.local/share/miga/bin" }
    let arguments = ["--flag", "a b", "", "ünï \"q\" $HOME"]

    /// What a person's environment looks like here: the real program on PATH, no system
    /// desktop entries (so nothing outside the temp tree is read).
    var baseEnvironment: [String: String] {
        ["PATH": "/usr/bin:/bin:\(home.root)/real", "XDG_DATA_DIRS": home.root + "/sys", "XDG_CONFIG_DIRS": home.root + "/etc"]
    }

    override func setUpWithError() throws {
        home = try MigaHome()
        try home.writeFile("real/chatapp", mode: 0o755, "#!/bin/sh\nexec \(shellQuote(home.recorder)) \"$@\"\n")
        // The shim under test is the one `miga config apps add` makes.
        let added = try home.miga(["config", "apps", "add", "chatapp"], environment: home.environment(baseEnvironment))
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: shims + "/chatapp"))
    }

    func shell(_ executable: String, _ flags: [String], script: String, environment extra: [String: String] = [:]) throws -> MigaHome.Output {
        return try home.run(executable, flags + [script], environment: home.environment(baseEnvironment.merging(extra) { $1 }))
    }

    // (Not `chat`: ppp installs /usr/sbin/chat, which a login shell's PATH finds first.)
    /// Runs the gated command the way a person types it, then reports PATH and where `chatapp` is.
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
        XCTAssertEqual(events.first?.app, "chatapp", file: file, line: line)
    }

    var quotedCall: String { "chatapp " + arguments.map(shellQuote).joined(separator: " ") }

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
        let call = "chatapp " + arguments.map { "'" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'" }.joined(separator: " ")
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
            // In the throwaway folder: fish creates its folder under a relative XDG_DATA_HOME
            // as it starts, and that must not land in the checkout.
            let relative = try home.runInRoot(executable, flags + ["\(source) \(shellQuote(MigaHome.repository + "/shell/" + file)); echo \"PATH=$PATH\""],
                                        environment: home.environment(["PATH": "/usr/bin:/bin", "XDG_DATA_HOME": "relative/dir"]))
            XCTAssertEqual(relative.stdout.trimmingCharacters(in: .newlines), "PATH=\(shims):/usr/bin:/bin", "\(executable): a relative XDG_DATA_HOME is ignored")
        }
    }

    /// After `miga install`, new shells of each kind read miga's line (or conf.d file) and find
    /// the shim first; after `miga uninstall` none of them has it on PATH.
    func testInstallReachesNewShellsAndUninstallTakesItBack() throws {
        try home.writeFile("home/.zshrc", "# zsh settings\n")
        // Login shells start from /etc/profile's PATH; a person's .profile adds their own folders.
        try home.writeFile("home/.profile", "PATH=\"$PATH:\(home.root)/real\"\n")
        let install = try home.miga(["install"], environment: home.environment(baseEnvironment))
        XCTAssertEqual(install.status, 0, install.stderr)
        let shells: [(String, [String])] = [("/bin/bash", ["-i", "-c"]), ("/usr/bin/zsh", ["-i", "-c"]),
                                            ("/usr/bin/fish", ["-c"]), ("/usr/bin/dash", ["-l", "-c"])]
        for (executable, flags) in shells {
            unlink(home.root + "/recorded.argv")
            let output = try shell(executable, flags, script: "echo \"PATH=$PATH\"; chatapp --flag 'a b'")
            XCTAssertEqual(output.status, 0, "\(executable): \(output.stderr)")
            let path = output.stdout.split(separator: "\n").first { $0.hasPrefix("PATH=") }.map { String($0.dropFirst(5)) } ?? ""
            XCTAssertEqual(path.split(separator: ":").first.map(String.init), shims, "\(executable): \(path)")
            XCTAssertEqual(home.recordedArguments(), ["--flag", "a b"], executable)
        }
        XCTAssertEqual(try home.events().filter { $0.app == "chatapp" }.count, shells.count, "each call went through the gate")

        let uninstall = try home.miga(["uninstall"], environment: home.environment(baseEnvironment))
        XCTAssertEqual(uninstall.status, 0, uninstall.stderr)
        for (executable, flags) in shells {
            let output = try shell(executable, flags, script: "echo \"PATH=$PATH\"")
            XCTAssertFalse(output.stdout.contains(shims), "\(executable): \(output.stdout)")
        }
    }
}
