#if canImport(Glibc)
import Glibc
#endif
import CReadline

// readline's callback interface hands each finished line to a C function pointer, which
// cannot capture context; the line is parked here and picked up by the loop.
nonisolated(unsafe) private var pendingLine: String??

/// Plain mode, for `TERM=dumb`, `--plain` and screen readers: no cursor movement, no redraws.
/// The item once, a few countdown lines, then a readline prompt for the choice.
public final class PlainGateway {
    private let driver: GatewayDriver
    private let clock: any MigaClock
    private let signals: SignalPipe
    private let input: Int32 = STDIN_FILENO
    private let write: (String) -> Void
    private var promptShown = false

    public init(driver: GatewayDriver, clock: any MigaClock, signals: SignalPipe, write: @escaping (String) -> Void) {
        self.driver = driver
        self.clock = clock
        self.signals = signals
        self.write = write
    }

    static let prompt = "Choose: e = Exit, n = Read Next, o = Open > "

    public func run() -> GatewayEnding {
        var abandonSignal: Int32?
        driver.start()
        show(driver.session.item, heading: "miga · \(driver.session.app)")
        write("Open unlocks in \(driver.session.timerSeconds) s. Type e and Enter to exit now, n for another.\n")
        var announced = driver.session.timerSeconds
        var prompting = false
        defer { removePrompt() }

        while driver.outcome == nil {
            let now = clock.monotonicNanoseconds()
            let left = driver.session.secondsLeft(at: now)
            driver.tick(at: now)
            if left == 0, !prompting {
                write("Ready.\n")
                installPrompt()
                prompting = true
            } else if left > 0, left < announced, left % 10 == 0 || left == 5 {
                announced = left
                write("\(left) s…\n")
            }
            var fds = [pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: signals.readFD, events: Int16(POLLIN), revents: 0)]
            let intoSecond = driver.session.elapsedMilliseconds(at: now) % 1000
            _ = poll(&fds, 2, prompting ? -1 : Int32(max(10, 1000 - intoSecond)))
            let at = clock.monotonicNanoseconds()
            if fds[1].revents & Int16(POLLIN) != 0 {
                for signal in signals.drain() {
                    switch signal {
                    case SIGINT: driver.choose(.exit, at: at)
                    case SIGHUP, SIGTERM, SIGQUIT:
                        abandonSignal = abandonSignal ?? signal
                        driver.abandon(at: at)
                    case SIGTSTP:
                        // Ctrl-Z: give readline's terminal settings back, stop, and on `fg`
                        // show the prompt again.
                        let wasShown = promptShown
                        removePrompt()
                        SignalPipe.suspendSelf()
                        if wasShown { installPrompt() }
                    default: break
                    }
                }
            }
            if driver.outcome == nil, fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
                // The terminal went away (Ctrl-D never raises POLLHUP): an abandon, not an Exit.
                abandonSignal = abandonSignal ?? SIGHUP
                driver.abandon(at: at)
            }
            guard driver.outcome == nil, fds[0].revents & Int16(POLLIN) != 0 else { continue }
            let line: String?
            if prompting {
                pendingLine = nil
                rl_callback_read_char()
                guard let finished = pendingLine else { continue }
                promptShown = false // the handler removed itself
                line = finished
            } else {
                line = readTypedLine()
            }
            guard let answer = line else {
                // End of input (Ctrl-D): leaving without opening is an Exit.
                driver.choose(.exit, at: at)
                break
            }
            handle(answer.trimmingCharacters(in: .whitespaces).lowercased(), at: at)
            if prompting, driver.outcome == nil { installPrompt() }
        }
        return GatewayEnding(outcome: driver.outcome ?? .abandoned, signal: abandonSignal)
    }

    private func installPrompt() {
        rl_catch_signals = 0 // miga's own handlers deal with signals
        rl_catch_sigwinch = 0
        rl_callback_handler_install(Self.prompt) { line in
            pendingLine = .some(line.map { String(cString: $0) })
            free(line)
            // Removing the handler here stops readline from drawing the prompt again under
            // the answer; the loop installs it anew when another answer is needed.
            rl_callback_handler_remove()
        }
        promptShown = true
    }

    private func removePrompt() {
        if promptShown { rl_callback_handler_remove() }
        promptShown = false
    }

    /// In canonical mode one read(2) returns one typed line; read directly rather than through
    /// stdio so nothing sits in a buffer that poll(2) cannot see. nil means end of input.
    private func readTypedLine() -> String? {
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = read(input, &buffer, buffer.count)
        guard count > 0 else { return nil }
        let bytes = buffer[0..<count].prefix { $0 != UInt8(ascii: "\n") }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func handle(_ answer: String, at now: UInt64) {
        switch answer {
        case "e", "exit", "q", "quit":
            driver.choose(.exit, at: now)
        case "n", "next", "read next":
            let before = driver.session.item.id
            driver.choose(.readNext, at: now)
            if driver.session.item.id != before { show(driver.session.item, heading: nil) }
        case "o", "open":
            driver.choose(.open, at: now)
            if let notice = driver.session.notice { write(notice + "\n") }
        case "":
            break
        default:
            write("Please type e (Exit), n (Read Next) or o (Open).\n")
        }
    }

    private func show(_ item: ContentItem, heading: String?) {
        var text = heading.map { "\($0)\n\n" } ?? "\n"
        if let title = item.title { text += title + "\n\n" }
        text += TextLayout.wrap(item.text, width: GatewayScreen.maxTextWidth).joined(separator: "\n") + "\n"
        if let author = item.author { text += "— \(author)\n" }
        write(text + "\n")
    }
}
