import Foundation
import MigaCore

/// A throwaway HOME with its own XDG tree (`root/home`, as `TestContext` lays it out) and the
/// files a test writes around it. What MigaCLITests' `MigaHome` (the built binary) and
/// MigaCommandTests' `CommandHome` (commands in-process) share; each adds only how it runs
/// miga (see `MigaRunning`). Nothing here touches the real $HOME.
open class TestHome {
    public let root: String
    public let home: String

    /// `prefix` names the temporary folder, so a leftover one says which tests made it.
    public init(prefix: String) throws {
        root = NSTemporaryDirectory() + prefix + UUID().uuidString.prefix(8)
        home = root + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        #if canImport(XCTest)
        HomeSweeper.sweepAfterThisTest(home)
        #endif
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// The checkout this test file belongs to (for files such as shell/shim.sh and fixtures).
    public static let repository = Fixtures.repository

    /// Where the built `miga` is: MIGA_TEST_BINARY, or beside the test bundle.
    public static var builtBinary: String {
        ProcessInfo.processInfo.environment["MIGA_TEST_BINARY"]
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("miga").path
    }

    /// The fake app to gate (each home writes its own).
    public var recorder: String { root + "/bin/recorder" }
    public var database: String { home + "/.local/share/miga/miga.sqlite3" }
    public var configFile: String { home + "/.config/miga/config.toml" }

    /// The environment a person's shell would give miga: HOME, a plain PATH, UTF-8.
    public func environment(_ extra: [String: String] = [:]) -> [String: String] {
        // GSettings (GNOME Shell's enabled extensions) kept in a file in the temporary home.
        var environment = ["HOME": home, "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm-256color",
                           "GSETTINGS_BACKEND": "keyfile"]
        environment.merge(extra) { $1 }
        return environment.filter { !$0.value.isEmpty }
    }

    @discardableResult
    public func writeFile(_ relative: String, mode: Int = 0o644, _ text: String) throws -> String {
        let path = root + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    public func writeConfig(_ text: String) throws {
        try FileManager.default.createDirectory(atPath: home + "/.config/miga", withIntermediateDirectories: true)
        try text.write(toFile: configFile, atomically: true, encoding: .utf8)
    }

    public func events() throws -> [Event] {
        guard FileManager.default.fileExists(atPath: database) else { return [] }
        return try EventStore(path: database).allEvents()
    }

    public func sqlite(_ sql: String) throws -> String {
        try run("/usr/bin/sqlite3", [database, sql]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// What a program (miga, or a helper such as sqlite3) ended with and printed.
    public struct Output {
        public var status: Int32, stdout: String, stderr: String

        public init(status: Int32, stdout: String, stderr: String) { (self.status, self.stdout, self.stderr) = (status, stdout, stderr) }
    }

    /// A started program. posix_spawn and waitpid rather than Foundation's Process, whose
    /// exit monitoring on Linux can miss a child that started a daemon (tmux's server).
    public struct Child {
        public let pid: pid_t
        public let stdoutPath: String
        public let stderrPath: String

        /// Waits for the exit: the exit status, or 128 + the signal that ended it.
        public func wait() -> Output {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            defer { unlink(stdoutPath); unlink(stderrPath) }
            return Output(status: code, stdout: Self.read(stdoutPath), stderr: Self.read(stderrPath))
        }

        private static func read(_ path: String) -> String {
            String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        }
    }

    /// Runs a program without a terminal (stdin /dev/null, output captured) and waits for it.
    @discardableResult
    public func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> Output {
        try start(executable, arguments, environment: environment).wait()
    }

    /// Starts a program without a terminal. `ownGroup` puts it in a process group of its own,
    /// so `kill(-pid, …)` also ends whatever it started. `stderrReaderGone` makes its standard
    /// error a pipe whose reading end is already closed, as when a log reader has quit.
    public func start(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                      ownGroup: Bool = false, stderrReaderGone: Bool = false) throws -> Child {
        let child = Child(pid: 0, stdoutPath: root + "/out-" + UUID().uuidString, stderrPath: root + "/err-" + UUID().uuidString)
        let attributes = SpawnAttributes(ownGroup: ownGroup)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, child.stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var pipeEnds: [Int32] = [-1, -1]
        defer { pipeEnds.filter { $0 >= 0 }.forEach { close($0) } }
        if stderrReaderGone {
            guard pipe(&pipeEnds) == 0 else { throw NSError(domain: "pipe", code: Int(errno)) }
            close(pipeEnds[0])
            pipeEnds[0] = -1
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, child.stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = (environment ?? self.environment()).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        let status = posix_spawn(&pid, executable, &actions, &attributes.raw, argv, envp)
        guard status == 0 else {
            throw NSError(domain: "spawn", code: Int(status), userInfo: [NSLocalizedDescriptionKey: "cannot run \(executable): \(String(cString: strerror(status)))"])
        }
        return Child(pid: pid, stdoutPath: child.stdoutPath, stderrPath: child.stderrPath)
    }
}

/// How a test home runs `miga ARGUMENTS`: the built binary (`MigaHome`) or in-process
/// (`CommandHome`), with the binary's exit status and what its stdout and stderr would show.
public protocol MigaRunning: TestHome {
    /// The built `miga` (MigaHome runs it; CommandHome only names it, as shims do).
    var binary: String { get }
    func miga(_ arguments: [String], environment: [String: String]?) throws -> TestHome.Output
}

/// A test case with a home, whichever way it runs miga: the fixtures and helpers that a
/// MigaCLITests class and its in-process twin in MigaCommandTests both use live in
/// extensions of protocols refining this one (`DesktopSystemCase`, `LicenseCase`, …).
public protocol HomeCase: AnyObject {
    associatedtype Home: MigaRunning
    var home: Home! { get }
}

/// Spawn attributes for a test's child: every signal at its default and none blocked, as a
/// person's shell starts a program, whatever the test runner itself ignores.
public final class SpawnAttributes {
    public var raw = posix_spawnattr_t()

    public init(ownGroup: Bool = false) {
        posix_spawnattr_init(&raw)
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&raw, &all)
        posix_spawnattr_setsigmask(&raw, &none)
        posix_spawnattr_setflags(&raw, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | (ownGroup ? POSIX_SPAWN_SETPGROUP : 0)))
        if ownGroup { posix_spawnattr_setpgroup(&raw, 0) }
    }

    deinit { posix_spawnattr_destroy(&raw) }
}

extension TestHome {
    /// The folder the sync tests give `sync_folder` (`~/Sync/miga`), as a path.
    public var syncFolder: String { home + "/Sync/miga" }

    /// The id miga gave this machine (`~/.local/state/miga/device`).
    public func deviceID() throws -> String {
        try String(contentsOfFile: home + "/.local/state/miga/device", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
