/// What `miga install` adds so shells and graphical launchers find the PATH shims first:
/// the `shell/` snippets (compiled into the binary), one marked line per rc file, a fish
/// `conf.d` file and a systemd `environment.d` file.
public struct ShellIntegration {
    public static let marker = "# miga: gated apps first on PATH (`miga uninstall` removes this line)"

    public struct RcLine: Equatable {
        public var path: String
        public var line: String
    }

    public var layout: InstallLayout
    public var environment: [String: String]
    public var fileExists: (String) -> Bool
    public var commandExists: (String) -> Bool

    public init(layout: InstallLayout, environment: [String: String], fileExists: @escaping (String) -> Bool,
                commandExists: @escaping (String) -> Bool) {
        self.layout = layout
        self.environment = environment
        self.fileExists = fileExists
        self.commandExists = commandExists
    }

    /// A snippet from `shell/` as compiled in.
    public static func bundled(_ name: String) -> String {
        bundledShellSources.first { $0.name == name }?.text ?? ""
    }

    /// The snippets to write below miga's data folder, by file name.
    public var snippets: [(path: String, text: String)] {
        ["miga.sh", "miga.zsh"].map { (layout.snippetDirectory + "/" + $0, Self.bundled($0)) }
    }

    /// The fish snippet goes to `conf.d` (fish reads it at start) when fish is used here.
    public var wantsFish: Bool {
        fileExists(layout.configHome + "/fish") || commandExists("fish") || loginShell == "fish"
    }

    /// bash's rc file always (Debian's default shell); zsh's when it exists or zsh is the login
    /// shell (creating it otherwise would skip zsh's first-run setup); `.profile` when it exists,
    /// for login shells such as dash.
    public var rcLines: [RcLine] {
        let sh = sourceLine(layout.snippetDirectory + "/miga.sh")
        var lines = [RcLine(path: layout.home + "/.bashrc", line: sh)]
        let zshrc = layout.zshDirectory + "/.zshrc"
        if fileExists(zshrc) || loginShell == "zsh" {
            lines.append(RcLine(path: zshrc, line: sourceLine(layout.snippetDirectory + "/miga.zsh")))
        }
        let profile = layout.home + "/.profile"
        if fileExists(profile) { lines.append(RcLine(path: profile, line: sh)) }
        return lines
    }

    /// systemd's user manager reads this at login, so dmenu, rofi and key bindings see the
    /// shim folder on PATH too. Nil when the folder's path holds what such a file cannot hold
    /// plainly (a line break would start another assignment; systemd expands `$` and reads
    /// quotes and backslashes): the path is written as it is, or not at all.
    public var environmentFileText: String? {
        let folder = layout.paths.shimDirectory
        guard !folder.unicodeScalars.contains(where: { TerminalText.isControl($0) || "$\\\"'`".unicodeScalars.contains($0) }) else {
            return nil
        }
        return "# Added by `miga install` so graphical launchers find gated apps; `miga uninstall` removes it.\n"
            + "PATH=\(folder):${PATH}\n"
    }

    /// A guarded `.` line: if miga's files are gone, the shell starts quietly anyway.
    func sourceLine(_ snippet: String) -> String {
        let quoted = ShellQuoting.quoted(snippet)
        return "if [ -r \(quoted) ]; then . \(quoted); fi \(Self.marker)"
    }

    private var loginShell: String? {
        environment["SHELL"].map { String($0.split(separator: "/").last ?? "") }
    }
}
