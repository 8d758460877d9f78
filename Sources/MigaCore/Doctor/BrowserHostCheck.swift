import FoundationEssentials
import JSON

/// `miga doctor`'s look at each browser: is the host manifest there, does it name this miga,
/// and does it let in miga's extension (and only it)?
struct BrowserHostCheck {
    var installer: Installer

    func findings() -> [Doctor.Finding] {
        let layout = installer.layout
        let present = installer.presentBrowsers
        var findings: [Doctor.Finding] = []
        for browser in BrowserHostTarget.all {
            let subject = "browser \(browser.name)"
            if let folder = browser.sandboxedInstall(in: layout, exists: AtomicFile.exists) {
                findings.append(.init(status: .note, subject: subject,
                                      message: "installed as a Flatpak or Snap (\(layout.display(folder))); its sandbox cannot start programs outside it, so the miga extension cannot reach miga there and sites open in it without a pause",
                                      fix: "use your distribution's package of \(browser.name) for sites to be paused"))
            }
            let path = browser.manifestPath(in: layout)
            guard present.contains(browser) || installer.manifest.file(at: path) != nil else { continue }
            if let problem = problem(with: browser, at: path) {
                findings.append(.init(status: .problem, subject: subject, message: problem, fix: "miga install"))
            } else {
                findings.append(.init(status: .ok, subject: subject, message: "\(layout.display(path)) lets the miga extension reach miga"))
            }
        }
        return findings
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
        let miga = LinuxSystem.realPath(installer.context.executablePath) ?? installer.context.executablePath
        guard LinuxSystem.realPath(host) == miga else {
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
