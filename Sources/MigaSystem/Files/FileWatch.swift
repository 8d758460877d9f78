#if canImport(Glibc)
import Glibc
#endif

/// Says when a file may have changed, by inotify on its folder rather than by looking every
/// second: an editor saves by renaming over the file, `miga install` creates it, a person
/// removes it, so the folder is what is watched. While the folder does not exist yet, its
/// nearest existing ancestor is, and the watch moves down as folders appear.
///
/// A wake-up says "look again", never what changed: the caller compares what it read last
/// (a few spurious looks cost nothing). Without inotify (`descriptor` is -1: no such call,
/// or out of watches) the caller keeps looking on a timer.
public final class FileWatch {
    public let descriptor: Int32
    private let folder: String
    private var watch: Int32 = -1
    private var watching = ""

    public init(file path: String) {
        folder = Self.parent(of: path)
        descriptor = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
        arm()
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Reads what inotify has to say; true when the file may have changed since the last call.
    public func drain() -> Bool {
        guard descriptor >= 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var any = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            any = true
        }
        if any { arm() } // a folder made or removed moves the watch
        return any
    }

    private static let changes: UInt32 = UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM)
        | UInt32(IN_CREATE) | UInt32(IN_DELETE) | UInt32(IN_ATTRIB) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)

    /// Watches the file's folder, or the nearest ancestor of it that exists.
    private func arm() {
        guard descriptor >= 0 else { return }
        var target = folder
        while !target.isEmpty {
            if target == watching, FileStatus.at(target)?.isDirectory == true { return }
            let added = inotify_add_watch(descriptor, target, Self.changes | UInt32(IN_ONLYDIR))
            if added >= 0 {
                if watch >= 0, watch != added { inotify_rm_watch(descriptor, watch) }
                watch = added
                watching = target
                return
            }
            if target == "/" { return }
            target = Self.parent(of: target)
        }
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
