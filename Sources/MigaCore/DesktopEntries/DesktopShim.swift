/// Writes the user copy of a desktop entry that routes it through the gate (DESIGN
/// "Interception"). Unlike firejail's firecfg, each Exec keeps its own arguments: the main
/// group's and every action's Exec become `execPrefix` followed by the original value
/// verbatim, so launchers expand its field codes exactly as before.
public enum DesktopShim {
    public static let markerKey = "X-Miga-Shim"

    /// The shim's text for `entry`. Lines other than the ones DESIGN names are kept byte for
    /// byte, comments and translations included.
    public static func text(for entry: DesktopEntry, migaPath: String, app: String) throws -> String {
        guard let exec = entry.rawValue("Exec") else {
            throw DesktopEntryError(file: app, line: nil, problem: "no Exec in [Desktop Entry] to route through miga")
        }
        _ = try ExecLine(rawValue: exec) // refuse what launchers could not run either
        guard entry.rawValue("Type") == "Application" else {
            throw DesktopEntryError(file: app, line: nil, problem: "not an application entry (Type=\(entry.rawValue("Type") ?? "")), so it launches no program")
        }
        // A terminal app (Terminal=true, such as neomutt) runs in the terminal the gate is shown
        // in, so it is not detached; any other app is, so the gate's terminal can close.
        let prefix = execPrefix(migaPath: migaPath, app: app, detach: entry.boolean("Terminal") != true)
        // No TryExec pointing at miga: with miga removed it would hide the app from every menu.
        // The entry's own TryExec (its program) stays as it was.
        // Terminal stays as the entry had it: a graphical app's gate decides at run time how to
        // show itself (a window, else a terminal it opens), so no terminal flashes up for it.
        let replacements = ["Terminal": entry.boolean("Terminal") == true ? "true" : "false", "DBusActivatable": "false"]

        var output: [String] = []
        var group: String?
        var seenInMain = Set<String>()
        var lastMainEntry: Int?
        for (line, raw) in zip(entry.lines, entry.rawLines) {
            switch line {
            case .group(let name):
                group = name
                output.append(raw)
            case .entry(let key, nil, _) where key == "Exec" && group.map(Self.isQuitAction(in: entry)) == true:
                output.append(raw) // quitting a running app is never a reason to pause
            case .entry(let key, nil, let value) where key == "Exec" && (group == DesktopEntry.mainGroup || group?.hasPrefix("Desktop Action ") == true):
                // The program each Exec runs is checked as every command miga writes is.
                if let program = try? ExecLine(rawValue: value).program, let problem = AppCheck.problem(withCommand: program) {
                    throw DesktopEntryError(file: app, line: nil, problem: "[\(group ?? "")] \(problem)")
                }
                output.append("Exec=" + prefix + value)
                if group == DesktopEntry.mainGroup { lastMainEntry = output.count - 1 }
            case .entry(let key, nil, _) where group == DesktopEntry.mainGroup && replacements[key] != nil:
                seenInMain.insert(key)
                output.append("\(key)=\(replacements[key]!)")
                lastMainEntry = output.count - 1
            case .entry(let key, _, _) where group == DesktopEntry.mainGroup && key == markerKey:
                continue // written anew below
            case .entry:
                output.append(raw)
                if group == DesktopEntry.mainGroup { lastMainEntry = output.count - 1 }
            case .other:
                output.append(raw)
            }
        }
        let added = ["Terminal", "DBusActivatable"].filter { !seenInMain.contains($0) }
            .map { "\($0)=\(replacements[$0]!)" } + ["\(markerKey)=true"]
        output.insert(contentsOf: added, at: (lastMainEntry ?? 0) + 1)
        return output.joined(separator: "\n")
    }

    /// A desktop action that quits or closes the running app ("Quit", "Close all windows",
    /// "Exit"), by its id or its untranslated name.
    static func isQuitAction(in entry: DesktopEntry) -> (String) -> Bool {
        { group in
            guard group.hasPrefix("Desktop Action ") else { return false }
            let id = group.dropFirst("Desktop Action ".count).lowercased()
            let name = (entry.rawValue("Name", in: group) ?? "").lowercased()
            return [id, name].contains { word in
                word.hasPrefix("quit") || word.hasPrefix("exit") || word.hasPrefix("close") || word.contains("quit")
                    || word.hasPrefix("shutdown") || word.hasPrefix("shut down")
            }
        }
    }

    /// What goes before an entry's own Exec value. `/bin/sh` runs miga's gate with the
    /// entry's program and arguments, or, when miga is gone (removed or moved without
    /// `miga uninstall`), the program itself: a shim must never keep its app from starting.
    ///     /bin/sh -c SCRIPT MIGA, SCRIPT being
    ///     if [ -x "$0" ]; then exec "$0" gate --app 'NAME' --detach -- "$@"; fi; exec "$@"
    /// The name goes into the script as one quoted word, as every value miga writes into a
    /// script does (`ShellQuoting`); then the script is quoted for the Exec key.
    public static func execPrefix(migaPath: String, app: String, detach: Bool) -> String {
        let script = "if [ -x \"$0\" ]; then exec \"$0\" gate --app \(ShellQuoting.quoted(app))\(detach ? " --detach" : "") -- \"$@\"; fi; exec \"$@\""
        return "/bin/sh -c \(execQuoted(script)) \(execQuoted(migaPath)) "
    }

    /// Whether this entry's main Exec runs `command` (by name, or the same path). Looks through
    /// the wrappers packaged apps are launched with, so `discord` also finds a Flatpak's
    /// `flatpak run … com.discordapp.Discord` and a Snap's `env BAMF_…=… /snap/bin/discord`.
    public static func runs(_ command: String, entry: DesktopEntry) -> Bool {
        guard let raw = entry.rawValue("Exec"), let exec = try? ExecLine(rawValue: raw) else { return false }
        return LaunchedProgram(exec).isRun(by: command)
    }

    /// An Exec argument, quoted when it holds a reserved character, then string-escaped.
    static func execQuoted(_ argument: String) -> String {
        let reserved = Set(" \t\n\"'\\><~|&;$*?#()`")
        guard argument.contains(where: reserved.contains) else { return stringEscaped(argument) }
        var quoted = "\""
        for character in argument {
            if "\"`$\\".contains(character) { quoted.append("\\") }
            quoted.append(character)
        }
        return stringEscaped(quoted + "\"")
    }

    static func stringEscaped(_ text: String) -> String {
        text.replacingEvery("\\", with: "\\\\")
            .replacingEvery("\n", with: "\\n")
            .replacingEvery("\t", with: "\\t")
    }
}
