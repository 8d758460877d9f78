#if canImport(Glibc)
import Glibc
#endif

/// A file a command reads as a stream, one chunk at a time (`miga events import FILE`), or
/// standard input for `-`: the descriptor is closed with the value, standard input never.
public final class InputFile: Sendable {
    public let descriptor: Int32
    private let owned: Bool

    public static let standardInput = InputFile(descriptor: STDIN_FILENO, owned: false)

    private init(descriptor: Int32, owned: Bool) {
        self.descriptor = descriptor
        self.owned = owned
    }

    /// nil when `path` names nothing, or a folder; throws the `LinuxError` of an open that
    /// fails otherwise (no permission, say).
    public convenience init?(path: String) throws {
        guard let status = FileStatus.at(path), !status.isDirectory else { return nil }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw LinuxError(operation: "open \(path)", code: errno) }
        self.init(descriptor: fd, owned: true)
    }

    deinit { if owned { close(descriptor) } }
}
