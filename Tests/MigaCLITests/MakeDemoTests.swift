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
