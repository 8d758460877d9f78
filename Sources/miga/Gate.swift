import ArgumentParser
import MigaCore

struct Gate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gate",
        abstract: "Pause before running a command: a quote, a countdown, then Exit, Read Next or Open.",
        discussion: """
            Keys: e, Esc, q or Ctrl-C  Exit (nothing runs; exit status 0)
                  n or Space           Read Next
                  o or Enter           Open (after the countdown)
                  ↑ ↓ PgUp PgDn j k    scroll an article longer than the screen
                  Home End             the article's start and end
                  Ctrl-Z               suspend (`fg` resumes; stopped time does not count)

            Under the app's name the gate says how often today ("3rd time today"), the last \
            intention ("Last time: reply to Sam") and why a wait is longer (escalate_seconds, a \
            schedule). With `intention = true` Open first asks "What are you here to do?": type \
            a line and press Enter (an empty one too); Esc goes back, Ctrl-C is Exit. A \
            [[schedule]] with `gate = false` lets the app through in its hours.

            On Open the command replaces miga (its exit status is the app's); with --detach it \
            starts in its own session and miga returns at once. Without a terminal, in a \
            graphical session, the pause shows as a small window (miga-gate-window); failing \
            that miga opens a terminal (setting `terminal`, $TERMINAL, xdg-terminal-exec, \
            x-terminal-emulator, …) or, failing that too, opens the app without a pause and \
            says why. So does a broken config.

            With --reentry (no command) the gate is for coming back to an app that is \
            already running: the same pause, recorded as a return; it prints `open` or \
            `exit` on standard output (exit status 0 either way) for the caller to raise or \
            minimise the app's window. A pass (grace, snooze, hours without a gate) prints \
            `open` at once; so does any failure of miga's. --window shows it in the gate \
            window even beside a terminal. The GNOME Shell extension and `miga watch` run it.

            Examples:
              miga gate --app discord -- discord
              miga gate --app discord -- /usr/bin/env printf '%s\\n' one "two words" ''
              miga gate --app chat --detach -- hexchat --existing
              TERM=dumb miga gate -- mumble     # plain mode, readable by screen readers
              miga gate --app discord --reentry --window   # prints open or exit
            """
    )

    @Option(help: ArgumentHelp("Name of the app, for events and its own timer (default: the command's name).",
                               valueName: "name"))
    var app: String?

    @Flag(help: "Start the command detached (own session, no terminal) and return at once.")
    var detach = false

    @Flag(help: "Plain text instead of the full screen (automatic when TERM=dumb).")
    var plain = false

    // Given by a gate without a terminal to the one it starts in a terminal emulator.
    @Option(name: .customLong("handoff"), help: .hidden)
    var handOff: String?

    @Flag(help: "Coming back to the app, already running: no command; prints open or exit.")
    var reentry = false

    @Flag(help: "With --reentry: show the gate in its window even beside a terminal.")
    var window = false

    @Argument(parsing: .postTerminator, help: ArgumentHelp("The command to run on Open, after --.", valueName: "command"))
    var command: [String] = []

    func run() throws {
        throw ExitCode(LauncherArguments.gate(request).run())
    }

    var request: GateRequest { GateRequest(app: app, command: command, detach: detach, plain: plain, handOff: handOff,
                                         reentry: reentry, window: window) }
}
