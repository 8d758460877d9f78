import FoundationEssentials

/// `miga doctor`: checks that everything interception relies on is in place, and for each
/// problem names the command that fixes it.
public struct Doctor {
    public struct Finding: Equatable {
        public enum Status: Equatable { case ok, problem, note }
        public var status: Status
        public var subject: String
        public var message: String
        /// What to run (or do) to fix it.
        public var fix: String?
    }

    public var context: MigaContext

    public init(context: MigaContext) {
        self.context = context
    }

    /// What the checks found so far, in order.
    struct Findings {
        var list: [Finding] = []
        mutating func ok(_ subject: String, _ message: String) { list.append(Finding(status: .ok, subject: subject, message: message)) }
        mutating func problem(_ subject: String, _ message: String, fix: String) {
            list.append(Finding(status: .problem, subject: subject, message: message, fix: fix))
        }
        mutating func note(_ subject: String, _ message: String, fix: String) {
            list.append(Finding(status: .note, subject: subject, message: message, fix: fix))
        }
    }

    /// Every section in turn; without a readable install manifest the rest cannot be checked.
    public func check() -> [Finding] {
        let layout = InstallLayout(environment: context.environment, paths: context.paths)
        var findings = Findings()
        let config = checkConfig(layout, &findings)
        checkDatabase(layout, &findings)
        if let config { checkSync(config, layout, &findings) }
        guard let installer = checkInstall(layout, &findings) else { return findings.list }
        for app in (config?.apps.values ?? MigaConfig().apps.values).sorted(by: { $0.name < $1.name }) {
            checkShims(of: app, installer: installer, layout: layout, &findings)
        }
        if let config { checkShimsOfAppsNotGated(config, installer: installer, layout: layout, &findings) }
        checkLinks(installer: installer, layout: layout, &findings)
        findings.list += BrowserHostCheck(installer: installer).findings()
        checkLicence(&findings)
        checkDesktopLaunches(config ?? MigaConfig(), layout: layout, &findings)
        checkComingBack(layout: layout, &findings)
        return findings.list
    }

    /// The config, or nil when it cannot be read (its problem is a finding; the defaults apply).
    private func checkConfig(_ layout: InstallLayout, _ findings: inout Findings) -> MigaConfig? {
        let shown = layout.display(context.paths.configFile)
        do {
            let loaded = try ConfigLoader().load(path: context.paths.configFile)
            if loaded.warnings.isEmpty {
                findings.ok("config", AtomicFile.exists(context.paths.configFile) ? "\(shown) reads cleanly" : "no config file; using the defaults")
            }
            for warning in loaded.warnings { findings.problem("config", warning, fix: "edit \(shown)") }
            return loaded.config
        } catch {
            findings.problem("config", "\(error)", fix: "edit \(shown); until then gates open without a pause")
            return nil
        }
    }

    private func checkDatabase(_ layout: InstallLayout, _ findings: inout Findings) {
        guard AtomicFile.exists(context.paths.database) else { return findings.ok("database", "no events recorded yet") }
        let fix = "move \(layout.display(context.paths.database)) away; miga starts a new one"
        do {
            let result = try EventStore(context: context).integrityCheck()
            if result == "ok" {
                findings.ok("database", "\(layout.display(context.paths.database)) is healthy")
            } else {
                findings.problem("database", "integrity check: \(result)", fix: fix)
            }
        } catch {
            findings.problem("database", "\(error)", fix: fix)
        }
    }

    /// `sync_folder`: the folder there, the database outside it, no second machine writing as
    /// this one, no conflict copy of the shared config, and what could not be read.
    private func checkSync(_ config: MigaConfig, _ layout: InstallLayout, _ findings: inout Findings) {
        guard !config.syncFolder.isEmpty else { return }
        let store = try? EventStore(context: context)
        if let problem = store?.useSyncFolder(of: config, context: context) {
            return findings.problem("sync", "\(problem)", fix: "miga config set sync_folder ~/Sync/miga")
        }
        guard let store, let journal = store.journal else {
            return findings.problem("sync", "the event database cannot be opened to share it", fix: "see the database line above")
        }
        let shown = layout.display(journal.folder)
        guard FileStatus.at(journal.folder)?.isDirectory == true else {
            return findings.problem("sync", "the sync folder \(shown) is not there", fix: "set up your sync tool's folder (or plug in the drive), or `miga config set sync_folder` to another")
        }
        if let inside = EventStore.databaseInside(folder: journal.folder, paths: context.paths, files: context.files) {
            findings.problem("sync", inside, fix: "move \(layout.display(context.paths.dataDirectory)) out of \(shown) (set XDG_DATA_HOME)")
        }
        let ownCopies = journal.ownFiles(lookingAt: 10_000) { SyncJournal.isJournalFileName($0) && SyncJournal.isConflictCopy($0) }.prefix(10)
        if !ownCopies.isEmpty {
            findings.problem("sync", "conflict copies of this machine's journal in \(layout.display(journal.ownFolder)): another machine uses this machine's id \(journal.device) (a copied \(layout.display(context.paths.stateDirectory)))",
                             fix: "on the other machine, remove \(layout.display(context.paths.stateDirectory + "/device")) and run `miga sync status`")
        }
        for copy in ConfigSync.conflictCopies(folder: journal.folder) {
            findings.problem("sync", "\(layout.display(copy)) is a conflict copy of the shared config: two machines changed it at once, and miga merges nothing",
                             fix: "compare it with \(layout.display(ConfigSync.sharedPath(folder: journal.folder))), keep what you want there, delete the copy")
        }
        for problem in (try? store.syncProblems()) ?? [] {
            findings.note("sync", "\(layout.display(problem.file)): \(problem.problem)", fix: "nothing needed if it is a copy in progress; `miga sync status` lists it")
        }
        let machines = ((try? store.machineHistories()) ?? []).filter { $0.device != nil }.count
        findings.ok("sync", "sharing through \(shown) as \(journal.device); \(machines) other machine\(machines == 1 ? "" : "s") seen")
    }

    /// The install manifest, broken desktop entries, and the shim folder first on PATH.
    private func checkInstall(_ layout: InstallLayout, _ findings: inout Findings) -> Installer? {
        let installer: Installer
        do {
            installer = try Installer(context: context)
        } catch {
            findings.problem("install", "\(error)", fix: "move \(layout.display(layout.manifest)) away, then run `miga install`")
            return nil
        }
        installer.announcesBrokenEntries = false // listed here instead
        _ = installer.installedEntries // reads them all, noting the broken ones
        for broken in installer.brokenEntries {
            findings.note("desktop entry", String(broken.message.dropFirst("miga: warning: ".count)),
                          fix: "nothing needed: launchers skip it too; its package may fix it")
        }
        let path = (context.environment["PATH"] ?? "").split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let shims = context.paths.shimDirectory
        if !isInstalled(installer.manifest) {
            findings.problem("install", "shell integration and the link handler are not installed", fix: "miga install")
        } else if path.first.flatMap(context.files.realPath) == context.files.realPath(shims) && path.first != nil {
            findings.ok("PATH", "\(layout.display(shims)) comes first")
        } else {
            findings.problem("PATH", path.contains(shims) ? "\(layout.display(shims)) is on PATH but not first, so some apps skip the pause"
                                                          : "\(layout.display(shims)) is not on PATH in this shell",
                             fix: "open a new shell (or log in again); if it persists, run `miga install`")
        }
        return installer
    }

    private func isInstalled(_ manifest: InstallManifest) -> Bool {
        !manifest.lines.isEmpty || !manifest.files(of: .environment).isEmpty
    }

    /// One gated app's PATH shim and desktop shims, each compared byte for byte with what
    /// miga would write now: a shim an older miga wrote, or one changed since, runs what this
    /// miga would not.
    private func checkShims(of app: MigaConfig.App, installer: Installer, layout: InstallLayout, _ findings: inout Findings) {
        let manifest = installer.manifest
        var issues: [String] = []
        // Desktop shims changed by hand are the person's now: install leaves them alone.
        var theirs: [String] = []
        if app.command.contains("/"), context.commandResolver.isShim(app.command) {
            issues.append("its command \(app.command) is miga's own shim (the gate opens the real \(FilePath.lastComponent(of: app.command)) on PATH instead)")
        }
        let expected = PathShim.text(migaPath: context.executablePath, app: app.name, command: app.command)
        let shimPath = layout.pathShim(app.name)
        if AtomicFile.read(shimPath) != Data(expected.utf8) {
            issues.append(AtomicFile.exists(shimPath) ? "its PATH shim differs from what miga writes now" : "it has no PATH shim")
        }
        let recorded = manifest.files(of: .desktopShim, app: app.name)
        for file in recorded {
            let shown = layout.display(file.path)
            if !AtomicFile.exists(file.path) {
                issues.append("\(shown) is missing")
            } else if let source = file.source, AtomicFile.sha256(ofFile: source) != file.sourceSHA256 {
                issues.append("\(shown) is stale: \(source) changed (a package update?)")
            } else if AtomicFile.sha256(ofFile: file.path) != file.sha256 {
                issues.append("\(shown) was changed since miga wrote it")
                theirs.append(shown)
            } else if AtomicFile.read(file.path) != expectedDesktopShim(file, app: app.name).map({ Data($0.utf8) }) {
                issues.append("\(shown) differs from what miga writes now")
            }
        }
        let shadowed = Set(recorded.map { $0.path })
        var shared: [String] = []
        for found in installer.desktopEntries(running: app.command) where !shadowed.contains(layout.desktopShim(id: found.id)) {
            if let owner = manifest.file(at: layout.desktopShim(id: found.id))?.app, owner != app.name {
                shared.append("\(found.id) is gated as \(owner)")
            } else {
                issues.append("\(found.path) has no desktop shim")
            }
        }
        if issues.isEmpty {
            findings.ok("app \(app.name)", "PATH shim and \(recorded.count) desktop shim\(recorded.count == 1 ? "" : "s") current"
                        + (shared.isEmpty ? "" : " (\(shared.joined(separator: "; ")))"))
        } else {
            findings.problem("app \(app.name)", issues.joined(separator: "; "),
                             fix: theirs.isEmpty ? "miga install" : "move \(theirs.joined(separator: ", ")) away if you do not need your changes, then run `miga install`")
        }
    }

    /// Shims of an app the config no longer gates (removed by hand, or a table now ignored for
    /// a bad name or command) still run at every launch until `install` takes them away.
    private func checkShimsOfAppsNotGated(_ config: MigaConfig, installer: Installer, layout: InstallLayout, _ findings: inout Findings) {
        for file in installer.manifest.files where (file.kind == .pathShim || file.kind == .desktopShim) && config.apps[file.app ?? ""] == nil {
            findings.problem("shim", "\(layout.display(file.path)) gates \(file.app ?? "an app"), which \(layout.display(context.paths.configFile)) does not",
                             fix: "miga install")
        }
    }

    /// miga is still the default for web links, and no other handler outranks it.
    private func checkLinks(installer: Installer, layout: InstallLayout, _ findings: inout Findings) {
        let manifest = installer.manifest
        guard manifest.file(at: layout.urlHandler) != nil else {
            if isInstalled(manifest) {
                findings.note("links", "web links are not routed (no browser was found at install)", fix: "install a browser, then run `miga install`")
            }
            return
        }
        let list = MimeAppsList(text: String(decoding: AtomicFile.read(layout.mimeApps) ?? Data(), as: UTF8.self))
        let current = list.defaultApplication(for: "x-scheme-handler/https")
        let browsers = DefaultBrowser(layout: layout, currentDesktop: context.environment["XDG_CURRENT_DESKTOP"])
        if let outranking = browsers.outranking() {
            let message = browsers.outrankingMessage(outranking)
            findings.problem("links", message.problem, fix: message.fix)
        } else if current == URLHandler.desktopID {
            findings.ok("links", "miga routes web links; others go to \(manifest.previousBrowser ?? "the browser")")
        } else {
            findings.problem("links", "\(current ?? "another program") took back the default for web links, so listed sites open without a pause",
                             fix: "miga install")
        }
    }

    private func checkLicence(_ findings: inout Findings) {
        let entitlement = EntitlementStore(context: context).status()
        if entitlement.gateEnabled {
            findings.ok("licence", entitlement.summary)
        } else {
            findings.problem("licence", entitlement.summary, fix: "miga license activate FILE")
        }
    }

    /// Desktop launches: the gate window, else a terminal emulator.
    private func checkDesktopLaunches(_ config: MigaConfig, layout: InstallLayout, _ findings: inout Findings) {
        let terminals = TerminalEmulators(setting: config.terminal, environment: context.environment, resolver: context.commandResolver)
        let terminal = terminals.command(running: [])
        let fallback = terminal.map { "desktop launches show the pause in \($0.executable) instead" }
            ?? "and no terminal emulator either, so apps started from the desktop open without a pause"
        if let window = GateWindowLocator.find(executablePath: context.executablePath, environment: context.environment) {
            checkWindow(window, fallback: fallback, layout: layout, &findings)
        } else {
            findings.note("window", "no gate window (miga-gate-window) beside miga; \(fallback)",
                          fix: "make install (it puts the window in PREFIX/lib/miga)")
        }
        if let missing = terminals.unavailableSetting {
            let instead = terminal.map { "; \($0.executable) opens instead" } ?? ""
            findings.problem("terminal", "terminal = \"\(TerminalText.excerpt(missing))\" in config.toml is not installed (not found on PATH)\(instead)",
                             fix: "install it, or `miga config set terminal \"\"` to let miga find one")
        } else if let terminal {
            findings.ok("terminal", "a terminal for the pause when no window can show: \(terminal.executable)")
        } else {
            findings.problem("terminal", "no terminal emulator found, so apps started from the desktop open without a pause when the window cannot show",
                             fix: "install one (e.g. `sudo apt install xterm`) or set `terminal` in config.toml")
        }
    }

    private func checkWindow(_ window: String, fallback: String, layout: InstallLayout, _ findings: inout Findings) {
        guard TerminalEmulators.graphicalSessionPresent(in: context.environment) else {
            return findings.ok("window", "desktop launches show the pause in a window (\(layout.display(window))); no display in this shell to try it on")
        }
        // `--check` opens the display and nothing else: 0, or 2 when it cannot be reached;
        // anything else (127 from the loader) means GTK itself is missing.
        let status = try? context.launcher.run(ResolvedCommand(executable: window, arguments: [window, "--check"]),
                                               environment: context.environment)
        let display = context.environment["WAYLAND_DISPLAY"].flatMap { $0.isEmpty ? nil : $0 } ?? context.environment["DISPLAY"] ?? ""
        switch status {
        case 0?:
            findings.ok("window", "desktop launches show the pause in a window (\(layout.display(window)))")
        case 2?:
            findings.problem("window", "the gate window cannot reach the display \(display) from this shell; \(fallback)",
                             fix: "run `miga doctor` in a terminal of your desktop session")
        default:
            findings.problem("window", "the gate window (\(layout.display(window))) cannot start: is the GTK 4 runtime installed? \(fallback)",
                             fix: "sudo apt install libgtk-4-1")
        }
    }

    /// The desktop shim miga would write now for the entry `file` was made from; nil when that
    /// entry cannot be read or shimmed any more.
    private func expectedDesktopShim(_ file: InstallManifest.File, app: String) -> String? {
        guard let source = file.source, let entry = try? DesktopEntry.load(path: source) else { return nil }
        return try? DesktopShim.text(for: entry, migaPath: context.executablePath, app: app)
    }
}
