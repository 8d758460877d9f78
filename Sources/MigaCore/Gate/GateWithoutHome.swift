/// `miga gate` when miga cannot place its own files at all: no absolute `$HOME` (or XDG
/// folders) and no home in the user database, as under some service managers and containers.
/// Like every other failure on miga's side this must not keep the app closed, so the app
/// opens without a pause and the person is told why in one line. There is no config or
/// database to consult, so nothing is recorded.
public enum GateWithoutHome {
    public static func run(_ request: GateRequest, problem: String, environment: [String: String],
                           launcher: ProcessLauncher = SystemLauncher(),
                           messages: MessageSink = StandardErrorSink(),
                           processes: any ProcessService = SystemProcesses(),
                           output: any TextOutput = StandardOutput()) -> Int32 {
        if request.reentry {
            // Coming back to a running app: nothing to start, and the answer is `open`.
            messages.say("miga: \(problem) — no pause for \(request.appName)")
            try? output.line(Gatekeeper.ReentryAnswer.open.rawValue)
            return 0
        }
        let searchPath = environment["PATH"] ?? CommandResolver.defaultSearchPath
        // Where this person's shim folder is cannot be known without a home, but every miga
        // shim folder is `…/miga/bin`; skipping those keeps a shim from finding itself.
        let shimFolders = searchPath.split(separator: ":").map(String.init).filter { $0.hasSuffix("/miga/bin") }
        let command: ResolvedCommand
        do {
            command = try CommandResolver(searchPath: searchPath, skipping: shimFolders).resolve(request.command)
        } catch let error as CommandError where error == .noCommand {
            messages.say("miga gate: \(error)")
            return 64
        } catch {
            messages.say("miga: \(error)")
            return 127
        }
        messages.say("miga: \(problem) — opening \(request.appName) without a pause")
        return Launch(command: command, app: request.appName, detach: request.detach, environment: environment,
                      launcher: launcher, messages: messages, ownProgram: processes.currentExecutablePath() ?? "").run()
    }
}
