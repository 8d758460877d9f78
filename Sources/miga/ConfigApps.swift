import ArgumentParser
import FoundationEssentials
import MigaCore

struct ConfigApps: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps",
        abstract: "The gated apps and their shims.",
        subcommands: [Add.self, Remove.self, List.self],
        defaultSubcommand: List.self
    )

    struct Add: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Gate an app: record it, then make its PATH shim and desktop shims.",
            discussion: """
                The PATH shim (~/.local/share/miga/bin/NAME) gates the app in shells once \
                `miga install` has put that folder first on PATH; a desktop shim shadows each \
                menu entry that runs the app's command.

                Examples:
                  miga config apps add discord
                  miga config apps add discord --timer 20
                  miga config apps add signal --command /opt/Signal/signal-desktop
                """
        )

        @Argument(help: ArgumentHelp("The app's name: letters, digits and . _ + -", valueName: "name"))
        var name: String

        @Option(help: ArgumentHelp("This app's countdown, 15–45 seconds (default: timer_seconds).", valueName: "seconds"))
        var timer: Int?

        @Option(help: ArgumentHelp("The program the shims run (default: NAME, found on PATH).", valueName: "command"))
        var command: String?

        @Flag(help: "Gate a shell or script interpreter (python3, bash, sh…) even though every script run by it is paused too.")
        var force = false

        func validate() throws {
            guard MigaConfig.isValidAppName(name) else { throw ValidationError(InstallError.invalidAppName(name).description) }
            if let timer, !MigaConfig.timerRange.contains(timer) {
                throw ValidationError("--timer must be between \(MigaConfig.timerRange.lowerBound) and \(MigaConfig.timerRange.upperBound) seconds")
            }
            if let command, let problem = AppCheck.problem(withCommand: command) {
                throw ValidationError("--command: " + InstallError.invalidCommand(problem).description)
            }
        }

        func run(_ context: MigaContext) throws {
            let (app, installer) = try GatedApps(context: context).add(name: name, command: command, timer: timer, force: force)
            try context.output.line("\(name) is gated\(timer.map { " (\($0) s)" } ?? ""): it runs \(app.command) after the pause.")
            try context.output.lines(installer.changes.map { "  " + $0 })
            if installer.manifest.files(of: .desktopShim, app: name).isEmpty {
                try context.output.line("  No desktop entry runs \(app.command), so only the PATH shim was made.")
            }
            if installer.manifest.lines.isEmpty {
                try context.output.line("Run `miga install` so shells and launchers find the shim first.")
            } else {
                try context.output.line("Open shells find it at once after `hash -r` (bash) or `rehash` (zsh); new ones do anyway.")
            }
        }
    }

    struct Remove: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Stop gating an app and remove every shim made for it.",
            discussion: "Example:\n  miga config apps remove discord"
        )

        @Argument(help: ArgumentHelp("The gated app's name.", valueName: "name"),
                  completion: .custom(CommandSupport.configuredApps))
        var name: String

        func run(_ context: MigaContext) throws {
            let waitedBefore = ConfigInForce.pending(context: context)
            let installer = try GatedApps(context: context).remove(name: name)
            // This removal's wait, not every other one again.
            let waiting = ConfigInForce.waitingNote(context: context) { !waitedBefore.contains($0) || $0.setting == .app(name) }
            try context.output.line(waiting.isEmpty ? "\(name) is no longer gated." : "\(name) is removed from config.toml; it stays gated until the wait is over:")
            try context.output.lines(installer.changes.map { "  " + $0 } + waiting.map { "  " + $0 })
        }
    }

    struct List: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "Show the gated apps (as they apply now), their timers and their shims.",
            discussion: "Example:\n  miga config apps list"
        )

        func run(_ context: MigaContext) throws {
            // What applies: an app whose removal waits out loosen_delay_minutes is still gated.
            let inForce = try ConfigInForce.load(context: context)
            let config = inForce.config
            let installer = try Installer(context: context)
            guard !config.apps.isEmpty else {
                try context.output.line("No apps are gated yet. Add one with: miga config apps add NAME")
                return
            }
            for app in config.apps.values.sorted(by: { $0.name < $1.name }) {
                let timer = app.timerSeconds.map { "\($0) s" } ?? "\(config.timerSeconds) s (the default)"
                try context.output.line("\(app.name)\n  command       \(app.command)\n  timer         \(timer)")
                if let removal = inForce.pending.first(where: { $0.setting == .app(app.name) && !$0.cancelled }) {
                    try context.output.line("  removed from config.toml; gated until the wait is over: "
                                            + ConfigInForce.describe(removal, now: context.clock.nowMilliseconds(), clock: context.clock))
                }
                for file in installer.manifest.files where file.app == app.name {
                    let kind = file.kind == .pathShim ? "PATH shim" : "desktop shim"
                    let exists = AtomicFile.exists(file.path) ? "" : "  (missing: run `miga install`)"
                    try context.output.line("  \(kind + String(repeating: " ", count: max(0, 13 - kind.count))) \(installer.layout.display(file.path))\(exists)")
                }
                if installer.manifest.file(at: installer.layout.pathShim(app.name)) == nil {
                    try context.output.line("  no shims yet: run `miga install`")
                }
                // An entry another app claimed first stays that app's (one entry, one gate).
                for found in installer.desktopEntries(running: app.command) {
                    let path = installer.layout.desktopShim(id: found.id)
                    if let owner = installer.manifest.file(at: path)?.app, owner != app.name {
                        try context.output.line("  desktop entry \(found.id) is gated as \(owner)")
                    }
                }
            }
        }
    }
}
