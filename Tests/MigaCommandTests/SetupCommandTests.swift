import Foundation
import JSON
import MigaCore
import MigaTestSupport
import XCTest

/// `miga setup` scripted: what the welcome offers (`--found`, `--json`) from real desktop
/// entries, and `--apps … --sites … --yes`, which pauses exactly what it names and installs.
final class SetupCommandTests: XCTestCase {
    var home: CommandHome!

    override func setUpWithError() throws {
        home = try CommandHome()
        for name in try FileManager.default.contentsOfDirectory(atPath: Fixtures.path("desktop")) where name.hasSuffix(".desktop") {
            try home.writeFile("share/applications/" + name, try String(contentsOfFile: Fixtures.path("desktop/" + name), encoding: .utf8))
        }
        try home.writeFile("home/.local/share/flatpak/exports/share/applications/com.discordapp.Discord.desktop", """
            [Desktop Entry]
            Name=Discord
            Exec=/usr/bin/flatpak run --branch=stable --arch=x86_64 --command=com.discordapp.Discord com.discordapp.Discord
            Type=Application
            Categories=Network;InstantMessaging;

            """)
        try home.writeFile("home/.local/share/flatpak/exports/bin/com.discordapp.Discord", mode: 0o755, "#!/bin/sh\nexit 0\n")
    }

    /// The fixture entries as the system's, no browser on PATH.
    func environment() -> [String: String] {
        home.environment(["XDG_DATA_DIRS": home.root + "/share", "PATH": home.root + "/bin"])
    }

    func miga(_ arguments: String...) throws -> TestHome.Output {
        try home.miga(arguments, environment: environment())
    }

    func testFoundJSONListsTheChatAppsByNameTheTenSitesAndNoBrowser() throws {
        let found = try miga("setup", "--found", "--json")
        XCTAssertEqual(found.status, 0, found.stderr)
        let json = try JSONValue.parse(Data(found.stdout.utf8))
        func array(_ value: JSONValue?) -> [JSONValue]? {
            if case .array(let items) = value { return items } else { return nil }
        }
        let apps = try XCTUnwrap(array(json["apps"]))
        XCTAssertEqual(apps.compactMap { $0["name"]?.string }, ["dino-im", "discord", "hexchat", "mumble", "nheko", "pidgin"])
        XCTAssertEqual(apps.compactMap { $0["source"]?.string }, ["system", "flatpak", "system", "system", "system", "system"])
        XCTAssertEqual(apps[1]["label"]?.string, "Discord")
        XCTAssertEqual(apps[1]["desktop_id"]?.string, "com.discordapp.Discord.desktop")
        XCTAssertEqual(array(json["sites"])?.compactMap(\.string), WelcomeOffer.commonSites)
        XCTAssertEqual(array(json["browsers"])?.count, 0, found.stdout)
        XCTAssertEqual(found.stdout.split(separator: "\n").count, 1)

        let listed = try miga("setup", "--found")
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stdout.contains("  discord  Discord (flatpak, com.discordapp.Discord.desktop)\n"), listed.stdout)
        XCTAssertFalse(listed.stdout.contains("Chromium") || listed.stdout.contains("Firefox"), listed.stdout)
    }

    func testAnEntrysNameReachesTheTerminalWithoutItsControlCharacters() throws {
        try home.writeFile("home/.local/share/applications/evil.desktop",
                           "[Desktop Entry]\nType=Application\nName=Evil\u{1B}]0;owned\u{07}\u{1B}[2J\nExec=evil\nCategories=Chat;\n")
        let listed = try miga("setup", "--found")
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stdout.contains("  evil     Evil"), listed.stdout)
        XCTAssertFalse(listed.stdout.contains("\u{1B}") || listed.stdout.contains("\u{07}"), listed.stdout)
        let json = try miga("setup", "--found", "--json")
        XCTAssertTrue(json.stdout.contains(#""label":"Evil\u001b]0;owned\u0007\u001b[2J""#), json.stdout)
    }

    func testYesPausesExactlyWhatItNamesAndInstalls() throws {
        try home.writeConfig("sites = []\n")
        let setup = try miga("setup", "--apps", "discord,pidgin", "--sites", "reddit.com, youtube.com/shorts", "--reentry-minutes", "10", "--yes")
        XCTAssertEqual(setup.status, 0, setup.stderr)
        XCTAssertTrue(setup.stdout.hasPrefix("discord is paused: it runs \(home.home)/.local/share/flatpak/exports/bin/com.discordapp.Discord after the pause.\n"
                                             + "pidgin is paused: it runs pidgin after the pause.\n"
                                             + "reddit.com is paused: links to it pause first.\n"
                                             + "youtube.com/shorts is paused: links to it pause first.\n"
                                             + "reentry_minutes = 10\nInstalled:\n"), setup.stdout)
        let config = try ConfigLoader().load(path: home.configFile).config
        XCTAssertEqual(config.apps.keys.sorted(), ["discord", "pidgin"])
        XCTAssertEqual(config.sites, ["reddit.com", "youtube.com/shorts"])
        XCTAssertEqual(config.reentryMinutes, 10)
        for app in ["discord", "pidgin"] {
            XCTAssertTrue(FileManager.default.isExecutableFile(atPath: home.home + "/.local/share/miga/bin/" + app), app)
        }
        let shim = try String(contentsOfFile: home.home + "/.local/share/applications/pidgin.desktop", encoding: .utf8)
        XCTAssertTrue(shim.contains("gate"), shim)
        // The Flatpak's menu entry too, though XDG_DATA_DIRS leaves its exports out.
        let flatpakShim = try String(contentsOfFile: home.home + "/.local/share/applications/com.discordapp.Discord.desktop", encoding: .utf8)
        XCTAssertTrue(flatpakShim.contains(" gate --app 'discord' ") && flatpakShim.contains("X-Miga-Shim=true"), flatpakShim)

        // Again: nothing new, nothing doubled.
        let again = try miga("setup", "--apps", "pidgin", "--sites", "reddit.com", "--yes")
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.hasPrefix("pidgin was already paused.\nreddit.com was already paused.\nreentry_minutes = 0\n"), again.stdout)
        XCTAssertEqual(try ConfigLoader().load(path: home.configFile).config.sites, ["reddit.com", "youtube.com/shorts"])
    }

    /// A fresh home (no config.toml yet): the one site named is the only one paused, then and
    /// at every later command — the file setup writes is never read as one from before sites
    /// defaulted to none.
    func testYesInAFreshHomePausesOnlyTheSiteNamed() throws {
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.configFile))
        let setup = try miga("setup", "--apps", "pidgin", "--sites", "reddit.com", "--yes")
        XCTAssertEqual(setup.status, 0, setup.stderr)
        XCTAssertFalse(setup.stderr.contains("sites"), setup.stderr)
        XCTAssertEqual(try ConfigLoader().load(path: home.configFile).config.sites, ["reddit.com"])
        for _ in 0..<2 {
            let listed = try miga("config", "sites", "list")
            XCTAssertEqual(listed.stdout, "reddit.com\n")
            XCTAssertEqual(listed.stderr, "", "no former sites written in or said")
        }
        XCTAssertEqual(try ConfigLoader().load(path: home.configFile).config.apps.keys.sorted(), ["pidgin"])
    }

    func testTurningComingBackOffWaitsAsEveryLooseningDoes() throws {
        try home.writeConfig("sites = []\nloosen_delay_minutes = 30\nreentry_minutes = 10\n")
        XCTAssertEqual(try miga("config", "get", "reentry_minutes").stdout, "10\n")
        let setup = try miga("setup", "--sites", "x.com", "--yes")
        XCTAssertEqual(setup.status, 0, setup.stderr)
        XCTAssertTrue(setup.stdout.contains("reentry_minutes = 0\n  waiting: reentry_minutes: 10 → 0 at "), setup.stdout)
        XCTAssertTrue(try miga("config", "get", "reentry_minutes").stdout.hasPrefix("10"), "still in force until the wait is over")
    }

    func testAnUnknownAppChangesNothingAndSaysWhatToRun() throws {
        try home.writeConfig("sites = []\n")
        let setup = try miga("setup", "--apps", "pidgin,pidgni", "--sites", "reddit.com", "--yes")
        XCTAssertEqual(setup.status, 1)
        XCTAssertEqual(setup.stderr, "miga: \"pidgni\" is neither an app found here nor a command on PATH; did you mean \"pidgin\"? "
                       + "see `miga setup --found`, or gate a program by its path: miga config apps add pidgni --command PATH\n")
        XCTAssertEqual(try String(contentsOfFile: home.configFile, encoding: .utf8), "sites = []\n", "nothing written")
        let site = try miga("setup", "--sites", "not a site", "--yes")
        XCTAssertEqual(site.status, 1)
        XCTAssertTrue(site.stderr.hasPrefix("miga: ") && site.stderr.hasSuffix("; give a site like reddit.com\n"), site.stderr)
    }

    /// An entry found whose program is gone (the package removed, the entry left behind) is
    /// refused before the first app is written: nothing half-done.
    func testAFoundEntryWhoseProgramIsGoneChangesNothing() throws {
        try home.writeConfig("sites = []\n")
        try home.writeFile("bin/pidgin", mode: 0o755, "#!/bin/sh\n")
        try home.writeFile("share/applications/slack.desktop",
                           "[Desktop Entry]\nType=Application\nName=Slack\nExec=\(home.root)/gone/slack %U\nCategories=Network;InstantMessaging;\n")
        let setup = try miga("setup", "--apps", "pidgin,slack", "--sites", "reddit.com", "--yes")
        XCTAssertEqual(setup.status, 1, setup.stdout)
        XCTAssertEqual(setup.stderr, "miga: \(home.root)/gone/slack is not an executable file; give the path of the program itself\n")
        XCTAssertEqual(try String(contentsOfFile: home.configFile, encoding: .utf8), "sites = []\n", "nothing written")
    }

    func testWithoutATerminalItAsksForFoundOrYes() throws {
        let setup = try miga("setup")
        XCTAssertEqual(setup.status, 1)
        XCTAssertEqual(setup.stderr.split(separator: "\n").count, 1, setup.stderr)
        XCTAssertTrue(setup.stderr.contains("miga setup --found") && setup.stderr.contains("--yes"), setup.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.configFile))

        let noYes = try miga("setup", "--apps", "pidgin")
        XCTAssertNotEqual(noYes.status, 0)
        XCTAssertTrue(noYes.stderr.contains("--yes"), noYes.stderr)
        let range = try miga("setup", "--reentry-minutes", "99999", "--yes")
        XCTAssertNotEqual(range.status, 0)
        XCTAssertTrue(range.stderr.contains("between 0 and 1440"), range.stderr)
    }

    func testInstallWithNothingChosenPointsToTheWelcome() throws {
        try home.writeConfig("sites = []\n")
        let install = try miga("install")
        XCTAssertEqual(install.status, 0, install.stderr)
        XCTAssertTrue(install.stdout.hasSuffix("\nNothing is paused yet: run `miga setup` to choose what pulls you in.\n"), install.stdout)
        try home.writeConfig("sites = [\"reddit.com\"]\n")
        let chosen = try miga("install")
        XCTAssertFalse(chosen.stdout.contains("miga setup"), chosen.stdout)
    }
}
