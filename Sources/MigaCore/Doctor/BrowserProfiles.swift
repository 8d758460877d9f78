import FoundationEssentials
import JSON

/// `miga doctor`'s look inside a browser's profiles: in each, is miga's extension installed
/// and on, and may it run in private windows? (DESIGN "Browsers": doctor says, per browser and
/// profile, whether sites are really paused there.) Every file here is the browser's, or
/// whatever took its place: read bounded, and one that cannot be read is a note, not a stop.
struct BrowserProfileCheck {
    /// One folder of profiles: a browser's own, or its Flatpak or Snap build's.
    struct Root {
        var browser: BrowserHostTarget
        /// nil for the browser's own folder.
        var build: SandboxedBrowser?
        var path: String
        /// `browser Firefox`, `browser Firefox (Snap)`: the findings' subject.
        var subject: String
    }

    var layout: InstallLayout
    /// The folder of the extension per family beside this miga, for "Load unpacked"; nil when
    /// not found.
    var extensionFolder: String?
    /// Debian's Firefox (`firefox-esr`) is on PATH.
    var hasFirefoxESR: Bool
    /// Lists the profile folders.
    var files: any FileService
    /// Put before the system folders the Debian package puts the extension in: "" but in tests.
    var systemRoot = ""

    /// Profiles looked at in one folder; a folder with more gets a note for the rest.
    static let profileLimit = 64
    /// Chromium's preference files grow with the sites visited.
    static let preferencesLimit = 16 << 20
    static let extensionsJSONLimit = 8 << 20
    static let smallFileLimit = 1 << 20

    func findings(in root: Root) -> [Doctor.Finding] {
        guard FileStatus.at(root.path)?.isDirectory == true else { return [] }
        switch root.browser.family {
        case .firefox: return FirefoxProfiles(check: self, root: root).findings()
        case .chromium: return ChromiumProfiles(check: self, root: root).findings()
        }
    }

    /// The extension's state in each readable profile of `root` (the welcome's word on a browser).
    func states(in root: Root) -> [ExtensionInProfile.State] {
        guard FileStatus.at(root.path)?.isDirectory == true else { return [] }
        switch root.browser.family {
        case .firefox: return FirefoxProfiles(check: self, root: root).states()
        case .chromium: return ChromiumProfiles(check: self, root: root).states()
        }
    }

    /// The extension's folder for `family`, for advice: `~/…/browser/chromium` as found, or nil.
    func extensionFolderShown(_ family: BrowserHostTarget.Family) -> String? {
        extensionFolder.map { layout.display($0 + (family == .firefox ? "/firefox" : "/chromium")) }
    }

    /// Whether the Debian package's copy of the extension for `path` is in place.
    func packaged(_ path: String) -> Bool {
        FileStatus.at(systemRoot + path + "/manifest.json")?.isRegularFile == true
    }

    // MARK: - Reading

    /// A file that could not be used, and why, in words without advice.
    struct Unreadable: Error {
        var path: String
        var reason: String
    }

    /// The JSON object in `path`; nil when there is no file.
    func readJSON(_ path: String, limit: Int) throws -> JSONValue? {
        guard let data = try read(path, limit: limit) else { return nil }
        let value: JSONValue
        do {
            value = try JSONValue.parse(data)
        } catch {
            throw Unreadable(path: path, reason: "\(error)")
        }
        guard value.object != nil else { throw Unreadable(path: path, reason: "it holds no JSON object") }
        return value
    }

    /// The bytes of `path`; nil when there is no file.
    func read(_ path: String, limit: Int) throws -> Data? {
        do {
            return try BoundedFile.readIfPresent(path, limit: limit)
        } catch let error as FileReadError {
            let reason: String
            switch error {
            case .missing: return nil
            case .notRegular(let kind): reason = "it is \(kind), not a file"
            case .tooLarge(let limit): reason = "it is larger than \(BoundedFile.describe(limit))"
            case .failed(let code): reason = Errno(rawValue: code).description.lowercased()
            }
            throw Unreadable(path: path, reason: reason)
        }
    }

    // MARK: - Findings

    /// What one profile says, as one finding. `privateWindowsUnknown` names the file that
    /// would have said whether private windows are allowed, when it could not be read.
    func finding(for state: ExtensionInProfile, profile: String, in root: Root, privateWindowsUnknown: Unreadable? = nil,
                 absent: Doctor.Finding) -> Doctor.Finding {
        let browser = root.browser
        let inProfile = "in profile \(profile)"
        let notPaused = ": sites open there without a pause"
        let privateFix = "\(browser.extensionsPage) → miga → \(browser.privateWindowSwitch)"
        switch state.state {
        case .absent:
            return absent
        case .turnedOff:
            return .init(status: .problem, subject: root.subject, message: "miga's extension is turned off \(inProfile)\(notPaused)",
                         fix: "\(browser.extensionsPage) → miga → turn it on")
        case .refusedByBrowser:
            return .init(status: .problem, subject: root.subject,
                         message: "\(browser.name) turned miga's extension off \(inProfile) (it runs no unsigned extension, or is older than 128)\(notPaused)",
                         fix: "in Firefox ESR, set xpinstall.signatures.required to false in about:config and restart it; otherwise \(firefoxTemporaryLoad(browser))")
        case .notRunning:
            return .init(status: .problem, subject: root.subject, message: "miga's extension is installed \(inProfile) but not running\(notPaused)",
                         fix: "restart \(browser.name); if it stays off, \(browser.extensionsPage) → miga → turn it on")
        case .on:
            break
        }
        if let unknown = privateWindowsUnknown {
            return .init(status: .note, subject: root.subject,
                         message: "miga's extension is on \(inProfile), but \(layout.display(unknown.path)) could not be read (\(unknown.reason)) to tell whether private windows are allowed",
                         fix: "if you use private windows: \(privateFix)")
        }
        let on = "miga's extension is on \(inProfile) (private windows: \(state.privateWindows ? "allowed" : "not allowed"))"
        if state.temporary {
            let lasting = lastingFirefoxInstall(root)
            return .init(status: .note, subject: root.subject,
                         message: on + ", as a temporary add-on: \(lasting.consequence)",
                         fix: lasting.fix + (state.privateWindows ? "" : "; for private windows: \(privateFix)"))
        }
        if !state.privateWindows {
            return .init(status: .note, subject: root.subject, message: on + ": sites opened in a private window there open without a pause",
                         fix: privateFix)
        }
        return .init(status: .ok, subject: root.subject, message: on)
    }

    /// A profile whose file could not be read.
    func unreadable(_ file: Unreadable, profile: String, in root: Root) -> Doctor.Finding {
        .init(status: .note, subject: root.subject,
              message: "could not read \(layout.display(file.path)) (\(file.reason)), so miga cannot tell whether its extension is on in profile \(profile)",
              fix: "look in \(root.browser.extensionsPage) in that profile")
    }

    /// Loading the extension from the checkout or `make install`'s folder, for the session.
    func firefoxTemporaryLoad(_ browser: BrowserHostTarget) -> String {
        let manifest = extensionFolderShown(.firefox).map { $0 + "/manifest.json" } ?? "firefox/manifest.json in miga's browser folder"
        return "load it from about:debugging#/runtime/this-firefox → Load Temporary Add-on… → \(manifest) (a temporary add-on goes when \(browser.name) quits)"
    }

    /// The one thing that keeps the extension in a Firefox profile past a restart, and what
    /// happens when Firefox quits without it.
    func lastingFirefoxInstall(_ root: Root) -> (consequence: String, fix: String) {
        let systemFolder = FilePath.parent(of: BrowserExtension.packagedForFirefox)
        let name = root.browser.name
        if root.build == nil, name == "Firefox", packaged(BrowserExtension.packagedForFirefox) {
            return ("when Firefox quits, the package's copy in \(systemFolder) takes its place", "nothing needed")
        }
        let gone = "it goes when \(name) quits, and sites open there without a pause after that"
        let again = "load it again from about:debugging after each start of \(name)"
        if root.build == nil, name == "Firefox", hasFirefoxESR {
            return (gone, "install the package `miga`, which puts the extension in \(systemFolder) for Firefox ESR; until then \(again)")
        }
        return (gone, again)
    }
}
