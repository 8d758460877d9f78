import Foundation
import MigaTestSupport
import XCTest

/// A folder on a filesystem that can be told to stop answering, as a dead network mount or a
/// stalled USB stick does: `Tests/Fixtures/hangfs/hangfs.c`, a passthrough FUSE filesystem
/// over a real folder, compiled for each test. `stall()` makes every operation on it
/// wait (a `stat`, an `open`, a `write`), `release()` lets them go on, and `stop()` (also run
/// on deinit) releases, unmounts lazily and ends the server, so a test that failed or timed
/// out never leaves a hung mount behind. The mount is kept outside every `MigaHome`, so
/// removing a home never walks into it.
///
/// FUSE needs /dev/fuse, root, `fusermount3`, and libfuse3's headers and a C compiler to
/// build the server (scripts/deps.sh installs fuse3 and libfuse3-dev). Without them the test
/// is skipped, unless MIGA_REQUIRE_FUSE=1 (CI), where it fails instead.
final class HangingFilesystem {
    let root: String
    /// Where the filesystem is mounted: put the sync folder below it.
    let mountPoint: String
    /// The real folder behind it, to read what was written without going through the mount.
    let backing: String
    private let control: String
    private let log: String
    private var server: pid_t = 0

    init() throws {
        root = NSTemporaryDirectory() + "miga-hangfs-" + UUID().uuidString.prefix(8)
        mountPoint = root + "/mnt"
        backing = root + "/backing"
        control = root + "/stall"
        log = root + "/hangfs.log"
        for folder in [mountPoint, backing] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let binary = root + "/hangfs"
        do { try Self.build(into: binary) } catch {
            try? FileManager.default.removeItem(atPath: root)
            throw error
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, log, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        let attributes = SpawnAttributes(ownGroup: true)
        // A safety net only: a stall no test released ends by itself after a minute.
        let arguments: [String] = [binary, backing, control, mountPoint], environment: [String] = ["PATH=/usr/bin:/bin", "HANGFS_MAX_STALL=60"]
        let argv = arguments.map { strdup($0) } + [nil], envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        let status = posix_spawn(&server, binary, &actions, &attributes.raw, argv, envp)
        guard status == 0 else { throw Failure("cannot run \(binary): \(String(cString: strerror(status)))") }
        let deadline = Date().addingTimeInterval(10)
        while !isMounted {
            if processEnded(server) || Date() > deadline {
                let said = logText
                stop()
                throw Self.unavailable("hangfs could not mount a FUSE filesystem: \(said)")
            }
            usleep(20_000)
        }
    }

    deinit { stop() }

    /// Every operation from now on waits until `release()`.
    func stall() {
        _ = FileManager.default.createFile(atPath: control, contents: nil)
    }

    /// Operations go on, those waiting first.
    func release() {
        unlink(control)
    }

    /// Releases, unmounts (lazily: whatever still holds a file there gets an error, never a
    /// wait) and ends the server; then removes the folders, but never while mounted.
    func stop() {
        release()
        if isMounted { _ = try? Self.run("/usr/bin/fusermount3", ["-u", "-z", mountPoint]) }
        if server > 0 {
            kill(server, SIGTERM)
            let deadline = Date().addingTimeInterval(5)
            while !processEnded(server) && Date() < deadline { usleep(20_000) }
            if !processEnded(server) { kill(server, SIGKILL) }
            var status: Int32 = 0
            waitpid(server, &status, 0)
            server = 0
        }
        if !isMounted { try? FileManager.default.removeItem(atPath: root) }
    }

    var isMounted: Bool {
        let table = (try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8)) ?? ""
        return table.split(separator: "\n").contains { $0.split(separator: " ").dropFirst(4).first.map(String.init) == mountPoint }
    }

    var logText: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    /// The operations that had to wait, as "OP PATH" (the path inside the mount), in order.
    func stalledOperations() -> [String] {
        logText.split(separator: "\n").filter { $0.hasPrefix("stalled ") }.map { String($0.dropFirst("stalled ".count)) }
    }

    /// Where each thread of `pid` waits in the kernel, and what it is called: for a message
    /// when something waited on the mount.
    static func kernelStacks(of pid: pid_t) -> String {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.sorted().map { task -> String in
            let name = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8)) ?? "?"
            let stack = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/stack", encoding: .utf8)) ?? "(no stack)"
            let frames = stack.split(separator: "\n").prefix(6).map { $0.split(separator: " ").last.map(String.init) ?? "" }
            return "thread \(task) \(name.trimmingCharacters(in: .newlines)): " + frames.joined(separator: " < ")
        }.joined(separator: "\n")
    }

    // MARK: The server, built by each test (well under a second)

    private static func build(into output: String) throws {
        if !FileManager.default.fileExists(atPath: "/dev/fuse") { throw unavailable("/dev/fuse is missing") }
        if geteuid() != 0 { throw unavailable("mounting FUSE here needs root") }
        if !FileManager.default.isExecutableFile(atPath: "/usr/bin/fusermount3") {
            throw unavailable("fusermount3 is missing (scripts/deps.sh installs fuse3)")
        }
        let tools = ["/usr/bin/pkg-config", "/usr/bin/cc"]
        if let missing = tools.first(where: { !FileManager.default.isExecutableFile(atPath: $0) }) {
            throw unavailable("\(missing) is missing (scripts/deps.sh installs it)")
        }
        let flags = try run("/usr/bin/pkg-config", ["--cflags", "--libs", "fuse3"])
        if flags.status != 0 { throw unavailable("libfuse3's headers are missing (scripts/deps.sh installs libfuse3-dev)") }
        let source = MigaHome.repository + "/Tests/Fixtures/hangfs/hangfs.c"
        let compile = try run("/usr/bin/cc", ["-O1", "-Wall", "-o", output, source]
                              + flags.stdout.split(whereSeparator: \.isWhitespace).map(String.init))
        guard compile.status == 0 else { throw Failure("cannot build \(source): \(compile.stderr)") }
    }

    /// Skipped, unless the suite was told FUSE must be there.
    private static func unavailable(_ reason: String) -> Error {
        if ProcessInfo.processInfo.environment["MIGA_REQUIRE_FUSE"] == "1" {
            return Failure("\(reason), and MIGA_REQUIRE_FUSE=1")
        }
        return XCTSkip("\(reason): the hung-folder tests need FUSE")
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    private static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }
}
