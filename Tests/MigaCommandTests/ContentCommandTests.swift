import Foundation
import XCTest
import MigaCore

/// `miga content` and the person's own packs, in-process (moved from MigaCLITests'
/// ContentCLITests, which keeps the build step and the gate on a terminal).
final class ContentCommandTests: XCTestCase {
    var home: CommandHome!

    override func setUpWithError() throws {
        home = try CommandHome()
    }

    func testEveryBundledPackValidates() throws {
        let packs = try FileManager.default.contentsOfDirectory(atPath: CommandHome.repository + "/quotes")
            .filter { $0.hasSuffix(".toml") }.sorted().map { CommandHome.repository + "/quotes/" + $0 }
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
