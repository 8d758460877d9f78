/// Runs the coming-back gate for the room watcher and says what the person chose.
public protocol ReentryGateRunner {
    /// `miga gate --app APP --reentry --window`'s answer, with `environment` added to the
    /// gate's (the desktop's activation token); nil when the gate failed or was killed, which
    /// the watcher takes as `open` (fail open).
    func run(app: String, environment: [String: String]) -> Gatekeeper.ReentryAnswer?
}

/// The gate as a child of the watcher: this miga, its answer read from its standard output.
public struct ChildReentryGate: ReentryGateRunner {
    let context: MigaContext

    public init(context: MigaContext) {
        self.context = context
    }

    public func run(app: String, environment: [String: String]) -> Gatekeeper.ReentryAnswer? {
        let command = ResolvedCommand(executable: context.executablePath,
                                      arguments: ["miga", "gate", "--app", app, "--reentry", "--window"])
        do {
            let result = try CapturedRun.run(command, environment: context.environment.merging(environment) { $1 }, limit: 4096)
            guard result.status == 0 else {
                context.messages.say("miga watch: the gate for \(app) ended with status \(result.status); \(app) stays open")
                return nil
            }
            // The last line is the answer (a plain gate on a terminal writes its text first).
            let lines = String(decoding: result.output, as: UTF8.self).split(separator: "\n")
            return lines.last.flatMap { Gatekeeper.ReentryAnswer(rawValue: String($0)) }
        } catch {
            context.messages.say("miga watch: the gate for \(app) could not start (\(error)); \(app) stays open")
            return nil
        }
    }
}
