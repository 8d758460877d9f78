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
    private var desktopFilesChanged = false
    private var reportedCache: [String]?

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
        for found in DesktopEntryLocator(dataDirectories: layout.dataDirectories).entries(problem: noteBrokenEntry) where !ids.contains(found.id) {
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
        try? LinuxSystem.makeDirectories(layout.paths.stateDirectory, mode: 0o700)
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
        try finishDesktopChanges()
    }

    /// What `uninstall --purge` deletes beyond uninstalling, one line each, for the person to
    /// confirm: the person's own content packs by name.
    public func purgeList() -> [String] {
        var list: [String] = []
        let paths = layout.paths
        if AtomicFile.exists(paths.configFile) { list.append("your settings, \(layout.display(paths.configFile))") }
        if let store = try? EventStore.openExisting(paths: paths), let count = try? store.eventCount() {
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
        GraceStamp.removeAll(environment: context.environment) // the shims that read them are gone
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
        LinuxSystem.removeDirectory(layout.backupsDirectory) // only if empty: a copy that could not go back stays
        for folder in manifest.createdDirectories.reversed() { LinuxSystem.removeDirectory(folder) } // only if empty
    }

    /// miga's own entries out of `mimeapps.list` and nothing else (DESIGN "Uninstall gives back
    /// what the person has now"): a browser the person chose while miga was installed stays
    /// their default, and a file that holds any line of theirs stays, even one miga created.
    /// The message names the browser links go to now, as the desktop will find it.
    func removeOwnMimeAppsLines(_ mime: InstallManifest.MimeApps) throws {
        guard let data = AtomicFile.read(mime.path) else { return } // gone already: nothing of miga's left
        let before = String(decoding: data, as: UTF8.self)
        var list = MimeAppsList(text: before)
        list.undo(mime.change, removing: URLHandler.desktopID)
        if list.text != before {
            if mime.createdFile, list.text.trimming(.whitespacesAndNewlines).isEmpty {
                try AtomicFile.remove(mime.path)
            } else {
                try write(list.text, to: mime.path, mode: AtomicFile.mode(of: mime.path) ?? 0o644)
            }
        }
        let browser = DefaultBrowser(layout: layout, currentDesktop: context.environment["XDG_CURRENT_DESKTOP"]).current()
        changes.append("removed miga's lines from \(layout.display(mime.path))"
                       + (browser.map { "; web links go to \($0)" } ?? "; no default web browser is set"))
    }

    // MARK: - URL handler

    func installURLHandler() throws {
        let browsers = DefaultBrowser(layout: layout, currentDesktop: context.environment["XDG_CURRENT_DESKTOP"])
        var list = MimeAppsList(text: String(decoding: AtomicFile.read(layout.mimeApps) ?? Data(), as: UTF8.self))
        // A browser that took the default back is the one the person now wants links to go to.
        if let current = list.defaultApplication(for: "x-scheme-handler/https"), current != URLHandler.desktopID,
           browsers.entry(id: current) != nil, current != manifest.previousBrowser, manifest.previousBrowser != nil {
            manifest.previousBrowser = current
            changes.append("links that are not gated now go to \(current)")
        }
        if manifest.previousBrowser == nil {
            guard let current = browsers.current() else {
                say("miga: no default web browser found, so links are not routed through miga; install a browser, then run `miga install` again")
                return
            }
            manifest.previousBrowser = current
            try saveManifest()
        }
        try writeManaged(.urlHandler, path: layout.urlHandler, text: URLHandler.text(migaPath: migaPath), mode: 0o644,
                         what: "URL handler", detail: "links go on to \(manifest.previousBrowser!)")
        let existed = AtomicFile.exists(layout.mimeApps)
        let change = list.makeDefault(URLHandler.desktopID, for: URLHandler.mimeTypes)
        guard change != MimeAppsList.Change() else { return }
        if var recorded = manifest.mimeApps {
            recorded.change.merge(change)
            manifest.mimeApps = recorded
        } else {
            manifest.mimeApps = .init(path: layout.mimeApps, createdFile: !existed, change: change)
        }
        try saveManifest()
        try ensureDirectory(layout.configHome)
        try write(list.text, to: layout.mimeApps, mode: AtomicFile.mode(of: layout.mimeApps) ?? 0o644)
        changes.append("made miga the handler for web links in \(layout.display(layout.mimeApps))")
    }

    /// Another list the desktop reads first can still send links past miga; that file is the
    /// person's, so miga names it rather than editing it.
    func warnIfLinksAreOutranked() {
        let browsers = DefaultBrowser(layout: layout, currentDesktop: context.environment["XDG_CURRENT_DESKTOP"])
        guard AtomicFile.exists(layout.urlHandler), let outranking = browsers.outranking() else { return }
        let message = browsers.outrankingMessage(outranking)
        say("miga: \(message.problem); \(message.fix)")
    }

    // MARK: - Files miga owns

    func writeManaged(_ kind: InstallManifest.Kind, path: String, app: String? = nil, text: String, mode: FileMode,
                              source: String? = nil, sourceSHA256: String? = nil, what: String, detail: String? = nil) throws {
        let data = Data(text.utf8)
        let sha = AtomicFile.sha256(data)
        let onDisk = AtomicFile.sha256(ofFile: path)
        let known = manifest.file(at: path)
        var backup = known?.backup
        let changedSince = known != nil && onDisk != nil && onDisk != known?.sha256 && onDisk != sha
        // A file elsewhere may be the person's now, and is left to them. A PATH shim is not: it
        // lives in miga's own folder and runs at every launch, so whatever changed it (a hand
        // edit, or code planted there) is undone, never kept.
        if changedSince, kind != .pathShim {
            say("miga: \(layout.display(path)) was changed since miga wrote it; left as it is (remove it, then run `miga install`, to let miga manage it again)")
            return
        }
        let record = InstallManifest.File(kind: kind, path: path, app: app, sha256: sha, source: source,
                                          sourceSHA256: sourceSHA256, backup: backup)
        // Already there: miga's own (or, if the manifest was lost, identical to it; adopted).
        if onDisk == sha {
            if known != record {
                manifest.record(record)
                try saveManifest()
            }
            return
        }
        if known == nil, let original = AtomicFile.read(path) {
            // The person's own file: kept, and put back when miga's goes.
            let saved = layout.backupsDirectory + "/" + FilePath.lastComponent(of: path)
            try ensureDirectory(layout.backupsDirectory)
            try write(original, to: saved, mode: AtomicFile.mode(of: path) ?? 0o644)
            backup = saved
        }
        try ensureDirectory(FilePath.parent(of: path))
        manifest.record(InstallManifest.File(kind: kind, path: path, app: app, sha256: sha, source: source,
                                             sourceSHA256: sourceSHA256, backup: backup))
        try saveManifest()
        try write(data, to: path, mode: mode)
        if kind == .desktopShim || kind == .urlHandler { desktopFilesChanged = true }
        let verb = known == nil ? "created" : changedSince ? "replaced the changed" : "refreshed"
        changes.append("\(verb) \(what) \(layout.display(path))\(detail.map { " (\($0))" } ?? "")\(backup != nil && known == nil ? "; your own copy is kept and comes back on removal" : "")")
    }

    func removeManaged(_ file: InstallManifest.File, what: String) throws {
        if file.kind == .hostLink { return try removeLink(file) }
        let onDisk = AtomicFile.read(file.path)
        let backupData = file.backup.flatMap(AtomicFile.read)
        if let onDisk, AtomicFile.sha256(onDisk) != file.sha256, onDisk != backupData {
            let kept = file.backup.map { "; your earlier copy is in \(layout.display($0))" } ?? ""
            say("miga: \(layout.display(file.path)) was changed since miga wrote it; left as it is\(kept)")
        } else {
            if let backup = file.backup, let backupData {
                try write(backupData, to: file.path, mode: AtomicFile.mode(of: backup) ?? 0o644)
                try AtomicFile.remove(backup)
                changes.append("put back your own \(layout.display(file.path))")
            } else if onDisk != nil {
                try AtomicFile.remove(file.path)
                changes.append("removed \(what) \(layout.display(file.path))")
            }
            if file.kind == .desktopShim || file.kind == .urlHandler { desktopFilesChanged = true }
        }
        manifest.forget(path: file.path)
        try saveManifest()
    }

    // MARK: - Lines in files miga does not own

    private func addLine(_ line: String, to path: String) throws {
        let existing = AtomicFile.read(path)
        let text = existing.map { String(decoding: $0, as: UTF8.self) } ?? ""
        if text.split(separator: "\n", omittingEmptySubsequences: false).contains(Substring(line)) {
            // miga's marked line, perhaps from before a lost manifest: remembered, so it goes too.
            if !manifest.lines.contains(where: { $0.path == path && $0.line == line }) {
                manifest.lines.append(.init(path: path, line: line, createdFile: false, addedNewline: false))
                try saveManifest()
            }
            return
        }
        let addedNewline = !text.isEmpty && !text.hasSuffix("\n")
        manifest.lines.removeAll { $0.path == path && $0.line == line }
        manifest.lines.append(.init(path: path, line: line, createdFile: existing == nil, addedNewline: addedNewline))
        try saveManifest()
        try ensureDirectory(FilePath.parent(of: path))
        try write(text + (addedNewline ? "\n" : "") + line + "\n", to: path, mode: AtomicFile.mode(of: path) ?? 0o644)
        changes.append("added a line to \(layout.display(path))")
    }

    private func removeLine(_ added: InstallManifest.AddedLine) throws {
        defer { manifest.lines.removeAll { $0 == added } }
        guard let data = AtomicFile.read(added.path) else { return }
        var text = String(decoding: data, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let index = lines.lastIndex(of: added.line) else { return }
        let wasLast = index == lines.count - 2 && lines.last == ""
        lines.remove(at: index)
        text = lines.joined(separator: "\n")
        if added.addedNewline, wasLast, text.hasSuffix("\n") { text.removeLast() }
        if added.createdFile, text.isEmpty {
            try AtomicFile.remove(added.path)
        } else {
            try write(text, to: added.path, mode: AtomicFile.mode(of: added.path) ?? 0o644)
        }
        changes.append("removed miga's line from \(layout.display(added.path))")
        try saveManifest()
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
            try LinuxSystem.makeDirectories(path, mode: mode)
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
        }
    }
}

extension MimeAppsList.Change {
    /// Adds what a later change did, keeping the earliest value of each entry: undoing the
    /// result restores the file as it was before miga first touched it.
    mutating func merge(_ later: MimeAppsList.Change) {
        for (slot, value) in later.previousValues where previousValues[slot] == nil && !addedKeys.contains(slot) {
            previousValues[slot] = value
        }
        for slot in later.addedKeys where previousValues[slot] == nil && !addedKeys.contains(slot) {
            addedKeys.append(slot)
        }
        for group in later.addedGroups where !addedGroups.contains(group) { addedGroups.append(group) }
        addedFinalNewline = addedFinalNewline || later.addedFinalNewline
    }
}
