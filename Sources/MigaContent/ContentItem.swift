/// The three kinds of item MIGA rotates.
public enum ContentKind: String, CaseIterable, Sendable, Codable {
    case quote, affirmation, article

    /// The plural used by `categories` in config.toml.
    public var categoryName: String { rawValue + "s" }

    public init?(categoryName: String) {
        guard let kind = ContentKind.allCases.first(where: { $0.categoryName == categoryName }) else {
            return nil
        }
        self = kind
    }
}

/// One quote, affirmation or mini-article. `id` is stable forever: rotation state keys on it.
public struct ContentItem: Equatable, Sendable {
    public var id: String
    public var kind: ContentKind
    public var category: String
    public var text: String
    public var author: String?
    public var title: String?
    /// A picture the window and the browser page show beside the text (the terminal shows the
    /// text alone), as the pack wrote it: an absolute path or one under `~/`.
    public var image: String?

    public init(id: String, kind: ContentKind, category: String, text: String,
                author: String? = nil, title: String? = nil, image: String? = nil) {
        self.id = id
        self.kind = kind
        self.category = category
        self.text = text
        self.author = author
        self.title = title
        self.image = image
    }
}
