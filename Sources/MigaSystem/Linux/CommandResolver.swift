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
        guard let name = arguments.first, !name.isEmpty else { throw CommandError.noCommand }
        if name.contains("/") {
            // A path into miga's own shim folder (`command` set to the shim itself) would run
            // the gate again, for ever: the real program of that name is meant.
            if isShim(name) {
                let base = String(name[name.index(after: name.lastIndex(of: "/")!)...])
                guard let found = lookUp(base) else { throw CommandError.onlyAShim(name) }
                return ResolvedCommand(executable: found, arguments: [found] + arguments.dropFirst())
            }
            // An explicit path is taken as written, as shells do, once it can run.
            var info = stat()
            guard stat(name, &info) == 0 else {
                throw errno == ENOENT || errno == ENOTDIR ? CommandError.noSuchFile(name)
                    : CommandError.notExecutable(name, reason: LinuxSystem.errnoDescription(errno))
            }
            guard (info.st_mode & S_IFMT) != S_IFDIR else { throw CommandError.notExecutable(name, reason: "Is a directory") }
            guard access(name, X_OK) == 0 else {
                throw CommandError.notExecutable(name, reason: "Permission denied (not an executable file)")
            }
            return ResolvedCommand(executable: name, arguments: arguments)
        }
        guard let found = lookUp(name) else { throw CommandError.commandNotFound(name) }
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

/// Why a command cannot be run. Each says what to do next, with the status a shell gives.
public enum CommandError: Error, CustomStringConvertible, Equatable {
    case noCommand
    case commandNotFound(String)
    /// `command` names miga's own shim and no real program of that name is on PATH.
    case onlyAShim(String)
    /// An explicit path that does not exist (127, as shells say it).
    case noSuchFile(String)
    /// An explicit path that is a folder or not executable (126).
    case notExecutable(String, reason: String)

    /// The exit status a shell gives for the same problem.
    public var status: Int32 {
        switch self {
        case .notExecutable: return 126
        case .commandNotFound, .noSuchFile, .onlyAShim: return 127
        case .noCommand: return 64
        }
    }

    public var description: String {
        switch self {
        case .noCommand:
            return "nothing to run; usage: miga gate [--app NAME] -- COMMAND [ARG...]"
        case .commandNotFound(let command):
            return "\(command): command not found on PATH (miga's own shims are skipped); check the name or give an absolute path"
        case .onlyAShim(let path):
            return "\(path) is miga's own shim, and no other program of that name is on PATH; set the app's command to the real program (`miga config apps add NAME --command PROGRAM`)"
        case .noSuchFile(let path):
            return "\(path): No such file or directory; check the path"
        case .notExecutable(let path, let reason):
            return "\(path): \(reason)"
        }
    }
}

extension MigaContext {
    /// The one way miga finds a program: on `PATH` (or `CommandResolver.defaultSearchPath`
    /// when it is unset), never in miga's own shim folder, so a shim cannot find itself.
    public var commandResolver: CommandResolver {
        CommandResolver(searchPath: environment["PATH"] ?? CommandResolver.defaultSearchPath, skipping: [paths.shimDirectory])
    }
}
