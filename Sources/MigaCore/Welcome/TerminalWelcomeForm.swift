import FoundationEssentials

/// What the welcome's three screens hold while the person chooses: which screen is up, what is
/// ticked, the pause. Pure: the full-screen and plain fronts feed it keys or lines and show it.
public struct WelcomeForm: Equatable, Sendable {
    public enum Step: Int, Equatable, Sendable { case about, choose, pause }

    /// One line of "What pulls you in?": an app found or typed, or a site.
    public struct Item: Equatable, Sendable {
        public enum Kind: Equatable, Sendable { case app, site }
        public var kind: Kind
        /// The config name (`[apps.NAME]`) or the site.
        public var name: String
        /// What the person reads: an app's own `Name`, or the site.
        public var label: String
        public var chosen: Bool
    }

    /// A content category beyond the calm defaults, offered on the pause screen.
    public struct Extra: Equatable, Sendable {
        public var name: String
        public var label: String
        public var chosen = false
    }

    public private(set) var step: Step = .about
    public private(set) var items: [Item]
    public private(set) var timerSeconds: Int
    /// "Pause when I come back after 10 minutes" (`reentry_minutes` 10, else 0).
    public var comesBack = true
    public private(set) var extras: [Extra]
    private let timerInForce: Int

    /// The minutes away after which coming back pauses again.
    public static let reentryMinutes = 10
    public static let timerStep = 5

    /// Found apps come pre-selected (they were found because they pull people in); sites as
    /// the offer marks them.
    public init(offer: WelcomeOffer, timerSeconds: Int, extras: [(name: String, label: String)]) {
        items = offer.apps.map { Item(kind: .app, name: $0.name, label: $0.label, chosen: true) }
            + offer.sites.map { Item(kind: .site, name: $0.site, label: $0.site, chosen: $0.preselected) }
        let timer = MigaConfig.timerRange.contains(timerSeconds) ? timerSeconds : MigaConfig().timerSeconds
        self.timerSeconds = timer
        timerInForce = timer
        self.extras = extras.map { Extra(name: $0.name, label: $0.label) }
    }

    public var apps: [Item] { items.filter { $0.kind == .app } }
    public var sites: [Item] { items.filter { $0.kind == .site } }

    /// What was chosen. The timer is nil when left as it was, so nothing is written for it.
    public var choice: WelcomeChoice {
        WelcomeChoice(apps: apps.filter(\.chosen).map(\.name), sites: sites.filter(\.chosen).map(\.name),
                      timerSeconds: timerSeconds == timerInForce ? nil : timerSeconds,
                      reentryMinutes: comesBack ? Self.reentryMinutes : 0,
                      extraCategories: extras.filter(\.chosen).map(\.name))
    }

    /// On to the next screen; true once past the last (the person chose).
    public mutating func next() -> Bool {
        guard let following = Step(rawValue: step.rawValue + 1) else { return true }
        step = following
        return false
    }

    /// Back a screen; the first stays put.
    public mutating func back() {
        step = Step(rawValue: step.rawValue - 1) ?? .about
    }

    public mutating func toggle(item index: Int) {
        guard items.indices.contains(index) else { return }
        items[index].chosen.toggle()
    }

    public mutating func toggle(extra index: Int) {
        guard extras.indices.contains(index) else { return }
        extras[index].chosen.toggle()
    }

    /// Moves the timer by `steps` of five seconds, within its range.
    public mutating func adjustTimer(by steps: Int) {
        let range = MigaConfig.timerRange
        timerSeconds = min(range.upperBound, max(range.lowerBound, timerSeconds + steps * Self.timerStep))
    }

    /// Sets the timer to a number the person typed; false when it is out of range.
    public mutating func setTimer(_ seconds: Int) -> Bool {
        guard MigaConfig.timerRange.contains(seconds) else { return false }
        timerSeconds = seconds
        return true
    }

    /// An app the person typed: one already listed is ticked, a new name is added ticked
    /// after the other apps. Returns the item's index, or the problem to say.
    public mutating func add(appName typed: String) -> Result<Int, WelcomeFormProblem> {
        let name = typed.trimming(.whitespaces)
        guard !name.isEmpty else { return .failure(WelcomeFormProblem(message: "Type an app's name, or Esc to go back.")) }
        if let index = items.firstIndex(where: { $0.kind == .app && ($0.name.lowercased() == name.lowercased() || $0.label.lowercased() == name.lowercased()) }) {
            items[index].chosen = true
            return .success(index)
        }
        guard MigaConfig.isValidAppName(name) else {
            return .failure(WelcomeFormProblem(message: "\"\(TerminalText.forScreen(name))\" is not an app name: letters, digits and . _ + - only (the command's name, e.g. discord)."))
        }
        let index = items.lastIndex { $0.kind == .app }.map { $0 + 1 } ?? 0
        items.insert(Item(kind: .app, name: name, label: name, chosen: true), at: index)
        return .success(index)
    }

    /// The keys that tick items on the full screen, in order: 1–9, then the letters no other
    /// key of the screen uses (b back, q leave; j and k scroll). Items past these are reached
    /// by typing their name (`+`) or in plain mode.
    public static let itemKeys: [Character] = Array("123456789acdefghilmnoprstuvwxyz")

    public static func itemIndex(forKey key: Character) -> Int? {
        itemKeys.firstIndex(of: key)
    }
}

/// Why a typed name or line was not taken, said as one line.
public struct WelcomeFormProblem: Error, Equatable, Sendable {
    public var message: String
}
