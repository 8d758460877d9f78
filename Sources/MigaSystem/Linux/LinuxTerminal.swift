#if canImport(Glibc)
import Glibc
#endif
import CLinuxShims
import FoundationEssentials

public enum TerminalError: Error, CustomStringConvertible {
    case setupFailed(String)

    public var description: String {
        switch self {
        case .setupFailed(let reason): return "could not set up the terminal: \(reason)"
        }
    }
}

// What a crash handler needs to give the terminal back: only plain globals, because a handler
// for a fatal signal may use async-signal-safe calls only (write, tcsetattr, signal, raise).
nonisolated(unsafe) private var crashTerminalFD: Int32 = -1
nonisolated(unsafe) private var crashOutputFD: Int32 = -1
nonisolated(unsafe) private var crashSettings = termios()
private let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]
/// The handlers these replaced (the Swift runtime's backtracer, usually), by signal number, in
/// memory allocated once so the handler reads it without touching Swift's runtime.
nonisolated(unsafe) private let previousCrashActions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)

/// On a crash (a Swift runtime trap is SIGILL or SIGTRAP), restore the person's terminal, then
/// hand the signal to the handler that was there before (the backtracer prints its report on a
/// sane terminal) and die of it, so the shell and any core dump still see it.
private func restoreTerminalAndDie(_ signal: Int32) {
    if crashTerminalFD >= 0 {
        let reset: StaticString = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
        _ = write(crashOutputFD, reset.utf8Start, reset.utf8CodeUnitCount)
        tcsetattr(crashTerminalFD, TCSANOW, &crashSettings)
    }
    sigaction(signal, previousCrashActions + Int(signal), nil)
    raise(signal)
}

/// The controlling terminal in raw mode, on the alternate screen. Every way out goes through
/// `restore()`, which is idempotent, so the person always gets back a sane shell.
public final class LinuxTerminal {
    public let input: Int32
    public let output: Int32
    private var original: termios?
    private var active = false

    private let closesOnDeinit: Bool

    public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, closesOnDeinit: Bool = false) {
        self.input = input
        self.output = output
        self.closesOnDeinit = closesOnDeinit
    }

    /// The terminal at `device` (a gate whose pipes are the app's draws on /dev/tty), closed
    /// with this object.
    public convenience init(device: String) throws {
        let fd = open(device, O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { throw LinuxError(operation: "open \(device)", code: errno) }
        self.init(input: fd, output: fd, closesOnDeinit: true)
    }

    public var size: (columns: Int, rows: Int) { LinuxSystem.terminalSize(output) ?? (80, 24) }

    /// Raw input (no echo, no line buffering, no signal keys: Ctrl-C and Ctrl-Z arrive as bytes
    /// so they can be handled as choices), alternate screen, hidden cursor.
    public func enter() throws {
        var settings = termios()
        guard tcgetattr(input, &settings) == 0 else {
            throw TerminalError.setupFailed("tcgetattr: " + LinuxSystem.errnoDescription())
        }
        let first = original == nil
        if first { original = settings }
        var raw = settings
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        // The first time, keys typed ahead were meant for the shell, not a choice at a gate the
        // person has not seen: discard them. Coming back after a suspend, a key pressed at
        // the redrawn gate must count, so nothing is discarded.
        guard tcsetattr(input, first ? TCSAFLUSH : TCSADRAIN, &raw) == 0 else {
            throw TerminalError.setupFailed("tcsetattr: " + LinuxSystem.errnoDescription())
        }
        active = true
        armCrashRestore()
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
    }

    /// Whether the terminal is still in the raw mode `enter` set (false once someone else, a
    /// shell after a stop, has reset it, or when the terminal is gone).
    public var isRaw: Bool {
        var settings = termios()
        guard active, tcgetattr(input, &settings) == 0 else { return false }
        return settings.c_lflag & tcflag_t(ECHO | ICANON | ISIG) == 0
    }

    /// Main screen, visible cursor, the settings the person had. Safe to call more than once.
    public func restore() {
        guard active else { return }
        active = false
        disarmCrashRestore()
        write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        if var settings = original {
            tcsetattr(input, TCSAFLUSH, &settings)
        }
    }

    private func armCrashRestore() {
        guard let original else { return }
        crashSettings = original
        crashTerminalFD = input
        crashOutputFD = output
        for signal in crashSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { restoreTerminalAndDie($0) }
            sigemptyset(&action.sa_mask)
            action.sa_flags = Int32(truncatingIfNeeded: SA_RESETHAND) // 0x80000000: one shot
            sigaction(signal, &action, previousCrashActions + Int(signal))
        }
    }

    private func disarmCrashRestore() {
        crashTerminalFD = -1
        for signal in crashSignals { sigaction(signal, previousCrashActions + Int(signal), nil) }
    }

    public func write(_ text: String) {
        // A terminal that is gone (EIO after a hang-up) has nothing left to draw on; the
        // hang-up itself arrives as a signal.
        LinuxSystem.say(text, to: output)
    }

    /// What one wait on the terminal brought.
    public struct Wakeup {
        public var bytes: [UInt8] = []
        public var signalReady = false
        /// The terminal went away (window closed, ssh dropped): POLLHUP, EIO or end of input.
        public var hungUp = false
    }

    /// Waits up to `timeoutMilliseconds` for input, a signal, or the terminal going away.
    public func wait(signalFD: Int32, timeoutMilliseconds: Int32) -> Wakeup {
        let events = LinuxSystem.waitForInput([input, signalFD], milliseconds: timeoutMilliseconds)
        var wakeup = Wakeup()
        wakeup.signalReady = events[1].contains(.input)
        if !events[0].isDisjoint(with: .gone) {
            wakeup.hungUp = true
        } else if events[0].contains(.input) {
            guard let bytes = readAvailable() else {
                wakeup.hungUp = true
                return wakeup
            }
            wakeup.bytes = bytes
            // A lone ESC may be the start of an escape sequence split across reads.
            if bytes == [0x1B] {
                if !LinuxSystem.waitForInput([input], milliseconds: 30)[0].isEmpty { wakeup.bytes += readAvailable() ?? [] }
            }
        }
        return wakeup
    }

    /// nil when the terminal is gone (end of input or an I/O error).
    private func readAvailable() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(input, &buffer, buffer.count)
        if count < 0, errno == EAGAIN || errno == EINTR { return [] }
        return count > 0 ? Array(buffer[0..<count]) : nil
    }

    deinit {
        restore()
        if closesOnDeinit { close(input) }
    }
}

/// Terminal cell width of text, via the C library's wcwidth (wide CJK, combining marks).
public enum DisplayWidth {
    nonisolated(unsafe) private static var localeReady = false

    public static func of(_ text: String) -> Int {
        // Printable ASCII is a cell a byte (wcwidth's answer), without a call per scalar.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        if !localeReady {
            setlocale(LC_CTYPE, "C.UTF-8")
            localeReady = true
        }
        var width = 0
        for scalar in text.unicodeScalars {
            let cells = miga_wcwidth(scalar.value)
            width += cells < 0 ? 1 : Int(cells)
        }
        return width
    }
}
