#if canImport(Glibc)
import Glibc
#endif
import CLinuxShims
import GateWindowProtocol

/// `miga-gate-window` as a child: its stdin and stdout are pipes to this gate, its stderr
/// is the gate's. When the gate dies, however it dies, the window reads end of file and goes.
public final class WindowProcess: GateWindowChannel {
    public let pid: pid_t
    public let readFD: Int32
    private var writeFD: Int32
    private var splitter = LineSplitter()
    private var ended = false

    public init(executable: String, environment: [String: String]) throws {
        var toWindow: [Int32] = [-1, -1], fromWindow: [Int32] = [-1, -1]
        guard miga_pipe2_cloexec_nonblock(&toWindow) == 0 else { throw LinuxError(operation: "pipe", code: errno) }
        guard miga_pipe2_cloexec_nonblock(&fromWindow) == 0 else {
            let code = errno
            close(toWindow[0]); close(toWindow[1])
            throw LinuxError(operation: "pipe", code: code)
        }
        // The window's ends block, as a program expects of its stdin and stdout.
        for fd in [toWindow[0], fromWindow[1]] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toWindow[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromWindow[1], 1)
        let spawned = Result {
            try LinuxSystem.posixSpawn(ResolvedCommand(executable: executable, arguments: [executable]), environment: environment,
                                       actions: &actions, flags: POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        }
        close(toWindow[0])
        close(fromWindow[1])
        let pid: pid_t
        do {
            pid = try spawned.get()
        } catch {
            close(toWindow[1]); close(fromWindow[0])
            throw error
        }
        self.pid = pid
        readFD = fromWindow[0]
        writeFD = toWindow[1]
    }

    deinit {
        finish(within: 0)
        close(readFD)
    }

    @discardableResult
    public func send(_ message: GateToWindow) -> Bool {
        guard writeFD >= 0 else { return false }
        let bytes = Array(WindowLine.encode(message).utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(writeFD, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN { // the window is busy drawing: give it a moment
                    var fds = [pollfd(fd: writeFD, events: Int16(POLLOUT), revents: 0)]
                    if poll(&fds, 1, 1000) > 0 { continue }
                }
                return false // EPIPE: the window is gone (SIGPIPE is ignored)
            }
            offset += written
        }
        return true
    }

    public func receive() -> [WindowToGate]? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var messages: [WindowToGate] = []
        while true {
            let count = read(readFD, &buffer, buffer.count)
            if count > 0 {
                messages += splitter.append(buffer[0..<count]).compactMap(WindowLine.windowMessage)
                continue
            }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN { return messages }
            return messages.isEmpty ? nil : messages // end of file: say what came first, nil next time
        }
    }

    /// Waits up to `seconds` for the window to end by itself (a celebration plays out), then
    /// closes its stdin, which ends it, and at last kills it.
    public func finish(within seconds: Double) {
        guard !ended else { return }
        ended = true
        if waitForExit(seconds: seconds) { return closeInput() }
        closeInput()
        if waitForExit(seconds: 0.3) { return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    private func closeInput() {
        if writeFD >= 0 { close(writeFD) }
        writeFD = -1
    }

    private func waitForExit(seconds: Double) -> Bool {
        let deadline = LinuxSystem.monotonicNanoseconds() + UInt64(max(0, seconds) * 1_000_000_000)
        var status: Int32 = 0
        repeat {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid || (result < 0 && errno == ECHILD) { return true }
            usleep(10_000)
        } while LinuxSystem.monotonicNanoseconds() < deadline
        return false
    }
}

/// Where `miga gate` finds its window: `MIGA_GATE_WINDOW` (a path, or empty to go straight to
/// a terminal), else `PREFIX/lib/miga/` beside an installed miga, else beside miga in a build.
public enum GateWindowLocator {
    public static let name = "miga-gate-window"

    public static func find(executablePath: String, environment: [String: String]) -> String? {
        if let chosen = environment["MIGA_GATE_WINDOW"] {
            return LinuxSystem.isExecutableFile(chosen) ? chosen : nil
        }
        let folder = String(executablePath[..<(executablePath.lastIndex(of: "/") ?? executablePath.startIndex)])
        let prefix = String(folder[..<(folder.lastIndex(of: "/") ?? folder.startIndex)])
        return [prefix + "/lib/miga/" + name, folder + "/" + name].first(where: LinuxSystem.isExecutableFile)
    }
}
