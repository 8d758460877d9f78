import Foundation
import XCTest
@testable import MigaCore
import JSON
import MigaTestSupport

/// `miga doctor` per browser and profile: whether miga's extension is installed, on, and
/// allowed in private windows there, read from the files Firefox 128 and Chromium write, in a
/// temporary home with every kind of profile folder (and hostile files in some of them).
final class DoctorBrowserProfileTests: XCTestCase {
    var folder: TemporaryDirectory!
    var home: String { folder.path + "/home" }
    /// Stands for `/` when the check looks for the Debian package's copies of the extension.
    var systemRoot: String { folder.path + "/system" }

    override func setUpWithError() throws {
        folder = try TemporaryDirectory()
    }

    // MARK: - Fixtures

    /// One add-on as Firefox 128 writes it in extensions.json.
    func addon(_ id: String, active: Bool = true, userDisabled: Bool = false, appDisabled: Bool = false,
               location: String = "app-profile", path: String = "/tmp/x.xpi") -> String {
        """
        {"id":"\(id)","syncGUID":"{6a1d3c2e-3b7c-4a55-9d5e-0c1b2a3f4e5d}","version":"0.1.0","type":"extension",\
        "loader":null,"updateURL":null,"installOrigins":null,"manifestVersion":3,"optionsURL":null,"optionsType":null,\
        "optionsBrowserStyle":true,"aboutURL":null,"defaultLocale":{"name":"miga — a mindful pause","description":"A calm, short pause",\
        "creator":null,"developers":null,"translators":null,"contributors":null},"visible":true,"active":\(active),\
        "userDisabled":\(userDisabled),"appDisabled":\(appDisabled),"embedderDisabled":false,"installDate":1732400000000,\
        "updateDate":1732400000000,"applyBackgroundUpdates":1,"path":"\(path)","skinnable":false,"sourceURI":null,\
        "releaseNotesURI":null,"softDisabled":false,"foreignInstall":false,"strictCompatibility":true,"locales":[],\
        "targetApplications":[{"id":"toolkit@mozilla.org","minVersion":"128.0","maxVersion":null}],"targetPlatforms":[],\
        "signedState":-1,"signedTypes":[],"seen":true,"dependencies":[],"incognito":"spanning",\
        "userPermissions":{"permissions":["declarativeNetRequestWithHostAccess","nativeMessaging","webNavigation","alarms"],\
        "origins":["http://*/*","https://*/*"],"data_collection":[]},"optionalPermissions":{"permissions":[],"origins":[]},\
        "requestedPermissions":{"permissions":["declarativeNetRequestWithHostAccess","nativeMessaging","webNavigation","alarms"],\
        "origins":["http://*/*","https://*/*"]},"icons":{},"iconURL":null,"blocklistAttentionDismissed":false,"blocklistState":0,\
        "blocklistURL":null,"startupData":null,"hidden":false,"installTelemetryInfo":{"source":"about:debugging","method":"installFromFile"},\
        "recommendationState":null,"rootURI":"jar:file://\(path)!/","location":"\(location)"}
        """
    }

    /// extensions.json with Firefox's built-in theme and, when given, miga's entry.
    func extensionsJSON(_ miga: String?) -> String {
        let theme = addon("default-theme@mozilla.org", location: "app-builtin", path: "resource://builtin-themes/system/")
        return #"{"schemaVersion":36,"addons":["# + ([theme] + (miga.map { [$0] } ?? [])).joined(separator: ",") + "]}"
    }

    func privateAllowed(_ allowed: Bool) -> String {
        let permissions = allowed ? #""internal:privateBrowsingAllowed""# : ""
        return #"{"miga@miga.app":{"permissions":["# + permissions + #"],"origins":[]},"other@example.org":{"permissions":["internal:privateBrowsingAllowed"],"origins":[]}}"#
    }

    /// A Firefox profile folder, as Firefox leaves it after a run.
    func firefoxProfile(_ path: String, extensions: String?, preferences: String? = nil) throws {
        try write(path + "/prefs.js", "// Mozilla User Preferences\nuser_pref(\"browser.startup.page\", 3);\n")
        try write(path + "/times.json", #"{"created":1732400000000,"firstUse":null}"#)
        if let extensions { try write(path + "/extensions.json", extensions) }
        if let preferences { try write(path + "/extension-preferences.json", preferences) }
    }

    /// Chromium's settings for miga's extension inside a Preferences-shaped file.
    func preferences(miga: String?, other: Bool = true) -> String {
        var settings: [String] = []
        if other { settings.append(#""mhjfbmdgcfjbbpaeojofohoefgiehjai":{"active_permissions":{"api":[]},"location":5,"state":1}"#) }
        if let miga { settings.append("\"\(BrowserExtension.chromiumID)\":\(miga)") }
        return #"{"browser":{"window_placement":{"bottom":1000}},"extensions":{"alerts":{"initialized":true},"settings":{"# + settings.joined(separator: ",")
            + #"}},"profile":{"name":"Person 1","exit_type":"Normal"},"protection":{"macs":{"extensions":{"settings":{}}}}}"#
    }

    func write(_ path: String, _ text: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    func makeFIFO(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(path, 0o644), 0)
    }

    /// The check as doctor runs it, with `bin/` (fake browsers) alone on PATH.
    func findings(commands: [String], packaged: Bool = false) throws -> [Doctor.Finding] {
        for command in commands { _ = try folder.write("#!/bin/sh\n", to: "bin/\(command)", mode: 0o755) }
        let miga = try folder.write("#!/bin/sh\n", to: "opt/miga/bin/miga", mode: 0o755)
        let context = try TestContext.make(root: folder, environment: ["HOME": home, "PATH": folder.path + "/bin", "XDG_DATA_DIRS": folder.path + "/share"],
                                           executablePath: miga)
        if packaged {
            try write(systemRoot + BrowserExtension.packagedForFirefox + "/manifest.json", "{}")
            try write(systemRoot + BrowserExtension.packagedForChromium + "/manifest.json", "{}")
        }
        return BrowserHostCheck(installer: try Installer(context: context), systemRoot: systemRoot).findings()
    }

    /// One expected finding: its status and subject exactly, parts of its message and fix.
    struct Expected {
        var status: Doctor.Finding.Status
        var subject: String
        var message: String
        var fix: String?

        init(_ status: Doctor.Finding.Status, _ subject: String, _ message: String, fix: String? = nil) {
            (self.status, self.subject, self.message, self.fix) = (status, subject, message, fix)
        }
    }

    func assertFindings(_ found: [Doctor.Finding], _ expected: [Expected], file: StaticString = #filePath, line: UInt = #line) {
        let shown = found.map { "\($0.status) \($0.subject): \($0.message)" + ($0.fix.map { "\n    fix: \($0)" } ?? "") }.joined(separator: "\n")
        XCTAssertEqual(found.count, expected.count, shown, file: file, line: line)
        for (finding, expected) in zip(found, expected) {
            XCTAssertEqual(finding.status, expected.status, "\(finding)", file: file, line: line)
            XCTAssertEqual(finding.subject, expected.subject, "\(finding)", file: file, line: line)
            XCTAssertTrue(finding.message.contains(expected.message), "«\(expected.message)» not in «\(finding.message)»", file: file, line: line)
            if let fix = expected.fix {
                XCTAssertTrue(finding.fix?.contains(fix) == true, "«\(fix)» not in «\(finding.fix ?? "no fix")»", file: file, line: line)
            }
            if finding.status != .ok { XCTAssertNotNil(finding.fix, "\(finding)", file: file, line: line) }
        }
    }

    // MARK: - Firefox

    /// profiles.ini with relative and absolute paths, a stale entry, and the profiles as Firefox
    /// 128 leaves them: on (private windows allowed), turned off, temporary, absent, refused as
    /// unsigned, and hostile files where extensions.json and extension-preferences.json go.
    func makeFirefoxProfiles() throws {
        let firefox = home + "/.mozilla/firefox"
        let outside = folder.path + "/elsewhere/outside.profile"
        try write(firefox + "/profiles.ini", """
            [Install4F96D1932A9F858E]\r
            Default=abcd1234.default-release\r
            Locked=1\r
            \r
            [Profile8]\r
            Name=private-unknown\r
            IsRelative=1\r
            Path=pu.private-unknown\r
            \r
            [Profile7]
            Name=huge
            IsRelative=1
            Path=hg.huge

            [Profile6]
            Name=loop
            IsRelative=1
            Path=lp.loop

            [Profile5]
            Name=folder
            IsRelative=1
            Path=fd.folder

            [Profile4]
            Name=garbage
            IsRelative=1
            Path=gb.garbage

            [Profile3]
            Name=fifo
            IsRelative=1
            Path=ff.fifo

            [Profile9]
            Name=unsigned
            IsRelative=1
            Path=us.unsigned

            [Profile10]
            Name=deleted long ago
            IsRelative=1
            Path=gone.deleted

            [Profile2]
            Name=fresh
            IsRelative=1
            Path=fr.fresh

            [Profile1]
            Name=outside
            IsRelative=0
            Path=\(outside)

            [Profile0]
            Name=work
            IsRelative=1
            Path=w0rk.work

            [Profile11]
            Name=default-release
            IsRelative=1
            Path=abcd1234.default-release
            Default=1

            [General]
            StartWithLastProfile=1
            Version=2

            [BackgroundTasksProfiles]
            MozillaBackgroundTask-4F96D1932A9F858E-backgroundupdate=xyz.MozillaBackgroundTask
            """)
        try firefoxProfile(firefox + "/abcd1234.default-release", extensions: extensionsJSON(addon("miga@miga.app")), preferences: privateAllowed(true))
        try firefoxProfile(firefox + "/w0rk.work", extensions: extensionsJSON(addon("miga@miga.app", active: false, userDisabled: true)),
                           preferences: privateAllowed(true))
        try firefoxProfile(outside, extensions: extensionsJSON(addon("miga@miga.app", location: "app-temporary")), preferences: privateAllowed(false))
        try firefoxProfile(firefox + "/fr.fresh", extensions: extensionsJSON(nil))
        try firefoxProfile(firefox + "/us.unsigned", extensions: extensionsJSON(addon("miga@miga.app", active: false, appDisabled: true)))
        try firefoxProfile(firefox + "/ff.fifo", extensions: nil)
        try makeFIFO(firefox + "/ff.fifo/extensions.json")
        try firefoxProfile(firefox + "/gb.garbage", extensions: "{\"schemaVersion\":36,\"addons\":[{\"id\":\"miga@miga.app\",\u{0}\u{FFFD}")
        try firefoxProfile(firefox + "/fd.folder", extensions: nil)
        try FileManager.default.createDirectory(atPath: firefox + "/fd.folder/extensions.json", withIntermediateDirectories: true)
        try firefoxProfile(firefox + "/lp.loop", extensions: nil)
        try FileManager.default.createSymbolicLink(atPath: firefox + "/lp.loop/extensions.json", withDestinationPath: "extensions.json")
        try firefoxProfile(firefox + "/hg.huge", extensions: nil)
        XCTAssertTrue(FileManager.default.createFile(atPath: firefox + "/hg.huge/extensions.json", contents: nil))
        let huge = try XCTUnwrap(FileHandle(forWritingAtPath: firefox + "/hg.huge/extensions.json"))
        try huge.truncate(atOffset: 9 << 20) // sparse: no 9 MiB written
        try huge.close()
        try firefoxProfile(firefox + "/pu.private-unknown", extensions: extensionsJSON(addon("miga@miga.app")))
        try makeFIFO(firefox + "/pu.private-unknown/extension-preferences.json")
    }

    func testFirefoxProfilesEachSayWhetherSitesArePausedThere() throws {
        try makeFirefoxProfiles()
        let subject = "browser Firefox"
        let load = "about:debugging#/runtime/this-firefox → Load Temporary Add-on… → firefox/manifest.json in miga's browser folder (a temporary add-on goes when Firefox quits)"
        let package = "install the package `miga`, which puts the extension in /usr/share/mozilla/extensions/{ec8030f7-c20a-464f-9b0e-13a3a9e97384} for Firefox ESR"
        let expected: [Expected] = [
            Expected(.problem, subject, "no host manifest at ~/.mozilla/native-messaging-hosts/miga.gateway.json", fix: "miga install"),
            Expected(.note, subject, "miga's extension is on in profile private-unknown, but ~/.mozilla/firefox/pu.private-unknown/extension-preferences.json could not be read (it is a FIFO, not a file) to tell whether private windows are allowed",
                     fix: "about:addons → miga → Run in Private Windows → Allow"),
            Expected(.note, subject, "could not read ~/.mozilla/firefox/hg.huge/extensions.json (it is larger than 8 MiB), so miga cannot tell whether its extension is on in profile huge",
                     fix: "look in about:addons in that profile"),
            Expected(.note, subject, "could not read ~/.mozilla/firefox/lp.loop/extensions.json (too many levels of symbolic links)"),
            Expected(.note, subject, "could not read ~/.mozilla/firefox/fd.folder/extensions.json (it is a folder, not a file)"),
            Expected(.note, subject, "could not read ~/.mozilla/firefox/gb.garbage/extensions.json (not valid JSON"),
            Expected(.note, subject, "could not read ~/.mozilla/firefox/ff.fifo/extensions.json (it is a FIFO, not a file), so miga cannot tell whether its extension is on in profile fifo"),
            Expected(.problem, subject, "Firefox turned miga's extension off in profile unsigned (it runs no unsigned extension, or is older than 128): sites open there without a pause",
                     fix: "in Firefox ESR, set xpinstall.signatures.required to false in about:config and restart it; otherwise load it from about:debugging"),
            Expected(.problem, subject, "miga's extension is not installed in profile fresh: sites open there without a pause", fix: package + "; or load it from " + load),
            Expected(.note, subject, "miga's extension is on in profile outside (private windows: not allowed), as a temporary add-on: it goes when Firefox quits, and sites open there without a pause after that",
                     fix: package + "; until then load it again from about:debugging after each start of Firefox; for private windows: about:addons → miga → Run in Private Windows → Allow"),
            Expected(.problem, subject, "miga's extension is turned off in profile work: sites open there without a pause", fix: "about:addons → miga → turn it on"),
            Expected(.ok, subject, "miga's extension is on in profile default-release (private windows: allowed)"),
        ]
        assertFindings(try findings(commands: ["firefox-esr"]), expected)

        // With the Debian package's copy in place, Firefox loads it at its next start.
        let packaged = try findings(commands: ["firefox-esr"], packaged: true)
        let fresh = try XCTUnwrap(packaged.first { $0.message.contains("profile fresh") })
        XCTAssertEqual(fresh.fix, "restart Firefox: it loads miga's extension from /usr/share/mozilla/extensions/{ec8030f7-c20a-464f-9b0e-13a3a9e97384} at start; if about:addons still does not list it, load it from " + load)
        let outside = try XCTUnwrap(packaged.first { $0.message.contains("profile outside") })
        XCTAssertEqual(outside.status, .note)
        XCTAssertTrue(outside.message.hasSuffix("as a temporary add-on: when Firefox quits, the package's copy in /usr/share/mozilla/extensions/{ec8030f7-c20a-464f-9b0e-13a3a9e97384} takes its place"), outside.message)
        XCTAssertTrue(outside.fix?.hasPrefix("nothing needed; for private windows:") == true, outside.fix ?? "")
    }

    /// Without profiles.ini (or with one that cannot be read, or that is garbage), the
    /// folders Firefox has used as profiles are checked; one that cannot be read is a note.
    func testAMissingOrUnreadableProfilesINIFallsBackToTheProfileFolders() throws {
        // LibreWolf: profiles.ini is a FIFO.
        try makeFIFO(home + "/.librewolf/profiles.ini")
        try firefoxProfile(home + "/.librewolf/lw12.default-default", extensions: extensionsJSON(nil))
        try FileManager.default.createDirectory(atPath: home + "/.librewolf/native-messaging-hosts", withIntermediateDirectories: true)
        // Firefox: garbage where profiles.ini goes; the profile folder alone tells.
        try write(home + "/.mozilla/firefox/profiles.ini", "\u{1}\u{2}[[[==\n\u{0}Path\n[Profile0\nPath=../../../etc\n")
        try firefoxProfile(home + "/.mozilla/firefox/q1w2.default", extensions: extensionsJSON(addon("miga@miga.app", location: "app-system-share")),
                           preferences: privateAllowed(true))
        try FileManager.default.createDirectory(atPath: home + "/.mozilla/firefox/Crash Reports", withIntermediateDirectories: true)
        assertFindings(try findings(commands: []), [
            Expected(.problem, "browser Firefox", "no host manifest"),
            Expected(.ok, "browser Firefox", "miga's extension is on in profile q1w2.default (private windows: allowed)"),
            Expected(.problem, "browser LibreWolf", "no host manifest"),
            Expected(.note, "browser LibreWolf", "could not read ~/.librewolf/profiles.ini (it is a FIFO, not a file), so its profiles were found by their folders"),
            Expected(.problem, "browser LibreWolf", "miga's extension is not installed in profile lw12.default-default: sites open there without a pause",
                     fix: "load it from about:debugging#/runtime/this-firefox → Load Temporary Add-on… → firefox/manifest.json in miga's browser folder (a temporary add-on goes when LibreWolf quits)"),
        ])
    }

    // MARK: - Chromium and the browsers built on it

    func makeChromiumProfiles() throws {
        let chromium = home + "/.config/chromium"
        try write(chromium + "/Local State", #"""
            {"browser":{"enabled_labs_experiments":[]},"profile":{"info_cache":{"Default":{"name":"Person 1","is_using_default_name":true},
            "Profile 1":{"name":"Work"},"Profile 7":{"name":"Deleted"},"../../escape":{"name":"Evil"},"":{"name":"Empty"}},
            "last_used":"Default","profiles_order":["Default","Profile 1"]}}
            """#)
        // Default: on and allowed in Incognito, its settings split between the two files.
        try write(chromium + "/Default/Preferences", preferences(miga: #"{"active_permissions":{"api":["alarms","nativeMessaging"]},"location":4,"path":"/usr/share/miga/browser"}"#))
        try write(chromium + "/Default/Secure Preferences", #"{"extensions":{"settings":{"\#(BrowserExtension.chromiumID)":{"incognito":true,"state":1,"disable_reasons":0}}},"protection":{"macs":{}}}"#)
        // Profile 1: turned off (Chromium 134 writes the reasons as a list).
        try write(chromium + "/Profile 1/Preferences", preferences(miga: #"{"location":4,"disable_reasons":[1],"incognito":true}"#))
        // Profile 2 (not in Local State): never loaded.
        try write(chromium + "/Profile 2/Preferences", preferences(miga: nil))
        // Profile 3: Preferences is a FIFO, no Secure Preferences.
        try makeFIFO(chromium + "/Profile 3/Preferences")
        // Profile 4: garbage Preferences, but Secure Preferences has it: on, not in Incognito.
        try write(chromium + "/Profile 4/Preferences", "{\"extensions\": nul")
        try write(chromium + "/Profile 4/Secure Preferences", preferences(miga: #"{"location":4,"state":1}"#, other: false))
        // Profile 10: turned off the older way (state 0, reasons as a bitmask).
        try write(chromium + "/Profile 10/Preferences", preferences(miga: #"{"state":0,"disable_reasons":8192}"#))
        // Profile 5: Preferences is a folder.
        try FileManager.default.createDirectory(atPath: chromium + "/Profile 5/Preferences", withIntermediateDirectories: true)
        // Not profiles.
        try write(chromium + "/System Profile/Preferences", preferences(miga: nil))
        try write(chromium + "/Guest Profile/Preferences", preferences(miga: nil))
        try write(chromium + "/Profile x/Preferences", preferences(miga: nil))
    }

    func testChromiumProfilesEachSayWhetherSitesArePausedThere() throws {
        try makeChromiumProfiles()
        // Brave: on, not allowed in private windows.
        try write(home + "/.config/BraveSoftware/Brave-Browser/Default/Secure Preferences", preferences(miga: #"{"incognito":false,"location":4}"#))
        let subject = "browser Chromium"
        let load = "chrome://extensions → Developer mode → Load unpacked → the chromium folder of miga's browser folder"
        let expected: [Expected] = [
            Expected(.problem, subject, "no host manifest at ~/.config/chromium/NativeMessagingHosts/miga.gateway.json"),
            Expected(.ok, subject, "miga's extension is on in profile Default (Person 1) (private windows: allowed)"),
            Expected(.problem, subject, "miga's extension is turned off in profile Profile 1 (Work): sites open there without a pause",
                     fix: "chrome://extensions → miga → turn it on"),
            Expected(.problem, subject, "miga's extension is not installed in profile Profile 2: sites open there without a pause", fix: load),
            Expected(.note, subject, "could not read ~/.config/chromium/Profile 3/Preferences (it is a FIFO, not a file), so miga cannot tell whether its extension is on in profile Profile 3",
                     fix: "look in chrome://extensions in that profile"),
            Expected(.note, subject, "miga's extension is on in profile Profile 4 (private windows: not allowed): sites opened in a private window there open without a pause",
                     fix: "chrome://extensions → miga → Details → Allow in Incognito"),
            Expected(.note, subject, "could not read ~/.config/chromium/Profile 5/Preferences (it is a folder, not a file)"),
            Expected(.problem, subject, "miga's extension is turned off in profile Profile 10"),
            Expected(.problem, "browser Brave", "no host manifest"),
            Expected(.note, "browser Brave", "miga's extension is on in profile Default (private windows: not allowed)",
                     fix: "brave://extensions → miga → Details → Allow in Private"),
        ]
        assertFindings(try findings(commands: []), expected)

        // Debian's chromium loads the package's copy at start: not seen yet is not a problem.
        let packaged = try findings(commands: [], packaged: true)
        let unseen = try XCTUnwrap(packaged.first { $0.message.contains("profile Profile 2") })
        XCTAssertEqual(unseen.status, .note)
        XCTAssertEqual(unseen.message, "miga's extension is not seen in profile Profile 2 yet: Chromium loads it from /usr/share/chromium/extensions when it starts")
        XCTAssertEqual(unseen.fix, "restart Chromium, then run `miga doctor` again")
        let brave = try XCTUnwrap(packaged.first { $0.subject == "browser Brave" && $0.message.contains("Default") })
        XCTAssertEqual(brave.status, .note, "only Debian's chromium loads /usr/share/chromium/extensions")
    }

    // MARK: - Flatpak and Snap

    func testSandboxedBuildsSayWhetherTheyReachMigaAndTheirProfilesAreChecked() throws {
        // Snap Firefox: the portal; no profiles.ini, one profile.
        try firefoxProfile(home + "/snap/firefox/common/.mozilla/firefox/s1.default", extensions: extensionsJSON(addon("miga@miga.app")))
        // Flatpak Firefox: a profile without miga.
        try write(home + "/.var/app/org.mozilla.firefox/.mozilla/firefox/profiles.ini", "[Profile0]\nName=default\nIsRelative=1\nPath=f1.default\nDefault=1\n")
        try firefoxProfile(home + "/.var/app/org.mozilla.firefox/.mozilla/firefox/f1.default", extensions: extensionsJSON(nil))
        // Flatpak Chromium: on, allowed in Incognito.
        try write(home + "/.var/app/org.chromium.Chromium/config/chromium/Default/Preferences", preferences(miga: #"{"incognito":true,"state":1}"#))
        // Snap Chromium: cannot reach miga, so its profiles are not looked at.
        try write(home + "/snap/chromium/common/chromium/Default/Preferences", preferences(miga: nil))
        // A Flatpak build that cannot reach miga either.
        try FileManager.default.createDirectory(atPath: home + "/.var/app/com.google.Chrome", withIntermediateDirectories: true)

        assertFindings(try findings(commands: ["firefox-esr"], packaged: true), [
            Expected(.problem, "browser Firefox", "no host manifest"),
            Expected(.note, "browser Firefox (Flatpak)", "installed as a Flatpak (~/.var/app/org.mozilla.firefox); it reaches miga only through the WebExtensions portal, where the desktop has one and once allowed: without that the miga extension cannot reach miga there",
                     fix: "flatpak permission-set webextensions miga.gateway org.mozilla.firefox yes"),
            Expected(.problem, "browser Firefox (Flatpak)", "miga's extension is not installed in profile default: sites open there without a pause",
                     fix: "load it from about:debugging#/runtime/this-firefox"),
            Expected(.ok, "browser Firefox (Snap)", "installed as a Snap (~/snap/firefox); reaches miga through the WebExtensions portal (it asks once)"),
            Expected(.note, "browser Firefox (Snap)", "miga's extension is on in profile s1.default (private windows: not allowed)",
                     fix: "about:addons → miga → Run in Private Windows → Allow"),
            // Flathub's Chromium has no WebExtensions portal: its profiles are not looked at.
            Expected(.note, "browser Chromium (Flatpak)", "installed as a Flatpak (~/.var/app/org.chromium.Chromium); its sandbox cannot start programs outside it",
                     fix: "use your distribution's package of Chromium"),
            Expected(.note, "browser Chromium (Snap)", "installed as a Snap (~/snap/chromium); its sandbox cannot start programs outside it and has no portal",
                     fix: "use your distribution's package of Chromium"),
            Expected(.note, "browser Google Chrome (Flatpak)", "its sandbox cannot start programs outside it"),
        ])
    }

    // MARK: - The parsers alone

    func testProfilesINIReadsSectionsAsFirefoxDoes() {
        let text = "[General]\nPath=not-a-profile\n[Profile0]\nName=a\nPath=x.a\n[Profile1]\nIsRelative=0\nPath=/abs/b\n[Profile2]\nName=no path\n"
            + "[Profile3]\nName=c\nIsRelative=0\nPath=rel\n[Profile4]\nPath=/starts/at/root\n"
        XCTAssertEqual(FirefoxProfilesINI.entries(text, limit: 10), [
            .init(name: "a", path: "x.a", isRelative: true),
            .init(name: "/abs/b", path: "/abs/b", isRelative: false),
            .init(name: "c", path: "rel", isRelative: false),
            .init(name: "/starts/at/root", path: "/starts/at/root", isRelative: false),
        ])
        XCTAssertEqual(FirefoxProfilesINI.entries(text, limit: 1).count, 1)
        XCTAssertEqual(FirefoxProfilesINI.entries(String(repeating: "[Profile]\nPath=p\n", count: 10_000), limit: 65).count, 65)
        XCTAssertEqual(FirefoxProfilesINI.entries("", limit: 10), [])
    }

    func testExtensionStatesFromEachFieldAndShape() throws {
        func firefox(_ text: String) throws -> ExtensionInProfile {
            FirefoxAddons.state(extensionsJSON: try JSONValue.parse(text), id: BrowserExtension.geckoID)
        }
        XCTAssertEqual(try firefox(#"{"addons":[{"id":"miga@miga.app","active":true,"location":"app-temporary"}]}"#),
                       ExtensionInProfile(state: .on, temporary: true))
        XCTAssertEqual(try firefox(#"{"addons":[{"id":"miga@miga.app","active":false}]}"#).state, .notRunning)
        XCTAssertEqual(try firefox(#"{"addons":{"id":"miga@miga.app"}}"#).state, .absent, "not an array")
        XCTAssertEqual(try firefox(#"{"addons":[1,null,"miga@miga.app",{"id":7}]}"#).state, .absent)
        XCTAssertFalse(FirefoxAddons.privateWindowsAllowed(extensionPreferences: try JSONValue.parse(#"{"miga@miga.app":{"permissions":"internal:privateBrowsingAllowed"}}"#),
                                                           id: BrowserExtension.geckoID))

        func chromium(_ text: String) throws -> ExtensionInProfile {
            ChromiumPreferences.state(settings: ChromiumPreferences.settings(try JSONValue.parse(text), id: BrowserExtension.chromiumID))
        }
        let id = BrowserExtension.chromiumID
        XCTAssertEqual(try chromium(#"{"extensions":{"settings":{"\#(id)":{}}}}"#), ExtensionInProfile(state: .on))
        XCTAssertEqual(try chromium(#"{"extensions":{"settings":{"\#(id)":{"disable_reasons":[]}}}}"#).state, .on)
        XCTAssertEqual(try chromium(#"{"extensions":{"settings":{"\#(id)":{"disable_reasons":0,"state":1}}}}"#).state, .on)
        XCTAssertEqual(try chromium(#"{"extensions":{"settings":{"\#(id)":{"disable_reasons":1.5e300}}}}"#).state, .turnedOff)
        XCTAssertEqual(try chromium(#"{"extensions":{"settings":{"\#(id)":"on"}}}"#).state, .absent)
        XCTAssertEqual(try chromium(#"{"extensions":{"settings":[]}}"#).state, .absent)
        XCTAssertEqual(try chromium(#"{"extensions":{"settings":{"\#(id)":{"incognito":"true"}}}}"#).privateWindows, false)

        XCTAssertTrue(ChromiumProfiles.isUsualProfileFolder("Profile 12"))
        for name in ["Profile", "Profile ", "Profile 1a", "Profile -1", "Profile １", "System Profile", "Guest Profile"] {
            XCTAssertFalse(ChromiumProfiles.isUsualProfileFolder(name), name)
        }
        XCTAssertEqual(["Profile 10", "Work", "Profile 2", "Default"].sorted(by: ChromiumProfiles.order), ["Default", "Profile 2", "Profile 10", "Work"])
    }
}
