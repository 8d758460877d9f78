import Foundation
import MigaCore
import MigaTestSupport
import XCTest

/// `make demo`'s gate, as its recipe runs it (the built binary standing in for the release
/// one): a real gate a person meets and leaves, that never shows in their own figures.
final class MakeDemoTests: XCTestCase {
    var home: MigaHome!

    override func setUpWithError() throws {
        home = try MigaHome()
    }

    /// The recipe line of the Makefile's `demo` target, with `$(CURDIR)` the checkout given.
    func demoRecipe(checkout: String) throws -> String {
        let makefile = try String(contentsOfFile: Fixtures.repository + "/Makefile", encoding: .utf8)
        let lines = makefile.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let target = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("demo:") }, "a demo target")
        let recipe = try XCTUnwrap(lines.dropFirst(target + 1).first { $0.hasPrefix("\t") }, "its recipe")
        XCTAssertTrue(recipe.contains(".build/release/miga gate --app demo"), recipe)
        return String(recipe.dropFirst()).replacingOccurrences(of: "$(CURDIR)", with: checkout)
            .replacingOccurrences(of: ".build/release/miga", with: shellQuote(home.binary))
    }

    /// The demo is met and left (Exit) like any gate, and the person's stats and status stay
    /// as they were: nothing of it in their history, even with their XDG folders set.
    func testTheDemoIsNeverInThePersonsFigures() throws {
        let checkout = home.root + "/checkout"
        try FileManager.default.createDirectory(atPath: checkout, withIntermediateDirectories: true)
        let environment = home.environment(["XDG_DATA_HOME": home.home + "/.local/share", "XDG_STATE_HOME": home.home + "/.local/state",
                                            "XDG_CONFIG_HOME": home.home + "/.config", "TZ": "UTC"])
        let terminal = try TmuxTerminal(home: home, command: "cd \(shellQuote(checkout)) && " + (try demoRecipe(checkout: checkout)),
                                        environment: environment, columns: 80, rows: 24)
        terminal.waitFor("miga · demo")
        terminal.waitFor("Exit")
        try terminal.press("e")
        terminal.waitFor("STATUS=0")

        XCTAssertEqual(try home.events(), [], "nothing recorded in the person's history")
        let stats = try home.miga(["stats", "--json"], environment: environment)
        XCTAssertEqual(stats.status, 0, stats.stderr)
        XCTAssertFalse(stats.stdout.contains("\"demo\""), stats.stdout)
        let status = try home.miga(["status"], environment: environment)
        XCTAssertFalse(status.stdout.contains("1 exit"), status.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.home + "/.local/state/miga/installed.json"))
    }
}

/// A new user's first `make demo` and `make install`, where they go wrong: no Swift on PATH,
/// and a prefix whose bin folder is not on PATH yet.
final class NewUserMakeTests: XCTestCase {
    func testMakeDemoWithoutSwiftSaysWhereSwiftComesFromBeforeAnythingBuilds() throws {
        let home = try MigaHome()
        let make = try home.run("/usr/bin/make", ["-C", Fixtures.repository, "demo"], environment: home.environment(["PATH": "/usr/bin:/bin"]))
        XCTAssertNotEqual(make.status, 0)
        let said = make.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(said.first, "miga is built with Swift 6.0 or newer, and there is no 'swift' on PATH: install it from "
                       + "https://www.swift.org/install/linux/ (swiftly, or the toolchain for Debian), put its usr/bin on PATH, then run make again")
        XCTAssertFalse(make.stderr.contains("command not found"), make.stderr)
        XCTAssertFalse(make.stdout.contains("swift-build") || make.stdout.contains("Compiling"), "nothing built: \(make.stdout)")

        // A Swift too old for the code is said the same way, with its version.
        try home.writeFile("old-swift/swift", mode: 0o755, "#!/bin/sh\necho 'Swift version 5.10.1 (swift-5.10.1-RELEASE)'\n")
        let old = try home.run("/bin/sh", [Fixtures.repository + "/scripts/deps.sh", "build"],
                               environment: home.environment(["PATH": home.root + "/old-swift:/usr/bin:/bin"]))
        XCTAssertEqual(old.status, 1)
        XCTAssertTrue(old.stderr.hasPrefix("miga is built with Swift 6.0 or newer, and 'swift' is Swift 5.10.1: install it from"), old.stderr)
    }

    func testMakeInstallSaysWhenItsBinFolderIsNotOnPathAndWhatToDoNow() throws {
        let home = try MigaHome()
        let note = Fixtures.repository + "/scripts/path-note.sh"
        let local = home.home + "/.local/bin"
        let missing = try home.run("/bin/sh", [note, local], environment: home.environment(["PATH": "/usr/bin:/bin"]))
        XCTAssertEqual(missing.stdout, "miga is installed in \(local), which is not on your PATH yet: run  export PATH=\"$HOME/.local/bin:$PATH\"  "
                       + "in this shell now; from your next login on, Debian's ~/.profile adds it by itself.\n")
        let elsewhere = try home.run("/bin/sh", [note, "/opt/miga/bin"], environment: home.environment(["PATH": "/usr/bin:/bin"]))
        XCTAssertTrue(elsewhere.stdout.contains("export PATH=\"/opt/miga/bin:$PATH\"") && elsewhere.stdout.contains("~/.profile"), elsewhere.stdout)
        let onPath = try home.run("/bin/sh", [note, local], environment: home.environment(["PATH": "/usr/bin:\(local):/bin"]))
        XCTAssertEqual(onPath.stdout, "", "nothing to say when it is on PATH")
        let makefile = try String(contentsOfFile: Fixtures.repository + "/Makefile", encoding: .utf8)
        XCTAssertTrue(makefile.contains("\t$(MAKE) install-files\n\t@[ -n \"$(DESTDIR)\" ] || scripts/path-note.sh \"$(PREFIX)/bin\"\n"),
                      "make install runs the note after copying")
    }
}
