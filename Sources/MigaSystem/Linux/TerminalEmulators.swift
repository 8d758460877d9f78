/// Finds a terminal emulator to show the gate in when miga was started without one (from a
/// desktop launcher or a key binding), in the order DESIGN "The gateway" gives.
public struct TerminalEmulators {
    /// How each known emulator wants to be told "run this command".
    public static let known: [(name: String, prefix: [String])] = [
        ("xdg-terminal-exec", []),
        ("x-terminal-emulator", ["-e"]),
        ("gnome-terminal", ["--"]),
        ("konsole", ["-e"]),
        ("xfce4-terminal", ["-x"]),
        ("kitty", []),
        ("alacritty", ["-e"]),
        ("foot", []),
        ("wezterm", ["start", "--"]),
        ("xterm", ["-e"]),
    ]

    public var setting: String
    public var environment: [String: String]
    public var resolver: CommandResolver

    public init(setting: String, environment: [String: String], resolver: CommandResolver) {
        self.setting = setting
        self.environment = environment
        self.resolver = resolver
    }

    /// Whether a graphical session exists to open a window in.
    public var graphicalSessionPresent: Bool { Self.graphicalSessionPresent(in: environment) }

    public static func graphicalSessionPresent(in environment: [String: String]) -> Bool {
        !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
    }

    /// The command that opens a terminal running `argv`, or nil when there is no usable one.
    public func command(running argv: [String]) -> ResolvedCommand? {
        for candidate in candidates() {
            guard let program = candidate.first, let executable = locate(program) else { continue }
            return ResolvedCommand(executable: executable, arguments: candidate + argv)
        }
        return nil
    }

    /// The program the `terminal` setting names when it cannot be run here (not on PATH, not
    /// executable), so the next candidate opens instead; nil when unset or found.
    public var unavailableSetting: String? {
        guard let program = setting.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) else { return nil }
        return locate(program) == nil ? program : nil
    }

    /// Each candidate as its words up to (not including) the command to run.
    func candidates() -> [[String]] {
        var result: [[String]] = []
        for configured in [setting, environment["TERMINAL"] ?? ""] {
            let words = configured.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let first = words.first else { continue }
            if words.count == 1 {
                // A bare name: use the flag that emulator needs; an unknown one gets xterm's -e.
                let base = String(first.split(separator: "/").last ?? Substring(first))
                let prefix = Self.known.first { $0.name == base }?.prefix ?? ["-e"]
                result.append([first] + prefix)
            } else {
                result.append(words) // The person spelled out the flags themselves.
            }
        }
        result += Self.known.map { [$0.name] + $0.prefix }
        return result
    }

    private func locate(_ program: String) -> String? {
        if program.contains("/") { return resolver.isExecutable(program) ? program : nil }
        return resolver.lookUp(program)
    }
}
