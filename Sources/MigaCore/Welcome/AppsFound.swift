import FoundationEssentials

/// The chat and social apps among a machine's desktop entries, as the welcome offers them.
extension FoundApp {
    /// The offered apps among `entries` (in the locator's precedence order), one per name,
    /// sorted by label. `dataHome` tells the person's own entries from the system's.
    public static func offered(in entries: [DesktopEntryLocator.Found], dataHome: String?) -> [FoundApp] {
        var names = Set<String>()
        var apps: [FoundApp] = []
        for found in entries {
            guard let app = FoundApp(found, dataHome: dataHome), names.insert(app.name).inserted else { continue }
            apps.append(app)
        }
        return apps.sorted { ($0.label.lowercased(), $0.name) < ($1.label.lowercased(), $1.name) }
    }

    /// The app an entry launches, when it is a chat or social app a person can start from a
    /// menu: never a browser, a hidden entry, miga's own, or one whose Exec runs nothing.
    init?(_ found: DesktopEntryLocator.Found, dataHome: String?) {
        let entry = found.entry
        guard entry.string("Type") == "Application", entry.boolean("NoDisplay") != true, entry.boolean("Hidden") != true
        else { return nil }
        let categories = Set((entry.string("Categories") ?? "").split(separator: ";").map(String.init))
        let stem = String(found.id.dropLast(".desktop".count))
        guard !categories.contains("WebBrowser"), !Self.isMigas(found.id),
              let exec = entry.rawValue("Exec"), let line = try? ExecLine(rawValue: exec) else { return nil }
        let launched = LaunchedProgram(line)
        guard let program = launched.program else { return nil }
        let source = Self.source(of: found.path, launched: launched, dataHome: dataHome)
        // A Snap's entry is SNAP_APP.desktop; its program /snap/bin/SNAP or /snap/bin/SNAP.APP.
        let snapName = source == .snap ? stem.split(separator: "_").first.map(String.init) : nil
        let programName = FilePath.lastComponent(of: program)
        let client = KnownClients.client(ids: [stem, launched.flatpak?.appID, snapName].compactMap { $0 },
                                         programs: [programName, launched.flatpak?.command.map(FilePath.lastComponent(of:))].compactMap { $0 })
        guard client != nil || !categories.isDisjoint(with: KnownClients.chatCategories) else { return nil }
        let derived = launched.flatpak?.appName ?? snapName ?? programName
        let label = entry.string("Name").flatMap { $0.isEmpty ? nil : $0 } ?? stem
        self.init(name: client?.name ?? AppCheck.name(derivedFrom: derived.lowercased()), label: label, desktopID: found.id,
                  source: source, icon: entry.string("Icon").flatMap { $0.isEmpty ? nil : $0 },
                  command: launched.flatpak.map { ["flatpak", "run", $0.appID] } ?? [program])
        if let flatpak = launched.flatpak, let range = found.path.firstRange(of: "/exports/share/applications/") {
            // Flatpak's exported launcher runs the app as `flatpak run` does, and is one program.
            exportedLauncher = String(found.path[..<range.lowerBound]) + "/exports/bin/" + flatpak.appID
        }
    }

    /// miga's own entries (the gate window, the app, the link handler, the watcher).
    static func isMigas(_ id: String) -> Bool {
        id.hasPrefix("app.miga.") || id == URLHandler.desktopID
    }

    static func source(of path: String, launched: LaunchedProgram, dataHome: String?) -> Source {
        if path.contains("/flatpak/exports/share/applications/") { return .flatpak }
        if path.contains("/snapd/desktop/applications/") { return .snap }
        if let dataHome, path.hasPrefix(dataHome + "/applications/") { return launched.flatpak == nil ? .user : .flatpak }
        return launched.flatpak == nil ? .system : .flatpak
    }
}

extension WelcomeOffer {
    /// The sites the welcome offers, in DESIGN's order; the first seven are pre-selected.
    public static let commonSites = ["reddit.com", "youtube.com", "youtube.com/shorts", "x.com", "instagram.com", "facebook.com",
                                     "tiktok.com", "linkedin.com", "twitch.tv", "news.ycombinator.com"]
    public static let preselectedSiteCount = 7

    public static var offeredSites: [OfferedSite] {
        commonSites.enumerated().map { OfferedSite(site: $1, preselected: $0 < preselectedSiteCount) }
    }

    /// The chat and social apps among the desktop entries of the user, the system, Flatpak and
    /// Snap. An entry that cannot be read is left out without a word: the welcome offers.
    /// `installer` knows the person's own entries a shim replaced (nil: none are known).
    public static func apps(environment: [String: String], installer: Installer? = nil) -> [FoundApp] {
        let replaced = installer.map(replacedEntries) ?? []
        let ids = Set(replaced.map(\.id))
        let found = DesktopEntryLocator(includingPackagedApps: environment).entries(warn: { _ in }).filter { !ids.contains($0.id) }
        return FoundApp.offered(in: replaced + found, dataHome: DesktopEntryLocator.dataHome(environment))
    }

    /// The person's own entries that a shim took the place of (after a first welcome): read from
    /// the backup, standing where they were, so the welcome offers them again.
    static func replacedEntries(installer: Installer) -> [DesktopEntryLocator.Found] {
        installer.manifest.files(of: .desktopShim).compactMap { file in
            guard let backup = file.backup, let entry = try? DesktopEntry.load(path: backup) else { return nil }
            return DesktopEntryLocator.Found(id: FilePath.lastComponent(of: file.path), path: file.path, entry: entry)
        }
    }
}
