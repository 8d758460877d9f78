/// The program an Exec line really starts, seen through `env VAR=value …` (Snap entries use it)
/// and, for Flatpak entries, the app ID and `--command` given to `flatpak run`.
struct LaunchedProgram {
    struct Flatpak: Equatable {
        var appID: String
        var command: String?

        /// An app ID's last part is the app's name: com.discordapp.Discord is discord.
        var appName: String? { appID.split(separator: ".").last?.lowercased() }
    }

    /// The program after any `env` prefix, as written.
    var program: String?
    var flatpak: Flatpak?

    init(_ exec: ExecLine) {
        var words: [String] = []
        for argument in exec.arguments {
            guard case .literal(let word) = argument else { break }
            words.append(word)
        }
        var rest = words[...]
        if let first = rest.first, Self.name(first) == "env" {
            rest = rest.dropFirst()
            // Options and assignments come before the program (env -u NAME takes a value).
            while let word = rest.first, word.hasPrefix("-") || word.contains("=") {
                rest = rest.dropFirst()
                if word == "-u" || word == "--unset" { rest = rest.dropFirst() }
            }
        }
        program = rest.first ?? exec.program
        guard let program = rest.first, Self.name(program) == "flatpak", rest.dropFirst().first == "run" else { return }
        var command: String?
        var options = rest.dropFirst(2)
        while let word = options.popFirst() {
            if word.hasPrefix("--command=") {
                command = String(word.dropFirst("--command=".count))
            } else if Self.flatpakOptionsWithValue.contains(word) {
                let value = options.popFirst()
                if word == "--command" { command = value }
            } else if !word.hasPrefix("-") {
                flatpak = Flatpak(appID: word, command: command)
                return
            }
        }
    }

    /// The short names that gate this program (for completion and suggestions).
    var names: Set<String> {
        var names = Set<String>()
        if let program { names.insert(Self.name(program)) }
        if let flatpak {
            if let command = flatpak.command { names.insert(Self.name(command)) }
            if let appName = flatpak.appName { names.insert(appName) }
        }
        return names
    }

    /// Whether `command` (a path, or a name as `miga config apps add` takes it) starts this.
    func isRun(by command: String) -> Bool {
        guard let program else { return false }
        if command.contains("/") {
            // A Flatpak's exported launcher runs the same app as `flatpak run APP.ID`.
            if let flatpak, command.contains("/exports/bin/"), Self.name(command) == flatpak.appID { return true }
            return program == command
        }
        if names.contains(command) { return true }
        return flatpak.map { $0.appID == command || $0.appName == command.lowercased() } ?? false
    }

    /// `flatpak run` options that may take their value as the next word.
    private static let flatpakOptionsWithValue: Set<String> = [
        "--arch", "--branch", "--command", "--cwd", "--runtime", "--runtime-version", "--commit", "--runtime-commit",
    ]

    private static func name(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
