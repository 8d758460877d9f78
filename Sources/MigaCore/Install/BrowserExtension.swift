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
    /// Firefox's own application ID: system-wide extensions for Firefox live in a folder of
    /// that name (`/usr/share/mozilla/extensions/{ec8030f7-…}/`, where the package links miga's).
    public static let firefoxApplicationID = "{ec8030f7-c20a-464f-9b0e-13a3a9e97384}"
    /// Where the Debian package puts the extension for each family, as Debian's `webext-*`
    /// packages do (debian/miga.links).
    public static let packagedForChromium = "/usr/share/chromium/extensions/miga"
    public static let packagedForFirefox = "/usr/share/mozilla/extensions/" + firefoxApplicationID + "/" + geckoID
}

/// A Flatpak or Snap build of a browser, known by its folder below `$HOME`.
public struct SandboxedBrowser: Equatable, Sendable {
    public enum Kind: String, Sendable { case flatpak = "Flatpak", snap = "Snap" }
    /// How the build reaches a host outside its sandbox.
    public enum Reach: Equatable, Sendable {
        /// Through the WebExtensions portal, which asks the person once (Snap Firefox).
        case portal
        /// Through the WebExtensions portal, once its permission is set (`flatpak
        /// permission-set webextensions miga.gateway APP-ID yes`).
        case portalOncePermitted
        /// Not at all: the sandbox starts nothing outside it (Chromium snaps have no portal
        /// support).
        case never
    }

    public var kind: Kind
    /// `.var/app/APP-ID` or `snap/NAME`.
    public var folder: String
    public var reach: Reach
    /// Its profiles' folder below `$HOME`, where doctor looks when the build can reach miga.
    public var profiles: String?

    /// The Flatpak application ID (`org.mozilla.firefox`), or the snap's name.
    public var appID: String { FilePath.lastComponent(of: folder) }

    static func flatpak(_ appID: String, reach: Reach = .never, profiles: String? = nil) -> SandboxedBrowser {
        .init(kind: .flatpak, folder: ".var/app/" + appID, reach: reach, profiles: profiles.map { ".var/app/\(appID)/\($0)" })
    }

    static func snap(_ name: String, reach: Reach = .never, profiles: String? = nil) -> SandboxedBrowser {
        .init(kind: .snap, folder: "snap/" + name, reach: reach, profiles: profiles.map { "snap/\(name)/\($0)" })
    }
}

/// One browser family miga writes a host manifest for (DESIGN "Browsers"; KeePassXC's
/// browser integration uses the same folders).
public struct BrowserHostTarget: Equatable, Sendable {
    public enum Family: Sendable { case firefox, chromium }

    public var name: String
    public var family: Family
    /// Below `$HOME` for Firefox-family browsers, below `$XDG_CONFIG_HOME` for Chromium's.
    public var profileFolder: String
    /// Below `profilePath`, the folder holding the profiles (Firefox's `profiles.ini` and
    /// its profiles, Chromium's `Local State`, `Default` and `Profile N`).
    public var profilesBelow: String = ""
    /// Commands whose presence on PATH means the browser is installed.
    public var commands: [String]
    /// Its Flatpak and Snap builds.
    public var sandboxed: [SandboxedBrowser]
    /// The page that lists its extensions, and the switch there that lets one run in private
    /// windows, for doctor's advice.
    public var extensionsPage: String
    public var privateWindowSwitch: String

    public static let all: [BrowserHostTarget] = [
        .init(name: "Firefox", family: .firefox, profileFolder: ".mozilla", profilesBelow: "/firefox", commands: ["firefox", "firefox-esr"],
              sandboxed: [.flatpak("org.mozilla.firefox", reach: .portalOncePermitted, profiles: ".mozilla/firefox"),
                          .snap("firefox", reach: .portal, profiles: "common/.mozilla/firefox")],
              extensionsPage: "about:addons", privateWindowSwitch: "Run in Private Windows → Allow"),
        .init(name: "LibreWolf", family: .firefox, profileFolder: ".librewolf", commands: ["librewolf"],
              sandboxed: [.flatpak("io.gitlab.librewolf-community")],
              extensionsPage: "about:addons", privateWindowSwitch: "Run in Private Windows → Allow"),
        .init(name: "Chromium", family: .chromium, profileFolder: "chromium", commands: ["chromium", "chromium-browser"],
              sandboxed: [.flatpak("org.chromium.Chromium"), .snap("chromium")],
              extensionsPage: "chrome://extensions", privateWindowSwitch: "Details → Allow in Incognito"),
        .init(name: "Google Chrome", family: .chromium, profileFolder: "google-chrome",
              commands: ["google-chrome", "google-chrome-stable"], sandboxed: [.flatpak("com.google.Chrome")],
              extensionsPage: "chrome://extensions", privateWindowSwitch: "Details → Allow in Incognito"),
        .init(name: "Brave", family: .chromium, profileFolder: "BraveSoftware/Brave-Browser",
              commands: ["brave-browser", "brave"], sandboxed: [.flatpak("com.brave.Browser"), .snap("brave")],
              extensionsPage: "brave://extensions", privateWindowSwitch: "Details → Allow in Private"),
        .init(name: "Vivaldi", family: .chromium, profileFolder: "vivaldi", commands: ["vivaldi", "vivaldi-stable"],
              sandboxed: [.flatpak("com.vivaldi.Vivaldi")],
              extensionsPage: "vivaldi://extensions", privateWindowSwitch: "Details → Allow in Incognito"),
        .init(name: "Microsoft Edge", family: .chromium, profileFolder: "microsoft-edge",
              commands: ["microsoft-edge", "microsoft-edge-stable"], sandboxed: [.flatpak("com.microsoft.Edge")],
              extensionsPage: "edge://extensions", privateWindowSwitch: "Details → Allow in InPrivate"),
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

    /// Where its profiles are: `~/.mozilla/firefox`, `~/.config/chromium`, …
    public func profilesPath(in layout: InstallLayout) -> String {
        profilePath(in: layout) + profilesBelow
    }

    /// Its Flatpak and Snap builds installed here.
    public func sandboxedInstalls(in layout: InstallLayout, exists: (String) -> Bool) -> [SandboxedBrowser] {
        sandboxed.filter { exists(layout.home + "/" + $0.folder) }
    }
}
