#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An open file descriptor, typed (swift-system's `FileDescriptor`): a service that reads,
/// writes or waits takes one of these, never a bare Int32 that could be a count or a pid.
public struct FileDescriptor: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let standardInput = FileDescriptor(rawValue: STDIN_FILENO)
    public static let standardOutput = FileDescriptor(rawValue: STDOUT_FILENO)
    public static let standardError = FileDescriptor(rawValue: STDERR_FILENO)

    /// What a message about this descriptor calls it.
    public var description: String {
        switch self {
        case .standardInput: return "standard input"
        case .standardOutput: return "standard output"
        case .standardError: return "standard error"
        default: return "descriptor \(rawValue)"
        }
    }
}

/// An errno value, named (swift-system's `Errno`): what miga's decisions compare against, and
/// the C library's words for it.
public struct Errno: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's errno now: read it before any other call can change it.
    public static var current: Errno { Errno(rawValue: errno) }

    public static let noSuchFile = Errno(rawValue: ENOENT)
    public static let fileExists = Errno(rawValue: EEXIST)
    public static let notDirectory = Errno(rawValue: ENOTDIR)
    public static let isDirectory = Errno(rawValue: EISDIR)
    public static let permissionDenied = Errno(rawValue: EACCES)
    public static let notPermitted = Errno(rawValue: EPERM)
    public static let interrupted = Errno(rawValue: EINTR)
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    public static let brokenPipe = Errno(rawValue: EPIPE)
    public static let ioError = Errno(rawValue: EIO)
    public static let noSuchProcess = Errno(rawValue: ESRCH)
    public static let tooManyLinks = Errno(rawValue: ELOOP)

    /// strerror(3): "No such file or directory".
    public var description: String { String(cString: strerror(rawValue)) }
}

extension LinuxError {
    /// `operation` failed with `errno`.
    public init(operation: String, errno: Errno) {
        self.init(operation: operation, code: errno.rawValue)
    }

    /// `operation` failed with the errno the last system call left.
    public static func current(_ operation: String) -> LinuxError {
        LinuxError(operation: operation, errno: .current)
    }

    /// The failure's errno, named.
    public var errno: Errno { Errno(rawValue: code) }
}

extension SignalPipe {
    /// The end a gate waits on: readable when a signal came.
    public var readDescriptor: FileDescriptor { FileDescriptor(rawValue: readFD) }
}

extension GateWindowChannel {
    /// The end the window's lines arrive on.
    public var readDescriptor: FileDescriptor { FileDescriptor(rawValue: readFD) }
}
