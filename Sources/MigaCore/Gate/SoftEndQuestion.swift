import GateWindowProtocol

/// A soft end asked in the gate window beside a desktop app — a timebox's ("Your 10 minutes
/// in discord are up": `TimeboxWatch`) or the daily budget's (the room watcher): the text,
/// "Close APP", "5 more minutes" when offered, "Keep going". One question, for both.
public struct SoftEndQuestion {
    let context: MigaContext

    public init(context: MigaContext) {
        self.context = context
    }

    /// The choice (`close`, `extend`, `keep`), or nil when the window could not show. A window
    /// closed once it showed is Keep going.
    public func ask(app: String, text: String, closeLabel: String, canExtend: Bool) -> String? {
        guard let executable = GateWindowLocator.find(executablePath: context.executablePath, environment: context.environment),
              let window = try? WindowProcess(executable: executable, environment: context.environment) else { return nil }
        defer { window.finish(within: 1) }
        window.send(.setUp(app: app, animations: false, breathing: false))
        window.send(.softEnd(text: text, closeLabel: closeLabel, canExtend: canExtend))
        var shown = false
        while true {
            let ready = context.terminal.waitForInput([window.readDescriptor], milliseconds: shown ? 60_000 : Int32(WindowGate.showSeconds * 1000))
            if ready[0].isEmpty {
                if shown { continue } // asked, and waiting for the person
                return nil
            }
            guard let messages = window.receive() else { return shown ? "keep" : nil } // closed: as Keep going
            for message in messages {
                switch message {
                case .shown: shown = true
                case .softEndChoice(let choice):
                    window.send(.close)
                    return choice
                default: break
                }
            }
        }
    }
}
