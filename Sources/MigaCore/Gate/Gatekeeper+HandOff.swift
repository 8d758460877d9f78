import FoundationEssentials

/// Handing the gate to a terminal emulator when there is no terminal and no window.
extension Gatekeeper {
    /// Without a terminal (a desktop launcher, a key binding): show the gate in a terminal
    /// emulator when there is a graphical session, else fail open.
    func handOffToTerminalEmulator(_ request: GateRequest, app: String, config: MigaConfig,
                                           store: EventStore, launch: Launch) -> Int32 {
        let emulators = TerminalEmulators(setting: config.terminal, environment: context.environment, resolver: resolver)
        guard emulators.graphicalSessionPresent else {
            return failOpen(app: app, reason: "no_terminal",
                            problem: "no terminal and no graphical session to open one in", store: store, launch: launch)
        }
        let report: String
        do {
            report = try HandOffReport.create(environment: context.environment, paths: context.paths, files: context.files)
        } catch {
            return failOpen(app: app, reason: "no_terminal", problem: "\(error)", store: store, launch: launch)
        }
        // The app must outlive the terminal window, so the inner gate always detaches.
        let inner = [context.executablePath, "gate", "--app", app, "--detach"]
            + (request.plain ? ["--plain"] : []) + ["--handoff", report, "--"] + request.command
        guard let terminal = emulators.command(running: inner) else {
            HandOffReport.remove(report, files: context.files)
            return failOpen(app: app, reason: "no_terminal",
                            problem: "no terminal emulator found (set `terminal` in config.toml)", store: store, launch: launch)
        }
        do {
            try context.launcher.spawnDetached(terminal, environment: context.environment)
        } catch {
            HandOffReport.remove(report, files: context.files)
            return failOpen(app: app, reason: "no_terminal", problem: "\(error)", store: store, launch: launch)
        }
        // It counts only once the gate inside says it is showing: an emulator without a
        // display, or a broken one, is the same as none.
        let shown = HandOffReport.awaitShown(report, seconds: handOffSeconds, processes: context.processes)
        HandOffReport.remove(report, files: context.files)
        guard shown else {
            let name = terminal.arguments.first.map { FilePath.lastComponent(of: $0) } ?? "the terminal"
            return failOpen(app: app, reason: "no_terminal",
                            problem: "\(name) did not show the gate within \(Int(handOffSeconds)) s (no display?)", store: store, launch: launch)
        }
        return 0
    }
}
