import FoundationEssentials

extension WelcomeOffer {
    /// What the welcome offers on this machine.
    public static func find(context: MigaContext) -> WelcomeOffer {
        WelcomeOffer() // the finder comes next
    }
}

/// Does what the welcome chose: gates the apps and sites, sets the pause, then installs.
public struct WelcomeSetup {
    public let context: MigaContext

    public init(context: MigaContext) {
        self.context = context
    }

    /// Gates what was chosen and installs; the lines to say, one a change.
    public func apply(_ choice: WelcomeChoice, offer: WelcomeOffer) throws -> [String] {
        [] // comes next
    }
}
