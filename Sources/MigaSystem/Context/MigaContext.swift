import ControlCharacters
import FoundationEssentials

/// Every side effect miga has, in one value: the real one in the executable, a fake one in tests.
public struct MigaContext {
    public var clock: any MigaClock
    public var environment: [String: String]
    public var paths: MigaPaths
    public var launcher: any ProcessLauncher
    /// Absolute path of the running `miga`, for commands miga hands to a terminal emulator.
    public var executablePath: String
    /// Where one-line messages for the person go (stderr in the real thing).
    public var messages: any MessageSink
    /// Where a command's output goes (standard output in the real thing).
    public var output: any TextOutput
    /// Standard input and output are both a terminal, so the gateway can be shown in place.
    public var hasTerminal: Bool
    /// When the gate must draw on the controlling terminal by its own path (`/dev/tty`) because
    /// stdin or stdout is a pipe that belongs to the app (`miga gate -- cmd | less`).
    public var terminalDevice: String?
    /// Creating, linking, listing and removing files (`SystemFiles` in the real thing).
    public var files: any FileService
    /// The terminal and the descriptors miga reads and writes.
    public var terminal: any TerminalService
    /// This process: its id, its machine's name, real waits, its children.
    public var processes: any ProcessService
    /// Process-wide signal handling: ending by a signal, a background helper's time limit.
    public var signals: any SignalService
    /// Desktop notifications.
    public var notifications: any NotificationService

    /// Every service a test does not name is the real one.
    public init(
        clock: any MigaClock,
        environment: [String: String],
        paths: MigaPaths,
        launcher: any ProcessLauncher,
        executablePath: String,
        messages: any MessageSink,
        hasTerminal: Bool,
        files: any FileService = SystemFiles(),
        terminal: any TerminalService = SystemTerminal(),
        processes: any ProcessService = SystemProcesses(),
        signals: any SignalService = SystemSignals(),
        notifications: any NotificationService = NotifySend(),
        output: any TextOutput = StandardOutput()
    ) {
        self.clock = clock
        self.environment = environment
        self.paths = paths
        self.launcher = launcher
        self.executablePath = executablePath
        self.messages = messages
        self.hasTerminal = hasTerminal
        self.files = files
        self.terminal = terminal
        self.processes = processes
        self.signals = signals
        self.notifications = notifications
        self.output = output
    }

    /// The context of the running process.
    public static func live() throws -> MigaContext {
        var environment = LinuxSystem.processEnvironment()
        if environment["HOME"] == nil, let home = LinuxSystem.passwdHome() {
            environment["HOME"] = home // e.g. started by a service manager without HOME
        }
        let processes = SystemProcesses(), terminal = SystemTerminal()
        var context = MigaContext(
            clock: SystemClock(),
            environment: environment,
            paths: try MigaPaths(environment: environment),
            launcher: SystemLauncher(),
            executablePath: processes.currentExecutablePath() ?? CommandLine.arguments[0],
            messages: StandardErrorSink(),
            hasTerminal: terminal.isTerminal(.standardInput) && terminal.isTerminal(.standardOutput),
            terminal: terminal,
            processes: processes
        )
        if !context.hasTerminal, let device = LinuxSystem.controllingTerminalBesidePipes() {
            context.hasTerminal = true
            context.terminalDevice = device
        }
        return context
    }
}

/// One-line messages to the person: warnings, notices, the celebration line.
public protocol MessageSink {
    func say(_ line: String)
}

public struct StandardErrorSink: MessageSink {
    public init() {}
    public func say(_ line: String) {
        // Messages quote what the person or a file gave miga; that reaches a terminal too.
        LinuxSystem.say(TerminalText.visible(line) + "\n")
    }
}
