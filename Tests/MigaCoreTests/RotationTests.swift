import XCTest
@testable import MigaCore
import MigaTestSupport

final class RotationTests: XCTestCase {
    func testShuffleBagPropertyOverManySeeds() {
        let ids = (1...13).map { "item-\($0)" }
        for seed in 0..<200 as Range<UInt64> {
            var generator = SplitMix64(seed: seed)
            var shown: Set<String> = []
            var last: String?
            var sequence: [String] = []
            for _ in 0..<(ids.count * 4) {
                let draw = ShuffleBag.draw(candidates: ids, shown: shown, last: last, using: &generator)
                guard let id = draw.id else { return XCTFail("no item drawn") }
                if draw.refilled { shown = [] }
                shown.insert(id)
                XCTAssertNotEqual(id, last, "same item twice in a row (seed \(seed))")
                last = id
                sequence.append(id)
            }
            for round in 0..<4 {
                let slice = sequence[(round * ids.count)..<((round + 1) * ids.count)]
                XCTAssertEqual(Set(slice), Set(ids), "round \(round) must show every item once (seed \(seed))")
            }
        }
    }

    func testSingleItemLibraryStillShowsIt() {
        var generator = SplitMix64(seed: 1)
        let draw = ShuffleBag.draw(candidates: ["only"], shown: ["only"], last: "only", using: &generator)
        XCTAssertEqual(draw, ShuffleBag.Draw(id: "only", refilled: true))
    }

    /// The persisted bag, through real SQLite, with a new connection per draw as separate gate
    /// processes would have: over 2 × N runs every item is shown exactly twice, never twice in a row.
    func testPersistedBagAcrossConnections() throws {
        let folder = try TemporaryDirectory()
        let database = folder.path + "/miga.sqlite3"
        let ids = try ContentLibrary.bundled().items.map(\.id)
        var generator = SystemRandomNumberGenerator()
        var sequence: [String] = []
        for _ in 0..<(2 * ids.count) {
            let store = try EventStore(path: database)
            sequence.append(try XCTUnwrap(store.drawContent(from: ids, using: &generator)))
        }
        let counts = Dictionary(sequence.map { ($0, 1) }, uniquingKeysWith: +)
        XCTAssertEqual(Set(counts.keys), Set(ids))
        XCTAssertEqual(Set(counts.values), [2], "every item exactly twice")
        for (previous, next) in zip(sequence, sequence.dropFirst()) {
            XCTAssertNotEqual(previous, next, "no item twice in a row, also across the refill")
        }
    }

    /// A gate's first item, as the gate takes it: picked from reads alone (nothing written,
    /// so a second pick may give another), then marked once its frame is up. Over 2 × N gates
    /// this keeps the bag's promise as `drawContent` does, the refill included.
    func testPickThenMarkKeepsTheBagAcrossGates() throws {
        let folder = try TemporaryDirectory()
        let database = folder.path + "/miga.sqlite3"
        let ids = ["a", "b", "c", "d", "e"]
        var generator = SystemRandomNumberGenerator()
        var sequence: [String] = []
        for _ in 0..<(2 * ids.count) {
            let store = try EventStore(path: database)
            let before = try store.sqliteText("SELECT group_concat(content_id) FROM rotation_shown") ?? ""
            let draw = try store.pickContent(from: ids, using: &generator)
            XCTAssertEqual(try store.sqliteText("SELECT group_concat(content_id) FROM rotation_shown") ?? "", before, "a pick writes nothing")
            try store.markShown(draw)
            sequence.append(try XCTUnwrap(draw.id))
            XCTAssertEqual(try store.sqliteText("SELECT last_content_id FROM rotation_state"), draw.id)
        }
        XCTAssertEqual(Set(Dictionary(sequence.map { ($0, 1) }, uniquingKeysWith: +).values), [2], "every item exactly twice: \(sequence)")
        for (previous, next) in zip(sequence, sequence.dropFirst()) { XCTAssertNotEqual(previous, next) }
    }

    func testItemsRemovedFromTheEnabledSetDropOutOfTheRound() throws {
        let folder = try TemporaryDirectory()
        let store = try EventStore(path: folder.path + "/miga.sqlite3")
        var generator = SplitMix64(seed: 7)
        _ = try store.drawContent(from: ["a", "b", "c"], using: &generator)
        for _ in 0..<10 {
            let id = try XCTUnwrap(store.drawContent(from: ["x", "y"], using: &generator))
            XCTAssertTrue(["x", "y"].contains(id))
        }
    }
}

private extension EventStore {
    func sqliteText(_ sql: String) throws -> String? { StoredValue.text(try db.value(sql)) }
}
