import JSON

/// The extension in `browser/` and how browsers find miga's native messaging host.
public enum BrowserExtension {
    /// Fixed by the `"key"` in browser/manifest.json: the first 32 hex digits of SHA-256 of
    /// that key, with 0–f written as a–p (BrowserExtensionTests checks the two agree).
    public static let chromiumID = "ofokomeiepojclgahgdjidagbanoehml"
    /// `browser_specific_settings.gecko.id` in browser/manifest.json.
    public static let geckoID = "miga@miga.app"
    /// The native messaging host's name, as the extension's `connectNative` asks for it.
    public static let hostName = "miga.gateway"
    /// A manifest's `path` takes no arguments, so it names a link to miga that miga knows by
    /// this argv[0] and runs as `miga native-host`.
    public static let hostLinkName = "miga-native-host"
}

/// One browser family miga writes a host manifest for (DESIGN "Browsers"; KeePassXC's
/// browser integration uses the same folders).
public struct BrowserHostTarget: Equatable, Sendable {
    public enum Family: Sendable { case firefox, chromium }

    public var name: String
    public var family: Family
    /// Below `$HOME` for Firefox-family browsers, below `$XDG_CONFIG_HOME` for Chromium's.
    public var profileFolder: String
    /// Commands whose presence on PATH means the browser is installed.
    public var commands: [String]
    /// Where a Flatpak or Snap build keeps its data below `$HOME`: such a build runs in a
    /// sandbox that cannot start programs outside it, the host included.
    public var sandboxedFolders: [String]

    public static let all: [BrowserHostTarget] = [
        .init(name: "Firefox", family: .firefox, profileFolder: ".mozilla", commands: ["firefox", "firefox-esr"],
              sandboxedFolders: [".var/app/org.mozilla.firefox", "snap/firefox"]),
        .init(name: "LibreWolf", family: .firefox, profileFolder: ".librewolf", commands: ["librewolf"],
              sandboxedFolders: [".var/app/io.gitlab.librewolf-community"]),
        .init(name: "Chromium", family: .chromium, profileFolder: "chromium", commands: ["chromium", "chromium-browser"],
              sandboxedFolders: [".var/app/org.chromium.Chromium", "snap/chromium"]),
        .init(name: "Google Chrome", family: .chromium, profileFolder: "google-chrome",
              commands: ["google-chrome", "google-chrome-stable"], sandboxedFolders: [".var/app/com.google.Chrome"]),
        .init(name: "Brave", family: .chromium, profileFolder: "BraveSoftware/Brave-Browser",
              commands: ["brave-browser", "brave"], sandboxedFolders: [".var/app/com.brave.Browser", "snap/brave"]),
        .init(name: "Vivaldi", family: .chromium, profileFolder: "vivaldi", commands: ["vivaldi", "vivaldi-stable"],
              sandboxedFolders: [".var/app/com.vivaldi.Vivaldi"]),
        .init(name: "Microsoft Edge", family: .chromium, profileFolder: "microsoft-edge",
              commands: ["microsoft-edge", "microsoft-edge-stable"], sandboxedFolders: [".var/app/com.microsoft.Edge"]),
    ]

    /// The browser's own folder: `~/.mozilla`, `~/.config/chromium`, …
    public func profilePath(in layout: InstallLayout) -> String {
        family == .firefox ? layout.home + "/" + profileFolder : layout.configHome + "/" + profileFolder
    }

    /// The host manifest's path.
    public func manifestPath(in layout: InstallLayout) -> String {
        profilePath(in: layout) + (family == .firefox ? "/native-messaging-hosts/" : "/NativeMessagingHosts/")
            + BrowserExtension.hostName + ".json"
    }

    /// The host manifest, naming `hostPath` and only miga's own extension.
    public func manifestText(hostPath: String) -> String {
        let allowed = family == .firefox
            ? "\"allowed_extensions\": [\(JSONText.string(BrowserExtension.geckoID))]"
            : "\"allowed_origins\": [\(JSONText.string("chrome-extension://\(BrowserExtension.chromiumID)/"))]"
        return """
            {
              "name": \(JSONText.string(BrowserExtension.hostName)),
              "description": "miga: a calm pause before the sites you choose",
              "path": \(JSONText.string(hostPath)),
              "type": "stdio",
              \(allowed)
            }

            """
    }

    /// Installed as a Flatpak or Snap: the folder that shows it, if any.
    public func sandboxedInstall(in layout: InstallLayout, exists: (String) -> Bool) -> String? {
        sandboxedFolders.map { layout.home + "/" + $0 }.first(where: exists)
    }
}
