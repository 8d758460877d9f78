import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// `miga content` and the person's own packs, on the built binary.
/// The cases that need no process of their own run in-process in MigaCommandTests' ContentCommandTests.
final class ContentCLITests: XCTestCase {
    var home: MigaHome!

    override func setUpWithError() throws {
        home = try MigaHome()
    }

    /// The build step that compiles quotes/ into miga (EmbedContent): a broken pack stops the
    /// build with its file and line, and any text comes out as a Swift literal that the
    /// compiler reads back unchanged, whatever quotes, backslashes or `\(` it holds.
    func testTheBuildStepRefusesABrokenPackAndWritesAnyTextBackUnchanged() throws {
        let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("EmbedContent").path
        guard FileManager.default.isExecutableFile(atPath: tool) else { throw XCTSkip("EmbedContent not built at \(tool)") }
        let shell = try home.writeFile("build/shell/snippet.sh", "echo \"$1\" \\\n\tdone\n")
        let broken = try home.writeFile("build/broken/a.toml", "[[items]]\nid = \"ok\"\nkind = \"quote\"\ncategory = \"c\"\ntext = \"t\"\n\n"
            + "[[items]]\nid = \"bad\"\nkind = \"meme\"\ncategory = \"c\"\ntext = \"t\"\n")
        let failed = try home.run(tool, [home.root + "/build/out.swift", FilePath.parent(of: broken), FilePath.parent(of: shell)])
        XCTAssertEqual(failed.status, 1)
        XCTAssertEqual(failed.stderr, home.root + "/build/broken/a.toml:7: error: bad: unknown kind \"meme\" (use quote, affirmation or article)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.root + "/build/out.swift"), "nothing written for a broken pack")
        let binary = home.root + "/build/binary/b.toml"
        try FileManager.default.createDirectory(atPath: FilePath.parent(of: binary), withIntermediateDirectories: true)
        try Data([0xFF, 0xFE, 0x5B]).write(to: URL(fileURLWithPath: binary))
        let unreadable = try home.run(tool, [home.root + "/build/out.swift", FilePath.parent(of: binary), FilePath.parent(of: shell)])
        XCTAssertEqual([String(unreadable.status), unreadable.stderr], ["1", binary + ":1: error: cannot be read as UTF-8 text\n"])

        let texts = ["He said \"hi\" \\ and \\(x) and \"# and \"\"\"#", "\u{1F469}\u{200D}\u{1F467} e\u{301} \u{2028} tab\there", "line one\nline two \\"]
        var pack = ""
        for (index, text) in texts.enumerated() {
            let escaped = text.unicodeScalars.map { $0 == "\"" || $0 == "\\" ? "\\" + String($0) : $0 == "\n" ? "\\n" : $0 == "\t" ? "\\t" : String($0) }.joined()
            pack += "[[items]]\nid = \"t\(index)\"\nkind = \"article\"\ntitle = '\\\"#'\ncategory = \"c\"\ntext = \"\(escaped)\"\n\n"
        }
        _ = try home.writeFile("build/quotes/tricky.toml", pack)
        let built = try home.run(tool, [home.root + "/build/Bundled.swift", home.root + "/build/quotes", FilePath.parent(of: shell)])
        XCTAssertEqual(built.status, 0, built.stderr)
        // Compile the generated file against stand-ins for MigaContent's two types and print
        // every text's scalars back.
        let generated = try String(contentsOfFile: home.root + "/build/Bundled.swift", encoding: .utf8)
            .replacingOccurrences(of: "import MigaContent\n", with: "")
        _ = try home.writeFile("build/main.swift", """
            enum ContentKind { case quote, affirmation, article }
            struct ContentItem { var id: String; var kind: ContentKind; var category: String; var text: String; var author: String?; var title: String? }
            \(generated)
            for item in bundledPacks[0].items { print(([item.text, item.title ?? ""] as [String]).map { $0.unicodeScalars.map { String($0.value) }.joined(separator: ",") }.joined(separator: "|")) }
            for file in bundledShellSources { print(file.name, file.text.unicodeScalars.map { String($0.value) }.joined(separator: ",")) }
            """)
        let compiled = try home.run("/usr/bin/env", ["swiftc", "-Onone", "-o", home.root + "/build/readback", home.root + "/build/main.swift"],
                                    environment: home.environment(["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]))
        XCTAssertEqual(compiled.status, 0, compiled.stderr)
        let readBack = try home.run(home.root + "/build/readback", [])
        func scalars(_ text: String) -> String { text.unicodeScalars.map { String($0.value) }.joined(separator: ",") }
        XCTAssertEqual(readBack.stdout, texts.map { scalars($0) + "|" + scalars("\\\"#") + "\n" }.joined()
            + "snippet.sh " + scalars("echo \"$1\" \\\n\tdone\n") + "\n")
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

    /// An article longer than the terminal: the start, a hint, and the rest reached with the
    /// arrow keys and PgDn, while the choices stay on screen; Read Next starts the next item
    /// from its top.
    func testALongArticleScrollsInARealTerminal() throws {
        // Short steps first, long ones later: what is on screen changes width as it scrolls.
        let paragraphs = (1...30).map { $0 <= 12 ? "Step \($0): breathe out slowly." :
            "Step \($0): breathe out slowly and notice where your feet meet the floor, the chair, the air on your skin." }
        try home.writeFile("home/.local/share/miga/quotes/long.toml", """
            [[items]]
            id = "mine-long"
            kind = "article"
            category = "own"
            title = "A long, slow walk"
            text = \"\"\"
            \(paragraphs.joined(separator: "\n\n"))
            \"\"\"
            """)
        try home.writeConfig("timer_seconds = 15\ncategories = [\"articles\"]\n")
        // Every bundled article counts as shown this round, so the rotation's next is ours.
        let articles = try home.miga(["content", "list", "--kind", "article"]).stdout
            .split(separator: "\n").map { String($0.split(separator: "\t")[0]) }.filter { $0 != "mine-long" }
        XCTAssertGreaterThan(articles.count, 10)
        // A first gate creates the database; what it ends with does not matter here.
        _ = try home.miga(["gate", "--plain", "--app", "warmup", "--", "/bin/true"], environment: home.environment(["TERM": "dumb"]))
        _ = try home.sqlite("DELETE FROM rotation_shown; DELETE FROM rotation_state; " +
                            articles.map { "INSERT INTO rotation_shown VALUES ('\($0)');" }.joined())

        let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) gate --app chat -- /bin/true",
                                        environment: home.environment(), columns: 90, rows: 24)
        var screen = terminal.waitFor("A long, slow walk")
        XCTAssertTrue(screen.contains("Step 1: breathe out"), screen)
        XCTAssertFalse(screen.contains("Step 30:"), screen)
        XCTAssertTrue(screen.contains("↓ lines 1–"), screen)
        XCTAssertTrue(screen.contains("[e] Exit"), screen)

        // Where the choices start on their row: scrolling must not move anything sideways.
        func choicesColumn(_ screen: String) -> Int? {
            screen.split(separator: "\n").first { $0.contains("[e] Exit") }.map { $0.distance(from: $0.startIndex, to: $0.range(of: "[e] Exit")!.lowerBound) }
        }
        let column = choicesColumn(screen)
        XCTAssertNotNil(column)
        try terminal.press("Down")
        screen = terminal.waitFor("↑↓ lines 2–")
        XCTAssertEqual(choicesColumn(screen), column, "one line down moved the text sideways:\n\(screen)")
        for _ in 1...6 { try terminal.press("NPage") }
        screen = terminal.waitFor("Step 30: breathe out")
        XCTAssertEqual(choicesColumn(screen), column, "the end of the article moved the text sideways:\n\(screen)")
        XCTAssertTrue(screen.contains("↑ lines"), screen)
        XCTAssertFalse(screen.contains("Step 1: breathe out"), screen)
        XCTAssertTrue(screen.contains("[e] Exit") && screen.contains("[o] Open"), "the choices stay on screen:\n\(screen)")
        try terminal.press("Home")
        terminal.waitFor("Step 1: breathe out")
        try terminal.press("j")
        try terminal.press("j")
        terminal.waitFor("↑↓ lines 3–")

        // The next item starts at its top (a hint, if any, only points down).
        try terminal.press("n")
        eventually { !terminal.screen().contains("A long, slow walk") }
        screen = terminal.screen()
        XCTAssertFalse(screen.contains("↑ lines") || screen.contains("↑↓ lines"), screen)
        try terminal.press("e")
        terminal.waitFor("STATUS=0")
        terminal.assertTerminalRestored()
    }

}
