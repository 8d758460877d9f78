import ArgumentParser
import JSON
import MigaCore

struct SetupCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup",
        abstract: "The welcome: choose the apps and sites that pull you in, and the pause.",
        discussion: """
            On a terminal it asks, in three short screens: what miga does; which of the chat and \
            social apps found on this machine and which common sites pull you in; and the pause. \
            Then it pauses what you chose and installs (`miga install`), with the clicks that add \
            the extension to each browser found. Nothing is paused that you did not choose.

            Without a terminal, say what to do: --found lists what the welcome offers, and \
            --apps/--sites with --yes pause exactly what they name (nothing pre-selected).

            Examples:
              miga setup
              miga setup --found
              miga setup --found --json
              miga setup --apps discord,slack --sites reddit.com,youtube.com/shorts --yes
              miga setup --apps telegram --reentry-minutes 10 --yes
            """
    )

    @Flag(help: "List the apps found on this machine, the sites and the browsers the welcome offers.")
    var found = false

    @Flag(help: "With --found: print it as JSON.")
    var json = false

    @Option(help: ArgumentHelp("The apps to pause, by the names --found gives (or any program's name), commas or spaces between.",
                               valueName: "names"))
    var apps: String?

    @Option(help: ArgumentHelp("The sites to pause, like reddit.com or youtube.com/shorts, commas or spaces between.", valueName: "sites"))
    var sites: String?

    @Option(help: ArgumentHelp("Pause when you come back to an app after this many minutes away, 0 (off) to 1440 (default 0).",
                               valueName: "minutes"))
    var reentryMinutes: Int?

    @Flag(help: "Do what --apps, --sites and --reentry-minutes say without asking.")
    var yes = false

    func validate() throws {
        if json, !found { throw ValidationError("--json goes with --found: miga setup --found --json") }
        if found, yes || apps != nil || sites != nil || reentryMinutes != nil {
            throw ValidationError("--found only lists; to choose, run miga setup --apps NAMES --sites SITES --yes")
        }
        if let reentryMinutes, !MigaConfig.reentryMinutesRange.contains(reentryMinutes) {
            let range = MigaConfig.reentryMinutesRange
            throw ValidationError("--reentry-minutes must be between \(range.lowerBound) and \(range.upperBound)")
        }
        if !yes, apps != nil || sites != nil || reentryMinutes != nil {
            throw ValidationError("add --yes to do this without asking: miga setup --apps NAMES --sites SITES --yes")
        }
    }

    func run(_ context: MigaContext) throws {
        let offer = WelcomeOffer.find(context: context)
        if found {
            try context.output.lines(json ? [Self.json(offer)] : Self.listed(offer))
            return
        }
        let choice: WelcomeChoice
        if yes {
            choice = WelcomeChoice(apps: Self.names(apps), sites: Self.names(sites), reentryMinutes: reentryMinutes ?? 0)
        } else {
            guard context.terminal.isTerminal(.standardInput), context.terminal.isTerminal(.standardOutput) else {
                throw ValidationError("setup asks on a terminal; here, list what it offers with `miga setup --found`, "
                                      + "then choose with `miga setup --apps NAMES --sites SITES --yes`")
            }
            guard let asked = try TerminalWelcome(context: context).run(offer: offer) else {
                try context.output.line("Nothing changed.")
                return
            }
            choice = asked
        }
        try context.output.lines(try WelcomeSetup(context: context).apply(choice, offer: offer))
    }

    /// `a,b c` is a, b and c.
    static func names(_ text: String?) -> [String] {
        (text ?? "").split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
    }

    /// DESIGN's `--found --json`.
    static func json(_ offer: WelcomeOffer) -> String {
        OrderedJSON.object([
            ("apps", .array(offer.apps.map { app in
                .object([("name", .string(app.name)), ("label", .string(app.label)), ("desktop_id", .string(app.desktopID)),
                         ("source", .string(app.source.rawValue))])
            })),
            ("sites", .array(offer.sites.map { .string($0.site) })),
            ("browsers", .array(offer.browsers.map { .object([("id", .string($0.id)), ("extension", .string($0.extensionState.rawValue))]) })),
        ]).text
    }

    /// The same, for a person: names shown through the terminal's sanitiser.
    static func listed(_ offer: WelcomeOffer) -> [String] {
        var lines = ["Apps found on this machine:"]
        if offer.apps.isEmpty { lines.append("  (no chat or social app found; any program can be named with --apps)") }
        let width = offer.apps.map(\.name.count).max() ?? 0
        for app in offer.apps {
            let padding = String(repeating: " ", count: width - app.name.count)
            lines.append("  \(app.name)\(padding)  \(TerminalText.field(app.label)) (\(app.source.rawValue), \(TerminalText.field(app.desktopID)))")
        }
        lines.append("Sites (* pre-selected in the welcome):")
        lines += offer.sites.map { "  \($0.preselected ? "*" : " ") \($0.site)" }
        if !offer.browsers.isEmpty { lines.append("Browsers:") }
        for browser in offer.browsers {
            lines.append("  \(browser.label): miga's extension is \(browser.extensionState.rawValue)")
            lines += browser.steps.map { "    " + $0 }
        }
        lines.append("Choose with: miga setup --apps NAMES --sites SITES --yes (or `miga setup` on a terminal)")
        return lines
    }
}
