import ArgumentParser

struct Config: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Change what miga gates: apps and sites.",
        discussion: """
            Examples:
              miga config apps add discord --timer 20
              miga config apps add chat --command /opt/Chat/chat
              miga config apps list
              miga config sites add news.ycombinator.com
            """,
        subcommands: [ConfigApps.self, ConfigSites.self]
    )
}
