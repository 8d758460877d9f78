import ArgumentParser
import FoundationEssentials
import MigaCore

struct Config: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Settings: an interactive editor on a terminal, or show/get/set, apps and sites.",
        discussion: """
            On a terminal `miga config` opens an editor (tab completion, history): type `help` \
            there. Elsewhere it prints the settings, like `miga config show`.

            \(ConfigKeys.helpSummary)

            Schedules are [[schedule]] tables in config.toml, edited by hand; the first that \
            matches wins, in local time, and a range may cross midnight (it belongs to the day \
            it starts on):
              [[schedule]]
              days = "mon-fri"        # daily, weekdays, weekends, sat,sun, mon,wed-fri
              from = "09:00"
              to = "17:00"            # "24:00" ends the day
              timer_seconds = 45      # or: gate = false (no gate in these hours)
              apps = ["discord"]      # optional: only these apps and sites
            A table with a mistake is reported with its line (by show, get, set and the gate) \
            and left out; `miga status --json` names the table in force.

            Examples:
              miga config
              miga config set intention true
              miga config set timer_seconds 20
              miga config get apps.discord.timer_seconds
              miga config apps add discord --timer 20
              miga config sites add news.ycombinator.com
            """,
        subcommands: [Show.self, Get.self, Set.self, ConfigApps.self, ConfigSites.self, ConfigAlternatives.self, ConfigPending.self]
    )

    func run(_ context: MigaContext) throws {
        if context.terminal.isTerminal(.standardInput) && context.output.isTerminal {
            let session = ConfigShellSession(context: context)
            let status = session.run()
            if let signal = session.stoppedBy { context.signals.dieBySignal(signal) }
            if status != 0 { throw ExitCode(status) }
        } else {
            try Show().run(context)
        }
    }

    struct Show: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print the effective settings (defaults filled in) and the file they come from.",
            discussion: "Example:\n  miga config show"
        )

        func run(_ context: MigaContext) throws {
            let file = ConfigFile(path: context.paths.configFile, files: context.files)
            // What applies now: a loosened setting still waiting shows its settled value, and
            // the wait is said above it.
            let loaded = try ConfigInForce.load(context: context)
            loaded.warnings.forEach { CommandSupport.warn($0, context) }
            let exists = AtomicFile.exists(file.path)
            try context.output.line("# \(file.path)\(exists ? "" : " (not written yet: these are the defaults)")")
            if !loaded.pending.isEmpty {
                try context.output.line("# Waiting (loosen_delay_minutes = \(loaded.config.loosenDelayMinutes)); what applies until then is below:")
                for entry in loaded.pending { try context.output.line("#   " + ConfigInForce.describe(entry, now: context.clock.nowMilliseconds(), clock: context.clock)) }
                try context.output.line("# `miga config pending --cancel` drops them.")
            }
            try context.output.write(ConfigFile.show(loaded.config))
        }
    }

    struct Get: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "get",
            abstract: "Print one setting's effective value, as it applies now (lists one item per line).",
            discussion: "Examples:\n  miga config get timer_seconds\n  miga config get apps.discord.timer_seconds\n  miga config get sites"
        )

        @Argument(help: ArgumentHelp("A key: " + (ConfigKeys.topLevel + ConfigKeys.perApp.map { "apps.NAME.\($0)" }).joined(separator: ", ") + ".",
                                     valueName: "key"),
                  completion: .custom(CommandSupport.configKeys))
        var key: String

        func run(_ context: MigaContext) throws {
            // What applies: a loosened value still waiting is said on stderr, with when.
            let inForce = try ConfigInForce.load(context: context)
            let path = try ConfigKeys.resolve(key, in: inForce.config)
            try context.output.line(ConfigKeys.display(path, in: inForce.config))
            for entry in inForce.pending where !entry.cancelled && entry.setting.name == path.name {
                CommandSupport.warn("config.toml says \(entry.to); " + ConfigInForce.describe(entry, now: context.clock.nowMilliseconds(), clock: context.clock), context)
            }
        }
    }

    struct Set: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Change one setting, checked first; your comments and layout stay.",
            discussion: """
                Lists take commas or spaces: `miga config set sites "reddit.com, x.com"`.

                Examples:
                  miga config set timer_seconds 20
                  miga config set apps.discord.timer_seconds 40
                  miga config set site.reddit.com.ask_minutes true
                  miga config set breathing off
                  miga config set categories quotes,articles
                  miga config set sync_folder ~/Sync/miga   # one history across your machines
                """
        )

        @Argument(help: ArgumentHelp("The key (see `miga config get --help`).", valueName: "key"),
                  completion: .custom(CommandSupport.configKeys))
        var key: String

        // Everything after the key is the value, dashes included: `set opens_per_day -1` is a
        // value to refuse with its range, not an unknown option.
        @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("The new value.", valueName: "value"))
        var value: [String] = []

        func run(_ context: MigaContext) throws {
            // `set KEY -- VALUE` is how other tools take a value that starts with a dash.
            let value = self.value.first == "--" ? Array(self.value.dropFirst()) : self.value
            guard !value.isEmpty else { throw ValidationError("give a value: miga config set \(key) VALUE") }
            try SettingChange(context: context).set(key, to: value.joined(separator: " ")) { try context.output.line($0) }
        }
    }
}
