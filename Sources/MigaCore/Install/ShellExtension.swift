import FoundationEssentials

/// GNOME Shell's part of miga: the extension `miga@miga.app` (installed by `make install` and
/// the package), which the shell loads when its uuid is in the `org.gnome.shell
/// enabled-extensions` key; and the XDG autostart entry that starts `miga watch` on every other
/// X11 desktop (DESIGN "The room, not just the door").
public enum ShellExtension {
    public static let uuid = "miga@miga.app"
    static let schema = "org.gnome.shell"
    static let enabledKey = "enabled-extensions"

    /// Whether this session is GNOME's (the one rule: `RoomWatch.isGNOME`).
    public static func isGNOME(_ environment: [String: String]) -> Bool { RoomWatch.isGNOME(environment) }

    /// The extension's folder where the shell would find it: the user's data folder first,
    /// then the system's (`$XDG_DATA_DIRS`), as the shell looks. nil when it is in none.
    public static func installedFolder(dataDirectories: [String]) -> String? {
        dataDirectories.map { $0 + "/gnome-shell/extensions/" + uuid }
            .first { AtomicFile.exists($0 + "/metadata.json") }
    }

    /// The extensions GNOME Shell is told to load (`org.gnome.shell enabled-extensions`), read
    /// through `gsettings`; the failure in words when it cannot be read.
    public static func enabledExtensions(context: MigaContext) -> Result<[String], SettingsProblem> {
        guard let gsettings = context.commandResolver.lookUp("gsettings") else { return .failure(SettingsProblem("gsettings is not installed")) }
        let get = ResolvedCommand(executable: gsettings, arguments: ["gsettings", "get", schema, enabledKey])
        guard let read = try? context.launcher.runCapturingOutput(get, environment: context.environment), read.status == 0 else {
            return .failure(SettingsProblem("GNOME Shell's settings could not be read"))
        }
        guard let enabled = parseStringList(String(decoding: read.output, as: UTF8.self)) else {
            return .failure(SettingsProblem("GNOME Shell's list of enabled extensions is not in a form miga reads"))
        }
        return .success(enabled)
    }

    /// Tells GNOME Shell to load `list` (every other extension kept as it was read).
    static func setEnabledExtensions(_ list: [String], context: MigaContext) -> SettingsProblem? {
        guard let gsettings = context.commandResolver.lookUp("gsettings") else { return SettingsProblem("gsettings is not installed") }
        let set = ResolvedCommand(executable: gsettings, arguments: ["gsettings", "set", schema, enabledKey, formatStringList(list)])
        guard (try? context.launcher.runCapturingOutput(set, environment: context.environment).status) == 0 else {
            return SettingsProblem("GNOME Shell's settings could not be written")
        }
        return nil
    }

    public struct SettingsProblem: Error, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// A string list as `gsettings get` prints it (`['a@b', "it's"]`, or `@as []` when empty);
    /// nil for anything else, so a value miga cannot read is never written back changed.
    public static func parseStringList(_ printed: String) -> [String]? {
        var text = Substring(printed.trimming(.whitespacesAndNewlines))
        if text.hasPrefix("@as ") { text = text.dropFirst(4) }
        guard text.first == "[", text.last == "]" else { return nil }
        text = text.dropFirst().dropLast()
        var items: [String] = []
        while !text.isEmpty {
            // GLib quotes an item with ' unless it holds one, then with ".
            guard let quote = text.first, quote == "'" || quote == "\"" else { return nil }
            text = text.dropFirst()
            var item = ""
            while let character = text.first, character != quote {
                text = text.dropFirst()
                if character == "\\" {
                    // Only the escapes that stand for themselves: any other (`\n`, `\u00e9`)
                    // is a list miga cannot write back exactly, so it is left alone.
                    guard let escaped = text.first, escaped == "\\" || escaped == "'" || escaped == "\"" else { return nil }
                    item.append(escaped)
                    text = text.dropFirst()
                } else {
                    item.append(character)
                }
            }
            guard text.first == quote else { return nil }
            text = text.dropFirst()
            items.append(item)
            if text.hasPrefix(", ") { text = text.dropFirst(2) } else if !text.isEmpty { return nil }
        }
        return items
    }

    /// A string list as `gsettings set` reads it.
    public static func formatStringList(_ items: [String]) -> String {
        "[" + items.map { "'" + $0.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'" }.joined(separator: ", ") + "]"
    }

    /// The autostart entry that starts the watcher at login on desktops other than GNOME
    /// (GNOME has the extension; a watcher started on a Wayland desktop it cannot follow
    /// exits at once, saying why).
    public static func watcherAutostartText(migaPath: String) -> String {
        """
        [Desktop Entry]
        Type=Application
        Name=miga watcher
        Comment=Pauses a gated app you come back to, and counts its minutes
        Exec=\(DesktopShim.execQuoted(migaPath)) watch
        TryExec=\(DesktopShim.stringEscaped(migaPath))
        Icon=app.miga.Gate
        NoDisplay=true
        NotShowIn=GNOME;
        Terminal=false
        X-GNOME-Autostart-enabled=true

        """
    }
}
