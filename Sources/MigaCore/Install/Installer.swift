import FoundationEssentials

/// Creates and removes everything interception needs, keeping `installed.json` one step
/// ahead of the disk: each change is recorded (with the hash of what is about to be written)
/// before it is made, so `uninstall` can undo even an install that was cut short, and never
/// removes a file that is no longer the one miga wrote.
public final class Installer {
    public let context: MigaContext
    public let layout: InstallLayout
    public internal(set) var manifest: InstallManifest
    /// What changed, one line each, for the person to read.
    public internal(set) var changes: [String] = []
    /// Whether a shell snippet, a line in a shell's startup file or the graphical session's
    /// PATH file was written: only then does a shell already open lack what changed (a new
    /// shim in the folder already on PATH needs no new shell).
    public internal(set) var shellStartupChanged = false
    var desktopFilesChanged = false
    var reportedCache: [String]?

    public init(context: MigaContext) throws {
        self.context = context
        layout = InstallLayout(environment: context.environment, paths: context.paths)
        manifest = try InstallManifest.load(path: layout.manifest)
    }

    var migaPath: String { context.executablePath }

    // MARK: - Apps

    /// Creates or refreshes `app`'s PATH shim and a desktop shim for every entry whose Exec runs
    /// its command, and removes shims of entries that no longer do.
    public func sync(_ app: MigaConfig.App) throws {
        // Every way in has checked the app already; this is the last door before a file is
        // written, and an app that cannot pass it is left ungated, never half installed.
        if let problem = AppCheck.problem(withName: app.name) ?? AppCheck.problem(withCommand: app.command) {
            say("miga: warning: [apps.\(app.name)] \(problem); that app is skipped")
            return
        }
        try writeManaged(.pathShim, path: layout.pathShim(app.name), app: app.name,
                         text: PathShim.text(migaPath: migaPath, app: app.name, command: app.command), mode: 0o755,
                         what: "PATH shim")
        var wanted = Set<String>()
        for found in desktopEntries(running: app.command) {
            let path = layout.desktopShim(id: found.id)
            // One entry, one gate: it belongs to the first app that claimed it, or two apps
            // would rewrite it in turn on every install.
            if let owner = manifest.file(at: path)?.app, owner != app.name {
                say("miga: note: \(layout.display(path)) is already gated as \(owner), so \(app.name) leaves it to that")
                continue
            }
            let text: String
            do {
                text = try DesktopShim.text(for: found.entry, migaPath: migaPath, app: app.name)
            } catch {
                say("miga: warning: \(found.path): \(error)")
                continue
            }
            wanted.insert(path)
            try writeManaged(.desktopShim, path: path, app: app.name, text: text, mode: 0o644,
                             source: found.path, sourceSHA256: AtomicFile.sha256(ofFile: found.path),
                             what: "desktop shim", detail: found.path == path ? nil : "in front of \(found.path)")
        }
        for stale in manifest.files(of: .desktopShim, app: app.name) where !wanted.contains(stale.path) {
            try removeManaged(stale, what: "desktop shim")
        }
    }

    /// Removes every shim made for `name`.
    public func remove(app name: String) throws {
        for file in manifest.files.reversed() where file.app == name {
            try removeManaged(file, what: file.kind == .pathShim ? "PATH shim" : "desktop shim")
        }
    }

    /// Installed desktop entries (the person's own copies hidden behind a shim included) whose
    /// main Exec runs `command`.
    public func desktopEntries(running command: String) -> [DesktopEntryLocator.Found] {
        installedEntries.filter { DesktopShim.runs(command, entry: $0.entry) }
    }

    /// Every usable entry, read once per run (several apps are synced in one install);
    /// unusable files are reported once each and skipped.
    public lazy var installedEntries: [DesktopEntryLocator.Found] = {
        var result: [DesktopEntryLocator.Found] = []
        var ids = Set<String>()
        // A shim that replaced the person's own copy stands for that copy, kept as its backup.
        for file in manifest.files(of: .desktopShim) {
            guard let backup = file.backup, let entry = try? DesktopEntry.load(path: backup) else { continue }
            let id = String(file.path.dropFirst(layout.applicationsDirectory.count + 1))
            ids.insert(id)
            result.append(.init(id: id, path: backup, entry: entry))
        }
        for found in DesktopEntryLocator(dataDirectories: layout.entryDirectories).entries(problem: noteBrokenEntry) where !ids.contains(found.id) {
            // Only applications launch a program; a Link, Directory or KDE Service entry has
            // no place for the keys a shim sets (and would fail validation with them).
            guard found.id != URLHandler.desktopID, found.entry.boolean("Hidden") != true,
                  found.entry.rawValue("Type") == "Application", let exec = found.entry.rawValue("Exec") else { continue }
            do {
                _ = try ExecLine(rawValue: exec)
            } catch {
                noteBrokenEntry(found.path, "miga: warning: \(found.path): \(error); skipping it")
                continue
            }
            result.append(found)
        }
        return result
    }()

    /// Installed desktop files that cannot be used, with what is wrong (for `doctor`).
    public private(set) var brokenEntries: [(path: String, message: String)] = []
    /// Say each broken file once, not on every `apps add` (a system file the person cannot
    /// fix would otherwise nag for ever); `doctor` lists them all. Remembered by path, size
    /// and time in the state folder, so a changed file is said again.
    public var announcesBrokenEntries = true

    var brokenEntriesRecord: String { layout.paths.stateDirectory + "/broken-desktop-entries" }

    /// What `broken-desktop-entries` held when this run began, plus what it has said since.
    private var reportedBrokenEntries: [String] {
        get {
            if let reportedCache { return reportedCache }
            let lines = String(decoding: AtomicFile.read(brokenEntriesRecord) ?? Data(), as: UTF8.self).split(separator: "\n").map(String.init)
            reportedCache = lines
            return lines
        }
        set { reportedCache = newValue }
    }

    func noteBrokenEntry(_ path: String, _ message: String) {
        brokenEntries.append((path, message))
        guard announcesBrokenEntries else { return }
        let stamp = FileStatus.at(path).map { "\($0.size)\t\($0.modified.seconds)" } ?? "gone"
        let line = "\(path)\t\(stamp)"
        guard !reportedBrokenEntries.contains(line) else { return }
        say(message + " (said once; `miga doctor` lists such files)")
        reportedBrokenEntries = reportedBrokenEntries.filter { !$0.hasPrefix(path + "\t") } + [line]
        try? context.files.makeDirectories(layout.paths.stateDirectory, mode: 0o700)
        try? AtomicFile.write(reportedBrokenEntries.joined(separator: "\n") + "\n", to: brokenEntriesRecord, mode: 0o600)
    }

    // MARK: - Install and uninstall

    /// Shell integration, every configured app's shims and the URL handler. Running it again
    /// changes nothing unless something drifted (a package updated an entry, a browser took
    /// the default back).
    public func install(config: MigaConfig) throws {
        let shell = ShellIntegration(layout: layout, environment: context.environment,
                                     fileExists: AtomicFile.exists,
                                     commandExists: { [resolver] in resolver.lookUp($0) != nil })
        for snippet in shell.snippets {
            try writeManaged(.shellSnippet, path: snippet.path, text: snippet.text, mode: 0o644, what: "shell snippet")
        }
        if shell.wantsFish {
            try writeManaged(.shellSnippet, path: layout.fishSnippet, text: ShellIntegration.bundled("miga.fish"),
                             mode: 0o644, what: "fish snippet")
        }
        for rc in shell.rcLines { try addLine(rc.line, to: rc.path) }
        if let text = shell.environmentFileText {
            try writeManaged(.environment, path: layout.environmentFile, text: text, mode: 0o644, what: "PATH for graphical launchers")
        } else {
            say("miga: note: \(layout.display(layout.paths.shimDirectory)) cannot be written into \(layout.display(layout.environmentFile)) as it is, "
                + "so graphical launchers do not see the shims (shells do)")
        }

        // Shims of apps no longer gated go first, so an entry they held is free for another.
        for file in manifest.files.reversed() where file.app != nil && config.apps[file.app!] == nil {
            try removeManaged(file, what: file.kind == .pathShim ? "PATH shim" : "desktop shim")
        }
        for app in config.apps.values.sorted(by: { $0.name < $1.name }) { try sync(app) }
        try installURLHandler()
        warnIfLinksAreOutranked()
        try installBrowserHosts()
        try installRoomWatchers()
        try finishDesktopChanges()
    }

    /// What `uninstall --purge` deletes beyond uninstalling, one line each, for the person to
    /// confirm: the person's own content packs by name.
    public func purgeList() -> [String] {
        var list: [String] = []
        let paths = layout.paths
        if AtomicFile.exists(paths.configFile) { list.append("your settings, \(layout.display(paths.configFile))") }
        if let store = try? EventStore.openExisting(paths: paths, files: context.files, processes: context.processes), let count = try? store.eventCount() {
            list.append("your \(count) recorded event\(count == 1 ? "" : "s") and streaks, \(layout.display(paths.database))")
        }
        let packs = paths.dataDirectory + "/quotes"
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: packs)) ?? []).sorted() {
            list.append("your content pack \(layout.display(packs + "/" + name))")
        }
        let entitlement = EntitlementStore(context: context)
        // Asked only of an existing file: status() of a missing one would start a trial.
        if AtomicFile.exists(entitlement.path), case .purchased(let licence) = entitlement.status().state {
            list.append("your licence \(licence.licenseID) (keep the licence file you received to restore it)")
        }
        if let journal = ownSyncJournal() { list.append(ownJournalPurgeLine(journal)) }
        if AtomicFile.exists(paths.stateDirectory) { list.append("miga's state, \(layout.display(paths.stateDirectory))") }
        return list
    }

    /// What the data folder holds that miga did not put there (an extension that an older
    /// `make install PREFIX=~/.local` installed into share/miga, a person's own file): a purge
    /// leaves it.
    public func notOwnData() -> [String] {
        let folder = layout.paths.dataDirectory
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
            .filter { !MigaPaths.isOwnDataEntry($0) }.map { folder + "/" + $0 }
    }

    /// Removes every file and line miga added and puts back what they replaced. With `purge`,
    /// config, events and state go too.
    public func uninstall(purge: Bool) throws {
        try uninstallRoomWatchers()
        for file in manifest.files.reversed() {
            try removeManaged(file, what: Self.describe(file.kind))
        }
        for added in manifest.lines.reversed() { try removeLine(added) }
        if let mime = manifest.mimeApps {
            try removeOwnMimeAppsLines(mime)
            manifest.mimeApps = nil
            manifest.previousBrowser = nil
            try saveManifest()
        }
        try finishDesktopChanges()
        if manifest.mimeinfoCacheExisted == false {
            try AtomicFile.remove(layout.mimeinfoCache)
        }
        try AtomicFile.remove(layout.manifest)
        try? AtomicFile.remove(brokenEntriesRecord)
        GraceStamp.removeAll(environment: context.environment, files: context.files) // the shims that read them are gone
        if purge {
            // Before the config (which names the folder) and the state (the machine's id) go.
            purgeOwnSyncJournal()
            // The licence goes with the config folder; the person should know how to get it back.
            let entitlement = EntitlementStore(context: context)
            let state = AtomicFile.exists(entitlement.path) ? entitlement.status().state : nil
            if case .purchased(let licence)? = state {
                changes.append("deleted your licence \(licence.licenseID) with it: `miga license activate FILE`, with the licence file you received, restores it")
            }
            // A trial's record stays: a purge is no way to a new trial.
            let keepTrial: Bool
            switch state {
            case .trial?, .trialEnded?: keepTrial = true
            default: keepTrial = false
            }
            for folder in [layout.paths.configDirectory, layout.paths.dataDirectory, layout.paths.stateDirectory]
                where AtomicFile.exists(folder) {
                if folder == layout.paths.configDirectory, keepTrial {
                    for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where folder + "/" + name != entitlement.path {
                        try FileManager.default.removeItem(atPath: folder + "/" + name)
                    }
                    changes.append("removed \(layout.display(folder)) but the trial's record (no purge starts a new trial)")
                    continue
                }
                if folder == layout.paths.dataDirectory, case let kept = notOwnData(), !kept.isEmpty {
                    for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where MigaPaths.isOwnDataEntry(name) {
                        try FileManager.default.removeItem(atPath: folder + "/" + name)
                    }
                    changes.append("removed miga's data from \(layout.display(folder)) but \(kept.map(layout.display).joined(separator: ", ")), which miga did not make")
                    continue
                }
                try FileManager.default.removeItem(atPath: folder)
                changes.append("removed \(layout.display(folder))")
            }
            // Events waiting in memory for a full disk are recorded events too.
            if let overflow = layout.paths.overflowSpool, AtomicFile.exists(overflow) {
                try FileManager.default.removeItem(atPath: overflow)
                changes.append("removed \(overflow)")
            }
        }
        context.files.removeDirectory(layout.backupsDirectory) // only if empty: a copy that could not go back stays
        for folder in manifest.createdDirectories.reversed() { context.files.removeDirectory(folder) } // only if empty
    }

    // MARK: - Helpers

    /// Creates miga's config folder (before the first config write), remembering any folder
    /// made on the way, so `uninstall --purge` leaves a home exactly as it found it.
    public func prepareConfigFolder() throws {
        let before = manifest.createdDirectories
        try ensureDirectory(layout.paths.configDirectory, mode: 0o700)
        if manifest.createdDirectories != before { try saveManifest() }
    }

    /// `mkdir -p`, remembering each folder it had to create so uninstall removes it again.
    /// Folders are made 0700, as the XDG Base Directory spec asks of a missing one.
    func ensureDirectory(_ path: String, mode: FileMode = 0o700) throws {
        var prefix = ""
        var created: [String] = []
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if !AtomicFile.exists(prefix) { created.append(prefix) }
        }
        guard !created.isEmpty else { return }
        for folder in created where !manifest.createdDirectories.contains(folder) {
            manifest.createdDirectories.append(folder)
        }
        do {
            try context.files.makeDirectories(path, mode: mode)
        } catch {
            throw InstallError.write(path: path, problem: "\(error)")
        }
    }

    func saveManifest() throws {
        try ensureDirectory(layout.paths.stateDirectory)
        do {
            try manifest.save(path: layout.manifest)
        } catch {
            throw InstallError.write(path: layout.manifest, problem: "\(error)")
        }
    }

    func write(_ text: String, to path: String, mode: FileMode) throws {
        try write(Data(text.utf8), to: path, mode: mode)
    }

    func write(_ data: Data, to path: String, mode: FileMode) throws {
        do {
            try AtomicFile.write(data, to: path, mode: mode)
        } catch {
            throw InstallError.write(path: path, problem: "\(error)")
        }
    }

    /// GLib reads MIME associations from `mimeinfo.cache`; without refreshing it, the app a
    /// shim shadows loses its file and link types. Call after `sync` and `remove(app:)`.
    public func finishDesktopChanges() throws {
        guard desktopFilesChanged, AtomicFile.exists(layout.applicationsDirectory) else { return }
        desktopFilesChanged = false
        if manifest.mimeinfoCacheExisted == nil {
            manifest.mimeinfoCacheExisted = AtomicFile.exists(layout.mimeinfoCache)
            try saveManifest()
        }
        guard let tool = resolver.lookUp("update-desktop-database") else { return }
        let status = (try? context.launcher.run(ResolvedCommand(executable: tool, arguments: [tool, layout.applicationsDirectory]),
                                                environment: context.environment)) ?? -1
        if status != 0 {
            say("miga: warning: update-desktop-database \(layout.display(layout.applicationsDirectory)) failed; run it by hand")
        }
    }

    var resolver: CommandResolver {
        context.commandResolver
    }

    func say(_ line: String) { context.messages.say(line) }

    static func describe(_ kind: InstallManifest.Kind) -> String {
        switch kind {
        case .pathShim: return "PATH shim"
        case .desktopShim: return "desktop shim"
        case .urlHandler: return "URL handler"
        case .shellSnippet: return "shell snippet"
        case .environment: return "PATH for graphical launchers"
        case .browserHost: return "browser host manifest"
        case .hostLink: return "browser host link"
        case .autostart: return "watcher autostart entry"
        }
    }
}
