import FoundationEssentials

extension WelcomeOffer {
    /// What the welcome offers on this machine: the chat and social apps found, the common
    /// sites, and the browsers found with their extension's state.
    public static func find(context: MigaContext) -> WelcomeOffer {
        let installer = try? Installer(context: context)
        return WelcomeOffer(apps: apps(environment: context.environment, installer: installer), sites: offeredSites,
                            browsers: installer.map { FoundBrowser.found(installer: $0) } ?? [])
    }
}

/// What the welcome could not do; each says what to run instead.
public enum WelcomeError: Error, Equatable, CustomStringConvertible {
    case unknownApp(name: String, suggestions: [String])

    public var description: String {
        switch self {
        case .unknownApp(let name, let suggestions):
            let close = suggestions.isEmpty ? "" : "did you mean \(suggestions.map { "\"\($0)\"" }.joined(separator: ", "))? "
            return "\"\(TerminalText.field(name))\" is neither an app found here nor a command on PATH; \(close)"
                + "see `miga setup --found`, or gate a program by its path: miga config apps add \(TerminalText.field(name)) --command PATH"
        }
    }
}

/// Does what the welcome chose: gates the apps and sites, sets the pause, then installs.
public struct WelcomeSetup {
    public let context: MigaContext

    public init(context: MigaContext) {
        self.context = context
    }

    /// Nothing is gated yet: no app and no site (what `miga install` points to the welcome for).
    public static func nothingChosen(_ config: MigaConfig) -> Bool {
        config.apps.isEmpty && config.sites.isEmpty
    }

    public static let nothingChosenLine = "Nothing is paused yet: run `miga setup` to choose what pulls you in."

    /// Gates what was chosen and installs; the lines to say, one a change. Every name is
    /// checked before anything is written, so a typo changes nothing.
    public func apply(_ choice: WelcomeChoice, offer: WelcomeOffer) throws -> [String] {
        let sites = try checkedSites(choice.sites)
        let commands = try checkedApps(choice.apps, offer: offer)
        try Installer(context: context).prepareConfigFolder()
        var lines: [String] = []
        lines += try gateApps(commands)
        lines += try gateSites(sites)
        lines += try setPause(choice)
        lines += try install()
        lines += browserSteps(offer.browsers)
        return lines
    }

    /// The sites as they are written, each refused (with the error `config sites add` gives)
    /// before anything changes.
    func checkedSites(_ sites: [String]) throws -> [String] {
        var result: [String] = []
        for site in sites {
            guard let normalized = SiteMatcher.addableSite(site) else { throw InstallError.invalidSite(site) }
            if !result.contains(normalized) { result.append(normalized) }
        }
        return result
    }

    /// Each app with the command its shims will run (nil: its name, as `config apps add NAME`
    /// finds it). A found app runs what its entry runs; any other name must be a program.
    func checkedApps(_ names: [String], offer: WelcomeOffer) throws -> [(name: String, command: String?)] {
        let installer = try Installer(context: context)
        let gated = try ConfigFile(path: context.paths.configFile, files: context.files).loadForEditing().apps
        var result: [(name: String, command: String?)] = []
        for name in names where !result.contains(where: { $0.name == name }) {
            guard MigaConfig.isValidAppName(name) else { throw InstallError.invalidAppName(name) }
            if gated[name] != nil {
                result.append((name, nil))
            } else if let found = offer.apps.first(where: { $0.name == name }) {
                let command = command(of: found)
                // What `config apps add` would refuse (an entry whose program is gone) is
                // refused here, before the first app is written.
                _ = try GatedApps(context: context).program(command ?? name, for: name, installer: installer)
                result.append((name, command))
            } else {
                do {
                    _ = try GatedApps(context: context).program(name, for: name, installer: installer)
                } catch InstallError.appNotFound(_, _, let suggestions) {
                    throw WelcomeError.unknownApp(name: name, suggestions: suggestions)
                }
                result.append((name, nil))
            }
        }
        return result
    }

    /// The one program a found app's shims run: a Flatpak's exported launcher, else the
    /// program its entry runs (nil leaves it to `config apps add`'s search by name).
    func command(of found: FoundApp) -> String? {
        if let launcher = found.exportedLauncher, context.files.isExecutableFile(launcher) { return launcher }
        guard found.command.first != "flatpak" || found.command.count == 1 else { return nil }
        return found.command.first
    }

    func gateApps(_ apps: [(name: String, command: String?)]) throws -> [String] {
        let gated = try ConfigFile(path: context.paths.configFile, files: context.files).loadForEditing().apps
        var lines: [String] = []
        for (name, command) in apps {
            if gated[name] != nil {
                lines.append("\(name) was already paused.")
                continue
            }
            let (app, _) = try GatedApps(context: context).add(name: name, command: command, timer: nil)
            lines.append("\(name) is paused: it runs \(TerminalText.field(app.command)) after the pause.")
        }
        return lines
    }

    func gateSites(_ sites: [String]) throws -> [String] {
        try sites.map { site in
            let (written, outcome) = try GatedSites(context: context).add(site)
            return outcome == .changed ? "\(written) is paused: links to it pause first." : "\(written) was already paused."
        }
    }

    /// The timer, coming back and the content categories, each through the key table as
    /// `config set` writes it (a loosening waits as there); a line for each value changed.
    func setPause(_ choice: WelcomeChoice) throws -> [String] {
        let file = ConfigFile(path: context.paths.configFile, files: context.files)
        var settings: [(String, String)] = [("reentry_minutes", String(choice.reentryMinutes))]
        if let timer = choice.timerSeconds { settings.insert(("timer_seconds", String(timer)), at: 0) }
        if !choice.extraCategories.isEmpty {
            settings.append(("extra_categories", choice.extraCategories.joined(separator: ",")))
        }
        var lines: [String] = []
        for (key, value) in settings {
            let before = try file.loadForEditing()
            let path = try file.set(key, to: value)
            let after = try file.loadForEditing()
            if ConfigKeys.toml(path, in: before) != ConfigKeys.toml(path, in: after) {
                lines.append("\(path.name) = \(ConfigKeys.toml(path, in: after))")
            }
        }
        return lines + ConfigInForce.waitingNote(context: context).map { "  waiting: " + $0 }
    }

    /// `miga install`, as that command does it, with its changes.
    func install() throws -> [String] {
        let loaded = try ConfigInForce.load(context: context)
        loaded.warnings.forEach { context.messages.say("miga: warning: " + $0) }
        let installer = try Installer(context: context)
        try installer.install(config: loaded.config)
        let retired = try GatedApps(context: context).removeRetiredShims()?.changes ?? []
        let changes = installer.changes + retired
        guard !changes.isEmpty else { return ["miga is installed; nothing else needed changing."] }
        return ["Installed:"] + changes.map { "  " + $0 }
    }

    /// For each browser whose extension is not on yet: the clicks that put it on.
    func browserSteps(_ browsers: [FoundBrowser]) -> [String] {
        var lines: [String] = []
        for browser in browsers where !browser.steps.isEmpty {
            lines.append("So sites pause in \(browser.label) too:")
            lines += browser.steps.map { "  " + $0 }
        }
        return lines
    }
}
