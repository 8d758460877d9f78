import XCTest
@testable import MigaCore

final class ContentTests: XCTestCase {
    func testBundledLibraryIsValidAndBroadEnough() throws {
        let library = try ContentLibrary.bundled()
        XCTAssertGreaterThanOrEqual(library.items.count, 30)
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
                       "You are a speck on a rock spinning through infinite space. Breathe.")
        XCTAssertEqual(library.item(id: "famous-learn-to-surf")?.author, "Jon Kabat-Zinn")
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
