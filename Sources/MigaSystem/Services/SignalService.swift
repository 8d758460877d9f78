/// What miga does with signals that is process-wide (`context.signals`): ending itself the
/// way a signal would, and a time limit for a background helper. The signal pipe a gate
/// waits on is `SignalPipe`'s.
public protocol SignalService: Sendable {
    /// Ends the process as `signal` would have, after cleanup (the shell sees the signal).
    func dieBySignal(_ signal: Int32) -> Never
    /// Ends the process by SIGALRM after `seconds`, wherever it is.
    func endAfter(seconds: UInt32)
}

/// This process's signals, through the C library.
public struct SystemSignals: SignalService {
    public init() {}
    public func dieBySignal(_ signal: Int32) -> Never { LinuxSystem.dieBySignal(signal) }
    public func endAfter(seconds: UInt32) { LinuxSystem.endAfter(seconds: seconds) }
}
