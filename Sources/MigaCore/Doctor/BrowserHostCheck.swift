import FoundationEssentials
import JSON

/// `miga doctor`'s look at each browser: is the host manifest there, does it name this miga,
/// and does it let in miga's extension (and only it)? Then, per profile, is the extension there
/// and on (`BrowserProfileCheck`); and for a Flatpak or Snap build, can it reach miga at all?
struct BrowserHostCheck {
    var installer: Installer
    /// Put before the system folders the Debian package puts the extension in: "" but in tests.
    var systemRoot = ""

    func findings() -> [Doctor.Finding] {
        let layout = installer.layout
        let present = installer.presentBrowsers
        let profiles = BrowserProfileCheck(layout: layout, extensionFolder: installer.extensionFolder,
                                           hasFirefoxESR: installer.resolver.lookUp("firefox-esr") != nil, files: installer.context.files,
                                           systemRoot: systemRoot)
        var findings: [Doctor.Finding] = []
        for browser in BrowserHostTarget.all {
            let subject = "browser \(browser.name)"
            let path = browser.manifestPath(in: layout)
            if present.contains(browser) || installer.manifest.file(at: path) != nil {
                if let problem = problem(with: browser, at: path) {
                    findings.append(.init(status: .problem, subject: subject, message: problem, fix: "miga install"))
                } else {
                    findings.append(.init(status: .ok, subject: subject, message: "\(layout.display(path)) lets the miga extension reach miga"))
                }
                findings += profiles.findings(in: .init(browser: browser, path: browser.profilesPath(in: layout), subject: subject))
            }
            for build in browser.sandboxedInstalls(in: layout, exists: AtomicFile.exists) {
                let subject = "\(subject) (\(build.kind.rawValue))"
                findings.append(sandboxFinding(browser, build, subject: subject))
                if build.reach != .never, let folder = build.profiles {
                    findings += profiles.findings(in: .init(browser: browser, build: build, path: layout.home + "/" + folder, subject: subject))
                }
            }
        }
        return findings
    }

    /// Whether a Flatpak or Snap build can reach miga: through the WebExtensions portal
    /// (Snap Firefox: it asks once; a Flatpak: once permitted), or not at all.
    private func sandboxFinding(_ browser: BrowserHostTarget, _ build: SandboxedBrowser, subject: String) -> Doctor.Finding {
        let folder = installer.layout.display(installer.layout.home + "/" + build.folder)
        switch build.reach {
        case .portal:
            return .init(status: .ok, subject: subject,
                         message: "installed as a \(build.kind.rawValue) (\(folder)); reaches miga through the WebExtensions portal (it asks once)")
        case .portalOncePermitted:
            return .init(status: .note, subject: subject,
                         message: "installed as a \(build.kind.rawValue) (\(folder)); it reaches miga only through the WebExtensions portal, where the desktop has one and once allowed: without that the miga extension cannot reach miga there and sites open in it without a pause",
                         fix: Installer.portalPermission(build))
        case .never:
            return .init(status: .note, subject: subject,
                         message: "installed as a \(build.kind.rawValue) (\(folder)); its sandbox cannot start programs outside it and has no portal for the miga extension to reach miga through, so sites open in it without a pause",
                         fix: "use your distribution's package of \(browser.name) for sites to be paused")
        }
    }

    private func problem(with browser: BrowserHostTarget, at path: String) -> String? {
        let layout = installer.layout
        guard let data = try? BoundedFile.readIfPresent(path, limit: 64 * 1024) else {
            return "no host manifest at \(layout.display(path)), so the miga extension cannot reach miga and sites open without a pause"
        }
        guard let object = (try? JSONValue.parse(data))?.object else {
            return "\(layout.display(path)) is not valid JSON"
        }
        guard object["name"]?.string == BrowserExtension.hostName, object["type"]?.string == "stdio" else {
            return "\(layout.display(path)) does not describe the host \(BrowserExtension.hostName)"
        }
        guard let host = object["path"]?.string, host == installer.hostPath else {
            return "\(layout.display(path)) names \(object["path"]?.string.map(layout.display) ?? "no program"), not \(layout.display(installer.hostPath))"
        }
        let miga = installer.context.files.realPath(installer.context.executablePath) ?? installer.context.executablePath
        guard installer.context.files.realPath(host) == miga else {
            return "\(layout.display(host)) does not lead to this miga (\(miga))"
        }
        let allowed: [String]
        let expected: String
        switch browser.family {
        case .firefox:
            allowed = Self.strings(object["allowed_extensions"])
            expected = BrowserExtension.geckoID
        case .chromium:
            allowed = Self.strings(object["allowed_origins"])
            expected = "chrome-extension://\(BrowserExtension.chromiumID)/"
        }
        guard allowed == [expected] else {
            return "\(layout.display(path)) allows \(allowed.isEmpty ? "no extension" : allowed.joined(separator: ", ")) instead of miga's (\(expected))"
        }
        return nil
    }

    /// An array of strings; [] for anything else (as a cast to [String] gave).
    private static func strings(_ value: JSONValue?) -> [String] {
        guard case .array(let values)? = value else { return [] }
        let strings = values.compactMap(\.string)
        return strings.count == values.count ? strings : []
    }
}
