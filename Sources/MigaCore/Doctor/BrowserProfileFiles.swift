import FoundationEssentials
#if canImport(JSON)
import JSON
#endif

/// What doctor reads in a browser's profiles, from files the browser wrote (or anything put in
/// their place): pure functions of their text, each a bounded walk over it that never traps.

/// What one profile says of miga's extension.
struct ExtensionInProfile: Equatable {
    enum State: Equatable {
        case absent
        case on
        /// Turned off by the person (Firefox `userDisabled`, Chromium `state` 0 or
        /// `disable_reasons`).
        case turnedOff
        /// Turned off by Firefox itself (`appDisabled`: unsigned, or a Firefox too old).
        case refusedByBrowser
        /// Present but not running, for no reason the file gives.
        case notRunning
    }

    var state: State
    /// Firefox's `app-temporary` location: gone when Firefox quits.
    var temporary = false
    /// Allowed in private windows.
    var privateWindows = false
}

/// Firefox's `profiles.ini`: `[ProfileN]` sections with `Name=`, `Path=` and `IsRelative=`.
enum FirefoxProfilesINI {
    struct Entry: Equatable {
        var name: String
        var path: String
        var isRelative: Bool
    }

    /// The profiles in the order the file lists them, at most `limit`; lines that are not
    /// `key=value` or a `[section]` are passed over, as Firefox does.
    static func entries(_ text: String, limit: Int) -> [Entry] {
        var entries: [Entry] = []
        var section: String?
        var fields: [String: String] = [:]
        func finish() {
            guard let section, section.hasPrefix("Profile"), entries.count < limit,
                  let path = fields["Path"], !path.isEmpty else { return }
            let name = fields["Name"].flatMap { $0.isEmpty ? nil : $0 } ?? path
            // Firefox writes IsRelative=1 for a profile in its own folder; a path that starts
            // at the root is absolute whatever it says.
            entries.append(Entry(name: name, path: path, isRelative: fields["IsRelative"] != "0" && !path.hasPrefix("/")))
        }
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimming(.whitespaces)
            if line.hasPrefix("[") {
                finish()
                guard entries.count < limit else { break }
                section = line.hasSuffix("]") ? String(line.dropFirst().dropLast()) : nil
                fields = [:]
            } else if let equals = line.firstIndex(of: "="), section != nil {
                fields[String(line[..<equals]).trimming(.whitespaces)] =
                    String(line[line.index(after: equals)...]).trimming(.whitespaces)
            }
        }
        finish()
        return entries
    }
}

/// Firefox's `extensions.json` (`addons`: one object per add-on) and
/// `extension-preferences.json` (`{ID: {"permissions": [...]}}`).
enum FirefoxAddons {
    /// The permission Firefox records for an extension allowed in private windows.
    static let privateBrowsingPermission = "internal:privateBrowsingAllowed"

    static func state(extensionsJSON: JSONValue, id: String) -> ExtensionInProfile {
        guard case .array(let addons)? = extensionsJSON["addons"],
              let addon = addons.first(where: { $0["id"]?.string == id }) else { return ExtensionInProfile(state: .absent) }
        let state: ExtensionInProfile.State
        if addon["userDisabled"] == .bool(true) {
            state = .turnedOff
        } else if addon["appDisabled"] == .bool(true) {
            state = .refusedByBrowser
        } else if addon["active"] == .bool(true) {
            state = .on
        } else {
            state = .notRunning
        }
        return ExtensionInProfile(state: state, temporary: addon["location"]?.string == "app-temporary")
    }

    static func privateWindowsAllowed(extensionPreferences: JSONValue, id: String) -> Bool {
        guard case .array(let permissions)? = extensionPreferences[id]?["permissions"] else { return false }
        return permissions.contains(.string(privateBrowsingPermission))
    }
}

/// Chromium's `Preferences` and `Secure Preferences` (the extension's settings at
/// `extensions.settings.ID`, in either), and `Local State` (the profiles at
/// `profile.info_cache`).
enum ChromiumPreferences {
    /// The extension's settings in one file, nil when it holds none.
    static func settings(_ preferences: JSONValue, id: String) -> [String: JSONValue]? {
        preferences["extensions"]?["settings"]?[id]?.object
    }

    /// The extension's state from its settings merged from both files; nil settings: absent.
    static func state(settings: [String: JSONValue]?) -> ExtensionInProfile {
        guard let settings else { return ExtensionInProfile(state: .absent) }
        let disabled: Bool
        switch settings["disable_reasons"] {
        case .number?: disabled = settings["disable_reasons"]?.integer != 0
        case .array(let reasons)?: disabled = !reasons.isEmpty
        default: disabled = false
        }
        let off = disabled || settings["state"]?.integer == 0
        return ExtensionInProfile(state: off ? .turnedOff : .on, privateWindows: settings["incognito"] == .bool(true))
    }

    /// Profile folders and the names the person gave them, from `Local State`; a key that is
    /// not a plain folder name is passed over.
    static func profiles(localState: JSONValue, limit: Int) -> [(folder: String, name: String?)] {
        guard let cache = localState["profile"]?["info_cache"]?.object else { return [] }
        return cache.keys.sorted().filter(isFolderName).prefix(limit).map { ($0, cache[$0]?["name"]?.string) }
    }

    static func isFolderName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && name.utf8.count <= 255
            && !name.unicodeScalars.contains { $0.value < 0x20 }
    }
}
