import FoundationEssentials
import JSON

/// Firefox's and LibreWolf's profiles (`profiles.ini`), and in each whether miga's extension is
/// there (`extensions.json`) and may run in private windows (`extension-preferences.json`).
struct FirefoxProfiles {
    var check: BrowserProfileCheck
    var root: BrowserProfileCheck.Root

    struct Profile: Equatable {
        var name: String
        var path: String
    }

    func findings() -> [Doctor.Finding] {
        var findings: [Doctor.Finding] = []
        let (profiles, more, iniProblem) = list()
        if let iniProblem {
            findings.append(.init(status: .note, subject: root.subject,
                                  message: "could not read \(check.layout.display(iniProblem.path)) (\(iniProblem.reason)), so its profiles were found by their folders",
                                  fix: "nothing needed unless a profile of \(root.browser.name) is missing below; \(root.browser.name) writes that file itself"))
        }
        for profile in profiles {
            findings.append(finding(for: profile))
        }
        if more {
            findings.append(.init(status: .note, subject: root.subject,
                                  message: "only the first \(BrowserProfileCheck.profileLimit) profiles in \(check.layout.display(root.path)) were checked",
                                  fix: "look in \(root.browser.extensionsPage) in the others"))
        }
        return findings
    }

    /// The profiles `profiles.ini` names that exist, else (no file, or one that cannot be
    /// read or names none) the folders that look like profiles; whether there were more than
    /// the limit; and why `profiles.ini` could not be read.
    func list() -> (profiles: [Profile], more: Bool, iniProblem: BrowserProfileCheck.Unreadable?) {
        let limit = BrowserProfileCheck.profileLimit
        let ini = root.path + "/profiles.ini"
        var iniProblem: BrowserProfileCheck.Unreadable?
        var profiles: [Profile] = []
        do {
            if let data = try check.read(ini, limit: BoundedFile.configLimit) {
                for entry in FirefoxProfilesINI.entries(String(decoding: data, as: UTF8.self), limit: limit + 1) {
                    let path = entry.isRelative ? root.path + "/" + entry.path : entry.path
                    // A profile listed but never created (or since deleted) holds nothing to check.
                    guard check.files.pathExists(path), !profiles.contains(where: { $0.path == path }) else { continue }
                    profiles.append(Profile(name: entry.name, path: path))
                }
            }
        } catch let problem as BrowserProfileCheck.Unreadable {
            iniProblem = problem
        } catch {}
        if profiles.isEmpty {
            // Without a usable profiles.ini: the folders Firefox has used as profiles.
            let names = check.files.directoryNames(in: root.path, limit: 4096) { $0 != "." && $0 != ".." }.sorted()
            for name in names where looksLikeProfile(root.path + "/" + name) {
                profiles.append(Profile(name: name, path: root.path + "/" + name))
            }
        }
        return (Array(profiles.prefix(limit)), profiles.count > limit, iniProblem)
    }

    private func looksLikeProfile(_ folder: String) -> Bool {
        FileStatus.at(folder)?.isDirectory == true
            && ["prefs.js", "extensions.json", "times.json"].contains { check.files.pathExists(folder + "/" + $0) }
    }

    func finding(for profile: Profile) -> Doctor.Finding {
        guard FileStatus.at(profile.path)?.isDirectory == true else {
            return check.unreadable(.init(path: profile.path, reason: "it is not a folder"), profile: profile.name, in: root)
        }
        let state: ExtensionInProfile
        var privateWindowsUnknown: BrowserProfileCheck.Unreadable?
        do {
            state = try extensionState(in: profile.path, privateWindowsUnknown: &privateWindowsUnknown)
        } catch let problem as BrowserProfileCheck.Unreadable {
            return check.unreadable(problem, profile: profile.name, in: root)
        } catch {
            return check.unreadable(.init(path: profile.path, reason: "\(error)"), profile: profile.name, in: root)
        }
        return check.finding(for: state, profile: profile.name, in: root, privateWindowsUnknown: privateWindowsUnknown,
                             absent: absent(profile))
    }

    /// The extension's state in each profile that could be read.
    func states() -> [ExtensionInProfile.State] {
        list().profiles.compactMap { profile in
            var unknown: BrowserProfileCheck.Unreadable?
            return try? extensionState(in: profile.path, privateWindowsUnknown: &unknown).state
        }
    }

    /// What `extensions.json` says, with `extension-preferences.json`'s word on private
    /// windows (absent: not allowed; unreadable: `privateWindowsUnknown`).
    func extensionState(in folder: String, privateWindowsUnknown: inout BrowserProfileCheck.Unreadable?) throws -> ExtensionInProfile {
        let addons = try check.readJSON(folder + "/extensions.json", limit: BrowserProfileCheck.extensionsJSONLimit)
        var state = addons.map { FirefoxAddons.state(extensionsJSON: $0, id: BrowserExtension.geckoID) } ?? ExtensionInProfile(state: .absent)
        guard state.state == .on else { return state }
        do {
            if let preferences = try check.readJSON(folder + "/extension-preferences.json", limit: BrowserProfileCheck.smallFileLimit) {
                state.privateWindows = FirefoxAddons.privateWindowsAllowed(extensionPreferences: preferences, id: BrowserExtension.geckoID)
            }
        } catch let problem as BrowserProfileCheck.Unreadable {
            privateWindowsUnknown = problem
        }
        return state
    }

    /// Not in the profile: the one way to put it there that fits this Firefox.
    private func absent(_ profile: Profile) -> Doctor.Finding {
        let browser = root.browser
        let message = "miga's extension is not installed in profile \(profile.name): sites open there without a pause"
        let load = check.firefoxTemporaryLoad(browser)
        let systemFolder = FilePath.parent(of: BrowserExtension.packagedForFirefox)
        let fix: String
        if root.build == nil, browser.name == "Firefox", check.packaged(BrowserExtension.packagedForFirefox) {
            fix = "restart Firefox: it loads miga's extension from \(systemFolder) at start; if about:addons still does not list it, \(load)"
        } else if root.build == nil, browser.name == "Firefox", check.hasFirefoxESR {
            fix = "install the package `miga`, which puts the extension in \(systemFolder) for Firefox ESR; or \(load)"
        } else {
            fix = load
        }
        return .init(status: .problem, subject: root.subject, message: message, fix: fix)
    }
}
