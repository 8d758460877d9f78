import FoundationEssentials

/// What the welcome offers a person (DESIGN "Welcome, hub, stats and settings"): the chat and
/// social apps found on this machine, the common sites, and the browsers whose extension step
/// the install shows. One model for `miga setup`, `miga setup --found` and the miga app.
public struct WelcomeOffer: Equatable, Sendable {
    public var apps: [FoundApp]
    public var sites: [OfferedSite]
    public var browsers: [FoundBrowser]

    public init(apps: [FoundApp] = [], sites: [OfferedSite] = [], browsers: [FoundBrowser] = []) {
        self.apps = apps
        self.sites = sites
        self.browsers = browsers
    }
}

/// A chat or social app found among the desktop entries.
public struct FoundApp: Equatable, Sendable {
    public enum Source: String, Sendable, CaseIterable { case system, flatpak, snap, user }

    /// The name it is gated under (`[apps.NAME]`, the shims' name).
    public var name: String
    /// The entry's own `Name`, as the person knows it.
    public var label: String
    public var desktopID: String
    public var source: Source
    /// The entry's `Icon`: a theme name or an absolute path; nil without one.
    public var icon: String?
    /// What the shims run (`command` in config.toml: one word, or words for a launcher such
    /// as `flatpak run ID`).
    public var command: [String]
    /// A Flatpak's exported launcher beside its entry (`…/exports/bin/APP.ID`): the one program
    /// the shims run for it. nil for other apps.
    public var exportedLauncher: String? = nil

    public init(name: String, label: String, desktopID: String, source: Source, icon: String?, command: [String]) {
        self.name = name
        self.label = label
        self.desktopID = desktopID
        self.source = source
        self.icon = icon
        self.command = command
    }
}

/// One of the common sites the welcome offers; the first seven are pre-selected.
public struct OfferedSite: Equatable, Sendable {
    public var site: String
    public var preselected: Bool

    public init(site: String, preselected: Bool) {
        self.site = site
        self.preselected = preselected
    }
}

/// A browser found on this machine, and where its miga extension stands.
public struct FoundBrowser: Equatable, Sendable {
    public enum ExtensionState: String, Sendable { case missing, installed, on }

    /// `chromium`, `google-chrome`, `firefox`, … as `--found --json` names them.
    public var id: String
    public var label: String
    public var extensionState: ExtensionState
    /// The exact click path that adds the extension, one step a line.
    public var steps: [String]

    public init(id: String, label: String, extensionState: ExtensionState, steps: [String]) {
        self.id = id
        self.label = label
        self.extensionState = extensionState
        self.steps = steps
    }
}

/// What the person chose in the welcome (or named with `miga setup --apps … --sites … --yes`).
public struct WelcomeChoice: Equatable, Sendable {
    /// Found apps chosen, and names the person typed (gated as `config apps add NAME` would).
    public var apps: [String]
    public var sites: [String]
    /// nil keeps the timer as it is.
    public var timerSeconds: Int?
    /// `reentry_minutes`: 0 = off; the welcome offers 10.
    public var reentryMinutes: Int
    /// Content categories turned on beyond the calm defaults (`extra_categories`).
    public var extraCategories: [String]

    public init(apps: [String], sites: [String], timerSeconds: Int? = nil, reentryMinutes: Int = 0, extraCategories: [String] = []) {
        self.apps = apps
        self.sites = sites
        self.timerSeconds = timerSeconds
        self.reentryMinutes = reentryMinutes
        self.extraCategories = extraCategories
    }
}
