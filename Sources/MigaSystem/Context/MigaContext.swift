#if canImport(Glibc)
import Glibc
#endif
import MigaContent
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

    public init(
        clock: any MigaClock,
        environment: [String: String],
        paths: MigaPaths,
        launcher: any ProcessLauncher,
        executablePath: String,
        messages: any MessageSink,
        hasTerminal: Bool,
        output: any TextOutput = StandardOutput()
    ) {
        self.clock = clock
        self.environment = environment
        self.paths = paths
        self.launcher = launcher
        self.executablePath = executablePath
        self.messages = messages
        self.hasTerminal = hasTerminal
        self.output = output
    }

    /// The context of the running process.
    public static func live() throws -> MigaContext {
        var environment = ProcessInfo.processInfo.environment
        if environment["HOME"] == nil, let home = LinuxSystem.passwdHome() {
            environment["HOME"] = home // e.g. started by a service manager without HOME
        }
        var context = MigaContext(
            clock: SystemClock(),
            environment: environment,
            paths: try MigaPaths(environment: environment),
            launcher: SystemLauncher(),
            executablePath: LinuxSystem.currentExecutablePath() ?? CommandLine.arguments[0],
            messages: StandardErrorSink(),
            hasTerminal: LinuxSystem.isTerminal(STDIN_FILENO) && LinuxSystem.isTerminal(STDOUT_FILENO)
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
