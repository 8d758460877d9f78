import ArgumentParser
import MigaCore

/// `miga watch [--shell]`: the room watcher (see `RoomWatch`).
struct WatchCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Follow the window in front: pause a gated app on coming back, count its minutes.",
        discussion: """
            On X11 sessions other than GNOME, an autostart entry that `miga install` writes \
            starts this at login. It follows the focused window (EWMH), maps it to a gated app \
            and, when that app comes back to the front after `reentry_minutes` away (or for the \
            first time, as an app that started with the session or from the tray), shows the \
            gate over it: Exit minimises the window, Open raises it. While a gated app's window \
            is in front and you are not idle it counts your minutes (`miga stats`), and when \
            `minutes_per_day` runs out it asks once: Close asks the window to close.

            --shell is how miga's GNOME Shell extension runs it: the same rules, with the \
            shell reporting the window in front over standard input (JSON lines). On a Wayland \
            session that is not GNOME (KDE Plasma for now) it exits at once, saying why. One \
            watcher runs per user; a second one says so and leaves.

            Examples:
              miga watch                        # on an X11 session, by hand
              miga watch --shell                # what the GNOME Shell extension starts
            """
    )

    @Flag(help: "Speak the GNOME Shell extension's line protocol on standard input and output.")
    var shell = false

    func run(_ context: MigaContext) throws {
        let status = RoomWatch.watch(context: context, shell: shell)
        if status != 0 { throw ExitCode(status) }
    }
}
