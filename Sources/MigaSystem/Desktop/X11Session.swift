#if canImport(Glibc)
import Glibc
#endif
import ControlCharacters
import CX11

/// The X11 desktop for `miga watch`: EWMH's `_NET_ACTIVE_WINDOW`, the window's
/// `_GTK_APPLICATION_ID`, `WM_CLASS` and `_NET_WM_PID`, and the screensaver extension's idle
/// time, through libxcb loaded with dlopen (so `miga` links nothing more).
///
/// It waits in poll(2) on the X connection: the window manager's change of the root window's
/// `_NET_ACTIVE_WINDOW` wakes it, and, only while the watcher asks about idleness, an alarm
/// of the SYNC extension on the server's `IDLETIME` counter (the person idle for the
/// threshold, or back) — nothing else does. Every property is read with a length cap, and
/// its bytes are taken as they come (invalid UTF-8 as U+FFFD): other programs set them.
public final class X11Session: DesktopSession {
    private let xcb: MigaXcb
    private let connection: UnsafeMutableRawPointer
    private let root: UInt32
    /// An input-only window of miga's own, never mapped: a property changed on it comes back
    /// with the X server's time, which raising a window and starting one need.
    private let clock: UInt32
    private let atoms: Atoms
    /// The X server's time of the last property change seen (0: none yet, CurrentTime).
    private var serverTime: UInt32 = 0
    private var clockTicked = false
    /// The window last reported in front: nil before the first report, .some(nil) for none.
    private var reported: UInt32??
    /// Whether `_NET_ACTIVE_WINDOW` changed since it was last read (true at first: the
    /// window already in front when the watcher starts is reported, as seen for the first time).
    private var activeChanged = true
    private var idleThreshold: Int64?
    private var idle = false
    /// When idleness is looked at next (monotonic ms); `never` while an alarm waits instead.
    private var nextIdleCheck: Int64 = 0
    /// The SYNC extension's alarms on `IDLETIME`, set up the first time idleness is watched;
    /// nil when libxcb-sync or the extension is missing (then `nextIdleCheck` is a timer).
    private var alarms: IdleAlarms?
    private var alarmsTried = false
    /// The alarm armed now, if any, and whether it rang since the last look.
    private var armed: UInt32?
    private var alarmRang = false
    /// When the last input before going idle was, on the monotonic clock.
    private var lastInputWhenIdle: Int64 = 0
    private var startups = 0

    /// How much of a property is read: an app id or WM_CLASS is a few dozen bytes; a window
    /// that sets a megabyte gets its first kilobyte read.
    static let propertyLimit = 1024
    /// How often idleness is looked at again once the person is idle (to see them back),
    /// when no SYNC alarm can wake the session instead (libxcb-sync or the extension missing).
    static let idleRecheckMilliseconds: Int64 = 2000
    static let never = Int64.max
    /// How far the X server's idle count and miga's clock may drift between two looks.
    static let clockSlack: Int64 = 250
    /// How long "no window in front" is given to become a window (see `activeWindowSettled`).
    static let settleMilliseconds: Int64 = 200

    private struct Atoms {
        var activeWindow: UInt32
        var applicationID: UInt32
        var pid: UInt32
        var changeState: UInt32
        var closeWindow: UInt32
        var clock: UInt32
    }

    // The X protocol's own numbers (xproto.h).
    private enum X {
        static let atomWindow: UInt32 = 33, atomCardinal: UInt32 = 6, atomString: UInt32 = 31, atomWMClass: UInt32 = 67
        static let anyPropertyType: UInt32 = 0
        static let propertyNotify: UInt8 = 28
        static let clientMessage: UInt8 = 33
        static let propertyChangeMask: UInt32 = 0x0040_0000
        static let substructureRedirectAndNotify: UInt32 = 0x0018_0000
        static let eventMaskAttribute: UInt32 = 0x800
        static let inputOnly: UInt16 = 2
        static let iconicState: UInt32 = 3
        /// `_NET_ACTIVE_WINDOW`'s and `_NET_CLOSE_WINDOW`'s source: a pager, which a window
        /// manager obeys (an application's request may be refused as focus stealing).
        static let sourcePager: UInt32 = 2
    }

    /// Connects to `display` (nil: `$DISPLAY`). Throws `DesktopSessionEnded` with a one-line
    /// reason when there is no X server to talk to or libxcb cannot be loaded.
    public static func connect(display: String?) throws -> X11Session {
        guard let loaded = miga_xcb() else {
            let reason = miga_xcb_error().map { String(cString: $0) } ?? "unknown error"
            throw DesktopSessionEnded("libxcb could not be loaded: \(TerminalText.excerpt(reason)) (Debian: sudo apt install libxcb1)")
        }
        let xcb = loaded.pointee
        guard let name = display ?? getenv("DISPLAY").map({ String(cString: $0) }), !name.isEmpty else {
            throw DesktopSessionEnded("no X display: DISPLAY is not set (run miga watch inside an X11 session)")
        }
        var screen: Int32 = 0
        guard let connection = xcb.connect(name, &screen) else {
            throw DesktopSessionEnded("no X display: cannot connect to \(TerminalText.excerpt(name))")
        }
        guard xcb.connection_has_error(connection) == 0, let root = rootWindow(xcb, connection, screen: screen) else {
            xcb.disconnect(connection)
            throw DesktopSessionEnded("no X display: cannot connect to \(TerminalText.excerpt(name))")
        }
        guard let atoms = internAtoms(xcb, connection) else {
            xcb.disconnect(connection)
            throw DesktopSessionEnded("no X display: \(TerminalText.excerpt(name)) closed the connection")
        }
        var mask = [X.propertyChangeMask]
        _ = xcb.change_window_attributes(connection, root, X.eventMaskAttribute, &mask)
        let clock = xcb.generate_id(connection)
        _ = xcb.create_window(connection, 0, clock, root, -1, -1, 1, 1, 0, X.inputOnly, 0, X.eventMaskAttribute, &mask)
        _ = xcb.flush(connection)
        return X11Session(xcb: xcb, connection: connection, root: root, clock: clock, atoms: atoms)
    }

    private init(xcb: MigaXcb, connection: UnsafeMutableRawPointer, root: UInt32, clock: UInt32, atoms: Atoms) {
        self.xcb = xcb
        self.connection = connection
        self.root = root
        self.clock = clock
        self.atoms = atoms
    }

    deinit { xcb.disconnect(connection) }

    private static func rootWindow(_ xcb: MigaXcb, _ connection: UnsafeMutableRawPointer, screen: Int32) -> UInt32? {
        guard let setup = xcb.get_setup(connection) else { return nil }
        var screens = xcb.setup_roots_iterator(setup)
        var index: Int32 = 0
        while screens.rem > 0, index < screen {
            xcb.screen_next(&screens)
            index += 1
        }
        // xcb_screen_t begins with its root window.
        guard screens.rem > 0, let data = screens.data else { return nil }
        return data.loadUnaligned(as: UInt32.self)
    }

    private static func internAtoms(_ xcb: MigaXcb, _ connection: UnsafeMutableRawPointer) -> Atoms? {
        let names = ["_NET_ACTIVE_WINDOW", "_GTK_APPLICATION_ID", "_NET_WM_PID", "WM_CHANGE_STATE", "_NET_CLOSE_WINDOW", "_MIGA_WATCH_TIME"]
        let cookies = names.map { name in xcb.intern_atom(connection, 0, UInt16(name.utf8.count), name) }
        var values: [UInt32] = []
        for cookie in cookies {
            guard let reply = xcb.intern_atom_reply(connection, cookie, nil) else { return nil }
            values.append(reply.pointee.atom)
            free(reply)
        }
        return Atoms(activeWindow: values[0], applicationID: values[1], pid: values[2],
                     changeState: values[3], closeWindow: values[4], clock: values[5])
    }

    // MARK: What the desktop says

    public func next(milliseconds: Int32?) throws -> DesktopEvent? {
        let deadline = milliseconds.map { Self.now() + Int64(max(0, $0)) }
        while true {
            try takeEvents()
            if activeChanged {
                activeChanged = false
                let window = try activeWindowSettled()
                if reported != .some(window) {
                    reported = .some(window)
                    return .focused(window.map(facts))
                }
            }
            if let change = idleChange() { return .idle(change) }
            let now = Self.now()
            var wait: Int64 = -1
            if let deadline { wait = max(0, deadline - now) }
            if idleThreshold != nil, nextIdleCheck != Self.never { wait = wait < 0 ? max(0, nextIdleCheck - now) : min(wait, max(0, nextIdleCheck - now)) }
            if wait == 0, let deadline, deadline <= now { return nil }
            // The replies read above may have brought events with them, which libxcb keeps
            // in its queue, where poll(2) would not see them: taken first.
            try takeEvents()
            if activeChanged || (alarmRang && idleThreshold != nil) { continue }
            try waitForServer(milliseconds: Int32(clamping: wait))
        }
    }

    /// Sleeps in poll(2) until the X server says something or `milliseconds` pass (-1: no limit).
    private func waitForServer(milliseconds: Int32) throws {
        var descriptor = pollfd(fd: xcb.get_file_descriptor(connection), events: Int16(POLLIN), revents: 0)
        let result = poll(&descriptor, 1, milliseconds)
        if result < 0, errno != EINTR { throw DesktopSessionEnded("the X display could not be read") }
        if descriptor.revents & Int16(POLLNVAL) != 0 { throw DesktopSessionEnded("the X display closed") }
    }

    /// Takes every event libxcb has (reading the connection): the changes of the window in
    /// front and the server's time. Errors (a window gone before its property was read)
    /// arrive here too, as response type 0, and mean nothing more.
    private func takeEvents() throws {
        while let event = xcb.poll_for_event(connection) {
            defer { free(event) }
            if let alarms, event.pointee.response_type & 0x7F == alarms.notifyEvent {
                let notify = UnsafeRawPointer(event).load(as: MigaXcbSyncAlarmNotifyEvent.self)
                if armed == notify.alarm { alarmRang = true }
                continue
            }
            guard event.pointee.response_type & 0x7F == X.propertyNotify else { continue }
            let change = UnsafeRawPointer(event).load(as: MigaXcbPropertyNotifyEvent.self)
            if change.time != 0 { serverTime = change.time }
            if change.window == root, change.atom == atoms.activeWindow { activeChanged = true }
            if change.window == clock, change.atom == atoms.clock { clockTicked = true }
        }
        if xcb.connection_has_error(connection) != 0 { throw DesktopSessionEnded("the X display closed") }
    }

    /// The window in front; when none, what it is a moment later: a window manager clears
    /// `_NET_ACTIVE_WINDOW` on its way from one window to the next (openbox does), and that
    /// instant of nothing in front is no news for the watcher.
    private func activeWindowSettled() throws -> UInt32? {
        let deadline = Self.now() + Self.settleMilliseconds
        var window = activeWindow()
        while window == nil, Self.now() < deadline {
            try waitForServer(milliseconds: Int32(clamping: max(0, deadline - Self.now())))
            try takeEvents()
            if activeChanged {
                activeChanged = false
                window = activeWindow()
            }
        }
        return window
    }

    private func activeWindow() -> UInt32? {
        guard let window = property(root, atoms.activeWindow, type: X.atomWindow, limit: 4).flatMap(Self.cardinal), window != 0 else { return nil }
        return window
    }

    private func facts(_ window: UInt32) -> WindowFacts {
        let applicationID = property(window, atoms.applicationID, type: X.anyPropertyType, limit: Self.propertyLimit).flatMap { Self.strings($0).first }
        let wmClass = property(window, X.atomWMClass, type: X.anyPropertyType, limit: Self.propertyLimit).map { Array(Self.strings($0).prefix(2)) } ?? []
        let pid = property(window, atoms.pid, type: X.atomCardinal, limit: 4).flatMap(Self.cardinal).flatMap { Int32(exactly: $0) }.flatMap { $0 > 0 ? $0 : nil }
        return WindowFacts(id: String(window), applicationID: applicationID, wmClass: wmClass, pid: pid)
    }

    /// A window's property: its format and at most `limit` bytes of its value, never more than
    /// the reply holds (whatever length the reply claims). nil when the window or the
    /// property is not there.
    private func property(_ window: UInt32, _ atom: UInt32, type: UInt32, limit: Int) -> (format: UInt8, bytes: [UInt8])? {
        let cookie = xcb.get_property(connection, 0, window, atom, type, 0, UInt32((limit + 3) / 4))
        var error: UnsafeMutablePointer<MigaXcbGenericEvent>?
        let reply = xcb.get_property_reply(connection, cookie, &error)
        free(error)
        guard let reply else { return nil }
        defer { free(reply) }
        let header = reply.pointee
        guard [8, 16, 32].contains(header.format) else { return nil }
        let count = min(Int(header.value_len) * Int(header.format / 8), Int(header.length) * 4, limit)
        let value = UnsafeRawBufferPointer(start: UnsafeRawPointer(reply).advanced(by: MemoryLayout<MigaXcbGetPropertyReply>.size), count: count)
        return (header.format, Array(value))
    }

    private static func cardinal(_ value: (format: UInt8, bytes: [UInt8])) -> UInt32? {
        guard value.format == 32, value.bytes.count >= 4 else { return nil }
        return value.bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
    }

    /// The NUL-separated texts of a string property (WM_CLASS: instance, then class), empty
    /// ones dropped; bytes that are not UTF-8 read as U+FFFD.
    private static func strings(_ value: (format: UInt8, bytes: [UInt8])) -> [String] {
        guard value.format == 8 else { return [] }
        return value.bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    // MARK: Idleness

    public func watchIdle(_ on: Bool, idleSeconds: Int) {
        idle = false
        disarm()
        guard on, xcb.screensaver_query_info != nil else {
            idleThreshold = nil
            return
        }
        idleThreshold = Int64(min(max(idleSeconds, 1), 86_400)) * 1000
        nextIdleCheck = Self.now()
        if !alarmsTried {
            alarmsTried = true
            alarms = IdleAlarms(xcb: xcb, connection: connection)
        }
    }

    /// Whether the person just went idle (true) or came back (false), when it is time to look.
    /// Back means input newer than the last before going idle: however short the threshold,
    /// a key pressed between two looks is seen.
    ///
    /// The look is the screensaver extension's answer; what makes it due is the SYNC alarm
    /// armed after the previous look (input, or idle for the threshold), or else a timer. An
    /// alarm that rang for nothing leaves that phase to the timer, so a server whose alarms
    /// misbehave costs a look every 2 s, never a busy loop.
    private func idleChange() -> Bool? {
        guard let threshold = idleThreshold, alarmRang || Self.now() >= nextIdleCheck else { return nil }
        let rang = alarmRang
        alarmRang = false
        disarm()
        guard let sinceInput = millisecondsSinceInput() else {
            idleThreshold = nil  // no screensaver extension on this server: time counts as active
            return nil
        }
        let now = Self.now()
        let lastInput = now - sinceInput
        let wasIdle = idle
        idle = wasIdle ? lastInput <= lastInputWhenIdle + Self.clockSlack : sinceInput >= threshold
        if idle && !wasIdle { lastInputWhenIdle = lastInput }
        nextIdleCheck = idle ? now + Self.idleRecheckMilliseconds : now + threshold - sinceInput
        if let alarms, idle != wasIdle || !rang {
            armed = idle ? alarms.armBack(threshold: threshold) : alarms.armIdle(threshold: threshold)
            nextIdleCheck = Self.never
        }
        return idle == wasIdle ? nil : idle
    }

    /// No alarm rings for this session until the next is armed.
    private func disarm() {
        guard let alarm = armed else { return }
        armed = nil
        alarms?.silence(alarm)
    }

    private func millisecondsSinceInput() -> Int64? {
        guard let query = xcb.screensaver_query_info, let answer = xcb.screensaver_query_info_reply else { return nil }
        var error: UnsafeMutablePointer<MigaXcbGenericEvent>?
        let reply = answer(connection, query(connection, root), &error)
        free(error)
        guard let reply else { return nil }
        defer { free(reply) }
        return Int64(reply.pointee.ms_since_user_input)
    }

    /// Two alarms of the SYNC extension on the X server's `IDLETIME` counter (milliseconds
    /// since the last input): one rings when it reaches the threshold (the person went idle),
    /// the other when it falls back below it (input: they are back). Comparisons, not
    /// transitions, so one armed after the fact rings at once; each rings once (delta 0), and
    /// only the one armed has its events on.
    struct IdleAlarms {
        let xcb: MigaXcb
        let connection: UnsafeMutableRawPointer
        /// AlarmNotify's response type on this server.
        let notifyEvent: UInt8
        let becameIdle: UInt32
        let back: UInt32

        // The SYNC protocol's numbers (sync.h).
        private enum S {
            static let counter: UInt32 = 1, valueType: UInt32 = 2, value: UInt32 = 4, testType: UInt32 = 8, delta: UInt32 = 16, events: UInt32 = 32
            static let absolute: UInt32 = 0
            static let positiveComparison: UInt32 = 2, negativeComparison: UInt32 = 3
            static let alarmNotify: UInt8 = 1
        }

        /// nil when libxcb-sync, the extension or its `IDLETIME` counter is missing.
        init?(xcb: MigaXcb, connection: UnsafeMutableRawPointer) {
            guard let id = xcb.sync_id, let extensionData = xcb.get_extension_data, let initialize = xcb.sync_initialize,
                  let initialized = xcb.sync_initialize_reply, let create = xcb.sync_create_alarm,
                  let data = extensionData(connection, id), data.pointee.present != 0 else { return nil }
            var error: UnsafeMutablePointer<MigaXcbGenericEvent>?
            let reply = initialized(connection, initialize(connection, 3, 1), &error)
            free(error)
            guard let reply else { return nil }
            free(reply)
            guard let counter = Self.idleTimeCounter(xcb, connection) else { return nil }
            self.xcb = xcb
            self.connection = connection
            notifyEvent = (data.pointee.first_event &+ S.alarmNotify) & 0x7F
            becameIdle = xcb.generate_id(connection)
            back = xcb.generate_id(connection)
            // Created with events off and a test already met, so each is spent (inactive) at once.
            for (alarm, test, value) in [(becameIdle, S.positiveComparison, UInt32(0)), (back, S.negativeComparison, UInt32.max)] {
                var values: [UInt32] = [counter, S.absolute, 0, value, test, 0, 0, 0]
                _ = create(connection, alarm, S.counter | S.valueType | S.value | S.testType | S.delta | S.events, &values)
            }
            _ = xcb.flush(connection)
        }

        /// `IDLETIME` among the server's system counters; the reply is read within its length.
        private static func idleTimeCounter(_ xcb: MigaXcb, _ connection: UnsafeMutableRawPointer) -> UInt32? {
            guard let list = xcb.sync_list_system_counters, let answer = xcb.sync_list_system_counters_reply else { return nil }
            var error: UnsafeMutablePointer<MigaXcbGenericEvent>?
            let reply = answer(connection, list(connection), &error)
            free(error)
            guard let reply else { return nil }
            defer { free(reply) }
            let raw = UnsafeRawPointer(reply)
            let size = 32 + Int(raw.loadUnaligned(fromByteOffset: 4, as: UInt32.self)) * 4
            let count = raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self)
            var offset = 32
            for _ in 0..<min(count, 4096) {
                // SYSTEMCOUNTER: counter, resolution (8 bytes), name length, name, padded to 4.
                guard offset + 14 <= size else { return nil }
                let counter = raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt16.self))
                guard offset + 14 + length <= size else { return nil }
                let name = UnsafeRawBufferPointer(start: raw + offset + 14, count: length)
                if name.elementsEqual("IDLETIME".utf8) { return counter }
                offset += (14 + length + 3) & ~3
            }
            return nil
        }

        /// Rings once the person has been idle for `threshold` ms (at once if they are already).
        func armIdle(threshold: Int64) -> UInt32 { arm(becameIdle, threshold: threshold, test: S.positiveComparison) }

        /// Rings at the next input (at once if there was some since they went idle).
        func armBack(threshold: Int64) -> UInt32 { arm(back, threshold: threshold, test: S.negativeComparison) }

        private func arm(_ alarm: UInt32, threshold: Int64, test: UInt32) -> UInt32 {
            // Changing the value re-reads the counter on the server and makes the alarm active again.
            var values: [UInt32] = [S.absolute, UInt32(truncatingIfNeeded: threshold >> 32), UInt32(truncatingIfNeeded: threshold), test, 1]
            _ = xcb.sync_change_alarm?(connection, alarm, S.valueType | S.value | S.testType | S.events, &values)
            _ = xcb.flush(connection)
            return alarm
        }

        func silence(_ alarm: UInt32) {
            var values: [UInt32] = [0]
            _ = xcb.sync_change_alarm?(connection, alarm, S.events, &values)
            _ = xcb.flush(connection)
        }
    }

    // MARK: What the watcher asks

    public func raise(_ window: String) {
        guard let id = Self.windowID(window) else { return }
        send(atoms.activeWindow, to: id, [X.sourcePager, currentServerTime(), (reported ?? nil) ?? 0])
    }

    public func minimise(_ window: String) {
        guard let id = Self.windowID(window) else { return }
        send(atoms.changeState, to: id, [X.iconicState])
    }

    public func close(_ window: String) {
        guard let id = Self.windowID(window) else { return }
        send(atoms.closeWindow, to: id, [currentServerTime(), X.sourcePager])
    }

    public func activationEnvironment() -> [String: String] {
        startups += 1
        return ["DESKTOP_STARTUP_ID": "miga-watch-\(getpid())-\(startups)_TIME\(currentServerTime())"]
    }

    private static func windowID(_ text: String) -> UInt32? {
        guard let id = UInt32(text), id != 0 else { return nil }
        return id
    }

    /// An EWMH client message about `window`, sent to the root window as the spec asks (the
    /// window manager acts on it).
    private func send(_ type: UInt32, to window: UInt32, _ data: [UInt32]) {
        var event = [UInt8](repeating: 0, count: 32)
        event[0] = X.clientMessage
        event[1] = 32
        event.withUnsafeMutableBytes { bytes in
            bytes.storeBytes(of: window, toByteOffset: 4, as: UInt32.self)
            bytes.storeBytes(of: type, toByteOffset: 8, as: UInt32.self)
            for (index, value) in data.prefix(5).enumerated() {
                bytes.storeBytes(of: value, toByteOffset: 12 + 4 * index, as: UInt32.self)
            }
        }
        event.withUnsafeBytes { bytes in
            _ = xcb.send_event(connection, 0, root, X.substructureRedirectAndNotify, bytes.baseAddress!.assumingMemoryBound(to: CChar.self))
        }
        _ = xcb.flush(connection)
    }

    /// The X server's time now: a property of miga's own window is touched, and the change
    /// comes back stamped (as GTK does it). Other events met meanwhile are kept for `next`.
    /// Waits at most a second; then the last time seen.
    private func currentServerTime() -> UInt32 {
        clockTicked = false
        _ = xcb.change_property(connection, 0, clock, atoms.clock, X.atomString, 8, 0, nil)
        _ = xcb.flush(connection)
        let deadline = Self.now() + 1000
        while !clockTicked {
            guard (try? takeEvents()) != nil, !clockTicked else { break }
            let left = deadline - Self.now()
            guard left > 0, (try? waitForServer(milliseconds: Int32(left))) != nil else { break }
        }
        return serverTime
    }

    private static func now() -> Int64 { Int64(LinuxSystem.monotonicNanoseconds() / 1_000_000) }
}
