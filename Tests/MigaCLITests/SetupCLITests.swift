import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// `miga setup` on the built binary, as a dotfiles script runs it: the apps found among real
/// desktop entries (Debian's, and a person's own Discord entry), then exactly those chosen
/// paused, their shims made, and the install done.
final class SetupCLITests: XCTestCase {
    var home: MigaHome!

    override func setUpWithError() throws {
        home = try MigaHome()
        for name in try FileManager.default.contentsOfDirectory(atPath: Fixtures.path("desktop")) where name.hasSuffix(".desktop") {
            try home.writeFile("share/applications/" + name, try String(contentsOfFile: Fixtures.path("desktop/" + name), encoding: .utf8))
        }
        try home.writeFile("home/.local/share/applications/discord.desktop",
                           "[Desktop Entry]\nType=Application\nName=Discord\nExec=\(home.recorder)\nIcon=discord\nCategories=Network;\n")
    }

    func miga(_ arguments: String...) throws -> TestHome.Output {
        try home.miga(arguments, environment: home.environment(["XDG_DATA_DIRS": home.root + "/share", "PATH": home.root + "/bin"]))
    }

    func testFoundThenYesPausesTheChosenAppsAndSites() throws {
        try home.writeConfig("sites = []\n")
        let found = try miga("setup", "--found")
        XCTAssertEqual(found.status, 0, found.stderr)
        XCTAssertTrue(found.stdout.contains("  discord  Discord (user, discord.desktop)\n"), found.stdout)
        XCTAssertTrue(found.stdout.contains("  pidgin   Pidgin (system, pidgin.desktop)\n"), found.stdout)
        XCTAssertFalse(found.stdout.contains("Chromium Web Browser") || found.stdout.contains("Thunderbird"), found.stdout)

        let setup = try miga("setup", "--apps", "discord,pidgin", "--sites", "youtube.com/shorts", "--yes")
        XCTAssertEqual(setup.status, 0, setup.stderr)
        XCTAssertTrue(setup.stdout.contains("discord is paused: it runs \(home.recorder) after the pause.\n"), setup.stdout)
        XCTAssertEqual(try miga("config", "sites", "list").stdout, "youtube.com/shorts\n")
        let apps = try miga("config", "apps", "list")
        XCTAssertTrue(apps.stdout.contains("discord\n  command       \(home.recorder)\n"), apps.stdout)
        XCTAssertFalse(apps.stdout.contains("no shims yet"), apps.stdout)
        // The person's menu entry now goes through the gate.
        let shim = try String(contentsOfFile: home.home + "/.local/share/applications/discord.desktop", encoding: .utf8)
        XCTAssertTrue(shim.contains(" gate --app 'discord' ") && shim.contains("X-Miga-Shim=true"), shim)

        // The welcome again still finds the person's own entry, behind its shim.
        let again = try miga("setup", "--found")
        XCTAssertTrue(again.stdout.contains("  discord  Discord (user, discord.desktop)\n"), again.stdout)
    }
}
