import FoundationEssentials

extension Doctor {
    /// Whether coming back to an open app is paused in this session (DESIGN "Real desktops":
    /// doctor tells a person where miga cannot pause, with the one thing to do): GNOME has
    /// miga's shell extension, other X11 desktops `miga watch`, and a Wayland desktop other
    /// than GNOME nothing yet. Said only where a desktop session is.
    func checkComingBack(layout: InstallLayout, _ findings: inout Findings) {
        let environment = context.environment
        let subject = "returns"
        if ShellExtension.isGNOME(environment) {
            return checkShellExtension(layout: layout, &findings)
        }
        if let why = RoomWatch.unwatchableSession(environment) {
            return findings.note(subject, why, fix: "nothing to do yet: launches of gated apps are still paused here")
        }
        guard !(environment["DISPLAY"] ?? "").isEmpty else { return }
        if WatchLock.isHeld(context: context) {
            return findings.ok(subject, "coming back to an open app is paused here (`miga watch` is running)")
        }
        let startsAtLogin = AtomicFile.exists(layout.watcherAutostart)
        findings.note(subject, "coming back to an open app is not paused: `miga watch` is not running",
                      fix: startsAtLogin ? "it starts at your next login; to start it now: `miga watch &`"
                                         : "`miga install` (it starts `miga watch` at login), then `miga watch &` for now")
    }

    private func checkShellExtension(layout: InstallLayout, _ findings: inout Findings) {
        let subject = "returns", uuid = ShellExtension.uuid
        guard ShellExtension.installedFolder(dataDirectories: layout.dataDirectories) != nil else {
            return findings.note(subject, "coming back to an open app is not paused: GNOME Shell's extension \(uuid) is not installed",
                                 fix: "`make install` (or install the miga package), then `miga install`, then log in again")
        }
        switch ShellExtension.enabledExtensions(context: context) {
        case .success(let enabled) where enabled.contains(uuid):
            findings.ok(subject, "coming back to an open app is paused here (GNOME Shell extension \(uuid) enabled; "
                        + "a shell started before it was installed loads it at your next login)")
        case .success:
            findings.note(subject, "coming back to an open app is not paused: GNOME Shell's extension \(uuid) is installed but not enabled",
                          fix: "`gnome-extensions enable \(uuid)` (or the Extensions app), then log in again if the shell does not load it")
        case .failure(let problem):
            findings.note(subject, "whether GNOME Shell's extension \(uuid) is enabled is unknown: \(problem)",
                          fix: "`gnome-extensions info \(uuid)` says")
        }
    }
}
