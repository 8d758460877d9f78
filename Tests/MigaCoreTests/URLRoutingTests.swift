import Foundation
import XCTest
@testable import MigaCore
import MigaTestSupport

/// The pieces `open-url` is built from: how a browser entry's Exec becomes command lines, how
/// the default browser is found, and the routing itself with a fake launcher.
final class URLRoutingTests: XCTestCase {
    func testInvocationsFollowTheFieldCodes() throws {
        let urls = ["https://a.example/", "https://b.example/x y"]
        XCTAssertEqual(try ExecLine(rawValue: "browser %U").invocations(urls: urls, icon: nil, name: nil, location: nil),
                       [["browser", "https://a.example/", "https://b.example/x y"]])
        XCTAssertEqual(try ExecLine(rawValue: "browser --new-window %u").invocations(urls: urls, icon: nil, name: nil, location: nil),
                       [["browser", "--new-window", "https://a.example/"], ["browser", "--new-window", "https://b.example/x y"]])
        XCTAssertEqual(try ExecLine(rawValue: "browser").invocations(urls: urls, icon: nil, name: nil, location: nil),
                       [["browser", "https://a.example/", "https://b.example/x y"]])
        XCTAssertEqual(try ExecLine(rawValue: "browser -- %u %i").invocations(urls: [urls[0]], icon: "web", name: nil, location: nil),
                       [["browser", "--", "https://a.example/", "--icon", "web"]])
    }

    func testChangesMergeKeepingTheEarliestValues() {
        var first = MimeAppsList.Change(previousValues: ["D\u{1F}https": "firefox.desktop;"], addedKeys: ["D\u{1F}http"])
        let later = MimeAppsList.Change(previousValues: ["D\u{1F}https": "chromium.desktop;miga-url-handler.desktop;",
                                                         "D\u{1F}http": "chromium.desktop;", "A\u{1F}https": "x.desktop;"],
                                        addedGroups: ["A"])
        first.merge(later)
        XCTAssertEqual(first.previousValues, ["D\u{1F}https": "firefox.desktop;", "A\u{1F}https": "x.desktop;"])
        XCTAssertEqual(first.addedKeys, ["D\u{1F}http"])
        XCTAssertEqual(first.addedGroups, ["A"])
    }

    /// A home with two browsers installed system-wide and the person's choice in mimeapps.list.
    func makeHome() throws -> (TemporaryDirectory, MigaContext, FakeLauncher, CollectingSink) {
        let folder = try TemporaryDirectory()
        _ = try folder.write("[Desktop Entry]\nType=Application\nName=Web\nExec=/usr/bin/env web --new-window %u\n", to: "sys/applications/web.desktop")
        _ = try folder.write("[Desktop Entry]\nType=Application\nName=Other\nExec=/usr/bin/env other %U\n", to: "sys/applications/vendor/other.desktop")
        _ = try folder.write("[Default Applications]\nx-scheme-handler/https=miga-url-handler.desktop;missing.desktop;web.desktop\n",
                             to: "home/.config/mimeapps.list")
        let launcher = FakeLauncher()
        let sink = CollectingSink()
        // A file that can run: the gate checks its command before anything else.
        let miga = try folder.write("#!/bin/sh\n", to: "opt/miga/bin/miga", mode: 0o755)
        let context = try TestContext.make(root: folder, environment: ["XDG_DATA_DIRS": folder.path + "/sys", "XDG_CONFIG_DIRS": folder.path + "/etc",
                                                                       Gatekeeper.gatedVariable: "1"],
                                           launcher: launcher, messages: sink, executablePath: miga)
        return (folder, context, launcher, sink)
    }

    func testTheDefaultBrowserSkipsMigaAndUninstalledEntriesAndFindsSubfolderIDs() throws {
        let (folder, context, _, _) = try makeHome()
        let layout = InstallLayout(environment: context.environment, paths: context.paths)
        let browsers = DefaultBrowser(layout: layout)
        XCTAssertEqual(browsers.current(), "web.desktop")
        XCTAssertEqual(browsers.entry(id: "vendor-other.desktop")?.path, folder.path + "/sys/applications/vendor/other.desktop")
        XCTAssertNil(browsers.entry(id: URLHandler.desktopID), "never miga itself")
        try "[Default Applications]\nx-scheme-handler/https=vendor-other.desktop\n".write(toFile: folder.path + "/home/.config/mimeapps.list", atomically: true, encoding: .utf8)
        XCTAssertEqual(browsers.current(), "vendor-other.desktop")
    }

    /// Only a list the desktop reads before miga's own can outrank it, and only for that desktop.
    func testOnlyAnEarlierDesktopSpecificListOutranksMigasDefault() throws {
        let (folder, context, _, _) = try makeHome()
        let layout = InstallLayout(environment: context.environment, paths: context.paths)
        _ = try folder.write(URLHandler.text(migaPath: "/opt/miga/bin/miga"), to: "home/.local/share/applications/" + URLHandler.desktopID)
        let gnome = DefaultBrowser(layout: layout, currentDesktop: "ubuntu:GNOME")
        XCTAssertNil(gnome.outranking(), "miga's line wins")

        let gnomeList = try folder.write("[Default Applications]\nx-scheme-handler/http=missing.desktop;vendor-other.desktop\n",
                                         to: "home/.config/gnome-mimeapps.list")
        XCTAssertEqual(gnome.outranking()?.id, "vendor-other.desktop", "the first installed entry, for http too")
        XCTAssertEqual(gnome.outranking()?.file, gnomeList)
        XCTAssertNil(DefaultBrowser(layout: layout, currentDesktop: "KDE").outranking(), "KDE reads no GNOME list")
        try "[Default Applications]\nx-scheme-handler/http=miga-url-handler.desktop\n".write(toFile: gnomeList, atomically: true, encoding: .utf8)
        XCTAssertNil(gnome.outranking(), "naming miga there is fine")

        // With miga's own line gone, a system list decides; it is read after, so it outranks nothing
        // (`doctor` reports that case as a browser taking the default back).
        try "[Default Applications]\n".write(toFile: folder.path + "/home/.config/mimeapps.list", atomically: true, encoding: .utf8)
        _ = try folder.write("[Default Applications]\nx-scheme-handler/https=web.desktop\n", to: "etc/mimeapps.list")
        XCTAssertEqual(gnome.firstInstalledDefault(for: "x-scheme-handler/https")?.id, "web.desktop")
        XCTAssertNil(gnome.outranking())
    }

    func testNonGatedLinksGoStraightToTheBrowserAndGatedOnesThroughTheGate() throws {
        let (folder, context, launcher, sink) = try makeHome()
        defer { _ = folder }
        _ = try folder.write("sites = [\"reddit.com\"]\n", to: "home/.config/miga/config.toml")
        let status = URLRouter(context: context).open(["https://www.debian.org/", "https://reddit.com@evil.example/",
                                                       "HTTPS://OLD.REDDIT.COM./r/x"], forward: false)
        XCTAssertEqual(status, 0, sink.lines.joined(separator: "\n"))
        // %u: one browser per link, resolved on PATH, MIGA_GATED not passed on.
        XCTAssertEqual(launcher.calls.map(\.command.arguments), [
            ["/usr/bin/env", "web", "--new-window", "https://www.debian.org/"],
            ["/usr/bin/env", "web", "--new-window", "https://reddit.com@evil.example/"],
            // The gate (passing through here) runs miga again to forward the gated link.
            [folder.path + "/opt/miga/bin/miga", "open-url", "--forward", "--", "HTTPS://OLD.REDDIT.COM./r/x"],
        ])
        XCTAssertTrue(launcher.calls.allSatisfy(\.detached))
        XCTAssertNil(launcher.calls[0].environment[Gatekeeper.gatedVariable], "a link from a gated app is not waved through")
    }

    func testForwardedLinksSkipTheSitesAndNoBrowserIsAClearError() throws {
        let (folder, context, launcher, sink) = try makeHome()
        XCTAssertEqual(URLRouter(context: context).open(["https://reddit.com/"], forward: true), 0)
        XCTAssertEqual(launcher.calls.map(\.command.arguments), [["/usr/bin/env", "web", "--new-window", "https://reddit.com/"]])
        try FileManager.default.removeItem(atPath: folder.path + "/sys")
        XCTAssertEqual(URLRouter(context: context).open(["https://debian.org/"], forward: false), 1)
        XCTAssertEqual(sink.lines.last, "miga: \(InstallError.noBrowser)")
    }

    /// An Open in `open-url`'s gate hands the link to the browser with a pass: the browser's
    /// gate request for that site lets it through once, records nothing, and the next request
    /// is gated again; a pass not used within a minute, or left by a forward that reached no
    /// browser, lets nothing through.
    func testAForwardedLinkIsLetThroughOnceByTheBrowsersGate() throws {
        let (folder, base, _, _) = try makeHome()
        _ = try folder.write("grace_minutes = 0\nsites = [\"reddit.com\"]\n", to: "home/.config/miga/config.toml")
        try FileManager.default.createDirectory(atPath: folder.path + "/run", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        var context = base
        context.environment["XDG_RUNTIME_DIR"] = folder.path + "/run"
        context.paths = try MigaPaths(environment: context.environment)
        let clock = try XCTUnwrap(context.clock as? FakeClock)
        let host = NativeHostService(context: context)
        func gate(_ url: String) throws -> [String: Any] {
            let reply = host.reply(to: try JSONSerialization.data(withJSONObject: ["type": "gate", "id": 1, "url": url]))
            return try XCTUnwrap(JSONSerialization.jsonObject(with: reply) as? [String: Any])
        }

        XCTAssertEqual(URLRouter(context: context).open(["https://reddit.com/a", "https://debian.org/"], forward: true), 0)
        let passed = try gate("https://www.reddit.com/a")
        XCTAssertEqual(passed["action"] as? String, "go")
        XCTAssertEqual(passed["reason"] as? String, "handed_over")
        XCTAssertEqual(try EventStore(path: context.paths.database).allEvents(), [], "that gate recorded it already")
        XCTAssertEqual(try gate("https://reddit.com/a")["action"] as? String, "gate", "once")

        XCTAssertEqual(URLRouter(context: context).open(["https://reddit.com/b"], forward: true), 0)
        clock.advance(seconds: 61)
        XCTAssertEqual(try gate("https://reddit.com/b")["action"] as? String, "gate", "a minute later it is a new attempt")

        try FileManager.default.removeItem(atPath: folder.path + "/sys")
        XCTAssertEqual(URLRouter(context: context).open(["https://reddit.com/c"], forward: true), 1)
        XCTAssertEqual(try gate("https://reddit.com/c")["action"] as? String, "gate", "no browser got it: no pass")
    }

    func testNameSuggestions() {
        let suggestions = AppNameSuggestions(candidates: ["discord", "Discord-canary", "dig", "hexchat", "com.discordapp.Discord"])
        XCTAssertEqual(suggestions.suggestions(for: "dicsord"), ["discord"])
        XCTAssertEqual(suggestions.suggestions(for: "Discord").first, "discord")
        XCTAssertEqual(suggestions.suggestions(for: "hexchta"), ["hexchat"])
        XCTAssertEqual(suggestions.suggestions(for: "zzzzzz"), [])
    }
}
