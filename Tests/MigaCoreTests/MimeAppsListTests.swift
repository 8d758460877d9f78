import Foundation
import XCTest
@testable import MigaCore
import MigaTestSupport

final class MimeAppsListTests: XCTestCase {
    let handler = "miga-url-handler.desktop"
    let types = ["x-scheme-handler/http", "x-scheme-handler/https"]
    let realistic = """
        # Written by hand and by several programs.
        [Default Applications]
        text/html=firefox-esr.desktop
        x-scheme-handler/https=browser.desktop
        x-scheme-handler/mailto=thunderbird.desktop;

        [Added Associations]
        x-scheme-handler/http=browser.desktop;other.desktop;
        application/pdf=org.gnome.Evince.desktop;

        [Removed Associations]
        x-scheme-handler/https=bad.desktop;

        """

    func testMakeDefaultKeepsOtherLinesAndUndoRestoresExactly() {
        var list = MimeAppsList(text: realistic)
        let change = list.makeDefault(handler, for: types)
        let text = list.text
        XCTAssertEqual(list.defaultApplication(for: "x-scheme-handler/https"), handler)
        XCTAssertTrue(text.contains("x-scheme-handler/https=miga-url-handler.desktop;browser.desktop;\n"), text)
        XCTAssertTrue(text.contains("x-scheme-handler/http=miga-url-handler.desktop;browser.desktop;other.desktop;\n"), text)
        let ours = Set(types)
        let untouched = { (text: String) in text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            !ours.contains { line.hasPrefix($0 + "=") } } }
        XCTAssertEqual(untouched(text), untouched(realistic), "every other line kept, in order")
        XCTAssertTrue(text.contains("[Removed Associations]\nx-scheme-handler/https=bad.desktop;"))

        var again = list
        XCTAssertEqual(again.makeDefault(handler, for: types), MimeAppsList.Change(), "a second install changes nothing")
        XCTAssertEqual(again.text, text)

        list.undo(change, removing: handler)
        XCTAssertEqual(list.text, realistic, "byte for byte")
    }

    func testFromNothingAndWithoutAFinalNewline() {
        for original in ["", "[Default Applications]\ntext/plain=gedit.desktop", "# only a comment"] {
            var list = MimeAppsList(text: original)
            let change = list.makeDefault(handler, for: types)
            XCTAssertEqual(list.defaultApplication(for: "x-scheme-handler/http"), handler, original)
            list.undo(change, removing: handler)
            XCTAssertEqual(list.text, original, "restored exactly: \(original.debugDescription)")
        }
    }

    func testUndoKeepsWhatOthersChangedSinceAndNoticesABrowserTakingItBack() {
        var list = MimeAppsList(text: realistic)
        let change = list.makeDefault(handler, for: types)
        var edited = MimeAppsList(text: list.text.replacingOccurrences(of: "text/html=firefox-esr.desktop", with: "text/html=chromium.desktop\nimage/png=eog.desktop"))
        edited.undo(change, removing: handler)
        XCTAssertEqual(edited.text, realistic.replacingOccurrences(of: "text/html=firefox-esr.desktop", with: "text/html=chromium.desktop\nimage/png=eog.desktop"))

        let takenBack = MimeAppsList(text: list.text.replacingOccurrences(of: "x-scheme-handler/https=miga-url-handler.desktop;", with: "x-scheme-handler/https=chromium.desktop;"))
        XCTAssertEqual(takenBack.defaultApplication(for: "x-scheme-handler/https"), "chromium.desktop", "what doctor will check")
    }

    /// A browser the person chose while miga was installed stays their default: undo takes out
    /// miga's id alone, never their line, and leaves a line that held only miga's nothing.
    func testUndoKeepsABrowserChosenSinceAndTakesOutOnlyMigasID() {
        var list = MimeAppsList(text: realistic)
        let change = list.makeDefault(handler, for: types)
        // xdg-mime's way (the line replaced) for https, GNOME's (the new one put first) for http.
        var chosen = MimeAppsList(text: list.text
            .replacingOccurrences(of: "x-scheme-handler/https=miga-url-handler.desktop;browser.desktop;", with: "x-scheme-handler/https=chromium.desktop")
            .replacingOccurrences(of: "x-scheme-handler/http=miga-url-handler.desktop;browser.desktop;other.desktop;",
                                  with: "x-scheme-handler/http=chromium.desktop;miga-url-handler.desktop;browser.desktop;other.desktop;"))
        chosen.undo(change, removing: handler)
        XCTAssertEqual(chosen.defaultApplication(for: "x-scheme-handler/https"), "chromium.desktop")
        XCTAssertEqual(chosen.applications(for: "x-scheme-handler/http", in: MimeAppsList.added), ["chromium.desktop", "browser.desktop", "other.desktop"])
        XCTAssertFalse(chosen.text.contains(handler), chosen.text)

        var fresh = MimeAppsList(text: "")
        let added = fresh.makeDefault(handler, for: types)
        var edited = MimeAppsList(text: fresh.text.replacingOccurrences(of: "[Default Applications]\nx-scheme-handler/http=miga-url-handler.desktop;",
                                                                        with: "[Default Applications]\nx-scheme-handler/http=chromium.desktop;"))
        edited.undo(added, removing: handler)
        XCTAssertEqual(edited.text, "[Default Applications]\nx-scheme-handler/http=chromium.desktop;\n", "the person's line alone is left")
    }

    /// GLib (what GNOME and most launchers use) reads the result as intended.
    func testGioAgrees() throws {
        let gio = "/usr/bin/gio"
        guard FileManager.default.isExecutableFile(atPath: gio) else { throw XCTSkip("gio (libglib2.0-bin) is not installed") }
        let root = try TemporaryDirectory()
        // GLib ignores entries whose program does not exist, so these run /bin/echo.
        _ = try root.write("[Desktop Entry]\nType=Application\nName=Browser\nExec=/bin/echo %u\nMimeType=x-scheme-handler/http;x-scheme-handler/https;\n",
                           to: "data/applications/browser.desktop")
        _ = try root.write("[Desktop Entry]\nType=Application\nName=miga\nExec=/bin/echo %U\nMimeType=x-scheme-handler/http;x-scheme-handler/https;\nNoDisplay=true\n",
                           to: "data/applications/\(handler)")
        let file = try root.write(realistic, to: "config/mimeapps.list")
        func gioDefault() throws -> String {
            let output = try runProgram(gio, ["mime", "x-scheme-handler/https"], environment: [
                "HOME": root.path, "XDG_DATA_HOME": root.path + "/data", "XDG_CONFIG_HOME": root.path + "/config",
                "XDG_DATA_DIRS": root.path + "/none", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]).output
            return output.split(separator: "\n").first.map(String.init) ?? ""
        }
        var reported = try gioDefault()
        XCTAssertTrue(reported.hasSuffix("browser.desktop"), reported)
        var list = MimeAppsList(text: realistic)
        let change = list.makeDefault(handler, for: types)
        try list.text.write(toFile: file, atomically: true, encoding: .utf8)
        reported = try gioDefault()
        XCTAssertTrue(reported.hasSuffix(handler), reported)
        list.undo(change, removing: handler)
        try list.text.write(toFile: file, atomically: true, encoding: .utf8)
        reported = try gioDefault()
        XCTAssertTrue(reported.hasSuffix("browser.desktop"), reported)
    }
}
