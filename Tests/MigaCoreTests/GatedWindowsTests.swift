import Foundation
import XCTest
@testable import MigaCore
import MigaTestSupport

/// `GatedWindows`, the one rule mapping a window to a gated app, against real desktop entries
/// (the fixtures) shimmed as `miga install` shims them.
final class GatedWindowsTests: XCTestCase {
    var root: TemporaryDirectory!
    var context: MigaContext!
    var applications: String { FilePath.parent(of: context.paths.dataDirectory) + "/applications" }

    override func setUpWithError() throws {
        (root, _, context) = try TestContext.withFakeClock()
        try FileManager.default.createDirectory(atPath: applications, withIntermediateDirectories: true)
    }

    /// The fixture `id` shimmed for `app` into the user's applications folder.
    func shim(_ id: String, app: String) throws {
        let entry = try DesktopEntry.load(path: Fixtures.path("desktop/" + id))
        try DesktopShim.text(for: entry, migaPath: "/usr/bin/miga", app: app)
            .write(toFile: applications + "/" + id, atomically: true, encoding: .utf8)
    }

    func windows(_ apps: [String: String]) -> GatedWindows {
        var config = MigaConfig()
        for (name, command) in apps { config.apps[name] = MigaConfig.App(name: name, command: command) }
        return GatedWindows(config: config, paths: context.paths, files: context.files)
    }

    func testAShimmedEntryNamesItsAppByIdClassAndStem() throws {
        try shim("io.github.Hexchat.desktop", app: "chat")
        try shim("thunderbird.desktop", app: "mail")
        let rule = windows(["chat": "hexchat", "mail": "/usr/bin/thunderbird"])
        XCTAssertEqual(rule.app(of: WindowFacts(id: "1", desktopID: "io.github.Hexchat.desktop")), "chat")
        XCTAssertEqual(rule.app(of: WindowFacts(id: "1", wmClass: ["hexchat", "Hexchat"])), "chat", "the command's name, StartupWMClass")
        XCTAssertEqual(rule.app(of: WindowFacts(id: "1", applicationID: "io.github.Hexchat")), "chat", "the desktop id's stem")
        XCTAssertEqual(rule.app(of: WindowFacts(id: "1", wmClass: ["Mail", "thunderbird-default"])), "mail", "StartupWMClass")
        XCTAssertEqual(rule.app(of: WindowFacts(id: "1", wmClass: ["Mail", "thunderbird"])), "mail", "the command's file name")
        XCTAssertNil(rule.app(of: WindowFacts(id: "1", wmClass: ["gedit", "Gedit"])))
        XCTAssertNil(rule.app(of: WindowFacts(id: "1")))
    }

    func testAppsWithoutShimsMatchByNameAndCommandAndProgram() throws {
        let exe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let rule = windows(["firefox-esr": "firefox-esr", "runner": exe, "dino": "dino-im --flag"])
        XCTAssertEqual(rule.app(of: WindowFacts(id: "1", wmClass: ["Navigator", "firefox-esr"])), "firefox-esr")
        XCTAssertEqual(rule.app(of: WindowFacts(id: "1", desktopID: "dino-im.desktop")), "dino", "the desktop id's stem, the command's name")
        XCTAssertEqual(rule.app(of: WindowFacts(id: "1", wmClass: ["x", "y"], pid: getpid())), "runner", "/proc/PID/exe")
        XCTAssertNil(rule.app(of: WindowFacts(id: "1", pid: Int32.max)), "no such process")
    }

    func testMigasOwnWindowsAreNobodys() throws {
        let rule = windows(["miga": "miga", "gate": "gate"])
        XCTAssertNil(rule.app(of: WindowFacts(id: "1", applicationID: "app.miga.Gate", wmClass: ["miga", "miga"])))
        XCTAssertNil(rule.app(of: WindowFacts(id: "1", wmClass: ["app.miga.Gate", "app.miga.Gate"])))
        XCTAssertNil(rule.app(of: WindowFacts(id: "1", applicationID: "APP.MIGA.APP")))
    }

    /// A shim of an app no longer gated, a person's own entry, a hostile "shim": none names an app.
    func testOnlyMigasShimsOfGatedAppsCount() throws {
        try shim("io.github.Hexchat.desktop", app: "chat")
        try shim("mumble.desktop", app: "gone")
        try FileManager.default.copyItem(atPath: Fixtures.path("desktop/nheko.desktop"), toPath: applications + "/nheko.desktop")
        try "[Desktop Entry]\nType=Application\nExec=/bin/sh -c \"gate --app '../x\" miga\nX-Miga-Shim=true\nStartupWMClass=evil\n"
            .write(toFile: applications + "/evil.desktop", atomically: true, encoding: .utf8)
        try Data(repeating: 0x41, count: 2 << 20).write(to: URL(fileURLWithPath: applications + "/huge.desktop"))
        let rule = windows(["chat": "hexchat", "matrix": "element"])
        XCTAssertNil(rule.app(of: WindowFacts(id: "1", desktopID: "mumble.desktop")))
        XCTAssertNil(rule.app(of: WindowFacts(id: "1", desktopID: "nheko.desktop")))
        XCTAssertNil(rule.app(of: WindowFacts(id: "1", wmClass: ["nheko", "nheko"])))
        XCTAssertNil(rule.app(of: WindowFacts(id: "1", wmClass: ["evil", "evil"])))
        XCTAssertEqual(rule.app(of: WindowFacts(id: "1", desktopID: "io.github.Hexchat.desktop")), "chat")
    }

    func testTheShimsScriptNamesItsAppQuotedOrNot() throws {
        for name in ["discord", "it's", "a b"] {
            let exec = DesktopShim.execPrefix(migaPath: "/opt/my miga/miga", app: name, detach: true) + "discord %U"
            guard case .literal(let script) = try ExecLine(rawValue: exec).arguments[2] else { return XCTFail(exec) }
            XCTAssertEqual(GatedWindows.shimApp(script: script), MigaConfig.isValidGateName(name) ? name : nil, exec)
        }
        XCTAssertNil(GatedWindows.shimApp(script: "exec \"$0\" gate --app 'unclosed"))
        XCTAssertEqual(GatedWindows.stems(ofDesktopID: "com.discordapp.Discord.desktop"), ["com.discordapp.discord", "discord"])
        XCTAssertEqual(GatedWindows.stems(ofDesktopID: "discord.desktop"), ["discord"])
        XCTAssertEqual(GatedWindows.stems(ofDesktopID: ".desktop"), [])
    }
}
