import Foundation
import MigaTestSupport
import XCTest
@testable import MigaCore

final class ContentTests: XCTestCase {
    /// What is compiled into miga is exactly what the pack checker reads from quotes/ now: the
    /// build step (EmbedContent) neither drops nor changes an item, and no pack is missing.
    func testBundledItemsAreWhatTheCheckerReadsFromTheQuotesFolder() throws {
        let quotes = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("quotes").path
        let names = try FileManager.default.contentsOfDirectory(atPath: quotes).filter { $0.hasSuffix(".toml") }.sorted()
        XCTAssertEqual(bundledPacks.map(\.name), names)
        for pack in bundledPacks {
            let text = try String(contentsOfFile: quotes + "/" + pack.name, encoding: .utf8)
            XCTAssertEqual(pack.items, try ContentPack.parse(text, name: pack.name), pack.name)
        }
        XCTAssertEqual(try ContentLibrary.bundled().items, bundledPacks.flatMap(\.items))
    }

    func testBundledLibraryIsValidAndBroadEnough() throws {
        let library = try ContentLibrary.bundled()
        XCTAssertGreaterThanOrEqual(library.items.count, 150)
        for kind in ContentKind.allCases {
            XCTAssertFalse(library.items(kinds: [kind]).isEmpty, "no \(kind) items")
        }
        XCTAssertEqual(Set(library.items.map(\.id)).count, library.items.count, "ids are unique")
        for item in library.items {
            XCTAssertFalse(item.text.isEmpty, item.id)
            if item.kind == .article { XCTAssertNotNil(item.title, item.id) }
            XCTAssertLessThanOrEqual(item.text.count, 900, "\(item.id) is too long for one screen")
        }
        XCTAssertEqual(library.item(id: "stoic-speck")?.text,
                       "The sky is wide, and this moment is small. Breathe.")
        XCTAssertEqual(library.item(id: "famous-learn-to-surf")?.author, "Jon Kabat-Zinn")
    }

    /// The sources the library was asked to draw on are all there: Nuvin's three tones of quotes, its affirmations and
    /// reframing, Grounded's 5-4-3-2-1 and box breathing, MIGA's own voice.
    func testBundledLibraryCoversEverySource() throws {
        let library = try ContentLibrary.bundled()
        func count(_ kind: ContentKind, _ category: String) -> Int {
            library.items.filter { $0.kind == kind && $0.category == category }.count
        }
        for tone in ["stoic", "calming", "motivational"] {
            XCTAssertGreaterThanOrEqual(count(.quote, tone), 5, "Nuvin's \(tone) quotes")
        }
        XCTAssertGreaterThanOrEqual(library.items(kinds: [.affirmation]).count, 30)
        XCTAssertGreaterThanOrEqual(library.items(kinds: [.article]).count, 40)
        XCTAssertGreaterThanOrEqual(library.items.filter { $0.category == "reframe" }.count, 4)
        for id in ["reset-54321-grounding", "reset-box-breathing", "affirm-false-alarm", "miga-why-a-pause"] {
            XCTAssertNotNil(library.item(id: id), id)
        }
    }

    /// Nothing is attributed to a real person unless the line was checked against its source.
    /// A new author means checking the quote first, then adding the name here.
    func testAttributionsAreOnlyToCheckedAuthorsAndTyposAreFixed() throws {
        let checked: Set<String> = ["Jon Kabat-Zinn", "Seneca", "Epictetus", "Marcus Aurelius"]
        let library = try ContentLibrary.bundled()
        for item in library.items {
            if let author = item.author {
                XCTAssertTrue(checked.contains(author), "\(item.id): \(author) is not a checked attribution")
                XCTAssertEqual(item.kind, .quote, "\(item.id): only quotes carry an author")
            }
            // Typos in the seed documents, which must not reach the screen.
            for typo in ["Noe of", "I cand", "plant clam", "once choice", "Every though ", "presner", "Grive"] {
                XCTAssertFalse(item.text.contains(typo), "\(item.id) keeps the source's typo \"\(typo)\"")
            }
        }
        XCTAssertGreaterThanOrEqual(library.items.filter { $0.author != nil }.count, 8, "the checked quotes are attributed")
    }

    func testPackErrorsNameThePackLineAndProblem() {
        let cases: [(String, String)] = [
            ("[[items]]\nid = \"a\"\nkind = \"meme\"\ncategory = \"c\"\ntext = \"t\"\n", "unknown kind \"meme\""),
            ("[[items]]\nid = \"a\"\nkind = \"quote\"\ncategory = \"c\"\ntext = \"t\"\n[[items]]\nid = \"b\"\nkind = \"quote\"\ncategory = \"c\"\n", "b: missing text"),
            ("[[items]]\nid = \"A B\"\nkind = \"quote\"\ncategory = \"c\"\ntext = \"t\"\n", "may only use"),
            ("[[items]]\nid = \"a\"\nkind = \"article\"\ncategory = \"c\"\ntext = \"t\"\n", "needs a title"),
            ("title = \"no items\"\n", "no [[items]]"),
            ("[[items]\n", "pack.toml:1"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try ContentPack.parse(text, name: "pack.toml")) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error) should mention \(expected)")
            }
        }
        XCTAssertThrowsError(try ContentPack.parse(
            "[[items]]\nid = \"a\"\nkind = \"quote\"\ncategory = \"c\"\ntext = \"t\"\n[[items]]\nid = \"b\"\nkind = \"quote\"\ncategory = \"c\"\n",
            name: "pack.toml")) { error in
            XCTAssertEqual((error as? ContentError)?.line, 6, "the line of the broken item's [[items]] header")
        }
        let item = "kind = \"quote\"\ncategory = \"c\"\ntext = \"t\"\n"
        XCTAssertThrowsError(try ContentPack.parse("# mine\n[[items]]\nid = \"a\"\n\(item)\n\t [[items]]\nid = \"a\"\n\(item)", name: "p")) { error in
            XCTAssertEqual(error as? ContentError, ContentError(pack: "p", line: 8, problem: "duplicate id \"a\" (first used at line 2)"), "an indented header counts")
        }
        XCTAssertThrowsError(try ContentPack.parse("[[items]]\nid = \"a\"\nkind = \"quote\"\ncategory = \"c\"\ntext = \" \\n\\t \"\n", name: "p")) { error in
            XCTAssertTrue("\(error)".contains("a: missing text"), "white space is no text: \(error)")
        }
        let long = String(repeating: "é", count: ContentPack.maxShortLength + 1)
        XCTAssertThrowsError(try ContentPack.parse("[[items]]\nid = \"a\"\nkind = \"quote\"\ncategory = \"c\"\ntext = \"\(long)\"\n", name: "p")) { error in
            XCTAssertTrue("\(error)".contains("a quote of 301 characters is too long"), "\(error)")
        }
    }

    func testTextIsTrimmedOfSurroundingWhiteSpaceOnly() throws {
        let pack = "[[items]]\nid = \"a\"\nkind = \"quote\"\ncategory = \"c\"\ntext = \"\"\"\n\n  Breathe.\n\n  Then choose.\u{00A0}\t\n\"\"\"\n"
        XCTAssertEqual(try ContentPack.parse(pack, name: "p").first?.text, "Breathe.\n\n  Then choose.")
        XCTAssertEqual(ContentPack.trimmed(" \n\t "), "")
        XCTAssertEqual(ContentPack.trimmed("a"), "a")
    }

    /// By default a gate's words are calm and general: the clinical items (feeling unreal,
    /// anxiety) are in extra categories, drawn only when `extra_categories` turns them on.
    func testExtraCategoriesAreOffUntilTurnedOn() throws {
        let library = try ContentLibrary.bundled()
        let names = ContentLibrary.extraCategories.map(\.name)
        XCTAssertEqual(names, ["dpdr", "anxiety"])
        for name in names {
            XCTAssertFalse(library.items.filter { $0.category == name }.isEmpty, "\(name) has items")
        }
        for id in ["grounded-what-is-depersonalization", "grounded-what-is-derealization", "grounded-not-going-crazy",
                   "grounded-when-to-seek-help", "reset-anchor-in-body", "insight-anxiety-in-disguise"] {
            XCTAssertTrue(ContentLibrary.isExtra(try XCTUnwrap(library.item(id: id)).category), id)
        }
        let calm = library.items(kinds: ContentKind.allCases)
        XCTAssertFalse(calm.contains { names.contains($0.category) })
        XCTAssertGreaterThanOrEqual(calm.count, 140, "plenty left")
        let withDPDR = library.items(kinds: ContentKind.allCases, extraCategories: ["dpdr"])
        XCTAssertTrue(withDPDR.contains { $0.id == "grounded-what-is-depersonalization" })
        XCTAssertFalse(withDPDR.contains { $0.category == "anxiety" })
        XCTAssertEqual(library.items(kinds: ContentKind.allCases, extraCategories: names).count, library.items.count)
    }

    func testDuplicateIdsAcrossPacksAreRefused() {
        XCTAssertThrowsError(try ContentLibrary(items: [.sample("a"), .sample("a")]))
    }

    /// GetResett's guide has 20 resets by emotional state; all but the interactive bubble game
    /// are mini-articles, and those whose guide entry carries a safety note start with it.
    func testEveryGetResettResetIsThereByStateWithItsSafetyNote() throws {
        let library = try ContentLibrary.bundled()
        let resets: [String: [String]] = [
            "stressed": ["tense-release", "grounding-walk", "safety-scan", "two-minute-triage"],
            "anxiety": ["calm-corridor", "anchor-in-body", "control-the-controllable"],
            "restless": ["pulse", "focus-path", "tension-outflow", "stillness-curve"],
            "tired": ["posture-ladder", "blink-and-track", "circulation-primer", "sensory-switchboard"],
            "scattered": ["focus-funnel", "finger-ladder", "grid-focus", "single-channel"],
        ]
        XCTAssertEqual(resets.values.joined().count, 19)
        for (state, names) in resets {
            for name in names {
                let item = try XCTUnwrap(library.item(id: "reset-" + name), name)
                XCTAssertEqual(item.kind, .article, name)
                XCTAssertEqual(item.category, state, name)
                XCTAssertNotNil(item.title, name)
            }
        }
        for name in ["pulse", "focus-path", "tension-outflow", "stillness-curve", "circulation-primer", "finger-ladder"] {
            let text = try XCTUnwrap(library.item(id: "reset-" + name)).text
            XCTAssertTrue(text.hasPrefix("Ease or skip") || text.hasPrefix("Skip or ease") || text.hasPrefix("If any movement"), "\(name): \(text.prefix(40))")
        }
    }
}
