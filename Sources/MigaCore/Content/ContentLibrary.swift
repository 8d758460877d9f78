/// Every item miga can show: the packs compiled into the binary.
public struct ContentLibrary: Sendable {
    public let items: [ContentItem]
    private let index: [String: Int]

    public init(items: [ContentItem]) throws {
        var index: [String: Int] = [:]
        for (position, item) in items.enumerated() {
            if index[item.id] != nil {
                throw ContentError(pack: "library", line: nil, problem: "duplicate id \"\(item.id)\"")
            }
            index[item.id] = position
        }
        self.items = items
        self.index = index
    }

    /// The bundled library (from `quotes/` at build time).
    public static func bundled() throws -> ContentLibrary {
        try ContentLibrary(items: bundledPackSources.flatMap { try ContentPack.parse($0.text, name: $0.name) })
    }

    public func item(id: String) -> ContentItem? {
        index[id].map { items[$0] }
    }

    /// Items whose kind is enabled, in library order.
    public func items(kinds: [ContentKind]) -> [ContentItem] {
        items.filter { kinds.contains($0.kind) }
    }
}
