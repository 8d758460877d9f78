import FoundationEssentials

/// Showing the gate: the window, the terminal or plain mode, or none of them.
extension Gatekeeper {
    /// No terminal (a desktop launcher, a key binding): the gate window when there is a
    /// graphical session and it shows, else a terminal emulator, else fail open.
    func showWithoutTerminal(_ request: GateRequest, service: GateService, recorder: GateRecorder, plan: GatePlan,
                                     launch: Launch) -> Int32 {
        let app = recorder.app, config = service.config, store = service.store
        if TerminalEmulators.graphicalSessionPresent(in: context.environment),
           let window = GateWindowLocator.find(executablePath: context.executablePath, environment: context.environment) {
            do {
                return finish(try runFrontEnd(request, service: service, recorder: recorder, plan: plan, window: window),
                              service: service, launch: launch)
            } catch let unavailable as WindowUnavailable {
                context.messages.say("miga: \(unavailable); trying a terminal")
            } catch {
                return failOpen(app: app, reason: "gateway_error", problem: "\(error)", store: store, launch: launch)
            }
        }
        return handOffToTerminalEmulator(request, app: app, config: config, store: store, launch: launch)
    }

    /// The gate in this terminal, or in the window program at `window`.
    func runFrontEnd(_ request: GateRequest, service: GateService, recorder: GateRecorder, plan: GatePlan,
                             window: String? = nil) throws -> GateEnding {
        let content = try service.content()
        // The first frame is drawn from reads alone: its item is picked now and written, with
        // the events recorded before it is up (session_start), right after it, each with the
        // time it happened. Writing first would put a sync of the database's log (a new WAL
        // is synced, with its folder) between exec and the first frame.
        guard let (first, firstDraw) = content.pick() else {
            throw ContentError(pack: "library", line: nil, problem: "no content to show")
        }
        let events = HeldEvents(recorder: recorder, store: service.store, firstDraw: firstDraw, clock: context.clock)
        // Whatever ends the gate first (a hang-up, a terminal that fails), nothing held is lost.
        defer { events.release() }
        let session = GateSession(app: recorder.app, plan: plan, item: first, startedAt: context.clock.monotonicNanoseconds())
        let driver = GateDriver(session: session, record: events.record, nextItem: { content.draw() })
        // Once the first frame is up, tell the gate that started this one (if it gave up
        // meanwhile it has opened the app, and this gate must end without doing so again),
        // then write what waited for the frame.
        let shown: () -> Bool = {
            let awaited = request.handOff.map { HandOffReport.reportShown($0, files: self.context.files, processes: self.context.processes) } ?? true
            events.release()
            // The other machines' events (sync_folder), now the pause is on screen, by a
            // process of its own: the folder never delays a frame or a key, and "3rd time
            // today" counts them from the tick after they are in.
            if let share = service.shareInBackground(watched: true) {
                driver.afterTick = { [unowned driver] in
                    guard share.isDone else { return }
                    driver.afterTick = nil
                    if let notes = service.notesCountingOtherMachines(recorder.app, session: recorder.session, plan: plan) { driver.replaceNotes(notes) }
                }
            }
            return awaited
        }
        let signals = try SignalPipe()
        var ending: GateEnding
        if let window {
            ending = try runWindow(window, driver: driver, signals: signals, service: service, shown: shown,
                                   executable: request.command.first ?? "")
        } else if isPlain(request) {
            ending = runPlain(driver: driver, signals: signals, service: service, shown: shown)
        } else {
            ending = try runTerminal(driver: driver, signals: signals, service: service, shown: shown)
        }
        events.release()
        events.failures.forEach { context.messages.say("miga: could not record an event: \($0)") }
        ending.alternative = driver.session.chosenAlternative
        return ending
    }

    func runWindow(_ window: String, driver: GateDriver, signals: SignalPipe, service: GateService,
                           shown: @escaping () -> Bool, executable: String = "") throws -> GateEnding {
        let process: WindowProcess
        do {
            process = try WindowProcess(executable: window, environment: context.environment)
        } catch {
            throw WindowUnavailable(description: "the gate window could not start: \(error)")
        }
        let style = GateStyle(config: service.config, environment: context.environment)
        let environment = context.environment
        return try WindowGate(driver: driver, channel: process, signals: signals, clock: context.clock, style: style,
                              terminal: context.terminal, imagePath: { ContentImage.path(of: $0, environment: environment) },
                              executable: executable)
            .run(celebration: service.celebration, shown: shown)
    }

    func runPlain(driver: GateDriver, signals: SignalPipe, service: GateService,
                          shown: @escaping () -> Bool) -> GateEnding {
        let ending = PlainGate(driver: driver, clock: context.clock, signals: signals, terminal: context.terminal, write: { text in
            self.context.terminal.say(text, to: .standardOutput) // a hang-up arrives as a signal
        }).run(shown: shown)
        if ending.outcome == .exit, !ending.withdrawn { context.messages.say(service.celebration()) }
        return ending
    }

    func runTerminal(driver: GateDriver, signals: SignalPipe, service: GateService,
                             shown: @escaping () -> Bool) throws -> GateEnding {
        let style = GateStyle(config: service.config, environment: context.environment)
        var terminal = LinuxTerminal()
        if let device = context.terminalDevice {
            // The pipes are the app's: the gate draws on the terminal itself.
            terminal = try LinuxTerminal(device: device)
        }
        let tui = TerminalGate(driver: driver, screen: GateScreen(style: style), terminal: terminal,
                             signals: signals, clock: context.clock)
        // Asked once: the animation shows it, and the line after the gate repeats it.
        var message: String?
        let celebration = { () -> String in
            let text = message ?? service.celebration()
            message = text
            return text
        }
        let ending = try tui.run(celebration: style.animations ? celebration : nil, shown: shown)
        if ending.outcome == .exit, !ending.withdrawn { context.messages.say(celebration()) }
        return ending
    }
}
