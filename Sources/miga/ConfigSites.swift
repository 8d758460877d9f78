import ArgumentParser
import MigaCore

struct ConfigSites: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sites",
        abstract: "The social sites `miga open-url` gates (each with its subdomains).",
        subcommands: [Add.self, Remove.self, List.self],
        defaultSubcommand: List.self
    )

    struct Add: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Gate links to a site and its subdomains.",
            discussion: "Examples:\n  miga config sites add news.ycombinator.com\n  miga config sites add mastodon.social\n"
                + "  miga config sites add youtube.com/shorts   (only its pages under /shorts)"
        )

        @Argument(help: ArgumentHelp("A host name, like reddit.com, or a host and a path, like youtube.com/shorts.", valueName: "host"))
        var host: String

        func run(_ context: MigaContext) throws {
            let (site, outcome) = try GatedSites(context: context).add(host)
            guard outcome == .changed else {
                try context.output.line("\(site) is already gated.")
                return
            }
            let path = SiteMatcher.path(of: site)
            try context.output.line(path.isEmpty ? "\(site) is gated: links to it and its subdomains pause first."
                                    : "\(site) is gated: links to its pages under \(path) (on its subdomains too) pause first; its other pages do not.")
            let installer = try Installer(context: context)
            if installer.manifest.file(at: installer.layout.urlHandler) == nil {
                try context.output.line("Run `miga install` so links from other apps come through miga.")
            }
        }
    }

    struct Remove: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Stop gating links to a site.",
            discussion: "Example:\n  miga config sites remove youtube.com"
        )

        @Argument(help: ArgumentHelp("A gated host name.", valueName: "host"),
                  completion: .custom(CommandSupport.configuredSites))
        var host: String

        func run(_ context: MigaContext) throws {
            let waitedBefore = ConfigInForce.pending(context: context)
            let site = try GatedSites(context: context).remove(host)
            // This removal's wait, not every other one again.
            let waiting = ConfigInForce.waitingNote(context: context) { !waitedBefore.contains($0) || $0.setting == .site(site) }
            try context.output.line(waiting.isEmpty ? "\(site) is no longer gated." : "\(site) is removed from config.toml; it stays gated until the wait is over:")
            try context.output.lines(waiting.map { "  " + $0 })
        }
    }

    struct List: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "Print the gated sites (as they apply now), one per line.",
            discussion: "Example:\n  miga config sites list"
        )

        func run(_ context: MigaContext) throws {
            // What applies: a site whose removal waits out loosen_delay_minutes is still gated
            // (said on stderr, so the list stays one site a line for scripts).
            let inForce = try ConfigInForce.load(context: context)
            for site in inForce.config.sites { try context.output.line(site) }
            for entry in inForce.pending where !entry.cancelled {
                if case .site = entry.setting {
                    CommandSupport.warn(ConfigInForce.describe(entry, now: context.clock.nowMilliseconds(), clock: context.clock), context)
                }
            }
        }
    }
}
