/// `miga watch [--shell]`: one watcher per user over the desktop this session has.
extension RoomWatch {
    /// How long a watcher the GNOME Shell extension starts waits for one that is ending (the
    /// shell restarted, its old watcher still finishing a gate) before it leaves.
    static let shellLockPatience = 5.0

    /// Runs the watcher: `shell`, over the GNOME Shell extension's pipes; else over X11. The
    /// exit status: 0 when the desktop ended or another watcher runs, 1 when this session
    /// cannot be watched (said in one line).
    public static func watch(context: MigaContext, shell: Bool) -> Int32 {
        if !shell, let why = unwatchableSession(context.environment) {
            context.messages.say("miga watch: \(why)")
            return 1
        }
        let lock: WatchLock?
        do {
            lock = try WatchLock.take(context: context, patience: shell ? shellLockPatience : 0)
        } catch {
            context.messages.say("miga watch: cannot take its lock at \(WatchLock.path(paths: context.paths)) (\(error)); check that folder, then `miga doctor`")
            return 1
        }
        guard let lock else {
            context.messages.say("miga watch: a watcher is already running for you; this one leaves")
            return 0
        }
        defer { lock.release() }
        let session: any DesktopSession
        if shell {
            session = ShellExtensionSession(context: context)
        } else {
            do {
                session = try X11Session.connect(display: nil)
            } catch {
                context.messages.say("miga watch: \(error)")
                return 1
            }
        }
        return RoomWatch(context: context, session: session).run()
    }

    /// Why the X11 watcher cannot see this session's windows: a Wayland session that is not
    /// GNOME's (GNOME's is watched by its shell extension, which starts `miga watch --shell`).
    /// Whether this session is GNOME's, whose shell extension is the watcher's desktop:
    /// `XDG_CURRENT_DESKTOP` names GNOME among its colon-separated names (`GNOME`,
    /// `ubuntu:GNOME`, `GNOME-Classic:GNOME`).
    public static func isGNOME(_ environment: [String: String]) -> Bool {
        (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").contains { $0.lowercased().contains("gnome") }
    }

    public static func unwatchableSession(_ environment: [String: String]) -> String? {
        let wayland = !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty || environment["XDG_SESSION_TYPE"] == "wayland"
        guard wayland, !isGNOME(environment) else { return nil }
        let name = TerminalText.field(environment["XDG_CURRENT_DESKTOP"].flatMap { $0.isEmpty ? nil : $0 } ?? "unknown desktop")
        return "this is a Wayland session (\(name)), whose windows only its compositor knows: coming back to an open app is not paused here yet (GNOME: miga's shell extension; X11 sessions: `miga watch`)"
    }
}
