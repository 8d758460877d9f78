import FoundationEssentials

/// Starting the app once the gate is done: exec in place, or detached for desktop launches.
struct Launch {
    var command: ResolvedCommand
    /// The gate's app, which MIGA_GATED names in the app's environment.
    var app: String
    var detach: Bool
    var environment: [String: String]
    var launcher: ProcessLauncher
    var messages: MessageSink
    /// This miga: a command that is miga itself (open-url's forwarder after Open) keeps the
    /// gate's stderr when detached, to say if the browser failed; an app's output never does.
    var ownProgram: String

    /// The app inherits MIGA_GATED=APP: when it starts itself again through a shim or a gate,
    /// that passes straight through; any other gated app it starts meets its own gate.
    /// `waiting`: on the terminal, run it and wait (its timebox is reported when it ends)
    /// rather than exec.
    func run(waiting: Bool = false) -> Int32 {
        var group: Int32 = 0
        return run(waiting: waiting, group: &group)
    }

    /// The same, with the process group of a detached app in `group`.
    func run(waiting: Bool = false, group: inout Int32) -> Int32 {
        var environment = environment
        environment[Gatekeeper.gatedVariable] = app
        do {
            if detach {
                if command.executable == ownProgram {
                    try launcher.spawnDetachedKeepingErrors(command, environment: environment)
                } else {
                    group = try launcher.spawnDetached(command, environment: environment)
                }
                return 0
            }
            if waiting { return try launcher.runInForeground(command, environment: environment) }
            try launcher.exec(command, environment: environment)
        } catch {
            messages.say("miga: \(error)")
            // As shells do: 127 when there is no such file, 126 when it cannot be executed.
            return (error as? LaunchError)?.code == ErrorCode.noSuchFile ? 127 : 126
        }
    }
}

extension Launch {
    /// The variables by which a launcher hands its activation token to what it starts: GLib
    /// and xdg-activation (`XDG_ACTIVATION_TOKEN`), X11 startup notification and GTK 4.8 on
    /// Wayland too (`DESKTOP_STARTUP_ID`).
    static let activationVariables = ["XDG_ACTIVATION_TOKEN", "DESKTOP_STARTUP_ID"]

    /// The launch after a gate was shown: the launcher's token was the gate's (spent, and older
    /// than the person's Open), so it never reaches the app; the token the window got for the
    /// app on Open takes its place, so the app's window comes to the front focused.
    func handingOn(activationToken token: String?) -> Launch {
        var launch = self
        for name in Self.activationVariables { launch.environment[name] = token }
        return launch
    }

    init(command: ResolvedCommand, app: String, detach: Bool, context: MigaContext) {
        self.init(command: command, app: app, detach: detach, environment: context.environment,
                  launcher: context.launcher, messages: context.messages, ownProgram: context.executablePath)
    }
}

/// A gate's events until its first frame is up: written then (with the first item's place in
/// the rotation), each with the time it happened, so no write of the database's log comes
/// between exec and the frame; after that, written as they happen.
final class HeldEvents {
    private let recorder: GateRecorder
    private let store: EventStore
    private let firstDraw: ShuffleBag.Draw
    private let clock: MigaClock
    private var held: [(type: EventType, contentID: String?, wait: Int?, detail: String?, at: Date)]? = []
    /// What could be kept nowhere, not even in the spool.
    private(set) var failures: [String] = []

    init(recorder: GateRecorder, store: EventStore, firstDraw: ShuffleBag.Draw, clock: MigaClock) {
        self.recorder = recorder
        self.store = store
        self.firstDraw = firstDraw
        self.clock = clock
    }

    func record(_ type: EventType, contentID: String?, wait: Int?, detail: String?) {
        if held != nil {
            held?.append((type, contentID, wait, detail, clock.now()))
        } else if let problem = recorder.record(type, contentID: contentID, waitMilliseconds: wait, detail: detail) {
            failures.append(problem)
        }
    }

    /// Writes what was held, once.
    func release() {
        guard let events = held else { return }
        held = nil
        // The rotation only: under another process's lock it is let go (the item may come
        // round sooner), as a gate never waits; the events below are spooled instead.
        try? store.markShown(firstDraw)
        for event in events {
            if let problem = recorder.record(event.type, contentID: event.contentID, waitMilliseconds: event.wait,
                                             detail: event.detail, at: event.at) {
                failures.append(problem)
            }
        }
    }
}
