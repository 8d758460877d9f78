import Foundation
import XCTest
@testable import MigaCore
import MigaTestSupport

final class DesktopEntryLocatorTests: XCTestCase {
    var root: TemporaryDirectory!

    /// A data-home and two system data folders holding the real Debian entries and some odd ones.
    override func setUpWithError() throws {
        root = try TemporaryDirectory()
        let fixtures = DesktopEntryTests.fixtures
        for name in ["thunderbird.desktop", "org.gnome.Epiphany.desktop", "io.github.Hexchat.desktop"] {
            _ = try root.write(try String(contentsOfFile: fixtures + "/" + name, encoding: .utf8), to: "usr/share/applications/" + name)
        }
        _ = try root.write(try String(contentsOfFile: fixtures + "/pidgin.desktop", encoding: .utf8), to: "usr/share/applications/im/pidgin.desktop")
        // Lower precedence copy of the same ID, which must lose.
        _ = try root.write("[Desktop Entry]\nType=Application\nName=Old Thunderbird\nExec=thunderbird-old\n", to: "opt/share/applications/thunderbird.desktop")
        _ = try root.write("not a desktop entry\n", to: "usr/share/applications/broken.desktop")
        _ = try root.write("[Desktop Entry]\nName=x\n", to: "usr/share/applications/notes.txt")
    }

    func locator(home: Bool = true) -> DesktopEntryLocator {
        DesktopEntryLocator(dataDirectories: (home ? [root.path + "/home/.local/share"] : []) + [root.path + "/usr/share", root.path + "/opt/share"])
    }

    func testFindsEntriesByCommandWithIDsAndPrecedence() throws {
        var warnings: [String] = []
        let all = locator().entries { warnings.append($0) }
        XCTAssertEqual(all.map(\.id).sorted(), ["im-pidgin.desktop", "io.github.Hexchat.desktop", "org.gnome.Epiphany.desktop", "thunderbird.desktop"])
        XCTAssertEqual(warnings.count, 1, warnings.joined(separator: "\n"))
        XCTAssertTrue(warnings[0].contains("broken.desktop") && warnings[0].contains("skipping it"), warnings[0])

        let thunderbird = locator().entries(running: "thunderbird") { _ in }
        XCTAssertEqual(thunderbird.map(\.path), [root.path + "/usr/share/applications/thunderbird.desktop"], "the earlier folder wins")
        XCTAssertEqual(locator().entries(running: "epiphany") { _ in }.map(\.id), ["org.gnome.Epiphany.desktop"])
        XCTAssertEqual(locator().entries(running: "pidgin") { _ in }.map(\.id), ["im-pidgin.desktop"])
        XCTAssertEqual(locator().entries(running: "thunderbird-old") { _ in }, [], "shadowed by a higher-precedence ID")
    }

    func testUserEntriesShadowSystemOnesButMigaShimsAreLookedThrough() throws {
        _ = try root.write("[Desktop Entry]\nType=Application\nName=My Hexchat\nExec=hexchat --mine\n", to: "home/.local/share/applications/io.github.Hexchat.desktop")
        XCTAssertEqual(locator().entries(running: "hexchat") { _ in }.map { $0.entry.string("Name") }, ["My Hexchat"])

        let original = try DesktopEntry.load(path: root.path + "/usr/share/applications/thunderbird.desktop")
        _ = try root.write(try DesktopShim.text(for: original, migaPath: "/usr/bin/miga", app: "thunderbird"),
                           to: "home/.local/share/applications/thunderbird.desktop")
        let found = locator().entries(running: "thunderbird") { _ in }
        XCTAssertEqual(found.map(\.path), [root.path + "/usr/share/applications/thunderbird.desktop"], "the shim is not its own original")
    }

    func testEnvironmentOrder() {
        let fromEnvironment = DesktopEntryLocator(environment: ["HOME": "/h", "XDG_DATA_DIRS": "/a:relative:/b"])
        XCTAssertEqual(fromEnvironment.dataDirectories, ["/h/.local/share", "/a", "/b"])
        let defaults = DesktopEntryLocator(environment: ["HOME": "/h", "XDG_DATA_HOME": "/d", "XDG_DATA_DIRS": ""])
        XCTAssertEqual(defaults.dataDirectories, ["/d", "/usr/local/share", "/usr/share"])
    }
}
