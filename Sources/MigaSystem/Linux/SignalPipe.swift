#if canImport(Glibc)
import Glibc
#endif
import CLinuxShims

// The pipe's write end, for the handler: it may use only async-signal-safe calls, and reading
// a global and calling write(2) are exactly that.
nonisolated(unsafe) private var signalWriteFD: Int32 = -1

/// The self-pipe trick: signal handlers write the signal number to a pipe that the gateway's
/// poll loop reads, so all real work happens outside the handler.
public final class SignalPipe {
    public static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGTSTP, SIGCONT]

    public let readFD: Int32
    private let writeFD: Int32

    public init() throws {
        var fds: [Int32] = [-1, -1]
        guard miga_pipe2_cloexec_nonblock(&fds) == 0 else {
            throw TerminalError.setupFailed("pipe: " + LinuxSystem.errnoDescription())
        }
        readFD = fds[0]
        writeFD = fds[1]
        signalWriteFD = writeFD
        for signal in Self.handled {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                let interruptedErrno = errno // the interrupted code may be about to read it
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalWriteFD, &byte, 1)
                errno = interruptedErrno
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            SignalDispositions.set(signal, action)
        }
    }

    deinit {
        signalWriteFD = -1
        SignalDispositions.restoreOriginals(Self.handled)
        close(readFD)
        close(writeFD)
    }

    /// Signals received since the last call, oldest first.
    public func drain() -> [Int32] {
        var buffer = [UInt8](repeating: 0, count: 64)
        var signals: [Int32] = []
        while true {
            let count = read(readFD, &buffer, buffer.count)
            guard count > 0 else { break }
            signals += buffer[0..<count].map { Int32($0) }
        }
        return signals
    }

    /// Runs `body` while another program has the terminal (an editor), the way system(3)
    /// does: Ctrl-C and Ctrl-\ are that program's alone, and Ctrl-Z stops miga with it so the
    /// shell gets its prompt back. Afterwards the pipe takes over again, minus anything that
    /// arrived meanwhile but a hang-up or SIGTERM: those were meant for miga too, and end it
    /// once the program is done.
    public func handOver<T>(_ body: () throws -> T) rethrows -> T {
        var saved: [(Int32, sigaction)] = []
        for (signal, disposition) in [(SIGINT, SIG_IGN), (SIGQUIT, SIG_IGN), (SIGTSTP, SIG_DFL), (SIGCONT, SIG_DFL)] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = disposition
            sigemptyset(&action.sa_mask)
            var old = sigaction()
            sigaction(signal, &action, &old)
            saved.append((signal, old))
        }
        defer {
            for (signal, old) in saved {
                var old = old
                sigaction(signal, &old, nil)
            }
            for signal in drain() where signal == SIGHUP || signal == SIGTERM {
                var byte = UInt8(truncatingIfNeeded: signal)
                _ = write(writeFD, &byte, 1)
            }
        }
        return try body()
    }


    /// Stops this process as Ctrl-Z would (used after the terminal has been restored), and
    /// returns once a SIGCONT resumes it.
    public static func suspendSelf() {
        var old = sigaction()
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_DFL
        sigaction(SIGTSTP, &action, &old)
        raise(SIGTSTP)
        sigaction(SIGTSTP, &old, nil)
    }
}
