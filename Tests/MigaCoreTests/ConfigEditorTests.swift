import Foundation
import XCTest
@testable import MigaCore
import MigaTestSupport

/// `config apps`/`config sites` change one table or key and leave the rest of the person's
/// file alone: comments, spacing, order. Each edit is read back by the real TOML parser.
final class ConfigEditorTests: XCTestCase {
    let original = """
        # my settings
        timer_seconds   = 25   # a bit shorter
        sites = [ "reddit.com",   # the big one
                  "x.com" ]

        [apps.signal]
        # keep this
        command = "signal-desktop"

        # about the next one
        [apps.matrix]
        command = 'element'
        """ + "\n"

    func parse(_ text: String) throws -> MigaConfig {
        try ConfigLoader().parse(text, path: "config.toml").config
    }

    func testAddingThenRemovingAnAppGivesBackTheSameBytes() throws {
        var editor = ConfigEditor(text: original)
        editor.addApp(MigaConfig.App(name: "discord", command: "/opt/Discord/Discord", timerSeconds: 20))
        XCTAssertTrue(editor.text.hasPrefix(original), "appended, nothing before it changed")
        XCTAssertEqual(try parse(editor.text).apps["discord"], MigaConfig.App(name: "discord", command: "/opt/Discord/Discord", timerSeconds: 20))
        XCTAssertTrue(editor.removeApp("discord"))
        XCTAssertEqual(editor.text, original)

        var empty = ConfigEditor(text: "")
        empty.addApp(MigaConfig.App(name: "chat", command: "chat"))
        XCTAssertEqual(empty.text, "[apps.chat]\ncommand = \"chat\"\n")
        empty.removeApp("chat")
        XCTAssertEqual(empty.text, "")
    }

    func testRemovingATableInTheMiddleKeepsTheNextTablesComment() throws {
        var editor = ConfigEditor(text: original)
        XCTAssertTrue(editor.removeApp("signal"))
        XCTAssertFalse(editor.text.contains("signal"))
        XCTAssertTrue(editor.text.contains("# about the next one\n[apps.matrix]"), editor.text)
        XCTAssertEqual(try parse(editor.text).apps.keys.sorted(), ["matrix"])
        XCTAssertFalse(editor.removeApp("nothing"))
    }

    func testNamesThatAreNotBareKeysAreQuotedAndValuesEscaped() throws {
        var editor = ConfigEditor(text: "")
        editor.addApp(MigaConfig.App(name: "my.app+x", command: "/opt/a \"b\"\\c é"))
        XCTAssertEqual(try parse(editor.text).apps["my.app+x"]?.command, "/opt/a \"b\"\\c é")
        XCTAssertTrue(editor.removeApp("my.app+x"))
        XCTAssertEqual(editor.text, "")
        // Control characters (which no command may hold) are escaped in any string value.
        XCTAssertTrue(editor.setValue(ConfigEditor.string("x\u{7F}\té\n"), forKey: "terminal"))
        XCTAssertEqual(try parse(editor.text).terminal, "x\u{7F}\té\n")
    }

    func testSitesAreReplacedInPlaceKeepingTheTrailingComment() throws {
        var editor = ConfigEditor(text: "sites = [\"a.com\"] # mine\n\n[apps.x]\ncommand = \"x\"\n")
        editor.setSites(["a.com", "b.org"])
        XCTAssertEqual(editor.text, "sites = [\"a.com\", \"b.org\"] # mine\n\n[apps.x]\ncommand = \"x\"\n")
    }

    func testAMultiLineSitesArrayWithCommentsIsReplacedWhole() throws {
        var editor = ConfigEditor(text: original)
        editor.setSites(["reddit.com", "x.com", "news.ycombinator.com"])
        let config = try parse(editor.text)
        XCTAssertEqual(config.sites, ["reddit.com", "x.com", "news.ycombinator.com"])
        XCTAssertEqual(config.timerSeconds, 25)
        XCTAssertTrue(editor.text.hasPrefix("# my settings\ntimer_seconds   = 25   # a bit shorter\nsites = ["), editor.text)
        XCTAssertTrue(editor.text.hasSuffix(original.components(separatedBy: "x.com\" ]\n")[1]), "everything after the array kept")
    }

    func testSitesWithoutAKeyGoBeforeTheFirstTable() throws {
        var editor = ConfigEditor(text: "# hi\n[apps.x]\ncommand = \"x\"\n")
        editor.setSites(["a.com"])
        XCTAssertEqual(editor.text, "# hi\nsites = [\"a.com\"]\n\n[apps.x]\ncommand = \"x\"\n")
        XCTAssertEqual(try parse(editor.text).apps["x"]?.command, "x", "not swallowed into [apps.x]")
    }

    func testConfigFileRefusesABrokenFileAndWritesAtomicallyWithMode0600() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write("timer_seconds = = 3\n", to: "miga/config.toml")
        let file = ConfigFile(path: path)
        XCTAssertThrowsError(try file.update({ $0.setSites(["a.com"]) }, expect: { _ in true })) { error in
            XCTAssertTrue("\(error)".contains("config.toml:1"), "\(error)")
        }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "timer_seconds = = 3\n", "untouched")

        try "# keep\n[apps]\nchat = { command = \"chat\" }\n".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try file.update({ $0.removeApp("chat") }, expect: { $0.apps["chat"] == nil })) { error in
            XCTAssertTrue("\(error)".contains("cannot change safely"), "an inline table is not edited blindly: \(error)")
        }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "# keep\n[apps]\nchat = { command = \"chat\" }\n")

        try FileManager.default.removeItem(atPath: path)
        try file.update({ $0.addApp(MigaConfig.App(name: "a", command: "a")) }, expect: { $0.apps["a"] != nil })
        XCTAssertEqual(AtomicFile.mode(of: path), 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/miga")
        XCTAssertEqual(leftovers, ["config.toml"], "no temporary file left behind")
    }
}
