import FoundationEssentials

/// The terminal and the descriptors miga talks through (`context.terminal`): standard input
/// and output, a browser's pipe, the gate window's channel. Reads and writes throw
/// `LinuxError` (never trap, as Foundation's `FileHandle` does); waits never throw.
public protocol TerminalService: Sendable {
    /// isatty(3): also false for a terminal that is gone.
    func isTerminal(_ fd: FileDescriptor) -> Bool
    /// The terminal's size on `fd`, or nil when it is not one.
    func size(of fd: FileDescriptor) -> (columns: Int, rows: Int)?
    /// One poll(2) for input on each of `fds`, for up to `milliseconds` (-1: no limit): what
    /// each reported, in order; every set empty after a timeout or a signal.
    func waitForInput(_ fds: [FileDescriptor], milliseconds: Int32) -> [PollEvents]
    /// One read(2) into `buffer` (tried again on EINTR): the count, 0 at end of input.
    func read(from fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer, name: String) throws -> Int
    /// All of `data` to `fd`.
    func write(_ data: Data, to fd: FileDescriptor, name: String) throws
    /// Text for the person on `fd`; nothing, and no error, if it cannot be written.
    func say(_ text: String, to fd: FileDescriptor)
}

/// This process's terminal and descriptors, through the C library.
public struct SystemTerminal: TerminalService {
    public init() {}
    public func isTerminal(_ fd: FileDescriptor) -> Bool { LinuxSystem.isTerminal(fd.rawValue) }
    public func size(of fd: FileDescriptor) -> (columns: Int, rows: Int)? { LinuxSystem.terminalSize(fd.rawValue) }
    public func waitForInput(_ fds: [FileDescriptor], milliseconds: Int32) -> [PollEvents] {
        LinuxSystem.waitForInput(fds.map(\.rawValue), milliseconds: milliseconds)
    }
    public func read(from fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer, name: String) throws -> Int {
        try LinuxSystem.read(from: fd.rawValue, into: buffer, name: name)
    }
    public func write(_ data: Data, to fd: FileDescriptor, name: String) throws {
        try LinuxSystem.write(data, to: fd.rawValue, name: name)
    }
    public func say(_ text: String, to fd: FileDescriptor) { LinuxSystem.say(text, to: fd.rawValue) }
}

extension TerminalService {
    /// Text for the person on standard error.
    public func say(_ text: String) { say(text, to: .standardError) }
}
