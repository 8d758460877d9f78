#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// Where a command's output goes: standard output in the real thing, a buffer in tests. Every
/// command writes through its context's `output`, so it runs the same in-process as in the
/// binary (`Tests/MigaCommandTests`).
public protocol TextOutput: Sendable {
    /// Writes `text` whole; a failure (a full disk, a reader that left) throws a `LinuxError`.
    func write(_ text: String) throws
    /// Bytes as they are (an export's lines), for output that is not built as a String.
    func write(_ bytes: Data) throws
    /// A terminal reads it: colour and the terminal's width apply.
    var isTerminal: Bool { get }
    /// The terminal's width in columns, or nil when no terminal reads it.
    var columns: Int? { get }
}

extension TextOutput {
    /// `text` and a line break, as `print` writes it.
    public func line(_ text: String = "") throws {
        try write(text + "\n")
    }

    /// Each of `lines` on its own line.
    public func lines(_ lines: [String]) throws {
        for text in lines { try line(text) }
    }
}

/// Standard output, written at once with write(2): nothing waits in a buffer to fail at exit,
/// and a reader that left (`miga events export | head -1`, SIGPIPE ignored) is the
/// `LinuxError` of `isClosedOutput` the command can end quietly on.
public struct StandardOutput: TextOutput {
    public static let name = "standard output"

    public init() {}

    public func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try LinuxSystem.write(UnsafeRawBufferPointer($0), to: STDOUT_FILENO, name: Self.name) }
    }

    public func write(_ bytes: Data) throws {
        try LinuxSystem.write(bytes, to: STDOUT_FILENO, name: Self.name)
    }

    public var isTerminal: Bool { LinuxSystem.isTerminal(STDOUT_FILENO) }

    public var columns: Int? { LinuxSystem.terminalSize(STDOUT_FILENO)?.columns }
}

extension LinuxError {
    /// A write to standard output whose reader has gone: the reader had what it wanted, so
    /// the command ends quietly with status 0 (DESIGN).
    public var isClosedOutput: Bool { code == EPIPE && operation == "write to \(StandardOutput.name)" }
}
