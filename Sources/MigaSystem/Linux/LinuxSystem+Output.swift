#if canImport(Glibc)
import Glibc
#endif
import CLinuxShims
import FoundationEssentials

extension LinuxSystem {
    /// Runs a helper (such as `gsettings get`) with stdin and stderr on /dev/null and returns
    /// its exit status and at most `limit` bytes of what it printed. A helper still running
    /// after `seconds` (a settings daemon that never answers) is killed and counts as failed:
    /// nothing miga does waits on another program for long.
    public static func runCapturingOutput(_ command: ResolvedCommand, environment: [String: String], limit: Int = 65_536,
                                          seconds: Double = 5) throws -> (status: Int32, output: Data) {
        var fds: [Int32] = [-1, -1]
        guard miga_pipe2_cloexec_nonblock(&fds) == 0 else { throw LinuxError(operation: "pipe", code: errno) }
        defer { close(fds[0]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid = pid_t()
        let status = withCStrings(command.arguments) { argv in
            withCStrings(environmentStrings(environment)) { envp in
                posix_spawn(&pid, command.executable, &actions, nil, argv, envp)
            }
        }
        close(fds[1])
        guard status == 0 else { throw LaunchError.spawnFailed(command: command.executable, code: status) }
        var output = Data()
        let deadline = monotonicNanoseconds() + UInt64(seconds * 1e9)
        var buffer = [UInt8](repeating: 0, count: 4096)
        reading: while monotonicNanoseconds() < deadline {
            let left = Int32(max(1, (deadline - min(deadline, monotonicNanoseconds())) / 1_000_000))
            switch waitReadable(fds[0], milliseconds: left) {
            case .ready: break
            case .timedOut: continue
            case .failed: break reading
            }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fds[0], $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            if count <= 0 { break reading }
            output.append(contentsOf: buffer[0..<min(count, max(0, limit - output.count))])
        }
        if monotonicNanoseconds() >= deadline { kill(pid, SIGKILL) }
        guard let exit = waitForExit(pid) else { throw LaunchError.spawnFailed(command: command.executable, code: errno) }
        return (monotonicNanoseconds() >= deadline ? 124 : exit, output)
    }
}
