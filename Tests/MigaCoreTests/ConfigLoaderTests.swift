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

    /// Every key's wrong values, at the top level and in an app: each warning in its own words,
    /// and what is used instead (the default, the nearest allowed value, or the global value).
    func testEachKeysWrongValuesWarnInTheirOwnWords() throws {
        let result = try ConfigLoader().parse("""
            timer_seconds = "x"
            grace_minutes = 500
            categories = ["quotes", "memes", "quotes"]
            breathing = "deep"
            animations = 1
            terminal = 3
            sites = "reddit.com"
            intention = "yes"
            escalate_seconds = -1
            weekly_summary = 0

            [apps.chat]
            command = ""
            timer_seconds = true
            intention = 2
            escalate_seconds = 99

            [apps.odd]
            command = 5

            [apps.gone]
            command = "a\\u0007"
            timer_seconds = 20
            """, path: "c")
        XCTAssertEqual(result.warnings, [
            "c:1: timer_seconds must be a whole number from 15 to 45; using 30",
            "c:2: grace_minutes = 500 is outside 0–120; using 120",
            "c:3: unknown category \"memes\" (use quotes, affirmations, articles); skipping it",
            "c:4: breathing must be \"box\" or \"off\", not \"deep\"; using \"box\"",
            "c:5: animations must be true or false; using true",
            "c:6: terminal must be a string in quotes; ignoring it",
            "c:7: sites must be a list of strings, like [\"a\", \"b\"]; ignoring it",
            "c:8: intention must be true or false; ignoring it",
            "c:9: escalate_seconds = -1 is outside 0–30; using 0",
            "c:10: weekly_summary must be true or false; ignoring it",
            "c:14: apps.chat.timer_seconds must be a whole number from 15 to 45; using 30",
            "c:15: apps.chat.intention must be true or false; ignoring it",
            "c:16: apps.chat.escalate_seconds = 99 is outside 0–30; using 30",
            "c:19: apps.odd.command must be a string in quotes; ignoring it",
            "c:22: [apps.gone] \(AppCheck.problem(withCommand: "a\u{07}")!); gone is not gated until it is fixed (\(AppCheck.commandAdvice))",
        ])
        var expected = MigaConfig()
        expected.graceMinutes = 120
        expected.categories = [.quote]
        expected.apps = ["chat": MigaConfig.App(name: "chat", command: "chat", timerSeconds: 30, escalateSeconds: 30),
                         "odd": MigaConfig.App(name: "odd", command: "odd")]
        XCTAssertEqual(result.config, expected)

        let empty = try ConfigLoader().parse("categories = []\nbreathing = 3\nsites = [\"a\", 1]\ntimer_seconds = 20\n[apps.chat]\ntimer_seconds = \"x\"\n",
                                             path: "c")
        XCTAssertEqual(empty.warnings, [
            "c:1: categories selects nothing; showing every kind",
            "c:2: breathing must be a string in quotes; ignoring it",
            "c:3: sites must hold only strings in quotes; ignoring it",
            "c:6: apps.chat.timer_seconds must be a whole number from 15 to 45; using 30",
        ])
        XCTAssertEqual(empty.config.apps["chat"]?.timerSeconds, 30, "a wrong app timer takes the default, not the global timer")
    }
}
