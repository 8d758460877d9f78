import ArgumentParser
import FoundationEssentials
import MigaCore

/// Test-only, hidden: the terminal welcome on a given offer, printing what was chosen instead
/// of doing it. `miga setup` is the person's way in; this one goes once `setup` runs the welcome.
struct WelcomeTryCommand: ContextCommand {
    static let configuration = CommandConfiguration(commandName: "welcome-try", shouldDisplay: false)

    @Flag var plain = false
    /// `name=Label`: an app as if found.
    @Option var app: [String] = []
    /// A site offered, pre-selected when it ends in `*`.
    @Option var site: [String] = []

    func run(_ context: MigaContext) throws {
        var offer = WelcomeOffer.find(context: context)
        offer.apps += app.map { spec in
            let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
            return FoundApp(name: parts[0], label: parts.count > 1 ? parts[1] : parts[0], desktopID: parts[0] + ".desktop",
                            source: .system, icon: nil, command: [parts[0]])
        }
        offer.sites += site.map { OfferedSite(site: $0.hasSuffix("*") ? String($0.dropLast()) : $0, preselected: $0.hasSuffix("*")) }
        let welcome = TerminalWelcome(context: context)
        guard let choice = try plain ? welcome.run(offer: offer, plain: true) : welcome.run(offer: offer) else {
            try context.output.line("CHOICE: none")
            return
        }
        try context.output.line("CHOICE: apps=\(choice.apps.joined(separator: ",")) sites=\(choice.sites.joined(separator: ","))"
                                + " timer=\(choice.timerSeconds.map(String.init) ?? "-") reentry=\(choice.reentryMinutes)"
                                + " extra=\(choice.extraCategories.joined(separator: ","))")
    }
}
