/// "Do this instead": the person's own alternatives, which a gate shows beside Exit. Choosing
/// one is an Exit (the session records it); opening it is here, for every front end.
extension GateService {
    /// The alternative a gate of `app` showed as `number` (1-based), as the plan lists them.
    public func alternative(_ number: Int, app: String) -> Alternative? {
        let shown = Alternative.shown(config.alternatives, app: app)
        return number >= 1 && number <= shown.count ? shown[number - 1] : nil
    }

    /// Opens `alternative`, chosen at a gate of `app`, never gated: a command detached from
    /// the gate (it outlives a closing terminal or window), a link through the person's own
    /// browser as `open-url` forwards it after an Open (so the browser's own gate lets it
    /// through once). The problem, to say in one line, when it could not start.
    public func openAlternative(_ alternative: Alternative, app: String) -> String? {
        var environment = context.environment
        // What the gate's app passed on to it does not belong to this program.
        environment[Gatekeeper.gatedVariable] = nil
        let words: [String]
        switch alternative.action {
        case .command(let command): words = command
        case .url(let url): words = [context.executablePath, "open-url", "--forward", "--", url]
        }
        do {
            let command = try context.commandResolver.resolve(words)
            if case .url = alternative.action {
                try context.launcher.spawnDetachedKeepingErrors(command, environment: environment)
            } else {
                try context.launcher.spawnDetached(command, environment: environment)
            }
            return nil
        } catch {
            return "could not open \"\(alternative.label)\": \(error); check its [[alternative]] table (`miga config show`)"
        }
    }
}
