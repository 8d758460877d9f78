#if canImport(Glibc)
import Glibc
#endif
import CLinuxShims

/// A helper run for its answer: stdin on /dev/null, stdout to a pipe miga reads (at most
/// `limit` bytes kept, the rest read and dropped, so the child never blocks on a full pipe),
/// stderr shared (or on /dev/null, `quiet`), every signal at its default. Used by the room
/// watcher for `miga gate --reentry`'s `open` or `exit`, and by `install` for `gsettings`.
public enum CapturedRun {
    /// The exit status (128+N when signal N ended it) and what the program wrote to stdout.
    /// A program still running after `seconds` (a settings daemon that never answers) is
    /// killed, and its status is 124, as timeout(1) says it; nil waits as long as it runs (a
    /// gate, where a person takes their time).
    public static func run(_ command: ResolvedCommand, environment: [String: String], limit: Int, seconds: Double? = nil,
                           quiet: Bool = false) throws -> (status: Int32, output: [UInt8]) {
        var ends: [Int32] = [-1, -1]
        guard miga_pipe2_cloexec_nonblock(&ends) == 0 else { throw LinuxError(operation: "pipe", code: errno) }
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) & ~O_NONBLOCK)
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) & ~O_NONBLOCK)
        defer { close(ends[0]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        if quiet { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        let spawned = Result { try LinuxSystem.posixSpawn(command, environment: environment, actions: &actions,
                                                           flags: POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) }
        close(ends[1])
        let pid = try spawned.get()
        let deadline = seconds.map { LinuxSystem.monotonicNanoseconds() + UInt64(max(0, $0) * 1e9) }
        let (output, timedOut) = readBounded(ends[0], limit: limit, deadline: deadline)
        if timedOut { kill(pid, SIGKILL) }
        var waited: Int32 = 0
        while waitpid(pid, &waited, 0) < 0 {
            guard errno == EINTR else { throw LinuxError(operation: "waitpid", code: errno) }
        }
        let signal = waited & 0x7f
        return (timedOut ? 124 : signal == 0 ? (waited >> 8) & 0xff : 128 + signal, output)
    }

    /// Everything until end of file (or the deadline: then true), of which the first `limit`
    /// bytes are kept.
    private static func readBounded(_ fd: Int32, limit: Int, deadline: UInt64?) -> ([UInt8], Bool) {
        var kept: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let deadline {
                let now = LinuxSystem.monotonicNanoseconds()
                guard now < deadline, LinuxSystem.waitReadable(fd, milliseconds: Int32(min(60_000, (deadline - now) / 1_000_000 + 1))) != .timedOut
                else { return (kept, true) }
            }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return (kept, false) }
            kept += buffer[0..<min(count, max(0, limit - kept.count))]
        }
    }
}
