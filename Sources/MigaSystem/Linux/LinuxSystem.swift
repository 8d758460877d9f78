#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLinuxShims
import FoundationEssentials

/// A failed system call, described the way the C library does.
public struct LinuxError: Error, CustomStringConvertible, Equatable {
    public var operation: String
    public var code: Int32
    public var description: String { "\(operation): \(LinuxSystem.errnoDescription(code))" }

    /// EAGAIN: a non-blocking descriptor had nothing for now.
    public var wouldBlock: Bool { code == EAGAIN || code == EWOULDBLOCK }

    public init(operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }
}

/// The errno values that miga's own decisions name.
public enum ErrorCode {
    /// ENOENT: no such file (a command that is not there runs as exit status 127).
    public static let noSuchFile: Int32 = ENOENT
}

/// The Linux system calls miga needs outside the terminal: clocks, exec, spawn, paths.
public enum LinuxSystem {
    public static func monotonicNanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// Sleeps `milliseconds` of real time, time suspended included (CLOCK_BOOTTIME): a wait
    /// for a timebox's end wakes when the minutes have passed on the wall, not `milliseconds`
    /// of the machine being awake (CLOCK_MONOTONIC stops in suspend, so a laptop closed for an
    /// hour would put the soft end an hour late). A signal ends the sleep early.
    public static func sleepCountingSuspend(milliseconds: Int) {
        guard milliseconds > 0 else { return }
        var request = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
        _ = clock_nanosleep(CLOCK_BOOTTIME, 0, &request, nil)
    }

    /// Whether any process of the group `group` (a detached app's: its pid) is still there.
    /// A zombie is not there: it has ended, and only waits for a parent that may never reap
    /// it (the gate that started it is long gone, and a container's init may not).
    public static func processGroupAlive(_ group: Int32) -> Bool {
        guard group > 1, kill(-group, 0) == 0 || errno == EPERM else { return false }
        // /proc unreadable: the kill said someone is there.
        return processGroupScan(group, limit: 1).map { !$0.isEmpty } ?? true
    }

    /// SIGTERM to every process of the group `group`: the app miga started detached, and the
    /// helpers it started, asked to close.
    @discardableResult
    public static func terminateProcessGroup(_ group: Int32) -> Bool {
        guard group > 1 else { return false }
        return kill(-group, SIGTERM) == 0
    }

    /// The local offset from UTC at a Unix time, honouring $TZ, via the C library: it costs
    /// microseconds, where Foundation's TimeZone loads ICU's zone data on the gate's hot path.
    public static func utcOffsetSeconds(at unixTime: Double) -> Int {
        // time_t(_:) traps on NaN and on times past Int's range; such a time has no offset.
        guard unixTime.isFinite, abs(unixTime) < 1e17 else { return 0 }
        var seconds = time_t(unixTime.rounded(.down))
        var local = tm()
        guard localtime_r(&seconds, &local) != nil else { return 0 }
        return Int(local.tm_gmtoff)
    }

    /// `mkdir -p` with `mode` for the folders it creates. Plain mkdir(2): Foundation's
    /// createDirectory looks up user and group names (nsswitch, passwd) on every call, which
    /// costs milliseconds on the gate's hot path.
    public static func makeDirectories(_ path: String, mode: FileMode) throws {
        var prefix = ""
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            // String + String: appending the Substring itself goes through the generic
            // append(contentsOf:), whose first use asks the runtime about conformances (0.2M
            // instructions, on every gate's way to its first frame).
            prefix += "/" + String(component)
            if mkdir(prefix, mode) != 0, errno != EEXIST {
                throw LinuxError(operation: "mkdir \(prefix)", code: errno)
            }
        }
        guard FileStatus.at(path)?.isDirectory == true else {
            throw LinuxError(operation: "mkdir \(path)", code: ENOTDIR)
        }
    }

    public static func currentExecutablePath() -> String? {
        realPath("/proc/self/exe")
    }

    /// The home folder from the password database, for when $HOME is unset.
    public static func passwdHome() -> String? {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }

    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// A regular file this user may execute (what a shell's PATH search accepts).
    public static func isExecutableFile(_ path: String) -> Bool {
        FileStatus.at(path)?.isRegularFile == true && access(path, X_OK) == 0
    }

    /// isatty(3), which glibc answers with tcgetattr: also false for a terminal that is gone.
    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    public static let standardInput: Int32 = STDIN_FILENO
    public static let standardOutput: Int32 = STDOUT_FILENO

    public static var processID: Int32 { getpid() }

    /// usleep(3): for short waits between tries, where a signal cutting one short does no harm.
    public static func sleep(microseconds: UInt32) {
        usleep(microseconds)
    }

    public static func errnoDescription(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }

    /// Runs `body` with a NULL-terminated C array of strings, as exec and spawn want.
    static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) throws -> R) rethrows -> R {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return try body(pointers)
    }

    /// Replaces this process with `command`, with every signal handled as miga's parent left
    /// it (an ignored signal survives exec, so miga's own SIGPIPE ignore must not).
    public static func exec(_ command: ResolvedCommand, environment: [String: String]) throws -> Never {
        SignalDispositions.restoreOriginals()
        withCStrings(command.arguments) { argv in
            withCStrings(environmentStrings(environment)) { envp in
                _ = execve(command.executable, argv, envp)
            }
        }
        throw LaunchError.execFailed(command: command.arguments.first ?? command.executable, code: errno)
    }

    /// posix_spawn with a new session (no controlling terminal), stdio on /dev/null (stderr
    /// kept when asked), default signal handling; returns without waiting, so the gate's
    /// window can close at once.
    /// Its pid, which is its process group's and session's id.
    @discardableResult
    public static func spawnDetached(_ command: ResolvedCommand, environment: [String: String], keepingStandardError: Bool = false) throws -> Int32 {
        try spawn(command, environment: environment, newSession: true, keepingStandardError: keepingStandardError)
    }

    /// As spawnDetached, then waits up to `seconds` for the program to end: its status if it
    /// did (128+N for signal N), nil if it is still running (and is left running).
    public static func spawnDetachedWatching(_ command: ResolvedCommand, environment: [String: String], seconds: Double) throws -> Int32? {
        let pid = try spawn(command, environment: environment, newSession: true)
        let deadline = monotonicNanoseconds() + UInt64(seconds * 1_000_000_000)
        var status: Int32 = 0
        while true {
            let ended = waitpid(pid, &status, WNOHANG)
            if ended == pid { return exitStatus(status) }
            if ended < 0, errno != EINTR { return nil }
            if monotonicNanoseconds() >= deadline { return nil }
            usleep(20_000)
        }
    }

    /// Runs a helper with stdio on /dev/null and returns its exit status (128+N if signal N ended it).
    public static func spawnAndWait(_ command: ResolvedCommand, environment: [String: String]) throws -> Int32 {
        let pid = try spawn(command, environment: environment, newSession: false)
        guard let status = waitForExit(pid) else { throw LaunchError.spawnFailed(command: command.executable, code: errno) }
        return status
    }

    /// Runs an interactive program (an editor) on this terminal and waits for it.
    public static func runInTerminal(_ command: ResolvedCommand, environment: [String: String]) throws -> Int32 {
        // The caller may be ignoring Ctrl-C while the program has the terminal (as system(3)
        // does); an ignored signal would stay ignored across exec, so the child gets defaults.
        let pid = try spawnOnTerminal(command, environment: environment, defaultSignals: true)
        guard let status = waitForExit(pid) else { throw LaunchError.spawnFailed(command: command.executable, code: errno) }
        return status
    }

    /// Runs an app on this terminal as exec would have (the signal handling miga's parent gave
    /// it, miga's own undone) and waits for it, as `sh -c` waits for its last command:
    /// meanwhile Ctrl-C and Ctrl-\ are the app's alone, and Ctrl-Z stops both.
    public static func runInForeground(_ command: ResolvedCommand, environment: [String: String]) throws -> Int32 {
        SignalDispositions.restoreOriginals()
        defer { SignalDispositions.ignoreBrokenPipes() }
        let pid = try spawnOnTerminal(command, environment: environment, defaultSignals: false)
        SignalDispositions.set(SIGINT, handler: SIG_IGN)
        SignalDispositions.set(SIGQUIT, handler: SIG_IGN)
        return waitForExit(pid) ?? 0 // not ours to wait for any more: it ran
    }

    /// posix_spawn on this terminal, in miga's process group; `defaultSignals`: every signal's
    /// handling back to its default, else inherited.
    private static func spawnOnTerminal(_ command: ResolvedCommand, environment: [String: String], defaultSignals: Bool) throws -> pid_t {
        try posixSpawn(command, environment: environment, actions: nil,
                       flags: POSIX_SPAWN_SETSIGMASK | (defaultSignals ? POSIX_SPAWN_SETSIGDEF : 0))
    }

    /// posix_spawn with an empty signal mask and, under POSIX_SPAWN_SETSIGDEF in `flags`, every
    /// signal's handling at its default: the one spawn under every kind of launch (and
    /// `CapturedRun`'s).
    static func posixSpawn(_ command: ResolvedCommand, environment: [String: String],
                                   actions: UnsafePointer<posix_spawn_file_actions_t>?, flags: Int32) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(flags))
        var pid = pid_t()
        let status = withCStrings(command.arguments) { argv in
            withCStrings(environmentStrings(environment)) { envp in
                posix_spawn(&pid, command.executable, actions, &attributes, argv, envp)
            }
        }
        guard status == 0 else { throw LaunchError.spawnFailed(command: command.arguments.first ?? command.executable, code: status) }
        return pid
    }

    /// Waits for `pid`: its exit status, 128+N if signal N ended it; nil if it cannot be
    /// waited for (errno says why).
    private static func waitForExit(_ pid: pid_t) -> Int32? {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return nil }
        }
        return exitStatus(status)
    }

    private static func exitStatus(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    private static func spawn(_ command: ResolvedCommand, environment: [String: String], newSession: Bool,
                              keepingStandardError: Bool = false) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in keepingStandardError ? 0...1 : 0...2 {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let setsid: Int32 = 0x80 // POSIX_SPAWN_SETSID (glibc >= 2.26), not imported into Swift
        return try posixSpawn(command, environment: environment, actions: &actions,
                              flags: POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | (newSession ? setsid : 0))
    }

    /// Writes all of `data` to `fd`. Foundation's `FileHandle.write(_:)` traps on any error,
    /// so a closed pipe, a full disk or a terminal that hung up (EIO) would crash miga, and a
    /// gate that crashes opens nothing; here the error is thrown instead.
    public static func write(_ data: Data, to fd: Int32, name: String) throws {
        try data.withUnsafeBytes { try write($0, to: fd, name: name) }
    }

    static func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32, name: String) throws {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                guard errno == EINTR else { throw LinuxError(operation: "write to \(name)", code: errno) }
                continue
            }
            offset += written
        }
    }

    /// One read(2) into `buffer`, tried again when a signal interrupts it: the number of bytes,
    /// 0 at end of input. Any other failure throws its errno (`LinuxError.wouldBlock` for a
    /// non-blocking descriptor with nothing to read).
    public static func read(from fd: Int32, into buffer: UnsafeMutableRawBufferPointer, name: String) throws -> Int {
        while true {
            let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            guard errno == EINTR else { throw LinuxError(operation: "read \(name)", code: errno) }
        }
    }

    /// Everything `fd` gives until end of file; `FileHandle.readDataToEndOfFile()` traps on a
    /// read error (standard input redirected from a folder gives EISDIR).
    public static func readAll(from fd: Int32, name: String) throws -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                guard errno == EINTR else { throw LinuxError(operation: "read \(name)", code: errno) }
                continue
            }
            if count == 0 { return data }
            data.append(buffer, count: count)
        }
    }

    /// Makes output that could not be written (a full disk, a pipe whose reader left while
    /// SIGPIPE is ignored) an error at exit, not a quiet success, as coreutils' close_stdout
    /// does. `print` buffers, so the failure may only show at this last flush.
    public static func checkStandardOutputAtExit() {
        atexit { LinuxSystem.failUnlessStandardOutputWasWritten() }
    }

    static func failUnlessStandardOutputWasWritten() {
        guard miga_standard_output_failed() != 0 else { return }
        let code = errno
        // `miga events export | head -1`: the reader had what it wanted. Not an error.
        if code == EPIPE || standardOutputReaderLeft() { _exit(0) }
        say("miga: write to standard output: \(errnoDescription(code))\n")
        _exit(1)
    }

    /// Whether standard output is a pipe nobody reads any more (poll reports POLLERR for the
    /// write end of a pipe without readers).
    public static func standardOutputReaderLeft() -> Bool {
        guard (try? FileStatus(descriptor: STDOUT_FILENO))?.kind == .fifo else { return false }
        var descriptor = pollfd(fd: STDOUT_FILENO, events: Int16(POLLOUT), revents: 0)
        return poll(&descriptor, 1, 0) > 0 && descriptor.revents & Int16(POLLERR) != 0
    }

    /// A message to the person on standard error (or `fd`); if it cannot be written there is
    /// nowhere left to say so, and that must never stop anything.
    public static func say(_ text: String, to fd: Int32 = STDERR_FILENO) {
        // The String's own bytes: `Data(text.utf8)` copied them, and its generic initializer
        // asked the runtime about conformances (0.17M instructions before the first frame).
        var text = text
        _ = text.withUTF8 { try? write(UnsafeRawBufferPointer($0), to: fd, name: "") }
    }

    /// Whether the child `pid` has ended (and is reaped now); a pid that is not this
    /// process's child counts as ended. Never waits.
    public static func hasEnded(_ pid: Int32) -> Bool {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        return result != 0
    }

    /// Lowers this process's priority (nice 10, and the idle I/O class): for background work
    /// that must never slow what the person is waiting for.
    public static func yieldProcessor() {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        _ = miga_idle_io_priority()
    }

    /// Ends this process by SIGALRM after `seconds`, wherever it is: for a background helper
    /// that may meet a folder that stopped answering (a killable wait ends too).
    public static func endAfter(seconds: UInt32) {
        signal(SIGALRM, SIG_DFL)
        alarm(seconds)
    }

    /// Ends the process the way `signal` would have, after cleanup (so the parent shell sees
    /// "terminated by SIGHUP", not an ordinary exit status).
    public static func dieBySignal(_ signal: Int32) -> Never {
        Glibc.signal(signal, SIG_DFL)
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, signal)
        sigprocmask(SIG_UNBLOCK, &mask, nil)
        raise(signal)
        exit(128 + signal)
    }
}

/// What poll(2) reported for one descriptor.
public struct PollEvents: OptionSet, Sendable {
    public let rawValue: Int16
    public init(rawValue: Int16) { self.rawValue = rawValue }

    /// Input to read, or end of file.
    public static let input = PollEvents(rawValue: Int16(POLLIN))
    static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
    static let error = PollEvents(rawValue: Int16(POLLERR))
    /// Not an open descriptor.
    public static let invalid = PollEvents(rawValue: Int16(POLLNVAL))
    /// Every sign that the other end is gone or the descriptor unusable.
    public static let gone: PollEvents = [.hangUp, .error, .invalid]
}

extension LinuxSystem {
    /// One poll(2) for input on each of `fds`, for up to `milliseconds` (-1: no limit): what
    /// each reported, in the same order. After a timeout, or when poll fails (EINTR: a signal
    /// came, and the signal pipe now holds it), every set is empty; callers wait in a loop
    /// and look again. Not tried again here: a signal must reach the caller at once.
    public static func waitForInput(_ fds: [Int32], milliseconds: Int32) -> [PollEvents] {
        var descriptors = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let count = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
        guard count > 0 else {
            // poll itself failed (ENOMEM, not a signal): callers loop on "nothing ready", so
            // wait a little as a timeout would, rather than spin a core until it recovers.
            if count < 0, errno != EINTR, milliseconds != 0 { usleep(UInt32(milliseconds < 0 ? 50 : min(milliseconds, 50)) * 1000) }
            return Array(repeating: [], count: fds.count)
        }
        return descriptors.map { PollEvents(rawValue: $0.revents) }
    }
}

extension LinuxSystem {
    public enum Readiness { case ready, timedOut, failed }

    /// Waits for `fd` to have input, end of file or an error to read (`ready`), up to `milliseconds`.
    public static func waitReadable(_ fd: Int32, milliseconds: Int32) -> Readiness {
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
        while true {
            let count = poll(&fds, 1, milliseconds)
            if count < 0 {
                if errno == EINTR { continue }
                return .failed
            }
            if count == 0 { return .timedOut }
            return fds[0].revents & Int16(POLLNVAL) != 0 ? .failed : .ready
        }
    }
}

extension LinuxSystem {
    /// Where the symbolic link at `path` points; nil when it is not one.
    public static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether anything is at `path`, a dangling link included.
    public static func pathExists(_ path: String) -> Bool {
        FileStatus.at(path, followingLinks: false) != nil
    }

    /// Puts a symbolic link to `target` at `path`, replacing what is there in one step.
    public static func replaceWithLink(_ path: String, target: String) throws {
        let temporary = path + ".miga-link-\(getpid())"
        unlink(temporary)
        guard symlink(target, temporary) == 0 else { throw LinuxError(operation: "link \(path)", code: errno) }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw LinuxError(operation: "link \(path)", code: code)
        }
    }
}

extension LinuxSystem {
    /// The size of the terminal on `fd`, or nil when it is not one.
    public static func terminalSize(_ fd: Int32) -> (columns: Int, rows: Int)? {
        var window = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return nil }
        return (Int(window.ws_col), Int(window.ws_row))
    }
}

extension LinuxSystem {
    /// `/dev/tty` when one of stdin, stdout and stderr is a terminal (so the person is at it)
    /// and the controlling terminal opens: the gate draws there and leaves the pipes to the
    /// app. nil when none of the three is a terminal: a launcher started under `startx`
    /// inherits the console, and drawing there would be invisible.
    public static func controllingTerminalBesidePipes() -> String? {
        guard isTerminal(STDIN_FILENO) || isTerminal(STDOUT_FILENO) || isTerminal(STDERR_FILENO) else { return nil }
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return nil }
        close(fd)
        return "/dev/tty"
    }
}
