import FoundationEssentials
import JSON

/// The profiles of Chromium and the browsers built on it (`Default`, `Profile N`, and those
/// `Local State` names), and in each whether miga's extension is there, on, and allowed in
/// Incognito (`extensions.settings.ID` in `Preferences` or `Secure Preferences`).
struct ChromiumProfiles {
    var check: BrowserProfileCheck
    var root: BrowserProfileCheck.Root

    struct Profile: Equatable {
        /// The folder's name: `Default`, `Profile 1`.
        var folder: String
        /// The name the person gave it (`Local State`), when there is one.
        var name: String?

        var shown: String { name.map { $0 == folder ? folder : "\(folder) (\($0))" } ?? folder }
    }

    func findings() -> [Doctor.Finding] {
        let (profiles, more) = list()
        var findings = profiles.map(finding(for:))
        if more {
            findings.append(.init(status: .note, subject: root.subject,
                                  message: "only the first \(BrowserProfileCheck.profileLimit) profiles in \(check.layout.display(root.path)) were checked",
                                  fix: "look in \(root.browser.extensionsPage) in the others"))
        }
        return findings
    }

    /// `Default` and `Profile N` as found, with those `Local State` lists (which may name
    /// others); without a readable `Local State`, the folders alone. Whether there were more
    /// than the limit.
    func list() -> (profiles: [Profile], more: Bool) {
        let limit = BrowserProfileCheck.profileLimit
        var names: [String: String] = [:]
        var folders: Set<String> = []
        if let localState = try? check.readJSON(root.path + "/Local State", limit: BrowserProfileCheck.extensionsJSONLimit) {
            for (folder, name) in ChromiumPreferences.profiles(localState: localState, limit: limit + 1) {
                folders.insert(folder)
                if let name { names[folder] = name }
            }
        }
        for folder in check.files.directoryNames(in: root.path, limit: limit + 1, where: Self.isUsualProfileFolder) {
            folders.insert(folder)
        }
        let profiles = folders.filter { FileStatus.at(root.path + "/" + $0)?.isDirectory == true }
            .sorted(by: Self.order)
            .map { Profile(folder: $0, name: names[$0]) }
        return (Array(profiles.prefix(limit)), profiles.count > limit)
    }

    /// `Default` or `Profile N`: the folders Chromium makes for its profiles.
    static func isUsualProfileFolder(_ name: String) -> Bool {
        if name == "Default" { return true }
        guard name.hasPrefix("Profile ") else { return false }
        let number = name.dropFirst("Profile ".count)
        return !number.isEmpty && number.count <= 9 && number.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// `Default`, then `Profile N` by number, then the rest by name.
    static func order(_ a: String, _ b: String) -> Bool {
        func key(_ name: String) -> (Int, Int, String) {
            if name == "Default" { return (0, 0, name) }
            if isUsualProfileFolder(name) { return (1, Int(name.dropFirst("Profile ".count)) ?? 0, name) }
            return (2, 0, name)
        }
        return key(a) < key(b)
    }

    func finding(for profile: Profile) -> Doctor.Finding {
        let (settings, problem) = extensionSettings(of: profile)
        if settings == nil, let problem {
            return check.unreadable(problem, profile: profile.shown, in: root)
        }
        return check.finding(for: ChromiumPreferences.state(settings: settings), profile: profile.shown, in: root, absent: absent(profile))
    }

    /// The extension's state in each profile that could be read.
    func states() -> [ExtensionInProfile.State] {
        list().profiles.compactMap { profile in
            let (settings, problem) = extensionSettings(of: profile)
            return settings == nil && problem != nil ? nil : ChromiumPreferences.state(settings: settings).state
        }
    }

    /// miga's extension's settings in a profile, and the first file that could not be read.
    func extensionSettings(of profile: Profile) -> ([String: JSONValue]?, BrowserProfileCheck.Unreadable?) {
        let folder = root.path + "/" + profile.folder
        // The extension's settings may be in either file; Secure Preferences' are the ones
        // Chromium checks, so they win where both have a field.
        var settings: [String: JSONValue]?
        var problem: BrowserProfileCheck.Unreadable?
        for file in ["Preferences", "Secure Preferences"] {
            do {
                if let preferences = try check.readJSON(folder + "/" + file, limit: BrowserProfileCheck.preferencesLimit),
                   let found = ChromiumPreferences.settings(preferences, id: BrowserExtension.chromiumID) {
                    settings = (settings ?? [:]).merging(found) { $1 }
                }
            } catch let unreadable as BrowserProfileCheck.Unreadable {
                problem = problem ?? unreadable
            } catch {}
        }
        return (settings, problem)
    }

    /// Not in the profile: Debian's Chromium loads the package's copy at its next start;
    /// elsewhere it is loaded unpacked.
    private func absent(_ profile: Profile) -> Doctor.Finding {
        let browser = root.browser
        let systemFolder = FilePath.parent(of: BrowserExtension.packagedForChromium)
        if root.build == nil, browser.name == "Chromium", check.packaged(BrowserExtension.packagedForChromium) {
            return .init(status: .note, subject: root.subject,
                         message: "miga's extension is not seen in profile \(profile.shown) yet: Chromium loads it from \(systemFolder) when it starts",
                         fix: "restart Chromium, then run `miga doctor` again")
        }
        return .init(status: .problem, subject: root.subject,
                     message: "miga's extension is not installed in profile \(profile.shown): sites open there without a pause",
                     fix: "\(browser.extensionsPage) → Developer mode → Load unpacked → \(check.extensionFolderShown(.chromium) ?? "the chromium folder of miga's browser folder")")
    }
}
