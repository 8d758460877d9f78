import FoundationEssentials

/// `miga gate --app NAME --reentry [--window]`: coming back to an app that is already running
/// (DESIGN "The room, not just the door"). The same admission and gate as a launch, recorded
/// as `session_start` with `{"reentry":true}`, but nothing is started: the answer, `open` or
/// `exit`, is the last line on standard output and the caller (the GNOME Shell extension's
/// watcher, `miga watch`) raises or minimises the window. Exit status 0 either way; whatever
/// fails on miga's side answers `open`, since the app is the person's (fail open).
extension Gatekeeper {
    public enum ReentryAnswer: String, Sendable {
        case open, exit
    }

    func runReentry(_ request: GateRequest) -> Int32 {
        guard request.reentry else { return usage(.windowNeedsReentry) }
        guard let app = request.app else { return usage(.reentryNeedsApp) }
        guard MigaConfig.isValidGateName(app) else { return usage(.invalidAppName(app)) }
        guard request.command.isEmpty, !request.detach, request.handOff == nil else { return usage(.reentryRunsNothing) }
        let answer: ReentryAnswer
        switch open(app: app, launch: nil) {
        case .failedOpen: answer = .open
        case .service(let service): answer = reentryGate(request, app: app, service: service)
        }
        // A caller that left cannot act on it anyway; the window stays as it is.
        try? context.output.line(answer.rawValue)
        return 0
    }

    /// Admission with `reentry`, and the gate when there is one. A pass (grace, snooze, hours
    /// without a gate, an app no longer gated) answers `open` at once, without a gate.
    func reentryGate(_ request: GateRequest, app: String, service: GateService) -> ReentryAnswer {
        let store = service.store
        let recorder = GateRecorder(app: app, session: sessionID, store: store, clock: context.clock)
        guard case .gate(let plan) = service.admit(app, isSite: service.isSite(app), reentry: true, recorder: recorder) else {
            store.closeBeforeExec()
            return .open
        }
        GraceStamp.remove(app: app, environment: context.environment, files: context.files)
        let ending: GateEnding
        do {
            ending = try reentryFrontEnd(request, service: service, recorder: recorder, plan: plan)
        } catch let unavailable as WindowUnavailable {
            _ = failOpen(app: app, reason: "no_terminal", problem: "\(unavailable)", store: store, launch: nil)
            return .open
        } catch {
            _ = failOpen(app: app, reason: "gateway_error", problem: "\(error)", store: store, launch: nil)
            return .open
        }
        service.shareIfBehind()
        switch ending.outcome {
        case .open:
            // As any Open: the grace it started, which the PATH shim may then honour alone.
            if let until = service.graceUntil(app) { stampGrace(app: app, until: until, config: service.config, store: store) }
            leave(store)
            return .open
        case .exit:
            openChosenAlternative(ending, app: app, service: service)
            return .exit
        case .abandoned:
            context.signals.dieBySignal(ending.signal ?? Signal.hangUp)
        }
    }

    /// The gate window when asked for (`--window`) or when there is no terminal to draw on;
    /// else this terminal (full screen, or plain). Throws `WindowUnavailable` when neither can
    /// show it.
    func reentryFrontEnd(_ request: GateRequest, service: GateService, recorder: GateRecorder, plan: GatePlan) throws -> GateEnding {
        // Plain mode writes to standard output, which here carries the answer to a pipe.
        let terminal = context.hasTerminal && (context.terminalDevice == nil || !isPlain(request))
        if request.window || !terminal {
            if TerminalEmulators.graphicalSessionPresent(in: context.environment),
               let window = GateWindowLocator.find(executablePath: context.executablePath, environment: context.environment) {
                do {
                    return try runFrontEnd(request, service: service, recorder: recorder, plan: plan, window: window)
                } catch let unavailable as WindowUnavailable where terminal {
                    context.messages.say("miga: \(unavailable); showing the gate here")
                }
            }
            guard terminal else {
                throw WindowUnavailable(description: "no gate window could show (no display, or no miga-gate-window) and no terminal")
            }
        }
        return try runFrontEnd(request, service: service, recorder: recorder, plan: plan)
    }
}
