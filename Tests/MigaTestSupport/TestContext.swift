import Foundation
import MigaSystem

/// The one way tests build a `MigaContext`: a temporary home under `root` (HOME is
/// `root/home`), a fake clock and launcher, messages and output kept. Every part can be
/// given, and `environment` adds to HOME and PATH (or replaces them).
public enum TestContext {
    public static let executablePath = "/opt/miga/bin/miga"

    public static func environment(root: String, _ extra: [String: String] = [:]) -> [String: String] {
        // GSettings (GNOME Shell's enabled extensions) kept in a file in the temporary home.
        var environment = ["HOME": root + "/home", "PATH": "/usr/bin:/bin", "GSETTINGS_BACKEND": "keyfile"]
        environment.merge(extra) { $1 }
        return environment
    }

    public static func make(root: String, environment extra: [String: String] = [:], clock: any MigaClock = FakeClock(),
                            launcher: any ProcessLauncher = FakeLauncher(), messages: any MessageSink = CollectingSink(),
                            output: any TextOutput = CapturedOutput(), executablePath: String = executablePath,
                            hasTerminal: Bool = false) throws -> MigaContext {
        let environment = environment(root: root, extra)
        return MigaContext(clock: clock, environment: environment, paths: try MigaPaths(environment: environment),
                           launcher: launcher, executablePath: executablePath, messages: messages, hasTerminal: hasTerminal,
                           output: output)
    }

    /// What most core tests set up: a temporary folder, a fake clock, and a context on both
    /// (`(root, clock, context) = try TestContext.withFakeClock()`).
    public static func withFakeClock(environment extra: [String: String] = [:], launcher: any ProcessLauncher = FakeLauncher())
        throws -> (root: TemporaryDirectory, clock: FakeClock, context: MigaContext) {
        let root = try TemporaryDirectory(), clock = FakeClock()
        return (root, clock, try make(root: root, environment: extra, clock: clock, launcher: launcher))
    }

    public static func make(root: TemporaryDirectory, environment extra: [String: String] = [:], clock: any MigaClock = FakeClock(),
                            launcher: any ProcessLauncher = FakeLauncher(), messages: any MessageSink = CollectingSink(),
                            output: any TextOutput = CapturedOutput(), executablePath: String = executablePath,
                            hasTerminal: Bool = false) throws -> MigaContext {
        try make(root: root.path, environment: extra, clock: clock, launcher: launcher, messages: messages, output: output,
                 executablePath: executablePath, hasTerminal: hasTerminal)
    }
}
