import FoundationEssentials

/// The person's other machines (`sync_folder`), for every front end. The sync folder may be
/// a network mount that stopped answering or a stick that stalls, so nothing in front of an
/// app touches it: a process of its own (`miga sync push`) folds the other machines' files
/// in, appends this machine's new events to its journal and brings `sync_config`'s copy
/// level, while the gate goes on; the gate only reads what that process put in the database.
extension GateService {
    /// The process started by `shareInBackground`.
    public final class BackgroundShare {
        let pid: Int32?
        /// Tells whether the process has ended.
        let processes: any ProcessService
        private var ended = false

        init(pid: Int32?, processes: any ProcessService) {
            self.pid = pid
            self.processes = processes
        }

        /// Whether it has finished (or could not start, or was let go); never waits.
        public var isDone: Bool {
            if !ended { ended = pid.map(processes.hasEnded) ?? true }
            return ended
        }

        /// Starts `miga sync push` when `store` writes to a journal (nil when sync is off).
        /// `watched`: as this process's child, so `isDone` can tell when it ends (a gate that
        /// waits for the other machines' events); else let go at once (through `sh`, so that
        /// an app exec'd next, or a long-running host, never has it as a child to reap).
        @discardableResult
        public static func start(store: EventStore, context: MigaContext, watched: Bool) -> BackgroundShare? {
            guard store.journal != nil else { return nil }
            store.journalBehind = false // the push sees every event committed before it starts
            let push = ResolvedCommand(executable: context.executablePath, arguments: ["miga", "sync", "push"])
            guard watched else {
                let letGo = ResolvedCommand(executable: "/bin/sh", arguments: ["sh", "-c", "\"$0\" sync push </dev/null >/dev/null 2>&1 &", push.executable])
                _ = try? context.launcher.run(letGo, environment: context.environment)
                return BackgroundShare(pid: nil, processes: context.processes)
            }
            return BackgroundShare(pid: try? context.launcher.spawnDetached(push, environment: context.environment),
                                   processes: context.processes)
        }
    }

    /// Starts `miga sync push` when sync is on (nil when it is off): what this process
    /// recorded so far goes to the journal, and what the other machines wrote comes in.
    @discardableResult
    public func shareInBackground(watched: Bool = false) -> BackgroundShare? {
        BackgroundShare.start(store: store, context: context, watched: watched)
    }

    /// `shareInBackground` again only if this process recorded events since the last: for the
    /// end of a gate, and for the browser's host after each message.
    public func shareIfBehind() {
        if store.journalBehind { shareInBackground() }
    }

    /// A gate's notes once the other machines' events are in (after `shareInBackground`
    /// finished): nil when "Nth time today · N min today" is as the plan had it. Only that line changes: the
    /// timer and the notes that explain it stay as the plan set them, since the countdown is
    /// already running.
    public func notesCountingOtherMachines(_ app: String, session: String, plan: GatePlan) -> [String]? {
        guard let history = try? store.history(app: app, on: LocalMoment(clock: context.clock).day, excluding: session),
              history.sessionsToday != plan.history.sessionsToday || history.focusSecondsToday / 60 != plan.history.focusSecondsToday / 60
        else { return nil }
        let old = GatePlan.attemptNote(plan.history)
        return (GatePlan.attemptNote(history).map { [$0] } ?? []) + plan.notes.filter { $0 != old }
    }
}
