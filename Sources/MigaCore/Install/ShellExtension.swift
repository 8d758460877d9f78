import FoundationEssentials

/// GNOME Shell's part of miga: the extension `miga@miga.app` (installed by `make install` and
/// the package), which the shell loads when its uuid is in the `org.gnome.shell
/// enabled-extensions` key; and the XDG autostart entry that starts `miga watch` on every other
/// X11 desktop (DESIGN "The room, not just the door").
public enum ShellExtension {
    public static let uuid = "miga@miga.app"
    static let schema = "org.gnome.shell"
    static let enabledKey = "enabled-extensions"

    /// Whether this session is GNOME's: `XDG_CURRENT_DESKTOP` names GNOME among its
    /// colon-separated names (`GNOME`, `ubuntu:GNOME`, `GNOME-Classic:GNOME`).
    public static func isGNOME(_ environment: [String: String]) -> Bool {
        (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").contains { $0 == "GNOME" }
    }

    /// The extension's folder where the shell would find it: the user's data folder first,
    /// then the system's (`$XDG_DATA_DIRS`), as the shell looks. nil when it is in none.
    public static func installedFolder(dataDirectories: [String]) -> String? {
        dataDirectories.map { $0 + "/gnome-shell/extensions/" + uuid }
            .first { AtomicFile.exists($0 + "/metadata.json") }
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
                    guard let escaped = text.first else { return nil }
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
