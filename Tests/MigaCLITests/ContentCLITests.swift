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

    /// The library read as the person who just reached for their phone reads it: nothing that
    /// jars in a moment of impulse (mortality as a nudge, "people your age", calling the
    /// person's mind a liar), and still at least 150 items.
    func testTheBundledLibraryIsCalmKindAndLargeEnough() throws {
        let ids = try home.miga(["content", "list"]).stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        XCTAssertGreaterThanOrEqual(ids.count, 150)
        let jarring = ["going to die", "you will die", "none of this truly matters", "your age", "speck", "lying to you", "conquer",
                       "immensity", "how anxious", "a loss?", "plant fear"]
        for id in ids {
            // (Ids stay as they were, whatever their words: rotation state keys on them.)
            let shown = try home.miga(["content", "show", id]).stdout.replacingOccurrences(of: id, with: "").lowercased()
            for phrase in jarring { XCTAssertFalse(shown.contains(phrase), "\(id): \"\(phrase)\"") }
        }
        XCTAssertTrue(try home.miga(["content", "show", "stoic-all-going-to-die"]).stdout.contains("will not matter in a year"),
                      "a rewritten item keeps its id (rotation state keys on it)")
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

    func testValidateNamesTheFileLineAndProblem() throws {
        let cases: [(String, String)] = [
            ("[[items]]\nid = \"a\"\nkind = \"quote\"\ncategory = \"c\"\ntext = \"x\"\n\n[[items]]\nid = \"a\"\nkind = \"quote\"\ncategory = \"c\"\ntext = \"y\"\n",
             ":7: duplicate id \"a\""),
            ("[[items]]\nid = \"b\"\nkind = \"poem\"\ncategory = \"c\"\ntext = \"x\"\n", ":1: b: unknown kind \"poem\""),
            ("[[items]]\nid = \"c\"\nkind = \"quote\"\ncategory = \"c\"\n", ":1: c: missing text"),
            ("[[items]]\nid = \"d\"\nkind = \"quote\"\ncategory = \"c\"\ntext = \"\(String(repeating: "long ", count: 70))\"\n",
             ":1: d: a quote of 349 characters is too long"),
            ("[[items]]\nid = \"stoic-speck\"\nkind = \"quote\"\ncategory = \"c\"\ntext = \"x\"\n", ": id \"stoic-speck\" is already used by a bundled pack"),
        ]
        for (index, (text, problem)) in cases.enumerated() {
            let path = try home.writeFile("pack\(index).toml", text)
            let output = try home.miga(["content", "validate", path])
            XCTAssertEqual(output.status, 1, problem)
            XCTAssertTrue(output.stderr.hasPrefix("miga: \(path)\(problem)"), "\(output.stderr) vs \(problem)")
        }
        // Every problem in one run, each with its line, and unknown keys as warnings.
        let many = try home.writeFile("many.toml", """
            [[items]]
            id = "a"
            kind = "quote"
            category = "c"
            text = "One"
            colour = "blue"

            [[items]]
            id = "a"
            kind = "quote"
            category = "c"
            text = "Two"

            [[items]]
            id = "b"
            kind = "poem"
            category = "c"

            """)
        let all = try home.miga(["content", "validate", many])
        XCTAssertEqual(all.status, 1)
        XCTAssertEqual(all.stderr, """
            miga: warning: \(many):1: a: unknown key "colour" is ignored (keys: author, category, id, image, kind, text, title)
            miga: \(many):8: duplicate id "a" (first used at line 1)
            miga: \(many):14: b: unknown kind "poem" (use quote, affirmation or article)
            miga: \(many):14: b: missing text

            """)
        let warned = try home.writeFile("warned.toml", "[[items]]\nid = \"w\"\nkind = \"quote\"\ncategory = \"c\"\ntext = \"x\"\nsource = \"me\"\n")
        let ok = try home.miga(["content", "validate", warned])
        XCTAssertEqual(ok.status, 0, "an unknown key is a warning, not a failure")
        XCTAssertEqual(ok.stdout, "\(warned): ok, 1 item (1 warning)\n")

        let folder = home.root + "/folder.toml"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let output = try home.miga(["content", "validate", folder])
        XCTAssertEqual(output.status, 1)
        XCTAssertEqual(output.stderr, "miga: \(folder): is a folder; give the .toml files inside it\n")
    }

    /// A pack whose item carries escape sequences (a clipboard write, a screen clear) is
    /// refused by name, skipped by the library, and never reaches the terminal.
    func testEscapeSequencesInAPackAreRefusedByItemAndNeverPrinted() throws {
        let pack = try home.writeFile("home/.local/share/miga/quotes/sly.toml", """
            [[items]]
            id = "fine"
            kind = "quote"
            category = "own"
            text = "Fine."

            [[items]]
            id = "sly"
            kind = "quote"
            category = "own"
            text = "Copy this \\u001b]52;c;aGVsbG8=\\u0007 now \\u001b[2J"

            """)
        let validate = try home.miga(["content", "validate", pack])
        XCTAssertEqual(validate.status, 1)
        XCTAssertEqual(validate.stderr, "miga: \(pack):7: sly: its text holds the control character U+001B (an escape sequence?); remove it\n")
        let list = try home.miga(["content", "list"])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stderr.contains("sly.toml:7:") && list.stderr.contains("skipping this pack"), list.stderr)
        XCTAssertFalse((list.stdout + list.stderr).unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" })
        XCTAssertFalse(list.stdout.contains("sly"))
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

    /// The person's own content is read within bounds whatever the folder holds: packs in
    /// name order up to 8 MiB in all, items up to 64 KiB each. What is left out is named in
    /// one warning, and `content validate` says why an item is too large.
    func testOwnContentIsBoundedAndWhatIsSkippedIsNamedOnce() throws {
        let folder = "home/.local/share/miga/quotes/"
        let body = String(repeating: "Breathe out slowly. ", count: 2_500) // 50 000 bytes, under the item bound
        func pack(_ name: String) -> String {
            (1...60).map { "[[items]]\nid = \"\(name)-\($0)\"\nkind = \"article\"\ncategory = \"own\"\ntitle = \"T\"\ntext = \"\(body)\"\n" }.joined()
        }
        for name in ["p1", "p2", "p3", "p4", "p5"] { try home.writeFile(folder + name + ".toml", pack(name)) } // 2.9 MiB each
        let big = try home.writeFile(folder + "a-big.toml", "[[items]]\nid = \"big\"\nkind = \"article\"\ncategory = \"own\"\ntitle = \"Big\"\n"
                                     + "text = \"\(String(repeating: "x", count: 70_000))\"\n")

        let list = try home.miga(["content", "list", "--category", "own"])
        XCTAssertEqual(list.status, 0, list.stderr)
        let ids = Set(list.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) })
        XCTAssertEqual(ids, Set(["p1", "p2"].flatMap { name in (1...60).map { "\(name)-\($0)" } }), "a-big's item is too large; p3 would pass 8 MiB")
        XCTAssertEqual(list.stderr.split(separator: "\n").count, 1, list.stderr)
        XCTAssertTrue(list.stderr.contains("skipped 3 packs past 8 MiB of packs in all and 1 item over 64 KiB each (p3.toml, p4.toml, p5.toml, big)"),
                      list.stderr)

        let validate = try home.miga(["content", "validate", big])
        XCTAssertEqual(validate.status, 1)
        XCTAssertTrue(validate.stderr.contains("big: larger than the 64 KiB a gate shows of an item"), validate.stderr)
    }

    /// A key as long as a pack allows is named in a line's worth, not echoed whole.
    func testAHugeKeyInAPackIsQuotedInALinesWorth() throws {
        let key = String(repeating: "k", count: 1_000_000)
        let pack = try home.writeFile("home/.local/share/miga/quotes/mine.toml",
                                      "[[items]]\nid = \"mine-1\"\nkind = \"quote\"\ncategory = \"own\"\ntext = \"Breathe.\"\n\(key) = 1\n")
        let validate = try home.miga(["content", "validate", pack])
        XCTAssertEqual(validate.status, 0, String(validate.stderr.prefix(300)))
        XCTAssertEqual(validate.stderr.split(separator: "\n").count, 1)
        XCTAssertLessThanOrEqual(validate.stderr.utf8.count, 300, String(validate.stderr.prefix(400)))
        XCTAssertTrue(validate.stderr.contains("unknown key \"kkk") && validate.stderr.contains("…\" is ignored"), String(validate.stderr.prefix(400)))
    }
}
