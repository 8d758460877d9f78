/// The person's settings (`config.toml`), with the defaults of DESIGN "config.toml keys".
public struct MigaConfig: Equatable, Sendable {
    public static let timerRange = 15...45
    public static let graceRange = 0...120
    public static let escalateRange = 0...30
    public static let defaultSites = ["reddit.com", "x.com", "twitter.com", "instagram.com",
                                      "facebook.com", "tiktok.com", "youtube.com"]

    public enum Breathing: String, Sendable, CaseIterable { case box, off }

    public struct App: Equatable, Sendable {
        public var name: String
        public var command: String
        public var timerSeconds: Int?
        /// Overrides of the global `intention` and `escalate_seconds`.
        public var intention: Bool?
        public var escalateSeconds: Int?

        public init(name: String, command: String, timerSeconds: Int? = nil, intention: Bool? = nil,
                    escalateSeconds: Int? = nil) {
            self.name = name
            self.command = command
            self.timerSeconds = timerSeconds
            self.intention = intention
            self.escalateSeconds = escalateSeconds
        }
    }

    public var timerSeconds = 30
    public var graceMinutes = 5
    public var categories: [ContentKind] = ContentKind.allCases
    public var breathing = Breathing.box
    public var animations = true
    public var terminal = ""
    public var sites = MigaConfig.defaultSites
    public var apps: [String: App] = [:]
    public var intention = false
    public var escalateSeconds = 0
    public var weeklySummary = false
    /// The `[[schedule]]` tables that read cleanly, in file order.
    public var schedules: [Schedule] = []

    public init() {}

    /// The countdown for `app`: its own override when it has one, else the global timer.
    public func timerSeconds(for app: String?) -> Int {
        app.flatMap { apps[$0]?.timerSeconds } ?? timerSeconds
    }

    /// App names are used in file names (shims) and tables, so they are kept to a safe alphabet.
    /// A valid app name made from any text (a program's file name, say): every other
    /// character becomes `-`, so `My App` is `My-App`.
    /// A Latin letter with a mark (`İ`, `é`) becomes the plain letter, so `İnstagram` is
    /// `Instagram`; the name never starts with `-` (it would read as an option) or `.`.
    public static func appName(derivedFrom text: String) -> String {
        let cleaned = String(text.map { isValidAppName(String($0)) ? $0 : plainLatinLetter($0) ?? "-" })
        let trimmed = cleaned.drop(while: { $0 == "-" || $0 == "." })
        return trimmed.isEmpty ? "app" : String(trimmed)
    }

    /// The letter a Latin letter with marks is written with, from its Unicode name
    /// ("LATIN CAPITAL LETTER I WITH DOT ABOVE" is I).
    static func plainLatinLetter(_ character: Character) -> Character? {
        guard let name = character.unicodeScalars.first?.properties.name else { return nil }
        for (prefix, capital) in [("LATIN CAPITAL LETTER ", true), ("LATIN SMALL LETTER ", false)] where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let letter = rest.first, ("A"..."Z").contains(letter), rest.dropFirst().isEmpty || rest.dropFirst().hasPrefix(" WITH ") else {
                return nil
            }
            return capital ? letter : Character(letter.lowercased())
        }
        return nil
    }

    public static func isValidAppName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy {
            ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0)
                || "._+-".unicodeScalars.contains($0)
        }
    }
}
