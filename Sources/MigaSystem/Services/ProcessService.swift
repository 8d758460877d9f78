/// This process and the ones it started (`context.processes`): its id, its machine's name,
/// real-time waits and deadlines (never the context's clock, which a test may stop), and the
/// children it waits for. Starting programs is `context.launcher`'s.
public protocol ProcessService: Sendable {
    /// getpid(2).
    var id: Int32 { get }
    /// This machine's name (gethostname(2)), nil when it has none.
    func hostName() -> String?
    /// The absolute path of the running executable.
    func currentExecutablePath() -> String?
    /// CLOCK_MONOTONIC, for deadlines of real waits.
    func monotonicNanoseconds() -> UInt64
    /// A short wait between tries.
    func sleep(microseconds: UInt32)
    /// Real time, suspend included (a timebox's end is on the wall); a signal ends it early.
    func sleepCountingSuspend(milliseconds: Int)
    /// Whether the child `pid` has ended (reaped now); never waits.
    func hasEnded(_ pid: Int32) -> Bool
    /// Nice 10 and idle I/O, for background work.
    func yieldProcessor()
    /// An interactive program (an editor) on this terminal, waited for: its exit status.
    func runInTerminal(_ command: ResolvedCommand, environment: [String: String]) throws -> Int32
}

/// This process, through the C library.
public struct SystemProcesses: ProcessService {
    public init() {}
    public var id: Int32 { LinuxSystem.processID }
    public func hostName() -> String? { LinuxSystem.hostName() }
    public func currentExecutablePath() -> String? { LinuxSystem.currentExecutablePath() }
    public func monotonicNanoseconds() -> UInt64 { LinuxSystem.monotonicNanoseconds() }
    public func sleep(microseconds: UInt32) { LinuxSystem.sleep(microseconds: microseconds) }
    public func sleepCountingSuspend(milliseconds: Int) { LinuxSystem.sleepCountingSuspend(milliseconds: milliseconds) }
    public func hasEnded(_ pid: Int32) -> Bool { LinuxSystem.hasEnded(pid) }
    public func yieldProcessor() { LinuxSystem.yieldProcessor() }
    public func runInTerminal(_ command: ResolvedCommand, environment: [String: String]) throws -> Int32 {
        try LinuxSystem.runInTerminal(command, environment: environment)
    }
}
