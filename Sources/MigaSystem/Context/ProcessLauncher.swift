import FoundationEssentials

/// A command ready to run: the absolute file to execute and the argv to give it.
public struct ResolvedCommand: Equatable, Sendable {
    public var executable: String
    /// argv as the person wrote it, argv[0] included (so `ps` and the app see the usual name).
    public var arguments: [String]

    public init(executable: String, arguments: [String]) {
        self.executable = executable
        self.arguments = arguments
    }
}

/// Starting other programs. Behind a protocol so tests can see what would have run.
public protocol ProcessLauncher {
    /// Replaces this process with `command`. Only returns by throwing.
    func exec(_ command: ResolvedCommand, environment: [String: String]) throws -> Never
    /// Starts `command` in its own session with stdio on /dev/null and does not wait for it:
    /// its pid, which is its process group's id.
    @discardableResult
    func spawnDetached(_ command: ResolvedCommand, environment: [String: String]) throws -> Int32
    /// The same with this process's stderr: for miga's own helpers, whose only output is a
    /// line about a failure the person should see.
    func spawnDetachedKeepingErrors(_ command: ResolvedCommand, environment: [String: String]) throws
    /// The same as spawnDetached, then waits up to `seconds`: the program's exit status if it
    /// ended by then, nil if it is still running (a browser that failed to start).
    func spawnDetachedWatching(_ command: ResolvedCommand, environment: [String: String], seconds: Double) throws -> Int32?
    /// Runs `command` on this terminal with the signal handling exec would give it, waits for
    /// it, and returns its status (128+N if signal N ended it): an app whose end miga reports.
    func runInForeground(_ command: ResolvedCommand, environment: [String: String]) throws -> Int32
    /// Runs a helper (such as update-desktop-database) with stdio on /dev/null, waits for it
    /// and returns its exit status.
    func run(_ command: ResolvedCommand, environment: [String: String]) throws -> Int32
}

public struct SystemLauncher: ProcessLauncher {
    public init() {}

    public func exec(_ command: ResolvedCommand, environment: [String: String]) throws -> Never {
        try LinuxSystem.exec(command, environment: environment)
    }

    @discardableResult
    public func spawnDetached(_ command: ResolvedCommand, environment: [String: String]) throws -> Int32 {
        try LinuxSystem.spawnDetached(command, environment: environment)
    }

    public func spawnDetachedKeepingErrors(_ command: ResolvedCommand, environment: [String: String]) throws {
        try LinuxSystem.spawnDetached(command, environment: environment, keepingStandardError: true)
    }

    public func spawnDetachedWatching(_ command: ResolvedCommand, environment: [String: String], seconds: Double) throws -> Int32? {
        try LinuxSystem.spawnDetachedWatching(command, environment: environment, seconds: seconds)
    }

    public func run(_ command: ResolvedCommand, environment: [String: String]) throws -> Int32 {
        try LinuxSystem.spawnAndWait(command, environment: environment)
    }

    public func runInForeground(_ command: ResolvedCommand, environment: [String: String]) throws -> Int32 {
        try LinuxSystem.runInForeground(command, environment: environment)
    }
}

public enum LaunchError: Error, CustomStringConvertible, Equatable {
    case execFailed(command: String, code: Int32)
    case spawnFailed(command: String, code: Int32)

    /// errno of the failed call, kept here because anything printed afterwards may change it.
    public var code: Int32 {
        switch self {
        case .execFailed(_, let code), .spawnFailed(_, let code): return code
        }
    }

    public var description: String {
        switch self {
        case .execFailed(let command, let code):
            return "could not run \(command): \(LinuxSystem.errnoDescription(code))"
        case .spawnFailed(let command, let code):
            return "could not start \(command): \(LinuxSystem.errnoDescription(code))"
        }
    }
}

extension ProcessLauncher {
    /// Runs a helper (`gsettings get`) for what it prints: its status and at most 64 KiB of
    /// its output, its errors unseen, killed after 5 s (`CapturedRun`): nothing miga does
    /// waits on another program for long. The same for every launcher: what a helper prints
    /// is only to be read, so tests run the real helper in their temporary home.
    public func runCapturingOutput(_ command: ResolvedCommand, environment: [String: String]) throws -> (status: Int32, output: Data) {
        let result = try CapturedRun.run(command, environment: environment, limit: 65_536, seconds: 5, quiet: true)
        return (result.status, Data(result.output))
    }
}
