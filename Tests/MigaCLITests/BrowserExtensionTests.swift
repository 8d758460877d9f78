import Crypto
import Foundation
import XCTest
import MigaCore

/// The extension in `browser/` as browsers load it: one source folder, a manifest per browser
/// family that each accepts, a key that gives the ID the host manifests allow, and files that
/// all exist and parse.
final class BrowserExtensionTests: XCTestCase {
    let folder = MigaHome.repository + "/browser"

    func manifest(_ family: String = "chromium") throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/manifest.\(family).json"))
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
        for family in ["chromium", "firefox"] {
            XCTAssertEqual(try manifest(family)["version"] as? String, MigaVersion.current, "browser/manifest.\(family).json's version")
        }
    }

    /// The families differ only where the browsers do: Chromium's incognito "split" (so an
    /// incognito tab can load the gate page) and service worker; Firefox's "spanning" (it
    /// treats "split" as not allowed), background scripts and add-on id.
    func testAManifestPerFamilyThatDifferOnlyWhereTheBrowsersDo() throws {
        let chromium = try manifest("chromium"), firefox = try manifest("firefox")
        XCTAssertEqual(chromium["incognito"] as? String, "split")
        XCTAssertEqual(firefox["incognito"] as? String, "spanning")
        XCTAssertEqual((chromium["background"] as? [String: Any])?["service_worker"] as? String, "background.js")
        XCTAssertEqual((firefox["background"] as? [String: Any])?["scripts"] as? [String], ["background.js"])
        let gecko = (firefox["browser_specific_settings"] as? [String: Any])?["gecko"] as? [String: Any]
        XCTAssertEqual(gecko?["id"] as? String, BrowserExtension.geckoID)
        // Chromium's pages have one fixed address a site could probe; a per-session one
        // (use_dynamic_url) hides it. Firefox's address is random per install already.
        var resources = try XCTUnwrap(chromium["web_accessible_resources"] as? [[String: Any]])
        XCTAssertEqual(resources[0].removeValue(forKey: "use_dynamic_url") as? Bool, true)
        XCTAssertEqual(resources as NSArray, firefox["web_accessible_resources"] as? NSArray)
        let own: Set<String> = ["incognito", "background", "key", "minimum_chrome_version", "browser_specific_settings", "web_accessible_resources"]
        let shared = Set(chromium.keys).union(firefox.keys).subtracting(own)
        for key in shared.sorted() {
            XCTAssertEqual(chromium[key] as? NSObject, firefox[key] as? NSObject, "\(key) differs between the families")
        }
        XCTAssertEqual(Set(chromium.keys).subtracting(shared), ["incognito", "background", "key", "minimum_chrome_version", "web_accessible_resources"])
        XCTAssertEqual(Set(firefox.keys).subtracting(shared), ["incognito", "background", "browser_specific_settings", "web_accessible_resources"])
    }

    /// What `make extension` writes is what browsers load: each family's folder has every
    /// shared file, its own manifest as manifest.json, and the gate over a page built from the
    /// gate's modules.
    func testTheBuildWritesAFolderPerFamily() throws {
        let home = try MigaHome()
        let dest = home.root + "/built"
        let result = try home.run(MigaHome.repository + "/scripts/build-extension.sh", [dest])
        XCTAssertEqual(result.status, 0, result.stderr)
        let shared = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix("manifest.") }
        for family in ["chromium", "firefox"] {
            let built = try FileManager.default.contentsOfDirectory(atPath: dest + "/" + family)
            XCTAssertEqual(Set(built), Set(shared + ["manifest.json", "page-gate-overlay.js"]), family)
            XCTAssertEqual(FileManager.default.contents(atPath: dest + "/\(family)/manifest.json"),
                           FileManager.default.contents(atPath: folder + "/manifest.\(family).json"))
        }
    }

    func testOneSetOfFilesForFirefoxAndChromium() throws {
        let manifest = try manifest()
        XCTAssertEqual(manifest["manifest_version"] as? Int, 3)
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

    /// The gate over a page is one classic script (an injected script cannot be a module)
    /// made of the gate page's own modules, its markup and its styles: no second copy of the
    /// gate to drift, nothing left to import, and it parses.
    func testTheGateOverAPageIsBuiltFromTheGatePagesModules() throws {
        let home = try MigaHome()
        let dest = home.root + "/built"
        let result = try home.run(MigaHome.repository + "/scripts/build-extension.sh", [dest])
        XCTAssertEqual(result.status, 0, result.stderr)
        let bundle = try String(contentsOfFile: dest + "/chromium/page-gate-overlay.js", encoding: .utf8)
        let lines = bundle.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertFalse(lines.contains { $0.hasPrefix("import ") || $0.hasPrefix("export ") }, "a module statement is left")
        for module in ["gate-page.js", "gate-questions.js", "gate.js", "gate-overlay.js"] {
            XCTAssertTrue(bundle.contains("// ---- \(module)\n"), module)
        }
        XCTAssertTrue(bundle.contains("function runGate(options)"))
        XCTAssertTrue(bundle.contains("<button id=\"open\" type=\"button\""), "gate.html's markup")
        XCTAssertTrue(bundle.contains("#fill { height: 100%;"), "gate.css")
        XCTAssertEqual(try String(contentsOfFile: dest + "/firefox/page-gate-overlay.js", encoding: .utf8), bundle)
        // Not reachable from the web: injected by the extension only.
        let resources = (try manifest()["web_accessible_resources"] as? [[String: Any]])?.flatMap { $0["resources"] as? [String] ?? [] } ?? []
        XCTAssertEqual(resources, ["gate.html"])
        if let node = ["/usr/bin/node", "/usr/local/bin/node"].first(where: FileManager.default.isExecutableFile) {
            let parsed = try home.run(node, ["--check", dest + "/chromium/page-gate-overlay.js"])
            XCTAssertEqual(parsed.status, 0, parsed.stderr)
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
