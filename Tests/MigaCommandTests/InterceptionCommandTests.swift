import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// `miga config apps/sites`, `install`, `uninstall` and `doctor` in-process, in a temp HOME
/// whose "system" desktop entries live in a temp XDG_DATA_DIRS (moved from MigaCLITests'
/// InterceptionTests, which keeps what runs the shims and links: gio, shells, the browser).
final class InterceptionCommandTests: XCTestCase, DesktopSystemCase {
    var home: CommandHome!

    override func setUpWithError() throws {
        home = try CommandHome()
        try Fixtures.writeDesktopSystem(into: home)
    }

    /// Two gated apps whose commands one entry runs: it belongs to the first that claimed it,
    /// `apps list` and `doctor` say so, installs stop rewriting it, and it passes to the other
    /// when the first goes.
    func testTwoAppsSharingAnEntryDoNotFight() throws {
        XCTAssertEqual(try miga("config", "apps", "add", "chat").status, 0)
        let second = try miga("config", "apps", "add", "talk", "--command", "chat")
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stderr.contains("~/.local/share/applications/chat.desktop is already gated as chat, so talk leaves it to that"), second.stderr)
        XCTAssertTrue(read(applications + "/chat.desktop")?.contains("gate --app 'chat' ") == true)
        XCTAssertEqual(try miga("install").status, 0)
        let again = try miga("install")
        XCTAssertEqual(again.stdout, "miga is installed; nothing needed changing.\n", "no entry rewritten in turn")
        let doctor = DoctorText.unwrapped(try miga("doctor").stdout)
        XCTAssertTrue(doctor.contains("ok       app talk:") && doctor.contains("chat.desktop is gated as chat"), doctor)
        XCTAssertFalse(doctor.contains("problem  app"), doctor)
        XCTAssertTrue(try miga("config", "apps", "list").stdout.contains("desktop entry chat.desktop is gated as chat"))

        XCTAssertEqual(try miga("config", "apps", "remove", "chat").status, 0)
        XCTAssertTrue(read(applications + "/chat.desktop")?.contains("gate --app 'talk' ") == true, "the entry passes to talk")
    }

    /// "Open a new shell" only when PATH changed: a later install that only puts back a
    /// missing shim (in the folder already on PATH) does not send the person to a new shell.
    func testAnInstallThatChangesNoShellFileAsksForNoNewShell() throws {
        XCTAssertEqual(try miga("config", "apps", "add", "chat").status, 0)
        let first = try miga("install")
        XCTAssertTrue(first.stdout.contains("added a line to ~/.bashrc") || first.stdout.contains("environment.d"), first.stdout)
        XCTAssertTrue(first.stdout.contains("Open a new shell (or log in again) for the PATH change"), first.stdout)
        try FileManager.default.removeItem(atPath: shims + "/chat")
        let again = try miga("install")
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("PATH shim ~/.local/share/miga/bin/chat"), again.stdout)
        XCTAssertFalse(again.stdout.contains("new shell"), again.stdout)
        XCTAssertTrue(again.stdout.hasSuffix("Done; `miga doctor` checks everything.\n"), again.stdout)
    }

    /// An app named by its desktop-file ID (as menus and `gio launch` name it) gates the
    /// program that entry runs; no "did you mean" the very name typed, no stale shim after.
    func testAnAppNamedByItsDesktopFileIDGatesWhatTheEntryRuns() throws {
        let added = try miga("config", "apps", "add", "vendor-chat-beta")
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertEqual(try ConfigLoader().load(path: home.configFile).config.apps["vendor-chat-beta"]?.command, home.root + "/bin/chat")
        XCTAssertTrue(added.stdout.contains("created desktop shim ~/.local/share/applications/vendor-chat-beta.desktop"), added.stdout)
        XCTAssertTrue(DoctorText.unwrapped(try miga("doctor").stdout).contains("ok       app vendor-chat-beta: PATH shim and"))
        let typo = try miga("config", "apps", "add", "vendor-chat-betaa")
        XCTAssertEqual(typo.status, 1)
        XCTAssertFalse(typo.stderr.contains("did you mean \"vendor-chat-betaa\""), typo.stderr)
    }

    func testInstallReadsTheEntriesOnceHoweverManyAppsAreGated() throws {
        try home.writeFile("bin/other", mode: 0o755, "#!/bin/sh\n")
        XCTAssertEqual(try miga("config", "apps", "add", "chat").status, 0)
        XCTAssertEqual(try miga("config", "apps", "add", "other").status, 0)
        try home.writeFile("sys/applications/bad-quote.desktop", "[Desktop Entry]\nType=Application\nName=Q\nExec=chat \"oops\n")
        let install = try miga("install")
        XCTAssertEqual(install.status, 0, install.stderr)
        XCTAssertEqual(install.stderr.components(separatedBy: "bad-quote.desktop").count, 2, "warned once:\n\(install.stderr)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: applications + "/other.desktop"))
    }

    func testBadNamesAndMissingAppsAreRefusedWithSuggestionsAndNothingWritten() throws {
        let typo = try miga("config", "apps", "add", "chta")
        XCTAssertEqual(typo.status, 1)
        XCTAssertTrue(typo.stderr.contains("did you mean \"chat\""), typo.stderr)
        XCTAssertEqual(typo.stderr.components(separatedBy: "\n").filter { !$0.isEmpty }.count, 1, typo.stderr)

        let badName = try miga("config", "apps", "add", "my app")
        XCTAssertEqual(badName.status, 64)
        XCTAssertTrue(badName.stderr.contains("may only use letters, digits and . _ + -"), badName.stderr)
        let badTimer = try miga("config", "apps", "add", "chat", "--timer", "50")
        XCTAssertEqual(badTimer.status, 64)
        XCTAssertTrue(badTimer.stderr.contains("between 15 and 45"), badTimer.stderr)
        let plainFile = try home.writeFile("notes.txt", mode: 0o644, "not a program\n")
        let notExecutable = try miga("config", "apps", "add", "x", "--command", plainFile)
        XCTAssertEqual(notExecutable.status, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.home + "/.config/miga/config.toml"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: shims))

        try home.writeConfig("timer_seconds = = 3\n")
        let broken = try miga("config", "apps", "add", "chat")
        XCTAssertEqual(broken.status, 1)
        XCTAssertTrue(broken.stderr.contains("config.toml:1"), broken.stderr)
        XCTAssertEqual(read(home.configFile), "timer_seconds = = 3\n", "a broken file is never rewritten")
    }

    /// `config set apps.NAME.command` is checked as `apps add` checks it, and the shims follow.
    func testSettingAnAppsCommandChecksItAndRemakesItsShims() throws {
        XCTAssertEqual(try miga("config", "apps", "add", "chat").status, 0)
        let missing = try miga("config", "set", "apps.chat.command", "/nowhere/chat")
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("/nowhere/chat is not an executable file"), missing.stderr)
        XCTAssertEqual(try miga("config", "set", "apps.chat.command", "python3").status, 1, "an interpreter, as with apps add")
        XCTAssertEqual(try ConfigLoader().load(path: home.configFile).config.apps["chat"]?.command, "chat", "nothing written")

        let set = try miga("config", "set", "apps.chat.command", home.recorder)
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertTrue(set.stdout.contains("refreshed PATH shim ~/.local/share/miga/bin/chat"), set.stdout)
        XCTAssertEqual(try ConfigLoader().load(path: home.configFile).config.apps["chat"]?.command, home.recorder)
        XCTAssertTrue(read(shims + "/chat")?.contains(home.recorder) == true, read(shims + "/chat") ?? "")
        XCTAssertTrue(DoctorText.unwrapped(try miga("doctor").stdout).contains("ok       app chat:"), "the new shims are current")
    }

    /// A shell or interpreter runs every script: gating one needs --force, and says why.
    func testInterpretersAreRefusedUnlessForced() throws {
        for (arguments, hint) in [(["python3"], "miga config apps add python3 --force"),
                                  (["py", "--command", "/usr/bin/python3"], "miga config apps add py --command /usr/bin/python3 --force"),
                                  (["shell", "--command", "bash"], "--command bash --force")] {
            let refused = try home.miga(["config", "apps", "add"] + arguments, environment: environment())
            XCTAssertEqual(refused.status, 1, "\(arguments)")
            XCTAssertTrue(refused.stderr.contains("runs scripts and tools besides itself") && refused.stderr.contains(hint), refused.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.configFile), "nothing written")
        let forced = try miga("config", "apps", "add", "python3", "--force")
        XCTAssertEqual(forced.status, 0, forced.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: shims + "/python3"))
    }

    func testSitesAddRemoveList() throws {
        try home.writeConfig("sites = [" + MigaConfig.formerDefaultSites.map { "\"\($0)\"" }.joined(separator: ", ") + "]\n")
        XCTAssertEqual(try miga("config", "sites", "list").stdout, MigaConfig.formerDefaultSites.joined(separator: "\n") + "\n")
        let added = try miga("config", "sites", "add", "News.YCombinator.com.")
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertTrue(added.stdout.contains("news.ycombinator.com is gated"), added.stdout)
        XCTAssertEqual(try miga("config", "sites", "remove", "youtube.com").status, 0)
        XCTAssertEqual(try miga("config", "sites", "list").stdout.split(separator: "\n").map(String.init),
                       MigaConfig.formerDefaultSites.filter { $0 != "youtube.com" } + ["news.ycombinator.com"])
        XCTAssertEqual(try miga("config", "sites", "remove", "youtube.com").status, 1)
        let invalid = try miga("config", "sites", "add", "not a host")
        XCTAssertEqual(invalid.status, 1)
        XCTAssertTrue(invalid.stderr.contains("is not a host name"), invalid.stderr)
        XCTAssertEqual(AtomicFile.mode(of: home.configFile), 0o600)
    }

    /// Without a terminal, a purge needs --yes and says what it would delete, the person's
    /// own packs by name; then nothing is left but the trial's record (a purge is no way to a
    /// new trial), not even an empty folder.
    func testPurgeLeavesAFreshHomeEmptyAgainButTheTrial() throws {
        XCTAssertEqual(try miga("config", "apps", "add", "chat", "--timer", "15").status, 0)
        XCTAssertEqual(try miga("config", "sites", "add", "lobste.rs").status, 0)
        XCTAssertEqual(try miga("install").status, 0)
        try home.startTheTrial()
        try home.writeFile("home/.local/share/miga/quotes/mine.toml", "")
        XCTAssertFalse(try snapshot(excludingMigaFolders: false).isEmpty)
        let before = try snapshot(excludingMigaFolders: false)
        let refused = try miga("uninstall", "--purge")
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("your content pack ~/.local/share/miga/quotes/mine.toml") && refused.stderr.contains("add --yes"),
                      refused.stderr)
        XCTAssertEqual(try snapshot(excludingMigaFolders: false), before, "nothing changed without --yes")
        let purge = try miga("uninstall", "--purge", "--yes")
        XCTAssertEqual(purge.status, 0, purge.stderr)
        XCTAssertEqual(Set(try snapshot(excludingMigaFolders: false).keys), [".config", ".config/miga", ".config/miga/entitlement.json"],
                       "nothing left but the trial's record")
    }

    /// With `make install PREFIX=~/.local` miga's data folder is also PREFIX/share/miga, a
    /// program folder (an older `make install` put the extension there): a purge deletes
    /// miga's own data in it and nothing else, and names what it leaves.
    func testPurgeLeavesWhatMigaDidNotMakeInItsDataFolder() throws {
        XCTAssertEqual(try miga("config", "apps", "add", "chat").status, 0)
        XCTAssertEqual(try miga("install").status, 0)
        XCTAssertEqual(try miga("stats").status, 0)
        let data = home.home + "/.local/share/miga"
        try home.writeFile("home/.local/share/miga/browser/chromium/manifest.json", "{}")
        try home.writeFile("home/.local/share/miga/quotes/mine.toml", "")
        try home.writeFile("home/.local/share/miga/.miga.sqlite3.miga-4242", "") // a torn atomic write
        let purge = try miga("uninstall", "--purge", "--yes")
        XCTAssertEqual(purge.status, 0, purge.stderr)
        XCTAssertEqual(read(data + "/browser/chromium/manifest.json"), "{}")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: data), ["browser"])
        XCTAssertTrue(purge.stdout.contains("removed miga's data from ~/.local/share/miga but ~/.local/share/miga/browser, which miga did not make"),
                      purge.stdout)
    }

    func testAnInterruptedInstallCanBeUndone() throws {
        XCTAssertEqual(try miga("config", "apps", "add", "chat").status, 0)
        // The manifest records a shim about to be written; the write never happened.
        var recorded = try InstallManifest.load(path: manifest)
        recorded.record(.init(kind: .desktopShim, path: applications + "/other.desktop", app: "chat", sha256: "0"))
        try recorded.save(path: manifest)
        try home.writeFile("home/.local/share/applications/other.desktop", "[Desktop Entry]\nName=Mine\n")
        let uninstall = try miga("uninstall")
        XCTAssertEqual(uninstall.status, 0, uninstall.stderr)
        XCTAssertEqual(read(applications + "/other.desktop"), "[Desktop Entry]\nName=Mine\n", "not miga's: left alone")
        XCTAssertFalse(FileManager.default.fileExists(atPath: applications + "/chat.desktop"))
    }

    /// installed.json is the person's file too: a `mimeApps` change in a shape miga never
    /// writes (a slot without its separator, a value with a line break) is passed over.
    func testAnEditedManifestDoesNotStopUninstall() throws {
        XCTAssertEqual(try miga("install").status, 0)
        var manifest = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: self.manifest))) as? [String: Any])
        var mimeApps = try XCTUnwrap(manifest["mimeApps"] as? [String: Any])
        var change = try XCTUnwrap(mimeApps["change"] as? [String: Any])
        change["previousValues"] = ["no separator": "web.desktop", "Default Applications\u{1F}x-scheme-handler/ftp": "evil\n[Injected]"]
        change["addedKeys"] = ((change["addedKeys"] as? [String]) ?? []) + ["", "\u{1F}"]
        mimeApps["change"] = change
        manifest["mimeApps"] = mimeApps
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: self.manifest))
        let uninstall = try miga("uninstall")
        XCTAssertEqual(uninstall.status, 0, uninstall.stderr)
        let list = (try? String(contentsOfFile: home.home + "/.config/mimeapps.list", encoding: .utf8)) ?? ""
        XCTAssertFalse(list.contains("Injected") || list.contains("miga-url-handler"), list)
    }

    func testALostManifestIsRebuiltByInstallAndUninstallStillCleansUp() throws {
        XCTAssertEqual(try miga("config", "apps", "add", "chat").status, 0)
        XCTAssertEqual(try miga("install").status, 0)
        try FileManager.default.removeItem(atPath: manifest)
        let again = try miga("install")
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertFalse(again.stdout.contains("your own copy"), "miga's own shims are recognised, not backed up: \(again.stdout)")
        let uninstall = try miga("uninstall")
        XCTAssertEqual(uninstall.status, 0, uninstall.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: applications + "/chat.desktop"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: shims + "/chat"))
        XCTAssertFalse(read(home.home + "/.bashrc")?.contains(ShellIntegration.marker) ?? false)
    }

    /// GNOME reads `~/.config/gnome-mimeapps.list` before `mimeapps.list`: a browser named there
    /// gets every link, whatever miga wrote. That file is the person's: named, never edited.
    func testADesktopSpecificListThatOutranksMigaIsNamedByInstallAndDoctor() throws {
        let gnomeList = home.home + "/.config/gnome-mimeapps.list"
        let mine = "[Default Applications]\nx-scheme-handler/https=web.desktop\n"
        try home.writeFile("home/.config/gnome-mimeapps.list", mine)
        let gnome = ["XDG_CURRENT_DESKTOP": "ubuntu:GNOME", "PATH": "\(shims):\(home.root)/bin:/usr/bin:/bin", "TERMINAL": "/bin/true"]
        let problem = "~/.config/gnome-mimeapps.list makes web.desktop the default for web links and is read before ~/.config/mimeapps.list"
        let fix = "delete the x-scheme-handler/http and x-scheme-handler/https lines in ~/.config/gnome-mimeapps.list"

        let install = try miga("install", environment: gnome)
        XCTAssertEqual(install.status, 0, install.stderr)
        XCTAssertTrue(install.stderr.contains("miga: \(problem), so listed sites open without a pause; \(fix)"), install.stderr)
        let doctor = try miga("doctor", environment: gnome)
        XCTAssertEqual(doctor.status, 1, doctor.stdout)
        XCTAssertTrue(DoctorText.unwrapped(doctor.stdout).contains(problem) && DoctorText.unwrapped(doctor.stdout).contains("fix: \(fix)"), doctor.stdout)
        XCTAssertEqual(read(gnomeList), mine, "the person's file is not edited")

        // KDE does not read GNOME's list.
        let kde = try miga("doctor", environment: gnome.merging(["XDG_CURRENT_DESKTOP": "KDE"]) { $1 })
        XCTAssertEqual(kde.status, 0, kde.stdout)
        XCTAssertTrue(DoctorText.unwrapped(kde.stdout).contains("miga routes web links"), kde.stdout)

        // Following the fix mends it.
        try "[Default Applications]\n".write(toFile: gnomeList, atomically: true, encoding: .utf8)
        let mended = try miga("doctor", environment: gnome)
        XCTAssertEqual(mended.status, 0, mended.stdout)
        XCTAssertEqual(try miga("install", environment: gnome).stderr, "")
    }

    func testDoctorNoticesStaleShimsAndABrowserTakingLinksBackAndInstallMendsBoth() throws {
        XCTAssertEqual(try miga("config", "apps", "add", "chat").status, 0)
        XCTAssertEqual(try miga("install").status, 0)
        let onPath = ["PATH": "\(shims):\(home.root)/bin:/usr/bin:/bin", "TERMINAL": "/bin/true"]
        let healthy = try miga("doctor", environment: onPath)
        XCTAssertEqual(healthy.status, 0, healthy.stdout)
        XCTAssertTrue(DoctorText.unwrapped(healthy.stdout).contains("ok       PATH:"), healthy.stdout)

        let notFirst = try miga("doctor", environment: ["PATH": "\(home.root)/bin:\(shims):/usr/bin:/bin"])
        XCTAssertEqual(notFirst.status, 1)
        XCTAssertTrue(DoctorText.unwrapped(notFirst.stdout).contains("is on PATH but not first"), notFirst.stdout)

        // A package update changes the original entry.
        let original = system + "/applications/chat.desktop"
        try (read(original)! + "Keywords=talk;\n").write(toFile: original, atomically: true, encoding: .utf8)
        // A browser makes itself the default again.
        let list = home.home + "/.config/mimeapps.list"
        try read(list)!.replacingOccurrences(of: "x-scheme-handler/https=miga-url-handler.desktop;",
                                             with: "x-scheme-handler/https=web.desktop;miga-url-handler.desktop;")
            .write(toFile: list, atomically: true, encoding: .utf8)
        let sick = try miga("doctor", environment: onPath)
        XCTAssertEqual(sick.status, 1)
        XCTAssertTrue(DoctorText.unwrapped(sick.stdout).contains("~/.local/share/applications/chat.desktop is stale: \(original) changed"), sick.stdout)
        XCTAssertTrue(DoctorText.unwrapped(sick.stdout).contains("web.desktop took back the default for web links"), sick.stdout)
        XCTAssertEqual(DoctorText.unwrapped(sick.stdout).components(separatedBy: "fix: miga install").count, 3, sick.stdout)

        let mend = try miga("install")
        XCTAssertTrue(mend.stdout.contains("refreshed desktop shim ~/.local/share/applications/chat.desktop"), mend.stdout)
        XCTAssertTrue(read(applications + "/chat.desktop")!.contains("Keywords=talk;"))
        let again = try miga("doctor", environment: onPath)
        XCTAssertEqual(again.status, 0, again.stdout)

        try home.writeConfig("timer_seconds = [\n")
        let broken = try miga("doctor", environment: onPath)
        XCTAssertEqual(broken.status, 1)
        XCTAssertTrue(DoctorText.unwrapped(broken.stdout).contains("problem  config:") && DoctorText.unwrapped(broken.stdout).contains("config.toml:"), broken.stdout)
    }
}
