#if canImport(Glibc)
import Glibc
#endif

/// Finds the real program behind a command name, the way a shell would, except that miga's
/// own shim folder is never chosen: a shim must not find itself (no recursion).
public struct CommandResolver {
    /// The search path when `PATH` is unset (a service manager's environment, `env -i`).
    public static let defaultSearchPath = "/usr/local/bin:/usr/bin:/bin"

    public var searchPath: String
    /// Folders to skip, compared by real path so symlinks and `..` cannot sneak a shim in.
    public var skipping: [String]
    public var isExecutable: (String) -> Bool
    public var realPath: (String) -> String?

    public init(searchPath: String, skipping: [String],
                isExecutable: @escaping (String) -> Bool = LinuxSystem.isExecutableFile,
                realPath: @escaping (String) -> String? = LinuxSystem.realPath) {
        self.searchPath = searchPath
        self.skipping = skipping
        self.isExecutable = isExecutable
        self.realPath = realPath
    }

    public func resolve(_ arguments: [String]) throws -> ResolvedCommand {
        guard let name = arguments.first, !name.isEmpty else { throw GateError.noCommand }
        if name.contains("/") {
            // A path into miga's own shim folder (`command` set to the shim itself) would run
            // the gate again, for ever: the real program of that name is meant.
            if isShim(name) {
                let base = String(name[name.index(after: name.lastIndex(of: "/")!)...])
                guard let found = lookUp(base) else { throw GateError.onlyAShim(name) }
                return ResolvedCommand(executable: found, arguments: [found] + arguments.dropFirst())
            }
            // An explicit path is taken as written, as shells do, once it can run.
            var info = stat()
            guard stat(name, &info) == 0 else {
                throw errno == ENOENT || errno == ENOTDIR ? GateError.noSuchFile(name)
                    : GateError.notExecutable(name, reason: LinuxSystem.errnoDescription(errno))
            }
            guard (info.st_mode & S_IFMT) != S_IFDIR else { throw GateError.notExecutable(name, reason: "Is a directory") }
            guard access(name, X_OK) == 0 else {
                throw GateError.notExecutable(name, reason: "Permission denied (not an executable file)")
            }
            return ResolvedCommand(executable: name, arguments: arguments)
        }
        guard let found = lookUp(name) else { throw GateError.commandNotFound(name) }
        return ResolvedCommand(executable: found, arguments: arguments)
    }

    /// Whether `path` is (or links to) a file in a skipped folder: one of miga's shims.
    public func isShim(_ path: String) -> Bool {
        let skipped = Set(skipping.compactMap(realPath))
        guard !skipped.isEmpty, let real = realPath(path) else { return false }
        return skipped.contains(String(real[..<(real.lastIndex(of: "/") ?? real.endIndex)]))
    }

    /// The first executable `name` on the search path outside the skipped folders.
    public func lookUp(_ name: String) -> String? {
        let skipped = Set(skipping.compactMap(realPath))
        // An empty PATH entry means the current directory (POSIX).
        for directory in searchPath.split(separator: ":", omittingEmptySubsequences: false).map(String.init) {
            let folder = directory.isEmpty ? "." : directory
            if let real = realPath(folder), skipped.contains(real) { continue }
            let candidate = folder + "/" + name
            guard isExecutable(candidate) else { continue }
            // A symlink placed elsewhere that points into the shim folder is a shim too.
            if let target = realPath(candidate), skipped.contains(String(target[..<(target.lastIndex(of: "/") ?? target.endIndex)])) {
                continue
            }
            return candidate
        }
        return nil
    }
}

extension MigaContext {
    /// The one way miga finds a program: on `PATH` (or `CommandResolver.defaultSearchPath`
    /// when it is unset), never in miga's own shim folder, so a shim cannot find itself.
    public var commandResolver: CommandResolver {
        CommandResolver(searchPath: environment["PATH"] ?? CommandResolver.defaultSearchPath, skipping: [paths.shimDirectory])
    }
}
