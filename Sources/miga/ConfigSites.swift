import ArgumentParser
import MigaCore

struct ConfigSites: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sites",
        abstract: "The social sites `miga open-url` gates (each with its subdomains).",
        subcommands: [Add.self, Remove.self, List.self],
        defaultSubcommand: List.self
    )

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Gate links to a site and its subdomains.",
            discussion: "Examples:\n  miga config sites add news.ycombinator.com\n  miga config sites add mastodon.social"
        )

        @Argument(help: ArgumentHelp("A host name, like reddit.com.", valueName: "host"))
        var host: String

        func run() throws {
            let context = try CommandSupport.context()
            do {
                guard let site = SiteMatcher.normalizedSite(host) else { throw InstallError.invalidSite(host) }
                let file = ConfigFile(path: context.paths.configFile)
                let config = try file.loadForEditing()
                let sites = SiteMatcher(sites: config.sites).sites
                guard !sites.contains(site) else {
                    print("\(site) is already gated.")
                    return
                }
                let installer = try Installer(context: context)
                try installer.prepareConfigFolder()
                try file.update({ $0.setSites(config.sites + [site]) }, expect: { SiteMatcher(sites: $0.sites).sites.contains(site) })
                print("\(site) is gated: links to it and its subdomains pause first.")
                if installer.manifest.file(at: installer.layout.urlHandler) == nil {
                    print("Run `miga install` so links from other apps come through miga.")
                }
            } catch {
                throw CommandSupport.fail(error)
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Stop gating links to a site.",
            discussion: "Example:\n  miga config sites remove youtube.com"
        )

        @Argument(help: ArgumentHelp("A gated host name.", valueName: "host"),
                  completion: .custom(CommandSupport.configuredSites))
        var host: String

        func run() throws {
            let context = try CommandSupport.context()
            do {
                guard let site = SiteMatcher.normalizedSite(host) else { throw InstallError.invalidSite(host) }
                let file = ConfigFile(path: context.paths.configFile)
                let config = try file.loadForEditing()
                let kept = config.sites.filter { SiteMatcher.normalizedSite($0) != site }
                guard kept.count < config.sites.count else { throw InstallError.unknownSite(site) }
                try file.update({ $0.setSites(kept) }, expect: { !SiteMatcher(sites: $0.sites).sites.contains(site) })
                print("\(site) is no longer gated.")
            } catch {
                throw CommandSupport.fail(error)
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "Print the gated sites, one per line.",
            discussion: "Example:\n  miga config sites list"
        )

        func run() throws {
            let context = try CommandSupport.context()
            do {
                for site in try ConfigFile(path: context.paths.configFile).load().config.sites { print(site) }
            } catch {
                throw CommandSupport.fail(error)
            }
        }
    }
}
