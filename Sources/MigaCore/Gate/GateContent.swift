import FoundationEssentials

/// A gate's items, drawn from the shuffle bag in the database (no item twice until all have
/// been shown).
public struct GateContent {
    let library: ContentLibrary
    let candidates: [String]
    let store: EventStore

    init(library: ContentLibrary, categories: [ContentKind], extraCategories: [String], store: EventStore) {
        self.library = library
        var candidates = library.items(kinds: categories, extraCategories: extraCategories).map(\.id)
        // No item of the chosen kinds: every kind, still without the extras not turned on.
        if candidates.isEmpty { candidates = library.items(kinds: ContentKind.allCases, extraCategories: extraCategories).map(\.id) }
        if candidates.isEmpty { candidates = library.items.map(\.id) }
        self.candidates = candidates
        self.store = store
    }

    /// The next item, other than `current` when there is another (the bag never gives its last
    /// item again at once, so one more draw suffices).
    public func draw(excluding current: String? = nil) -> ContentItem? {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2 {
            guard let id = (try? store.drawContent(from: candidates, using: &generator)).flatMap({ $0 }),
                  let item = library.item(id: id) else { return nil }
            if id != current || candidates.count < 2 { return item }
        }
        return nil
    }

    /// The first item, picked by reads alone: `store.markShown` writes it later, after the
    /// first frame (see `Gatekeeper.runFrontEnd`).
    public func pick() -> (item: ContentItem, draw: ShuffleBag.Draw)? {
        var generator = SystemRandomNumberGenerator()
        guard let draw = try? store.pickContent(from: candidates, using: &generator),
              let item = draw.id.flatMap(library.item(id:)) else { return nil }
        return (item, draw)
    }
}
