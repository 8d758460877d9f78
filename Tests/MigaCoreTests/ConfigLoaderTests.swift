import XCTest
@testable import MigaCore

final class ConfigLoaderTests: XCTestCase {
    let path = "/home/u/.config/miga/config.toml"

    func testMissingFileMeansDefaults() throws {
        let result = try ConfigLoader().load(path: "/nonexistent/miga/config.toml")
        XCTAssertEqual(result.config, MigaConfig())
        XCTAssertEqual(result.warnings, [])
        XCTAssertEqual(result.config.timerSeconds, 30)
        XCTAssertEqual(result.config.graceMinutes, 5)
        XCTAssertEqual(result.config.categories, [.quote, .affirmation, .article])
    }

    func testFullFileAndPerAppOverride() throws {
        let text = """
            # mine
            timer_seconds = 40
            grace_minutes = 0
            categories = ["quotes", "articles"]
            breathing = "off"
            animations = false
            terminal = "kitty"
            sites = ["reddit.com"]

            [apps.discord]
            command = "/opt/discord/Discord"
            timer_seconds = 20

            [apps.hexchat]
            """
        let result = try ConfigLoader().parse(text, path: path)
        XCTAssertEqual(result.warnings, [])
        let config = result.config
        XCTAssertEqual(config.timerSeconds, 40)
        XCTAssertEqual(config.graceMinutes, 0)
        XCTAssertEqual(config.categories, [.quote, .article])
        XCTAssertEqual(config.breathing, .off)
        XCTAssertFalse(config.animations)
        XCTAssertEqual(config.terminal, "kitty")
        XCTAssertEqual(config.sites, ["reddit.com"])
        XCTAssertEqual(config.apps["discord"], MigaConfig.App(name: "discord", command: "/opt/discord/Discord", timerSeconds: 20))
        XCTAssertEqual(config.apps["hexchat"], MigaConfig.App(name: "hexchat", command: "hexchat"))
        XCTAssertEqual(config.timerSeconds(for: "discord"), 20)
        XCTAssertEqual(config.timerSeconds(for: "hexchat"), 40)
        XCTAssertEqual(config.timerSeconds(for: nil), 40)
    }

    func testMalformedFileNamesItsLine() {
        let text = "timer_seconds = 30\ngrace_minutes = 5\ncategories = [\"quotes\"\nbreathing = \"box\"\n"
        XCTAssertThrowsError(try ConfigLoader().parse(text, path: path)) { error in
            guard case .malformed(let file, let line, _, _) = error as? ConfigError else {
                return XCTFail("unexpected \(error)")
            }
            XCTAssertEqual(file, path)
            XCTAssertTrue((3...4).contains(line), "line \(line)")
            XCTAssertTrue("\(error)".hasPrefix("\(path):\(line):"), "\(error)")
        }
    }

    func testOutOfRangeTimerIsReportedWithItsLineAndClamped() throws {
        let result = try ConfigLoader().parse("grace_minutes = 5\ntimer_seconds = 50\n\n[apps.x]\ntimer_seconds = 3\n", path: path)
        XCTAssertEqual(result.config.timerSeconds, 45)
        XCTAssertEqual(result.config.apps["x"]?.timerSeconds, 15)
        XCTAssertEqual(result.warnings, [
            "\(path):2: timer_seconds = 50 is outside 15–45; using 45",
            "\(path):5: apps.x.timer_seconds = 3 is outside 15–45; using 15",
        ])
    }

    func testWrongTypesAndUnknownKeysWarnAndKeepDefaults() throws {
        let result = try ConfigLoader().parse("""
            timer_seconds = "thirty"
            colour = "blue"
            breathing = "square"
            categories = ["quotes", "memes"]
            [apps."bad name"]
            """, path: path)
        XCTAssertEqual(result.config.timerSeconds, 30)
        XCTAssertEqual(result.config.breathing, .box)
        XCTAssertEqual(result.config.categories, [.quote])
        XCTAssertNil(result.config.apps["bad name"])
        XCTAssertEqual(result.warnings.count, 5, result.warnings.joined(separator: "\n"))
        XCTAssertTrue(result.warnings.contains("\(path):2: unknown key \"colour\" ignored"), result.warnings.joined(separator: "\n"))
        XCTAssertTrue(result.warnings[0].hasPrefix("\(path):1: timer_seconds must be a whole number"))
    }

    func testAppNames() {
        for good in ["discord", "org.gnome.Epiphany", "c++", "a_b-1", "...", ".hidden"] { XCTAssertTrue(MigaConfig.isValidAppName(good), good) }
        for bad in ["", "a b", "a/b", "ü", "x;rm", ".", "..", "a\nb"] { XCTAssertFalse(MigaConfig.isValidAppName(bad), bad) }
        // A name made from any text is always one: never `.` or `..`.
        for (text, name) in [("My App", "My-App"), (".", "app"), ("..", "app"), ("", "app"), ("é.", "e."), ("İnstagram", "Instagram"), ("–chat", "chat"), ("✦", "app")] {
            XCTAssertEqual(MigaConfig.appName(derivedFrom: text), name, text)
        }
    }

    /// A command with a control character is no program's name or path: its app is left out,
    /// with one warning naming it, and the other apps stay.
    func testAnAppWhoseCommandHoldsAControlCharacterIsIgnored() throws {
        let text = "[apps.chat]\ncommand = \"chat\"\n\n[apps.evil]\ncommand = \"/bin/true\\ntouch /tmp/x\"\n"
        let result = try ConfigLoader().parse(text, path: "config.toml")
        XCTAssertEqual(result.config.apps.keys.sorted(), ["chat"])
        XCTAssertEqual(result.warnings.count, 1)
        XCTAssertTrue(result.warnings[0].hasPrefix("config.toml:5: [apps.evil] the command") && result.warnings[0].contains("U+000A"),
                      result.warnings[0])
    }
}
