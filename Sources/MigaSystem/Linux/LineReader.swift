#if canImport(Glibc)
import Glibc
#endif
import ControlCharacters
import CReadline

// readline's callback interface hands each finished line to a C function pointer, which
// cannot capture context; the line is parked here and picked up by `LineReader.read`.
nonisolated(unsafe) private var finishedLine: String??

/// What one prompt ended with.
public enum LineInput: Equatable, Sendable {
    case line(String)
    /// Ctrl-D on an empty line.
    case endOfInput
    /// Ctrl-C: the line is thrown away, as in a shell.
    case interrupted
    /// The terminal went away (SIGHUP, or nil when input just ended in a hang-up) or the
    /// process was told to stop (SIGTERM, SIGQUIT).
    case hungUp(signal: Int32?)
}

/// GNU readline with signals handled the way a shell handles them, for the interactive
/// `miga config` and plain mode's prompt. Blocking `readline()` lets Ctrl-C kill the process,
/// and with it every unsaved change; here readline's callback interface runs under poll(2)
/// beside the signal pipe, so Ctrl-C ends only the line, Ctrl-Z suspends and resumes with the
/// line intact, and a resize re-wraps the prompt. Where libreadline cannot be loaded, lines are
/// read as the terminal's own line discipline edits them, with the same signals: the gate
/// still works, only without history and completion.
public final class LineReader {
    private let signals: SignalPipe
    private let input: Int32 = STDIN_FILENO
    /// libreadline, or nil when it could not be loaded (see `readlineProblem`).
    let readline: MigaReadline?
    /// Bytes read past the last line (the line discipline's fallback only).
    private var pending: [UInt8] = []

    public init(signals: SignalPipe) {
        self.signals = signals
        readline = miga_readline()?.pointee
        readline?.catch_signals.pointee = 0 // the pipe does it, outside signal context
        readline?.catch_sigwinch.pointee = 0
        if let readline { Self.initializeOnce(readline) }
    }

    nonisolated(unsafe) private static var initialized = false

    /// readline reads its init file (`$INPUTRC`, else ~/.inputrc, else /etc/inputrc) once, as
    /// it starts, with a blocking open: a FIFO there hung the prompt, and with it a plain-mode
    /// gate, for good. So it starts here, after a look at that file; one that is not a regular
    /// file is swapped for an empty one while readline starts, and the person is told.
    private static func initializeOnce(_ readline: MigaReadline) {
        guard !initialized else { return }
        initialized = true
        readline.readline_name.pointee = UnsafePointer(strdup("miga")) // for `$if miga` in the init file
        guard let problem = initFileProblem() else {
            _ = readline.initialize()
            return
        }
        LinuxSystem.say("miga: warning: readline's settings not read: \(TerminalText.visible(problem))\n")
        let named = getenv("INPUTRC").map { String(cString: $0) }
        setenv("INPUTRC", "/dev/null", 1)
        _ = readline.initialize()
        if let named { setenv("INPUTRC", named, 1) } else { unsetenv("INPUTRC") }
    }

    /// What is wrong with the init file readline would read, trying the files in its order.
    static func initFileProblem() -> String? {
        let named = getenv("INPUTRC").map { String(cString: $0) } ?? ""
        let home = getenv("HOME").map { String(cString: $0) }
        let candidates = named.isEmpty ? (home.map { [$0 + "/.inputrc"] } ?? []) + ["/etc/inputrc"]
            : [named.hasPrefix("~/") ? (home ?? "") + named.dropFirst() : named]
        for path in candidates {
            do {
                if try BoundedFile.checkBeforeOpening(path, limit: BoundedFile.readlineFileLimit, followingLinks: true) { return nil }
            } catch {
                return "\(path): \(error)"
            }
        }
        return nil
    }

    /// Why libreadline could not be loaded, or nil when it was.
    public static var readlineProblem: String? {
        miga_readline_error().map { String(cString: $0) }
    }

    public func read(prompt: String) -> LineInput {
        guard let readline else { return readWithoutReadline(prompt: prompt) }
        finishedLine = nil
        readline.callback_handler_install(prompt) { line in
            finishedLine = .some(line.map { String(cString: $0) })
            free(line)
            // Removed at once, or readline draws the prompt again under the answer.
            miga_readline()?.pointee.callback_handler_remove()
        }
        var installed = true
        defer { if installed { readline.callback_handler_remove() } }
        while true {
            let wake = waitForInputOrSignals()
            for signal in wake.signals {
                switch signal {
                case SIGINT:
                    // "^C" after the abandoned text; the newline only once readline is
                    // done, since leaving bracketed-paste mode returns the cursor to column 0.
                    write("^C")
                    readline.callback_sigcleanup()
                    readline.replace_line("", 0)
                    readline.callback_handler_remove()
                    installed = false
                    write("\n")
                    return .interrupted
                case SIGHUP, SIGTERM, SIGQUIT:
                    return .hungUp(signal: signal)
                case SIGTSTP:
                    readline.deprep_terminal()
                    SignalPipe.suspendSelf()
                case SIGCONT:
                    // After Ctrl-Z, or a stop by someone else (when the shell may have reset
                    // the tty): take the terminal back and draw the prompt and line once.
                    readline.deprep_terminal()
                    readline.prep_terminal(1)
                    _ = readline.forced_update_display()
                case SIGWINCH:
                    readline.resize_terminal()
                default:
                    break
                }
            }
            if wake.inputReady {
                readline.callback_read_char()
                if let line = finishedLine {
                    installed = false // the handler removed itself
                    return line.map(LineInput.line) ?? .endOfInput
                }
            } else if wake.hungUp {
                return .hungUp(signal: nil)
            }
        }
    }

    /// One line as the terminal's line discipline delivers it (Backspace, Ctrl-U and Ctrl-W
    /// work there), with the signals handled as above.
    private func readWithoutReadline(prompt: String) -> LineInput {
        write(prompt)
        while true {
            if let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                defer { pending.removeSubrange(...end) }
                return .line(String(decoding: pending[..<end], as: UTF8.self))
            }
            let wake = waitForInputOrSignals()
            for signal in wake.signals {
                switch signal {
                case SIGINT:
                    pending = []
                    write("\n") // the line discipline echoed the ^C
                    return .interrupted
                case SIGHUP, SIGTERM, SIGQUIT:
                    return .hungUp(signal: signal)
                case SIGTSTP:
                    SignalPipe.suspendSelf()
                default:
                    break
                }
            }
            guard wake.inputReady else {
                if wake.hungUp { return .hungUp(signal: nil) }
                continue
            }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = Glibc.read(input, &buffer, buffer.count)
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return .hungUp(signal: nil)
            }
            if count == 0 {
                // Ctrl-D: on an empty line the end of input; after some text, that text.
                guard !pending.isEmpty else { return .endOfInput }
                defer { pending = [] }
                return .line(String(decoding: pending, as: UTF8.self))
            }
            pending += buffer[..<count]
        }
    }

    /// One wait on the terminal and the signal pipe: the signals that arrived, whether input
    /// can be read, and whether the terminal hung up (or the wait failed).
    private func waitForInputOrSignals() -> (signals: [Int32], inputReady: Bool, hungUp: Bool) {
        var fds = [pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: signals.readFD, events: Int16(POLLIN), revents: 0)]
        guard poll(&fds, 2, -1) >= 0 || errno == EINTR else { return ([], false, true) }
        return (fds[1].revents & Int16(POLLIN) != 0 ? signals.drain() : [], fds[0].revents & Int16(POLLIN) != 0,
                fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0)
    }

    /// Runs another program in the terminal (an editor): its Ctrl-C is its own, not the
    /// next prompt's.
    public func handOver<T>(_ body: () throws -> T) rethrows -> T {
        try signals.handOver(body)
    }

    private func write(_ text: String) {
        LinuxSystem.say(text, to: STDOUT_FILENO)
    }
}
