import ArgumentParser
import MigaCore

struct ConfigAlternatives: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alternatives",
        abstract: "Your own \"Do this instead\" choices, shown beside Exit on every gate.",
        discussion: """
            Each is an [[alternative]] table in config.toml. A gate shows the first three that \
            apply as 1, 2, 3 (buttons in the window and the browser page); choosing one is an \
            Exit that then opens it: a command in the background, or a link in your browser, \
            never gated.
            """,
        subcommands: [Add.self, Remove.self, List.self],
        defaultSubcommand: List.self
    )

    struct Add: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a choice to the gates: a command or a link.",
            discussion: """
                Examples:
                  miga config alternatives add "Read a chapter" --command "foliate ~/book.epub"
                  miga config alternatives add "Go for a walk" --url https://example.org/walk
                  miga config alternatives add "Write" --command thunderbird --app discord
                """
        )

        @Argument(help: ArgumentHelp("The words the gate shows (at most 40 characters).", valueName: "label"))
        var label: String

        @Option(help: ArgumentHelp("A command line to run (through sh).", valueName: "command"))
        var command: String?

        @Option(help: ArgumentHelp("An http or https link to open in your browser.", valueName: "url"))
        var url: String?

        @Option(name: .customLong("app"), help: ArgumentHelp("Only on this app's gate (repeat for more).", valueName: "name"),
                completion: .custom(CommandSupport.configuredApps))
        var apps: [String] = []

        @Option(name: .customLong("site"), help: ArgumentHelp("Only on this site's gate (repeat for more).", valueName: "host"),
                completion: .custom(CommandSupport.configuredSites))
        var sites: [String] = []

        func validate() throws {
            guard (command == nil) != (url == nil) else { throw ValidationError(ConfigValueError.alternativeTarget.description) }
        }

        func run(_ context: MigaContext) throws {
            let added = try GatedAlternatives(context: context).add(label: label, command: command, url: url, apps: apps, sites: sites)
            try context.output.line("Added: \(added.summary)")
        }
    }

    struct Remove: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove a choice, by its number in `list` or its label.",
            discussion: "Examples:\n  miga config alternatives remove 2\n  miga config alternatives remove \"Read a chapter\""
        )

        @Argument(help: ArgumentHelp("Its number in `miga config alternatives list`, or its label.", valueName: "number-or-label"))
        var name: String

        func run(_ context: MigaContext) throws {
            let removed = try GatedAlternatives(context: context).remove(name)
            try context.output.line("Removed: \(TerminalText.forScreen(removed.label))")
        }
    }

    struct List: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "Print the choices, numbered as `remove` takes them.",
            discussion: "Example:\n  miga config alternatives list"
        )

        func run(_ context: MigaContext) throws {
            let alternatives = try GatedAlternatives(context: context).list()
            if alternatives.isEmpty {
                try context.output.line("No alternatives yet. Add one with: miga config alternatives add \"Read a chapter\" --command \"foliate ~/book.epub\"")
            }
            for alternative in alternatives { try context.output.line(alternative.summary) }
        }
    }
}
