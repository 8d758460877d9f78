import FoundationEssentials

/// The welcome in a terminal (`miga setup` on a TTY): what miga does, what pulls you in, the
/// pause. It asks; `WelcomeSetup` does what was chosen.
public struct TerminalWelcome {
    public let context: MigaContext

    public init(context: MigaContext) {
        self.context = context
    }

    /// Asks through the three screens; the choice, or nil when the person left without one.
    public func run(offer: WelcomeOffer) throws -> WelcomeChoice? {
        nil // the screens come next
    }
}
