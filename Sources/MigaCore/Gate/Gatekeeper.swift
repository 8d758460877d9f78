import FoundationEssentials

/// What `miga gate` was asked to do.
public struct GateRequest: Equatable {
    public var app: String?
    public var command: [String]
    public var detach: Bool
    public var plain: Bool
    /// Set for a gate started in a terminal emulator by a gate without one: where to report
    /// that it is showing (see `HandOffReport`).
    public var handOff: String?
    /// `--reentry`: coming back to `app` already running (no command); the answer, `open` or
    /// `exit`, goes to standard output for the caller to act on (see `Gatekeeper+Reentry`).
    public var reentry: Bool
    /// `--window`: a coming-back gate shows in the gate window even beside a terminal.
    public var window: Bool

    public init(app: String? = nil, command: [String], detach: Bool = false, plain: Bool = false, handOff: String? = nil,
                reentry: Bool = false, window: Bool = false) {
        self.app = app
        self.command = command
        self.detach = detach
        self.plain = plain
        self.handOff = handOff
        self.reentry = reentry
        self.window = window
    }

    /// `--app`, or else the command's file name made into a valid name (`/opt/x/My App`
    /// is `My-App`): a program's name is never a reason to refuse it.
    public var appName: String { app ?? MigaConfig.appName(derivedFrom: String(command.first?.split(separator: "/").last ?? "app")) }
}

/// Runs one gateway from start to finish: pass-through checks, config, grace, the front end,
/// and what the person chose. Anything that goes wrong on miga's side fails open: the app
/// starts exactly as it would have without miga, and the person is told once why.
public final class Gatekeeper {
    public static let gatedVariable = "MIGA_GATED"

    let context: MigaContext
    let sessionID = GateRecorder.newSession()
    /// How long a gate without a terminal waits for the one it started in an emulator to show.
    public var handOffSeconds = 3.0
    /// Finds programs on PATH, never in miga's own shim folder.
    let resolver: CommandResolver
    /// When the trial ends, while it runs (a purchase: nil).
    var trialEnds: Date?

    public init(context: MigaContext) {
        self.context = context
        resolver = context.commandResolver
    }

    /// The process's exit status. Does not return when the app is exec'd.
    public func run(_ request: GateRequest) -> Int32 {
        if request.reentry || request.window { return runReentry(request) }
        guard !request.command.isEmpty else { return usage(GateError.noCommand) }
        let app = request.appName
        guard MigaConfig.isValidGateName(app) else { return usage(GateError.invalidAppName(app)) }

        let command: ResolvedCommand
        do {
            // Before anything is shown: a command that cannot run is the shell's 126 or 127
            // at once, not a countdown that ends in an error.
            command = try resolver.resolve(request.command)
        } catch {
            context.messages.say("miga: \(error)")
            return (error as? CommandError)?.status ?? 127
        }
        let launch = Launch(command: command, app: app, detach: request.detach, context: context)

        // Inside this very app's gate (it starts itself again): no second pause. Inside another
        // app's (a gated terminal, IDE or launcher starting this one), this app's own gate.
        if context.environment[Self.gatedVariable] == app {
            return launch.run()
        }
        switch open(app: app, launch: launch) {
        case .failedOpen(let status):
            return status
        case .service(let service):
            return gate(request, service: service, launch: launch)
        }
    }

    enum Opening {
        case service(GateService)
        /// miga could not gate (its config, its licence, its database): the app was launched.
        case failedOpen(Int32)
    }

    /// The config, the entitlement and the store a gate needs; failing open without one
    /// (`launch` nil: a coming-back gate, whose app is already running).
    func open(app: String, launch: Launch?) -> Opening {
        let config: MigaConfig
        do {
            let loaded = try ConfigInForce.load(context: context, inFrontOfApp: true)
            let due = ConfigWarningNotice(context: context).due(loaded.warnings)
            due.forEach { context.messages.say("miga: warning: \($0)") }
            if !due.isEmpty { context.messages.say("miga: (said once until they change; `miga doctor` lists them)") }
            config = loaded.config
        } catch {
            return .failedOpen(failOpen(app: app, reason: "config_error", problem: "\(error)", store: nil, launch: launch))
        }

        let entitlement = EntitlementStore(context: context).status()
        if !entitlement.gateEnabled {
            // The pause is off, never the app; the person hears why at most once a day.
            let announce = TrialNotice(context: context).due()
            return .failedOpen(failOpen(app: app, reason: "trial_expired", problem: "miga: \(entitlement.summary)", store: nil,
                                        launch: launch, announce: announce))
        }
        // A grace the shim may decide alone ends with the trial: after it, miga records the pass.
        // Not started yet: it starts at this gate at the earliest, so it ends no sooner than this.
        switch entitlement.state {
        case .trial(let end, _): trialEnds = end
        case .trialNotStarted: trialEnds = context.clock.now().addingTimeInterval(EntitlementStore.trialLength)
        default: break
        }

        do {
            return .service(GateService(config: config, store: try EventStore(context: context), context: context))
        } catch {
            return .failedOpen(failOpen(app: app, reason: "database_error", problem: "\(error)", store: nil, launch: launch))
        }
    }

    /// Admission, then the gate on whichever surface this launch has.
    func gate(_ request: GateRequest, service: GateService, launch: Launch) -> Int32 {
        let app = launch.app, config = service.config, store = service.store
        var recorder = GateRecorder(app: app, session: sessionID, store: store, clock: context.clock)
        let plan: GatePlan
        switch service.admit(app, isSite: service.isSite(app), recorder: recorder) {
        case .schedule, .removed:
            // Hours the person chose to have no gate, or an app they stopped gating: not a
            // fault, so nothing is said.
            store.closeBeforeExec()
            return launch.run()
        case .grace(let until):
            // The next pass in this grace can be the shim's alone.
            stampGrace(app: app, until: until, config: config, store: store)
            // On a terminal a pass says so (a person might wonder where the pause went).
            if context.hasTerminal { context.messages.say("miga: grace for \(app), \(minutesLeft(until)) min left") }
            store.closeBeforeExec()
            return launch.run()
        case .snooze(let until):
            if context.hasTerminal {
                context.messages.say("miga: snoozed: \(app) opens without a pause, \(minutesLeft(until)) min left (`miga snooze --off` ends it)")
            }
            store.closeBeforeExec()
            return launch.run()
        case .handedOver: // only the browser's gate takes these
            store.closeBeforeExec()
            return launch.run()
        case .gate(let gatePlan):
            plan = gatePlan
        }
        // A snooze's pause is no app's attempt: each of its events says so.
        recorder.marksSnooze = plan.isSnoozePause

        // No grace (any more): stamps of an earlier one would only make the shim look again.
        GraceStamp.remove(app: app, environment: context.environment, files: context.files)

        if config.weeklySummary {
            WeeklySummary(context: context).sendIfDue(store: store, today: LocalMoment(clock: context.clock).day)
        }

        // Plain mode reads and writes stdio itself, so through a pipe it has no terminal.
        guard context.hasTerminal, context.terminalDevice == nil || !isPlain(request) else {
            return showWithoutTerminal(request, service: service, recorder: recorder, plan: plan, launch: launch)
        }
        if let report = request.handOff, !HandOffReport.isAwaited(report) {
            return 0 // the gate that started this one gave up waiting and opened the app itself
        }

        do {
            return finish(try runFrontEnd(request, service: service, recorder: recorder, plan: plan), service: service, launch: launch)
        } catch {
            return failOpen(app: app, reason: "gateway_error", problem: "\(error)", store: store, launch: launch)
        }
    }

    /// `--plain`, or a terminal that cannot draw the full-screen gate.
    func isPlain(_ request: GateRequest) -> Bool {
        let term = context.environment["TERM"] ?? ""
        return request.plain || term.isEmpty || term == "dumb"
    }

    func finish(_ ending: GateEnding, service: GateService, launch: Launch) -> Int32 {
        let launch = launch.handingOn(activationToken: ending.activationToken)
        let app = launch.app, config = service.config, store = service.store
        // This gate's last events to the journal, by a process of its own (the folder may hang).
        service.shareIfBehind()
        switch ending.outcome {
        case .open:
            // The grace this Open started: `grace_minutes`, or the minutes it declared.
            if let until = service.graceUntil(app) { stampGrace(app: app, until: until, config: config, store: store) }
            // An app's soft end is miga's to give here; a site's (`open-url` handing a link on
            // to the browser through miga itself) is the browser extension's.
            if let box = service.timebox(session: sessionID), launch.command.executable != context.executablePath {
                return launch.detach ? watchTimeboxed(launch, box: box, service: service) : runTimeboxed(launch, box: box, service: service)
            }
            leave(store)
            return launch.run()
        case .exit:
            openChosenAlternative(ending, app: app, service: service)
            return 0
        case .abandoned:
            context.signals.dieBySignal(ending.signal ?? Signal.hangUp)
        }
    }

    /// An Exit that chose a "Do this instead" alternative opens it (a failure is said, on the
    /// terminal and as a notification).
    func openChosenAlternative(_ ending: GateEnding, app: String, service: GateService) {
        if let number = ending.alternative, let alternative = service.alternative(number, app: app),
           let problem = service.openAlternative(alternative, app: app) {
            context.messages.say("miga: \(problem)")
            _ = context.notifyDesktop(problem)
        }
    }

    /// A terminal app opened for so many minutes: miga waits for it instead of exec, and
    /// when it ends records the timebox as `gone` and, if it ran over, says so in one line.
    /// Its status is passed on (a signal that ended it ends miga too).
    func runTimeboxed(_ launch: Launch, box: Timebox, service: GateService) -> Int32 {
        let status = launch.run(waiting: true)
        // As the store has it now: the wall clock's minutes, a suspended laptop's included.
        let box = service.timebox(session: box.session) ?? box
        if box.ending == nil { _ = try? service.endTimebox(box, choice: "gone") }
        let now = context.clock.nowMilliseconds()
        if now > box.end {
            context.messages.say("miga: \(box.usedMinutes(at: now)) min in \(box.app); you said \(box.declaredMinutes).")
        }
        if status > 128, status < 128 + 65 { context.signals.dieBySignal(status - 128) }
        return status
    }

    /// A desktop app opened for so many minutes: started detached as ever, with a watch
    /// beside it (`miga timebox-watch`) that asks in the gate window when they are up. No
    /// watch, no soft end: the app is never held back for it.
    func watchTimeboxed(_ launch: Launch, box: Timebox, service: GateService) -> Int32 {
        var group: Int32 = 0
        let status = launch.run(group: &group)
        guard status == 0, group > 1 else { return status }
        // The group's number with its leader's start time, read now: the watch signals that
        // group only, never whatever has the number once the app is gone.
        let leader = AppProcessGroup.now(group).leaderStart ?? 0
        let watch = ResolvedCommand(executable: context.executablePath,
                                    arguments: ["miga", TimeboxWatch.commandName, box.session, String(group), String(leader)])
        do {
            try context.launcher.spawnDetached(watch, environment: context.environment)
        } catch {
            context.messages.say("miga: no soft end for \(box.app) (\(error)); it is open for your \(box.minutes) minute\(box.minutes == 1 ? "" : "s")")
        }
        return status
    }

    /// Lets the PATH shim decide the rest of a grace alone (see `GraceStamp`): not while hours
    /// without a gate are configured, since in them a pass is recorded as a schedule's, which
    /// only miga can tell; and no longer than the trial runs.
    func stampGrace(app: String, until: Date, config: MigaConfig, store: EventStore) {
        guard !config.schedules.contains(where: { !$0.gate }) else { return }
        GraceStamp.write(app: app, until: trialEnds.map { min($0, until) } ?? until, spool: store.spoolFolder,
                         environment: context.environment, files: context.files)
    }

    /// Whole minutes until `until`, rounded up, at least 1: what a pass's line says is left.
    func minutesLeft(_ until: Date) -> Int {
        max(1, Int((until.timeIntervalSince(context.clock.now()) / 60).rounded(.up)))
    }

    /// miga's own failure never keeps the person from their app.
    /// Before the app runs after a gate (or failing open): what it recorded goes to the sync
    /// folder's journal by a process of its own, never waited on (the folder may hang), and
    /// the store is left as an exec needs it. A pass (grace, schedule, snooze) starts none:
    /// it is the launch that must cost least, and its one event goes with the next gate's
    /// push or command (a pass is no attempt, so no count waits for it).
    func leave(_ store: EventStore) {
        if store.journalBehind { GateService.BackgroundShare.start(store: store, context: context, watched: false) }
        store.closeBeforeExec()
    }

    func failOpen(app: String, reason: String, problem: String, store: EventStore?, launch: Launch?,
                          announce: Bool = true) -> Int32 {
        // A snooze is an Open of everything it names: it starts only after its own countdown
        // was seen, so its gate is the one that never opens without a pause.
        if app == Snooze.gateName {
            let message = "miga: \(SnoozeError.noPause(problem.hasPrefix("miga: ") ? String(problem.dropFirst(6)) : problem))"
            context.messages.say(message)
            context.notifyDesktop(message)
            return 1
        }
        let message = problem.hasPrefix("miga: ") ? problem : "miga: \(problem) — opening \(app) without a pause"
        if announce { context.messages.say(message) }
        // Record why, even when the config was the problem. When the database itself was the
        // problem it is not tried a second time: the event waits in the spool until it is usable.
        let skipped = GateRecorder.event(.gatewaySkipped, app: app, session: sessionID, clock: context.clock,
                                         detail: Event.reasonDetail(reason))
        do {
            if reason == "database_error" {
                try EventStore.spool([skipped], besideDatabase: context.paths.database, overflow: context.paths.overflowSpool,
                                     files: context.files, processes: context.processes)
            } else {
                let store = try store ?? EventStore(context: context)
                try store.record(skipped)
                leave(store)
            }
        } catch {
            context.messages.say("miga: could not record that: \(error)")
        }
        // A desktop notification too, since a launcher's stderr is seen by nobody.
        if announce { context.notifyDesktop(message) }
        return launch?.run() ?? 0
    }

    func usage(_ error: GateError) -> Int32 {
        context.messages.say("miga gate: \(error)")
        return 64
    }
}
