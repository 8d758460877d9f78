/// Where interception puts things, all below `$HOME` and the XDG folders (DESIGN "Files").
public struct InstallLayout: Equatable {
    public var home: String
    public var paths: MigaPaths
    public var configHome: String
    public var dataHome: String
    /// `$XDG_DATA_HOME` then `$XDG_DATA_DIRS`, the folders holding `applications/`.
    public var dataDirectories: [String]
    /// Where the menu entries a shim may stand in for are: `dataDirectories`, then Flatpak's
    /// and Snap's exports, as the welcome finds apps (an app picked there is paused from its
    /// menu entry too, even in a session whose `XDG_DATA_DIRS` leaves them out).
    public var entryDirectories: [String]
    /// `$XDG_CONFIG_HOME` then `$XDG_CONFIG_DIRS`, the folders holding `mimeapps.list`.
    public var configDirectories: [String]
    /// zsh reads its rc file from `$ZDOTDIR` when set.
    public var zshDirectory: String

    public init(environment: [String: String], paths: MigaPaths) {
        home = environment["HOME"] ?? ""
        self.paths = paths
        configHome = parent(paths.configDirectory)
        dataHome = parent(paths.dataDirectory)
        dataDirectories = DesktopEntryLocator(environment: environment).dataDirectories
        entryDirectories = DesktopEntryLocator(includingPackagedApps: environment).dataDirectories
        let systemConfig = (environment["XDG_CONFIG_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/etc/xdg")
            .split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        configDirectories = [configHome] + systemConfig
        zshDirectory = environment["ZDOTDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home
    }

    public var applicationsDirectory: String { dataHome + "/applications" }
    public var manifest: String { paths.stateDirectory + "/installed.json" }
    public var backupsDirectory: String { paths.stateDirectory + "/backups" }
    public var snippetDirectory: String { paths.dataDirectory + "/shell" }
    public var mimeApps: String { configHome + "/mimeapps.list" }
    public var mimeinfoCache: String { applicationsDirectory + "/mimeinfo.cache" }
    public var environmentFile: String { configHome + "/environment.d/60-miga.conf" }
    public var fishSnippet: String { configHome + "/fish/conf.d/miga.fish" }
    public var urlHandler: String { applicationsDirectory + "/" + URLHandler.desktopID }
    public var watcherAutostart: String { configHome + "/autostart/app.miga.Watch.desktop" }

    public func pathShim(_ app: String) -> String { paths.shimDirectory + "/" + app }
    public func desktopShim(id: String) -> String { applicationsDirectory + "/" + id }

    /// `path` with the home folder shown as `~`, for messages.
    public func display(_ path: String) -> String {
        guard !home.isEmpty, home != "/", path.hasPrefix(home + "/") else { return path }
        return "~" + path.dropFirst(home.count)
    }
}

private func parent(_ path: String) -> String {
    String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
}
