import GateWindowProtocol

/// The soft end of a desktop app opened "for 10 minutes" (`miga timebox-watch`, started
/// detached by the gate beside the app): a quiet notification a minute before, then the gate
/// window asks "Your 10 minutes in discord are up" — Close discord (SIGTERM to the process
/// group miga started, only while it is still the app's: `AppProcessGroup`), 5 more minutes (once), Keep going. An app already gone is recorded as
/// `gone`. The timebox is read from the store at every step, so an answer given elsewhere, or
/// a clock that moved, is seen; a failure here ends the watch and never touches the app.
///
/// Between steps it sleeps until something changes (`TimeboxWatch.Wakes`): the next deadline
/// (the notice, the end) on a wall-clock timer, the app's processes ending (pidfds), the
/// store's folder (inotify), the wall clock set. Nothing fires while the app simply runs.
public struct TimeboxWatch {
    /// The hidden command the gate starts it with: `miga timebox-watch SESSION GROUP START`
    /// (START: the group leader's start time, `AppProcessGroup.leaderStart`, 0 when it had
    /// already ended).
    public static let commandName = "timebox-watch"
    let context: MigaContext
    /// How often, at most, the watch looks at the store and the app while it waits, where the
    /// kernel cannot wake it (no timerfd, inotify or pidfd).
    public var pollMilliseconds = 5_000
    /// How long a closed app has to go after SIGTERM before it is said to be still running.
    public var closeSeconds = 5.0

    public init(context: MigaContext) {
        self.context = context
    }

    /// Watches the timebox of the Open in `session` over the app's process group `group`. A
    /// group whose number now names another process is the app gone.
    public func run(session: String, group: AppProcessGroup) -> Int32 {
        let wakes = Wakes(group: group.group, store: context.paths.database)
        var noticed = false
        while true {
            // Taken before the look: a write during it is seen after it (a look of our own
            // changes the files at most once, when it ends the write-ahead log).
            wakes.storeSeen = wakes.storeStamps()
            guard let wait = step(session: session, group: group, noticed: &noticed) else { return 0 }
            sleep(milliseconds: wait, wakes)
        }
    }

    /// One look at the timebox and the app: how long to sleep before the next (the next
    /// deadline), or nil when the watch is done.
    private func step(session: String, group: AppProcessGroup, noticed: inout Bool) -> Int64? {
        guard let service = service(), let box = service.timebox(session: session), box.ending == nil else { return nil }
        guard group.isStillTheApp else {
            _ = try? service.endTimebox(box, choice: "gone")
            return nil
        }
        let now = context.clock.nowMilliseconds()
        if now < box.end {
            if !noticed, now >= box.noticeAt {
                noticed = true
                context.notifyDesktop(title: "miga · \(box.app)", "1 minute left of your \(box.declaredMinutes) in \(box.app)")
            }
            return (now < box.noticeAt ? box.noticeAt : box.end) - now
        }
        switch ask(box) {
        case "close"?:
            _ = try? service.endTimebox(box, choice: "close")
            close(group, app: box.app)
            return nil
        case "extend"?:
            if (try? service.endTimebox(box, choice: "extend")) == nil { return nil }
            noticed = false
            return 0
        case "keep"?:
            _ = try? service.endTimebox(box, choice: "keep")
            return nil
        default:
            // No window to ask in: said once, as a notification; nothing is recorded, since
            // nobody chose.
            context.notifyDesktop(title: "miga · \(box.app)", box.endLine)
            return nil
        }
    }

    /// What wakes the watch between steps; each kind missing (an old kernel, no inotify
    /// watches left) leaves the watch looking every `pollMilliseconds` instead.
    final class Wakes {
        let alarm = WallClockAlarm()
        let group: ProcessGroupWatch
        let store: FileWatch
        let storePath: String
        /// The store's files as the last step found them.
        var storeSeen: [ConfigStamp] = []

        init(group: Int32, store: String) {
            self.group = ProcessGroupWatch(group: group)
            self.store = FileWatch(file: store)
            storePath = store
        }

        var eventDriven: Bool { alarm.descriptor >= 0 && store.descriptor >= 0 && group.watching }

        /// The database and its write-ahead log: a change of either is a write by someone.
        func storeStamps() -> [ConfigStamp] { [storePath, storePath + "-wal"].map(ConfigStamp.init(path:)) }
    }

    /// Sleeps `milliseconds` (wall-clock time, a suspend included), or until the app's
    /// processes, the store or the wall clock may have changed.
    private func sleep(milliseconds: Int64, _ wakes: Wakes) {
        guard milliseconds > 0 else { return }
        guard wakes.eventDriven, wakes.alarm.arm(inMilliseconds: milliseconds) else {
            context.processes.sleepCountingSuspend(milliseconds: Int(min(milliseconds, Int64(pollMilliseconds))))
            return
        }
        _ = wakes.store.drain()
        if wakes.storeStamps() != wakes.storeSeen { return }
        while true {
            let descriptors = [wakes.alarm.descriptor, wakes.store.descriptor] + wakes.group.descriptors
            let ready = context.terminal.waitForInput(descriptors.map(FileDescriptor.init(rawValue:)), milliseconds: -1)
            if !ready[0].isEmpty { return }
            if ready.dropFirst(2).contains(where: { !$0.isEmpty }) {
                wakes.group.rearm()
                return
            }
            // Woken by the store's folder (or a signal): only a write to the store is news.
            if wakes.store.drain(), wakes.storeStamps() != wakes.storeSeen { return }
        }
    }

    /// A service as a gate would have it now (config and store read afresh); nil when
    /// neither can be read, which ends the watch.
    private func service() -> GateService? {
        // No database, no timebox: the watch makes none.
        guard AtomicFile.exists(context.paths.database), let loaded = try? ConfigInForce.load(context: context, inFrontOfApp: true),
              let store = try? EventStore(context: context) else { return nil }
        return GateService(config: loaded.config, store: store, context: context)
    }

    /// The soft end in the gate window: the choice, or nil when the window could not show.
    private func ask(_ box: Timebox) -> String? {
        SoftEndQuestion(context: context).ask(app: box.app, text: box.endLine,
                                              closeLabel: "Close \(box.app)", canExtend: !box.extended)
    }

    /// SIGTERM to the app's process group, while it is still the app's; if it is still there
    /// after `closeSeconds`, says so (it may be asking to save something): miga never forces it.
    private func close(_ group: AppProcessGroup, app: String) {
        guard group.terminate() else { return }
        let deadline = context.clock.monotonicNanoseconds() + UInt64(closeSeconds * 1e9)
        while group.isStillTheApp, context.clock.monotonicNanoseconds() < deadline {
            context.processes.sleepCountingSuspend(milliseconds: 100)
        }
        if group.isStillTheApp {
            context.notifyDesktop(title: "miga · \(app)", "\(app) did not close when asked; it is still running")
        }
    }
}
