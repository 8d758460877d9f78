import Crypto
import Foundation
import XCTest
import MigaCore

/// The extension in `browser/` as browsers load it: a manifest both Chromium and Firefox
/// accept, whose key gives the ID the host manifests allow, and files that all exist and parse.
final class BrowserExtensionTests: XCTestCase {
    let folder = MigaHome.repository + "/browser"

    func manifest() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/manifest.json"))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func testTheKeyGivesTheChromiumIDTheHostManifestsAllow() throws {
        let key = try XCTUnwrap(try manifest()["key"] as? String)
        let der = try XCTUnwrap(Data(base64Encoded: key))
        let hex = SHA256.hash(data: der).map { String(format: "%02x", $0) }.joined().prefix(32)
        let id = String(hex.map { Character(UnicodeScalar(UInt8(ascii: "a") + UInt8($0.hexDigitValue!))) })
        XCTAssertEqual(id, BrowserExtension.chromiumID)
    }

    /// The Debian package's system host manifests say what `miga install` writes, naming
    /// the package's host path; and the package's version is the project's.
    func testThePackagesManifestsAndVersionAreTheProjects() throws {
        for target in BrowserHostTarget.all where target.name == "Firefox" || target.name == "Chromium" {
            let file = MigaHome.repository + "/debian/host-manifest.\(target.family == .firefox ? "firefox" : "chromium").json"
            let packaged = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? NSDictionary
            let written = try JSONSerialization.jsonObject(with: Data(target.manifestText(hostPath: "/usr/lib/miga/miga-native-host").utf8)) as? NSDictionary
            XCTAssertEqual(packaged, written, file)
        }
        let changelog = try String(contentsOfFile: MigaHome.repository + "/debian/changelog", encoding: .utf8)
        XCTAssertTrue(changelog.hasPrefix("miga (\(MigaVersion.current)) "), "debian/changelog's first entry is not \(MigaVersion.current)")
        XCTAssertEqual(try manifest()["version"] as? String, MigaVersion.current, "browser/manifest.json's version")
    }

    func testOneManifestForFirefoxAndChromium() throws {
        let manifest = try manifest()
        XCTAssertEqual(manifest["manifest_version"] as? Int, 3)
        let gecko = (manifest["browser_specific_settings"] as? [String: Any])?["gecko"] as? [String: Any]
        XCTAssertEqual(gecko?["id"] as? String, BrowserExtension.geckoID)
        let background = try XCTUnwrap(manifest["background"] as? [String: Any])
        XCTAssertEqual(background["service_worker"] as? String, "background.js", "Chromium")
        XCTAssertEqual(background["scripts"] as? [String], ["background.js"], "Firefox")
        XCTAssertEqual(manifest["incognito"] as? String, "spanning")
        let permissions = Set(manifest["permissions"] as? [String] ?? [])
        XCTAssertTrue(permissions.isSuperset(of: ["nativeMessaging", "declarativeNetRequestWithHostAccess"]), "\(permissions)")
        let resources = (manifest["web_accessible_resources"] as? [[String: Any]])?.flatMap { $0["resources"] as? [String] ?? [] } ?? []
        XCTAssertTrue(resources.contains("gate.html"), "the redirect target must be web accessible")
        // Every file the manifest and the pages name is there.
        let popup = (manifest["action"] as? [String: Any])?["default_popup"] as? String
        for name in ["background.js", popup ?? "popup.html", "calm.html"] + resources {
            XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/" + name), name)
        }
        for page in ["gate.html", "popup.html", "calm.html"] {
            let html = try String(contentsOfFile: folder + "/" + page, encoding: .utf8)
            for attribute in ["src=\"", "href=\""] {
                for piece in html.components(separatedBy: attribute).dropFirst() {
                    let name = String(piece.prefix { $0 != "\"" })
                    XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/" + name), "\(page) names \(name)")
                }
            }
        }
        let gate = try String(contentsOfFile: folder + "/gate.html", encoding: .utf8)
        for id in ["content", "countdown", "exit", "next", "open"] {
            XCTAssertTrue(gate.contains("id=\"\(id)\""), "#\(id) is part of the contract")
        }
    }

    func testTheScriptsParse() throws {
        guard let node = ["/usr/bin/node", "/usr/local/bin/node"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("node is not installed")
        }
        let home = try MigaHome()
        for script in try FileManager.default.contentsOfDirectory(atPath: folder) where script.hasSuffix(".js") {
            let result = try home.run(node, ["--check", folder + "/" + script])
            XCTAssertEqual(result.status, 0, "\(script): \(result.stderr)")
        }
    }
}
