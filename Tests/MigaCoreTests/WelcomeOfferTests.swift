import Foundation
import XCTest
@testable import MigaCore
import MigaTestSupport

/// What the welcome offers: the chat and social apps among real desktop entries (Debian's, a
/// Flatpak's, a Snap's, the person's own), never a browser; the sites; the browsers found.
final class WelcomeOfferTests: XCTestCase {
    var root: TemporaryDirectory!

    override func setUpWithError() throws {
        root = try TemporaryDirectory()
    }

    /// Every fixture entry (Debian's own files) in a system folder.
    func writeFixtures(to folder: String = "usr/share/applications") throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: DesktopEntryTests.fixtures) where name.hasSuffix(".desktop") {
            _ = try root.write(try String(contentsOfFile: DesktopEntryTests.fixtures + "/" + name, encoding: .utf8), to: folder + "/" + name)
        }
    }

    var dataHome: String { root.path + "/home/.local/share" }

    func offered(_ folders: [String]) -> [FoundApp] {
        FoundApp.offered(in: DesktopEntryLocator(dataDirectories: [dataHome] + folders.map { root.path + "/" + $0 }).entries { _ in },
                         dataHome: dataHome)
    }

    func testChatEntriesAreOfferedByTheirOwnNamesAndBrowsersNever() throws {
        try writeFixtures()
        let apps = offered(["usr/share"])
        XCTAssertEqual(apps.map(\.label), ["Dino", "HexChat", "Mumble", "nheko", "Pidgin"],
                       "Chat, InstantMessaging and IRCClient entries; never Chromium, Firefox, Luakit, Web or Thunderbird")
        XCTAssertEqual(apps.map(\.name), ["dino-im", "hexchat", "mumble", "nheko", "pidgin"])
        let dino = try XCTUnwrap(apps.first)
        XCTAssertEqual(dino, FoundApp(name: "dino-im", label: "Dino", desktopID: "im.dino.Dino.desktop", source: .system,
                                      icon: "im.dino.Dino", command: ["dino-im"]))
    }

    func testKnownClientsAreOfferedWithoutAChatCategoryAndHiddenOnesAreNot() throws {
        _ = try root.write("[Desktop Entry]\nType=Application\nName=Discord\nExec=/usr/share/discord/Discord\nIcon=discord\nCategories=Network;\n",
                           to: "usr/share/applications/discord.desktop")
        _ = try root.write("[Desktop Entry]\nType=Application\nName=Steam\nExec=/usr/games/steam %U\nCategories=Network;FileTransfer;Game;\n",
                           to: "usr/share/applications/steam.desktop")
        _ = try root.write("[Desktop Entry]\nType=Application\nName=Hidden Slack\nExec=slack\nCategories=Network;\nNoDisplay=true\n",
                           to: "usr/share/applications/slack.desktop")
        _ = try root.write("[Desktop Entry]\nType=Application\nName=Gone Signal\nExec=signal-desktop\nHidden=true\nCategories=Chat;\n",
                           to: "usr/share/applications/signal-desktop.desktop")
        _ = try root.write("[Desktop Entry]\nType=Application\nName=miga\nExec=miga-app\nCategories=Chat;\n",
                           to: "usr/share/applications/app.miga.Miga.desktop")
        _ = try root.write("[Desktop Entry]\nType=Application\nName=Chat Browser\nExec=chatbrowser\nCategories=Chat;WebBrowser;\n",
                           to: "usr/share/applications/chatbrowser.desktop")
        _ = try root.write("[Desktop Entry]\nType=Link\nName=Discord site\nURL=https://discord.com\nCategories=Chat;\n",
                           to: "usr/share/applications/discord-site.desktop")
        // The person's own entry for a client, by its program.
        _ = try root.write("[Desktop Entry]\nType=Application\nName=Telegram\nExec=/opt/telegram/telegram-desktop -- %u\n",
                           to: "home/.local/share/applications/my-telegram.desktop")
        let apps = offered(["usr/share"])
        XCTAssertEqual(apps.map(\.label), ["Discord", "Steam", "Telegram"])
        XCTAssertEqual(apps.map(\.name), ["discord", "steam", "telegram"])
        XCTAssertEqual(apps.map(\.source), [.system, .system, .user])
        XCTAssertEqual(apps.map(\.command), [["/usr/share/discord/Discord"], ["/usr/games/steam"], ["/opt/telegram/telegram-desktop"]])
    }

    func testFlatpakAndSnapEntriesAreOfferedWithTheirSource() throws {
        _ = try root.write("""
            [Desktop Entry]
            Name=Discord
            Exec=/usr/bin/flatpak run --branch=stable --arch=x86_64 --command=com.discordapp.Discord com.discordapp.Discord
            Icon=com.discordapp.Discord
            Type=Application
            Categories=Network;InstantMessaging;
            X-Flatpak=com.discordapp.Discord

            """, to: "home/.local/share/flatpak/exports/share/applications/com.discordapp.Discord.desktop")
        _ = try root.write("#!/bin/sh\n", to: "home/.local/share/flatpak/exports/bin/com.discordapp.Discord")
        _ = try root.write("""
            [Desktop Entry]
            Name=Steam
            Exec=/usr/bin/flatpak run --branch=stable --arch=x86_64 --command=/app/bin/steam-wrapper --file-forwarding com.valvesoftware.Steam @@u %U @@
            Icon=com.valvesoftware.Steam
            Type=Application
            Categories=Network;FileTransfer;Game;

            """, to: "var/lib/flatpak/exports/share/applications/com.valvesoftware.Steam.desktop")
        _ = try root.write("""
            [Desktop Entry]
            X-SnapInstanceName=telegram-desktop
            Name=Telegram Desktop
            Exec=env BAMF_DESKTOP_FILE_HINT=/var/lib/snapd/desktop/applications/telegram-desktop_telegram-desktop.desktop /snap/bin/telegram-desktop -- %u
            Icon=/snap/telegram-desktop/6000/meta/gui/icon.png
            Type=Application
            Categories=Chat;Network;InstantMessaging;Qt;

            """, to: "var/lib/snapd/desktop/applications/telegram-desktop_telegram-desktop.desktop")
        let folders = ["home/.local/share/flatpak/exports/share", "var/lib/flatpak/exports/share", "var/lib/snapd/desktop"]
        let apps = offered(folders)
        XCTAssertEqual(apps.map(\.name), ["discord", "steam", "telegram"])
        XCTAssertEqual(apps.map(\.source), [.flatpak, .flatpak, .snap])
        XCTAssertEqual(apps.map(\.label), ["Discord", "Steam", "Telegram Desktop"])
        XCTAssertEqual(apps[0].command, ["flatpak", "run", "com.discordapp.Discord"])
        XCTAssertEqual(apps[0].exportedLauncher, root.path + "/home/.local/share/flatpak/exports/bin/com.discordapp.Discord")
        XCTAssertEqual(apps[2].command, ["/snap/bin/telegram-desktop"])
        XCTAssertEqual(apps[2].desktopID, "telegram-desktop_telegram-desktop.desktop")
    }

    func testOneAppPerNameTheEarlierFolderWinning() throws {
        _ = try root.write("[Desktop Entry]\nType=Application\nName=Slack (mine)\nExec=slack\n", to: "home/.local/share/applications/slack.desktop")
        _ = try root.write("[Desktop Entry]\nType=Application\nName=Slack\nExec=/usr/bin/flatpak run com.slack.Slack\n",
                           to: "var/lib/flatpak/exports/share/applications/com.slack.Slack.desktop")
        XCTAssertEqual(offered(["var/lib/flatpak/exports/share"]).map(\.label), ["Slack (mine)"])
    }

    func testThePackagedFoldersAreSearchedAfterTheXDGOnes() {
        let locator = DesktopEntryLocator(includingPackagedApps: ["HOME": "/h", "XDG_DATA_DIRS": "/a:/var/lib/snapd/desktop"])
        XCTAssertEqual(locator.dataDirectories,
                       ["/h/.local/share", "/a", "/var/lib/snapd/desktop", "/h/.local/share/flatpak/exports/share", "/var/lib/flatpak/exports/share"])
    }

    func testTheTenSitesInOrderTheFirstSevenPreselected() {
        XCTAssertEqual(WelcomeOffer.offeredSites.map(\.site), ["reddit.com", "youtube.com", "youtube.com/shorts", "x.com", "instagram.com",
                                                              "facebook.com", "tiktok.com", "linkedin.com", "twitch.tv", "news.ycombinator.com"])
        XCTAssertEqual(WelcomeOffer.offeredSites.filter(\.preselected).count, 7)
        XCTAssertFalse(WelcomeOffer.offeredSites[7].preselected)
    }

    func testABrowsersExtensionStateIsReadFromItsProfiles() throws {
        let context = try TestContext.make(root: root, environment: ["PATH": root.path + "/nothing"])
        let preferences = "{\"extensions\":{\"settings\":{\"\(BrowserExtension.chromiumID)\":{\"state\":1}}}}"
        _ = try root.write(preferences, to: "home/.config/chromium/Default/Preferences")
        _ = try root.write("{}", to: "home/.config/google-chrome/Default/Preferences")
        let browsers = FoundBrowser.found(installer: try Installer(context: context))
        XCTAssertEqual(browsers.map(\.id), ["chromium", "google-chrome"])
        XCTAssertEqual(browsers.map(\.extensionState), [.on, .missing])
        XCTAssertEqual(browsers[0].steps, [])
        XCTAssertTrue(browsers[1].steps.first?.hasPrefix("chrome://extensions → Developer mode → Load unpacked → ") == true,
                      browsers[1].steps.joined(separator: "\n"))
    }
}
