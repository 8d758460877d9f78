import FoundationEssentials

/// The room watcher's rules (`miga watch`, under X11 or the GNOME Shell extension; DESIGN
/// "The room, not just the door"): which window is in front, whether coming back to a gated
/// app meets a gate, and the focused minutes. The desktop only reports and acts
/// (`DesktopSession`); the gate service decides.
///
/// - Coming back: a gated app's window comes to the front after its app was away from the
///   front (another window, nothing focused, or the person idle) for `reentry_minutes`, or
///   for the first time since the watcher started (autostarted at login, reopened from the
///   tray): `GateService.returnMeetsGate`, then the gate as a child (`ReentryGateRunner`),
///   whose `exit` minimises the window and anything else raises it (fail open).
/// - Minutes: while a gated window is in front and the person is not idle, a `focus` event
///   once a full tick (60 s) and the rest when focus leaves or idleness begins. Counted on
///   the monotonic clock, so a suspended laptop adds no minutes; time away is wall time.
/// - The config and the store are read afresh when the window in front changes.
public final class RoomWatch {
    struct Front {
        var window: WindowFacts
        var app: String
        /// Monotonic milliseconds from which focused time is counted; nil while idle.
        var countingSince: Int64?
    }

    let context: MigaContext
    let session: any DesktopSession
    let gate: any ReentryGateRunner
    let idleSeconds: Int
    let tickSeconds: Int
    /// Asks the budget's soft end for an app and its minutes: `close`, `keep`, or nil when
    /// nothing could ask (`SoftEndQuestion` in the gate window; tests give their own).
    public var askBudgetEnd: (String, Int) -> String?

    private var front: Front?
    /// Per app, the wall time (Unix ms) it left the front.
    private var leftFront: [String: Int64] = [:]
    private var service: GateService?
    private var watchingIdle = false
    /// Apps whose budget end could not be asked today (said once, as a notification).
    private var budgetNoticed: Set<String> = []

    public init(context: MigaContext, session: any DesktopSession, gate: (any ReentryGateRunner)? = nil) {
        self.context = context
        self.session = session
        self.gate = gate ?? ChildReentryGate(context: context)
        idleSeconds = RoomTiming.idleSeconds(environment: context.environment)
        tickSeconds = RoomTiming.tickSeconds(environment: context.environment)
        askBudgetEnd = { app, minutes in
            SoftEndQuestion(context: context).ask(app: app, text: DailyBudget.message(minutes: minutes, site: app),
                                                  closeLabel: "Close \(app)", canExtend: false)
        }
    }

    /// Follows the desktop until it ends; the exit status (0).
    public func run() -> Int32 {
        while true {
            let event: DesktopEvent?
            do {
                event = try session.next(milliseconds: millisecondsToTick())
            } catch {
                leaveFront()
                context.messages.say("miga watch: \(error)")
                return 0
            }
            tickIfDue()
            switch event {
            case nil: break
            case .focused(let window): focused(window)
            case .idle(let idle): idle ? becameIdle() : cameBack()
            }
        }
    }

    private var monotonicMilliseconds: Int64 { Int64(context.clock.monotonicNanoseconds() / 1_000_000) }
    private var tickMilliseconds: Int64 { Int64(tickSeconds) * 1000 }

    /// How long `next` may wait: until the next tick while counting, else for ever.
    func millisecondsToTick() -> Int32? {
        guard let since = front?.countingSince else { return nil }
        return Int32(clamping: max(0, since + tickMilliseconds - monotonicMilliseconds))
    }

    /// A full tick (or several) of focused time written, each followed by the budget's look.
    func tickIfDue() {
        guard var current = front, var since = current.countingSince else { return }
        while monotonicMilliseconds - since >= tickMilliseconds {
            since += tickMilliseconds
            current.countingSince = since
            front = current
            record(tickSeconds, app: current.app)
            askBudgetIfDue(current)
            // The question may have taken a while, or closed the window: as it stands now.
            guard let now = front, now.window.id == current.window.id, let next = now.countingSince else { return }
            (current, since) = (now, next)
        }
    }

    /// The window in front changed (nil: none).
    func focused(_ window: WindowFacts?) {
        if let window, let current = front, current.window.id == window.id {
            // The same window again: input, so whoever was idle is back.
            if current.countingSince == nil { cameBack() }
            return
        }
        leaveFront()
        // The store is opened only for a gated window: most changes of window cost a config read.
        guard let window, let config = loadConfig(),
              let app = GatedWindows(config: config, paths: context.paths, files: context.files).app(of: window),
              let service = loadService(config) else {
            watchIdle(false)
            return
        }
        self.service = service
        let away = leftFront[app].map { max(0, context.clock.nowMilliseconds() - $0) / 1000 }
        arrive(window, app: app, awaySeconds: away)
    }

    /// `app`'s window is in front after `awaySeconds` away (nil: its first time): the gate when
    /// the service says so, then counting, unless the person chose Exit.
    private func arrive(_ window: WindowFacts, app: String, awaySeconds: Int64?) {
        if let service, service.returnMeetsGate(app, isSite: false, awaySeconds: awaySeconds) {
            watchIdle(false)
            if gate.run(app: app, environment: session.activationEnvironment()) == .exit {
                session.minimise(window.id)
                leftFront[app] = context.clock.nowMilliseconds()
                front = nil
                return
            }
            session.raise(window.id)
        }
        front = Front(window: window, app: app, countingSince: monotonicMilliseconds)
        watchIdle(true)
    }

    /// The person went idle with a gated window in front: its rest is counted to when
    /// idleness began (`idleSeconds` before it was reported, never before the last tick),
    /// and from then its app is away.
    func becameIdle() {
        guard var current = front, let since = current.countingSince else { return }
        let now = monotonicMilliseconds
        let began = max(since, now - Int64(idleSeconds) * 1000)
        record(Int((began - since) / 1000), app: current.app)
        leftFront[current.app] = context.clock.nowMilliseconds() - (now - began)
        current.countingSince = nil
        front = current
    }

    /// Back from idle with the same gated window in front: a return like any other.
    func cameBack() {
        guard let current = front, current.countingSince == nil else { return }
        let away = leftFront[current.app].map { max(0, context.clock.nowMilliseconds() - $0) / 1000 }
        front = nil
        service = loadService() ?? service
        arrive(current.window, app: current.app, awaySeconds: away)
    }

    /// The window in front goes: its rest counted, its app away from now (or from when idleness
    /// began).
    func leaveFront() {
        guard let current = front else { return }
        front = nil
        guard let since = current.countingSince else { return }
        record(Int((monotonicMilliseconds - since) / 1000), app: current.app)
        leftFront[current.app] = context.clock.nowMilliseconds()
    }

    /// `seconds` of focused time on `app` (nothing under a second; at most a tick).
    private func record(_ seconds: Int, app: String) {
        guard seconds >= 1, let service else { return }
        if let problem = service.recordFocus(app, seconds: min(seconds, RoomTiming.tickSecondsRange.upperBound)) {
            context.messages.say("miga watch: could not record focused time on \(app): \(problem)")
        }
    }

    /// The budget's soft end, once it is due (asked once a day): Close asks the window to
    /// close, and never signals a process. The time the question took is not the app's.
    private func askBudgetIfDue(_ current: Front) {
        guard let service, let minutes = service.budgetEndDue(current.app, isSite: false,
                                                              focusSeconds: service.focusSecondsToday(current.app)) else { return }
        let day = "\(current.app) \(LocalMoment(clock: context.clock).day)"
        guard let choice = askBudgetEnd(current.app, minutes) else {
            // Nobody chose, so nothing is recorded; said once, as a notification.
            if budgetNoticed.insert(day).inserted {
                context.notifyDesktop(title: "miga · \(current.app)", DailyBudget.message(minutes: minutes, site: current.app))
            }
            return
        }
        do {
            _ = try service.endBudget(current.app, isSite: false, choice: choice == "close" ? "close" : "keep")
        } catch {
            context.messages.say("miga watch: \(error)")
        }
        if front?.window.id == current.window.id { front?.countingSince = monotonicMilliseconds }
        if choice == "close" { session.close(current.window.id) }
    }

    private func watchIdle(_ on: Bool) {
        guard on != watchingIdle else { return }
        watchingIdle = on
        session.watchIdle(on, idleSeconds: idleSeconds)
    }

    /// The config in force now; nil when it cannot be read (then nothing is gated or counted:
    /// fail open).
    private func loadConfig() -> MigaConfig? {
        (try? ConfigInForce.load(context: context, inFrontOfApp: true))?.config
    }

    /// The gate service as a gate would have it now; nil when the config or the store cannot
    /// be read.
    private func loadService(_ config: MigaConfig? = nil) -> GateService? {
        guard let config = config ?? loadConfig(), let store = try? EventStore(context: context) else { return nil }
        return GateService(config: config, store: store, context: context)
    }
}
