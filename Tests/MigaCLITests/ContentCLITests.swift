import Foundation
import XCTest
import MigaCore

/// `miga content` and the person's own packs, on the built binary.
final class ContentCLITests: XCTestCase {
    var home: MigaHome!

    override func setUpWithError() throws {
        home = try MigaHome()
    }

    func testEveryBundledPackValidates() throws {
        let packs = try FileManager.default.contentsOfDirectory(atPath: MigaHome.repository + "/quotes")
            .filter { $0.hasSuffix(".toml") }.sorted().map { MigaHome.repository + "/quotes/" + $0 }
        XCTAssertFalse(packs.isEmpty)
        let output = try home.miga(["content", "validate"] + packs)
        XCTAssertEqual(output.status, 0, output.stderr)
        XCTAssertEqual(output.stdout.split(separator: "\n").count, packs.count)
    }

    func testValidateNamesTheFileLineAndProblem() throws {
        let cases: [(String, String)] = [
            ("[[items]]\nid = \"a\"\nkind = \"quote\"\ncategory = \"c\"\ntext = \"x\"\n\n[[items]]\nid = \"a\"\nkind = \"quote\"\ncategory = \"c\"\ntext = \"y\"\n",
             ":7: duplicate id \"a\""),
            ("[[items]]\nid = \"b\"\nkind = \"poem\"\ncategory = \"c\"\ntext = \"x\"\n", ":1: b: unknown kind \"poem\""),
            ("[[items]]\nid = \"c\"\nkind = \"quote\"\ncategory = \"c\"\n", ":1: c: missing text"),
            ("[[items]]\nid = \"d\"\nkind = \"quote\"\ncategory = \"c\"\ntext = \"\(String(repeating: "long ", count: 70))\"\n",
             ":1: d: a quote of 349 characters is too long"),
            ("[[items]]\nid = \"stoic-speck\"\nkind = \"quote\"\ncategory = \"c\"\ntext = \"x\"\n", ": id \"stoic-speck\" is already used by another pack"),
        ]
        for (index, (text, problem)) in cases.enumerated() {
            let path = try home.writeFile("pack\(index).toml", text)
            let output = try home.miga(["content", "validate", path])
            XCTAssertEqual(output.status, 1, problem)
            XCTAssertTrue(output.stderr.hasPrefix("miga: \(path)\(problem)"), "\(output.stderr) vs \(problem)")
        }
    }

    func testOwnPacksJoinTheLibraryAndABrokenOneIsSkipped() throws {
        try home.writeFile("home/.local/share/miga/quotes/mine.toml",
                           "[[items]]\nid = \"mine-walk\"\nkind = \"affirmation\"\ncategory = \"own\"\ntext = \"A short walk first.\"\n")
        try home.writeFile("home/.local/share/miga/quotes/broken.toml", "[[items]\nid = \n")
        let list = try home.miga(["content", "list", "--category", "own"])
        XCTAssertEqual(list.status, 0)
        XCTAssertEqual(list.stdout, "mine-walk\taffirmation\town\tA short walk first.\n")
        XCTAssertEqual(list.stderr.split(separator: "\n").count, 1)
        XCTAssertTrue(list.stderr.contains("broken.toml:1:") && list.stderr.contains("skipping this pack"), list.stderr)
        XCTAssertEqual(try home.miga(["content", "show", "mine-walk"]).stdout, "A short walk first.\n\n(mine-walk, affirmation, own)\n")
        XCTAssertEqual(try home.miga(["content", "show", "nope"]).status, 1)

        // The gate still works with the rest, and says which pack it skipped.
        try home.writeConfig("timer_seconds = 15\n")
        let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) gate --app chat -- /bin/true",
                                        environment: home.environment())
        terminal.waitFor("[e] Exit")
        try terminal.press("e")
        let after = terminal.waitFor("STATUS=0")
        XCTAssertTrue(after.contains("broken.toml:1:"), after)
    }
}
