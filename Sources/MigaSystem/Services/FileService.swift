/// The file operations MigaCore asks for by what they do (`context.files`): each one or two
/// system calls; the ones whose failure a caller may ignore (a cleanup that finds nothing to
/// clean) say whether they worked and let the result be dropped.
public protocol FileService: Sendable {
    /// `mkdir -p` with `mode` for the folders it creates.
    func makeDirectories(_ path: String, mode: FileMode) throws
    /// unlink(2): false when nothing was removed.
    @discardableResult func removeFile(_ path: String) -> Bool
    /// rmdir(2): only an empty folder goes.
    @discardableResult func removeDirectory(_ path: String) -> Bool
    /// chmod(2), following links.
    @discardableResult func setPermissions(_ path: String, _ mode: FileMode) -> Bool
    /// An empty file with `mode` unless anything (a dangling link too) is at `path` already.
    @discardableResult func createFileIfAbsent(_ path: String, mode: FileMode) -> Bool
    /// link(2): the first of two processes to link a name wins.
    @discardableResult func linkIfAbsent(_ existing: String, to new: String) -> Bool
    /// The file's times, never through a link.
    @discardableResult func setModified(_ path: String, to time: FileTime) -> Bool
    /// Creates or empties `path` (never through a link) and, if given, sets its time.
    func touch(_ path: String, mode: FileMode, modified: FileTime?) -> Bool
    /// Replaces an existing file's contents in one write; false when it is gone.
    func overwriteExisting(_ path: String, with bytes: [UInt8]) -> Bool
    /// mkstemp(3) in `folder`: the new file's path.
    func createUniqueFile(in folder: String, prefix: String) throws -> String
    /// At most `limit` names in `folder` for which `include` is true; empty when it cannot be opened.
    func directoryNames(in folder: String, limit: Int, where include: (String) -> Bool) -> [String]
    /// realpath(3); nil when `path` does not resolve.
    func realPath(_ path: String) -> String?
    /// Where the link at `path` points; nil when it is not one.
    func readLink(_ path: String) -> String?
    /// Whether anything is at `path`, a dangling link included.
    func pathExists(_ path: String) -> Bool
    /// A symbolic link to `target` at `path`, replacing what is there in one step.
    func replaceWithLink(_ path: String, target: String) throws
    /// A regular file this user may execute.
    func isExecutableFile(_ path: String) -> Bool
}

extension FileService {
    /// Every name in `folder` for which `include` is true.
    public func directoryNames(in folder: String, where include: (String) -> Bool) -> [String] {
        directoryNames(in: folder, limit: .max, where: include)
    }
}

/// The files of this machine, through the C library.
public struct SystemFiles: FileService {
    public init() {}
    public func makeDirectories(_ path: String, mode: FileMode) throws { try LinuxSystem.makeDirectories(path, mode: mode) }
    @discardableResult public func removeFile(_ path: String) -> Bool { LinuxSystem.removeFile(path) }
    @discardableResult public func removeDirectory(_ path: String) -> Bool { LinuxSystem.removeDirectory(path) }
    @discardableResult public func setPermissions(_ path: String, _ mode: FileMode) -> Bool { LinuxSystem.setPermissions(path, mode) }
    @discardableResult public func createFileIfAbsent(_ path: String, mode: FileMode) -> Bool { LinuxSystem.createFileIfAbsent(path, mode: mode) }
    @discardableResult public func linkIfAbsent(_ existing: String, to new: String) -> Bool { LinuxSystem.linkIfAbsent(existing, to: new) }
    @discardableResult public func setModified(_ path: String, to time: FileTime) -> Bool { LinuxSystem.setModified(path, to: time) }
    public func touch(_ path: String, mode: FileMode, modified: FileTime?) -> Bool { LinuxSystem.touch(path, mode: mode, modified: modified) }
    public func overwriteExisting(_ path: String, with bytes: [UInt8]) -> Bool { LinuxSystem.overwriteExisting(path, with: bytes) }
    public func createUniqueFile(in folder: String, prefix: String) throws -> String { try LinuxSystem.createUniqueFile(in: folder, prefix: prefix) }
    public func directoryNames(in folder: String, limit: Int, where include: (String) -> Bool) -> [String] {
        LinuxSystem.directoryNames(in: folder, limit: limit, where: include)
    }
    public func realPath(_ path: String) -> String? { LinuxSystem.realPath(path) }
    public func readLink(_ path: String) -> String? { LinuxSystem.readLink(path) }
    public func pathExists(_ path: String) -> Bool { LinuxSystem.pathExists(path) }
    public func replaceWithLink(_ path: String, target: String) throws { try LinuxSystem.replaceWithLink(path, target: target) }
    public func isExecutableFile(_ path: String) -> Bool { LinuxSystem.isExecutableFile(path) }
}
