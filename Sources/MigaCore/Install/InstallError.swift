/// Problems setting up or removing interception. Each says what to do next.
public enum InstallError: Error, CustomStringConvertible, Equatable {
    case invalidAppName(String)
    /// A command `AppCheck` refuses; the text says what is wrong with it and where it came from.
    case invalidCommand(String)
    case appNotFound(name: String, command: String, suggestions: [String])
    case commandNotExecutable(String)
    case unknownApp(name: String, configured: [String])
    case appAlreadyAdded(String)
    case invalidSite(String)
    case unknownSite(String)
    case unreadableManifest(path: String, problem: String)
    case write(path: String, problem: String)
    case noBrowser
    /// A shell or script interpreter: gating it gates every script that runs through it.
    case interpreter(name: String, program: String)

    public var description: String {
        switch self {
        case .invalidAppName(let name):
            return "\(AppCheck.problem(withName: name) ?? "app name \"\(name)\" cannot be used"); pick another name and use --command for the program"
        case .invalidCommand(let problem):
            return "\(problem); \(AppCheck.commandAdvice)"
        case .appNotFound(let name, let command, let suggestions):
            let hint = suggestions.isEmpty
                ? "check the spelling, or give the program with --command PATH"
                : "did you mean \(suggestions.map { "\"\($0)\"" }.joined(separator: ", "))? (or give the program with --command PATH)"
            return "\(command == name ? "\"\(name)\"" : "\"\(command)\" (for \(name))") is not a command on PATH or in any installed desktop entry; \(hint)"
        case .commandNotExecutable(let path):
            return "\(path) is not an executable file; give the path of the program itself"
        case .unknownApp(let name, let configured):
            let list = configured.isEmpty ? "no apps are gated yet" : "gated apps: \(configured.joined(separator: ", "))"
            return "\"\(name)\" is not a gated app (\(list)); see `miga config apps list`"
        case .appAlreadyAdded(let name):
            return "\"\(name)\" is already gated; remove it first (`miga config apps remove \(name)`) to change its command"
        case .invalidSite(let site):
            return SiteMatcher.problem(with: site) + "; give a site like reddit.com"
        case .unknownSite(let site):
            return "\"\(site)\" is not in the gated sites; see `miga config sites list`"
        case .unreadableManifest(let path, let problem):
            return "\(path): \(problem); move it away, then run `miga install` again"
        case .write(let path, let problem):
            return AtomicFile.cannotWrite(path, problem)
        case .interpreter(let name, let program):
            return "\(program) runs scripts and tools besides itself, so gating it would pause every script that uses it; if that is what you want, run `miga config apps add \(name)\(program == name ? "" : " --command \(program)") --force`"
        case .noBrowser:
            return "no web browser to open links in; install one (or set it with `xdg-settings set default-web-browser ID.desktop`), then run `miga install`"
        }
    }
}
