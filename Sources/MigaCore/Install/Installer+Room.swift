import FoundationEssentials

/// Coming back to an open app (DESIGN "The room, not just the door"): the watcher's autostart
/// entry, and the GNOME Shell extension switched on in the person's settings. Neither is ever
/// a reason for `install` or `uninstall` to fail: a desktop miga cannot reach is said in a line.
extension Installer {
    func installRoomWatchers() throws {
        try ensureDirectory(layout.configHome + "/autostart")
        try writeManaged(.autostart, path: layout.watcherAutostart, text: ShellExtension.watcherAutostartText(migaPath: migaPath),
                         mode: 0o644, what: "watcher autostart entry")
        guard ShellExtension.isGNOME(context.environment) else { return }
        // Not installed (miga run from its build folder): `doctor` says so; nothing to switch on.
        guard ShellExtension.installedFolder(dataDirectories: layout.dataDirectories) != nil else { return }
        // Switched on by an earlier install: if it is off now, the person turned it off, and
        // another install does not overrule them (`doctor` says how to turn it on again).
        guard manifest.shellExtensionEnabled != true else { return }
        switch changeEnabledExtensions(adding: true) {
        case .changed:
            manifest.shellExtensionEnabled = true
            try saveManifest()
            changes.append("enabled the GNOME Shell extension \(ShellExtension.uuid) (coming back to an open app; from your next login if the shell has not seen it yet)")
        case .unchanged:
            break
        case .failed(let why):
            say("miga: note: could not enable the GNOME Shell extension \(ShellExtension.uuid) (\(why)); "
                + "turn it on in the Extensions app, or run `gnome-extensions enable \(ShellExtension.uuid)`")
        }
    }

    /// Switches off the extension only where `install` switched it on.
    func uninstallRoomWatchers() throws {
        guard manifest.shellExtensionEnabled == true else { return }
        switch changeEnabledExtensions(adding: false) {
        case .changed, .unchanged:
            changes.append("disabled the GNOME Shell extension \(ShellExtension.uuid)")
        case .failed(let why):
            say("miga: note: could not disable the GNOME Shell extension \(ShellExtension.uuid) (\(why)); "
                + "run `gnome-extensions disable \(ShellExtension.uuid)`")
        }
        manifest.shellExtensionEnabled = nil
        try saveManifest()
    }

    enum SettingChange: Equatable {
        case changed, unchanged
        case failed(String)
    }

    /// Adds miga's uuid to (or takes it out of) `org.gnome.shell enabled-extensions` through
    /// `gsettings`, keeping every other extension there as it was.
    func changeEnabledExtensions(adding: Bool) -> SettingChange {
        let enabled: [String]
        switch ShellExtension.enabledExtensions(context: context) {
        case .success(let list): enabled = list
        case .failure(let problem): return .failed(problem.description)
        }
        guard enabled.contains(ShellExtension.uuid) != adding else { return .unchanged }
        let list = adding ? enabled + [ShellExtension.uuid] : enabled.filter { $0 != ShellExtension.uuid }
        return ShellExtension.setEnabledExtensions(list, context: context).map { .failed($0.description) } ?? .changed
    }
}
