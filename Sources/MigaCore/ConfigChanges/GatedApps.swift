import FoundationEssentials

/// `miga config apps add/remove`: the app list in `config.toml` and the shims that go with it,
/// changed together.
public struct GatedApps {
    public var context: MigaContext
    /// The folder a relative `--command` is taken from.
    public var workingDirectory: String

    public init(context: MigaContext, workingDirectory: String = FileManager.default.currentDirectoryPath) {
        self.context = context
        self.workingDirectory = workingDirectory
    }

    /// Records the app and makes its shims; the installer (for the lines it reports) is returned.
    /// Programs that run other programs' work: shells and script interpreters. Gating one
    /// pauses every script that starts with it, so it takes `--force`.
    public static let interpreters: Set<String> = [
        "sh", "bash", "dash", "zsh", "fish", "ksh", "mksh", "csh", "tcsh", "busybox", "env", "sudo", "doas",
        "python", "python2", "python3", "perl", "ruby", "node", "nodejs", "php", "lua", "tclsh", "wish", "java", "osascript",
    ]

    public static func isInterpreter(_ command: String) -> Bool {
        var name = Substring(command.split(separator: "/").last ?? "")
        // python3.11, lua5.4, perl5.36: the version does not make it less of an interpreter.
        while let last = name.last, last.isNumber || last == "." { name.removeLast() }
        return interpreters.contains(String(command.split(separator: "/").last ?? "")) || interpreters.contains(String(name))
    }

    public func add(name: String, command: String?, timer: Int?, force: Bool = false) throws -> (app: MigaConfig.App, installer: Installer) {
        guard MigaConfig.isValidAppName(name) else { throw InstallError.invalidAppName(name) }
        let wanted = command ?? name
        if !force, Self.isInterpreter(wanted) { throw InstallError.interpreter(name: name, program: wanted) }
        let file = ConfigFile(path: context.paths.configFile, files: context.files)
        guard try file.loadForEditing().apps[name] == nil else { throw InstallError.appAlreadyAdded(name) }
        let installer = try Installer(context: context)
        let app = MigaConfig.App(name: name, command: try program(command ?? name, for: name, installer: installer),
                                 timerSeconds: timer)
        try installer.prepareConfigFolder()
        try file.update({ $0.addApp(app) }, expect: { $0.apps[app.name] == app })
        try installer.sync(app)
        try installer.finishDesktopChanges()
        try removeRetiredShims()
        return (app, installer)
    }

    /// `config set apps.NAME.command PROGRAM`: checked as `apps add` checks it (a program that
    /// runs; an interpreter only with `apps add --force`), written, and the app's shims
    /// remade to run it. Returns the installer, for what changed.
    public func setCommand(of name: String, to command: String) throws -> Installer {
        let file = ConfigFile(path: context.paths.configFile, files: context.files)
        let config = try file.loadForEditing()
        guard config.apps[name] != nil else { throw InstallError.unknownApp(name: name, configured: config.apps.keys.sorted()) }
        if Self.isInterpreter(command) { throw InstallError.interpreter(name: name, program: command) }
        let installer = try Installer(context: context)
        let program = try program(command, for: name, installer: installer)
        try file.update({ _ = $0.setValue(ConfigEditor.string(program), forKey: "command", table: ["apps", name]) },
                        expect: { $0.apps[name]?.command == program })
        if let app = try file.loadForEditing().apps[name] {
            try installer.sync(app)
            try installer.finishDesktopChanges()
        }
        return installer
    }

    /// Removes the shims of apps whose removal applied after `loosen_delay_minutes` (their
    /// gates pass until then). Returns the installer, for what changed; nil when none.
    @discardableResult
    public func removeRetiredShims() throws -> Installer? {
        let retired = ConfigInForce.retiredApps(context: context)
        guard !retired.isEmpty else { return nil }
        let installer = try Installer(context: context)
        for name in retired { try installer.remove(app: name) }
        let config = try ConfigFile(path: context.paths.configFile, files: context.files).loadForEditing()
        for other in config.apps.values.sorted(by: { $0.name < $1.name }) { try installer.sync(other) }
        try installer.finishDesktopChanges()
        ConfigInForce.forgetRetired(retired, context: context)
        return installer
    }

    /// Forgets the app and removes every shim made for it.
    public func remove(name: String) throws -> Installer {
        let file = ConfigFile(path: context.paths.configFile, files: context.files)
        let config = try file.loadForEditing()
        guard config.apps[name] != nil else { throw InstallError.unknownApp(name: name, configured: config.apps.keys.sorted()) }
        try file.update({ $0.removeApp(name) }, expect: { $0.apps[name] == nil })
        // Before this installer reads the manifest, so neither writes over the other's changes.
        try removeRetiredShims()
        let installer = try Installer(context: context)
        // A removal that waits (`loosen_delay_minutes`) keeps the shims until it applies: the
        // app stays gated until then, and its shims pass it straight through after.
        if (try? ConfigInForce.load(context: context))?.config.apps[name] != nil { return installer }
        try installer.remove(app: name)
        // An entry it held may run another gated app's command: that app takes it now.
        for other in config.apps.values.sorted(by: { $0.name < $1.name }) where other.name != name {
            try installer.sync(other)
        }
        try installer.finishDesktopChanges()
        return installer
    }

    /// The program the shims will run: an executable path, or a name found on PATH (outside
    /// the shims) or in an installed entry's Exec. Otherwise an error with close names. What
    /// was typed and what an entry names are both checked as every command is (`AppCheck`).
    func program(_ command: String, for name: String, installer: Installer) throws -> String {
        try checked(command, from: nil)
        if command.contains("/") {
            let path = command.hasPrefix("/") ? command : workingDirectory + "/" + command
            guard context.files.isExecutableFile(path) else { throw InstallError.commandNotExecutable(path) }
            return path
        }
        let resolver = installer.resolver
        if resolver.lookUp(command) != nil { return command }
        let entries = installer.desktopEntries(running: command)
        if !entries.isEmpty {
            // A Flatpak-only app has no `discord` on PATH for the PATH shim to run: its
            // exported launcher (what the entry runs, as a program) stands in for it.
            return try checked(flatpakExport(of: entries) ?? command, from: entries.first?.id)
        }
        // A desktop-file ID (`io.github.Hexchat`, as menus and `gio launch` name apps): the
        // program that entry runs.
        if let found = installer.installedEntries.first(where: { $0.id == command || $0.id == command + ".desktop" }),
           let exec = found.entry.rawValue("Exec"), let line = try? ExecLine(rawValue: exec) {
            let launched = LaunchedProgram(line)
            if let flatpak = launched.flatpak {
                return try checked(flatpakExport(of: [found]) ?? flatpak.command ?? flatpak.appName ?? command, from: found.id)
            }
            if let program = launched.program { return try checked(program, from: found.id) }
        }
        let suggestions = AppNameSuggestions(searchPath: resolver.searchPath, skipping: context.paths.shimDirectory,
                                             entries: installer.installedEntries, files: context.files).suggestions(for: command)
            .filter { $0 != command } // never "did you mean" the very name typed
        throw InstallError.appNotFound(name: name, command: command, suggestions: suggestions)
    }
}

extension GatedApps {
    /// `command`, unless `AppCheck` refuses it; `source` is the desktop entry it came from.
    @discardableResult
    func checked(_ command: String, from source: String?) throws -> String {
        guard let problem = AppCheck.problem(withCommand: command) else { return command }
        throw InstallError.invalidCommand((source.map { "\($0) runs a command miga will not write: " } ?? "") + problem)
    }

    /// The launcher Flatpak exports for an entry's app (`…/exports/bin/APP.ID`, beside the
    /// `…/exports/share/applications` the entry came from, or in the usual installations).
    func flatpakExport(of entries: [DesktopEntryLocator.Found]) -> String? {
        for found in entries {
            guard let exec = found.entry.rawValue("Exec"), let line = try? ExecLine(rawValue: exec),
                  let appID = LaunchedProgram(line).flatpak?.appID else { continue }
            var candidates: [String] = []
            if let range = found.path.firstRange(of: "/exports/share/applications/") {
                candidates.append(String(found.path[..<range.lowerBound]) + "/exports/bin/" + appID)
            }
            let dataHome = InstallLayout(environment: context.environment, paths: context.paths).dataHome
            candidates += [dataHome + "/flatpak/exports/bin/" + appID, "/var/lib/flatpak/exports/bin/" + appID]
            if let export = candidates.first(where: context.files.isExecutableFile) { return export }
        }
        return nil
    }
}

/// `miga config sites add/remove`: the sites `open-url` gates, kept normalised.
public struct GatedSites {
    public var context: MigaContext

    public init(context: MigaContext) {
        self.context = context
    }

    public enum Outcome: Equatable { case changed, unchanged }

    /// Adds `host` (any spelling of it: `News.YCombinator.com.`, even a URL); returns the
    /// normalised site and whether the list changed.
    public func add(_ host: String) throws -> (site: String, outcome: Outcome) {
        let (site, file, config) = try load(host)
        guard !SiteMatcher(sites: config.sites).sites.contains(site) else { return (site, .unchanged) }
        try Installer(context: context).prepareConfigFolder()
        try file.update(using: { editor, current in
            if !SiteMatcher(sites: current.sites).sites.contains(site) { editor.setSites(current.sites + [site]) }
        }, expect: { SiteMatcher(sites: $0.sites).sites.contains(site) })
        return (site, .changed)
    }

    public func remove(_ host: String) throws -> String {
        let (site, file, config) = try load(host, adding: false)
        let kept = config.sites.filter { SiteMatcher.normalizedSite($0) != site }
        guard kept.count < config.sites.count else { throw InstallError.unknownSite(site) }
        try file.update(using: { editor, current in
            editor.setSites(current.sites.filter { SiteMatcher.normalizedSite($0) != site })
        }, expect: { !SiteMatcher(sites: $0.sites).sites.contains(site) })
        return site
    }

    private func load(_ host: String, adding: Bool = true) throws -> (String, ConfigFile, MigaConfig) {
        guard let site = adding ? SiteMatcher.addableSite(host) : SiteMatcher.normalizedSite(host) else { throw InstallError.invalidSite(host) }
        let file = ConfigFile(path: context.paths.configFile, files: context.files)
        return (site, file, try file.loadForEditing())
    }
}
