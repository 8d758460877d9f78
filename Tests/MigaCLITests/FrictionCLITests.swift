import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// DESIGN "Time and friction" through the built binary on a terminal: "Do this instead" by
/// key (full screen and plain), the typed challenge (a typo, Backspace, Esc, plain mode), and
/// loosening that waits — by `config` verbs, by the editor and by a hand edit — with the time
/// passing (the stored wait moved back, as a clock would move it), a cancel, a tightening at
/// once, and `uninstall` never delayed. The window's and the browser page's sides are in
/// GateWindowFrictionTests and Tests/Browser.
final class FrictionCLITests: XCTestCase {
    var home: MigaHome!

    override func setUpWithError() throws {
        home = try MigaHome()
    }

    var done: String { home.root + "/alternative-ran" }

    func gate(_ app: String = "discord", plain: Bool = false) throws -> TmuxTerminal {
        let command = "\(shellQuote(home.binary)) gate \(plain ? "--plain " : "")--app \(app) -- \(shellQuote(home.recorder)) x"
        return try TmuxTerminal(home: home, command: command, environment: home.environment(["TZ": "UTC"]))
    }

    func writeAlternatives(_ extra: String = "") throws {
        try home.writeConfig("""
            timer_seconds = 15
            grace_minutes = 0
            \(extra)
            [[alternative]]
            label = "Read a chapter"
            command = "echo read > \(done)"

            [[alternative]]
            label = "Only on slack"
            url = "https://example.org/"
            apps = ["slack"]

            [[alternative]]
            label = "Broken, left out"
            """)
    }

    func testAnAlternativeByItsKeyRunsItInsteadOfTheApp() throws {
        try writeAlternatives()
        let terminal = try gate()
        let screen = terminal.waitFor("Instead: [1] Read a chapter")
        XCTAssertFalse(screen.contains("Only on slack"), "another app's alternative is not shown")
        XCTAssertFalse(screen.contains("Broken"), screen)
        // Free before the countdown ends, as Exit is.
        try terminal.press("1")
        terminal.waitFor("STATUS=0")
        terminal.assertTerminalRestored()
        eventually("the alternative to run") { FileManager.default.fileExists(atPath: done) }
        XCTAssertNil(home.recordedArguments(), "the app is not opened")
        let exit = try XCTUnwrap(try home.events().last { $0.type == .exitSelected })
        XCTAssertEqual(exit.detail, #"{"alternative":"Read a chapter"}"#)
        // `2` is no choice here: only one alternative applies to discord.
        let again = try gate()
        again.waitFor("Instead: [1] Read a chapter")
        try again.press("2")
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertFalse(again.screen().contains("STATUS="), "2 does nothing")
        try again.press("e")
        again.waitFor("STATUS=0")
        XCTAssertEqual(try home.events().last?.detail, nil, "a plain Exit")
    }

    func testPlainModeOffersTheAlternativesAndTakesTheSentenceAsALine() throws {
        try writeAlternatives("challenge = \"type\"")
        let plain = try gate("chat", plain: true)
        let start = plain.waitFor("Or do this instead: 1 = Read a chapter.")
        XCTAssertTrue(start.contains("Open unlocks in 15 s"), start)
        plain.waitForPrompt("Choose: e = Exit, 1 = Read a chapter, n = Read Next, o = Open > ", timeout: 40)
        try plain.enter("o")
        plain.waitFor("Type this to open: I am opening chat on purpose")
        plain.waitForPrompt("> ")
        try plain.enter("I am opening chat on purpose.")
        plain.waitFor("Not quite: type it exactly, \"I am opening chat on purpose\", or an empty line to go back.")
        XCTAssertNil(home.recordedArguments())
        plain.waitForPrompt("> ")
        try plain.enter("I am opening chat on purpose")
        plain.waitFor("STATUS=0")
        XCTAssertEqual(home.recordedArguments(), ["x"])
        XCTAssertEqual(try home.events().last?.detail, #"{"challenge":true}"#)

        let second = try gate("chat", plain: true)
        second.waitForPrompt("Choose: e = Exit, 1 = Read a chapter, n = Read Next, o = Open > ", timeout: 40)
        try second.enter("1")
        second.waitFor("STATUS=0")
        eventually("the alternative to run") { FileManager.default.fileExists(atPath: done) }
        XCTAssertEqual(try home.events().last?.detail, #"{"alternative":"Read a chapter"}"#)
    }

    /// Twenty `alternatives add` at once keep twenty tables (the config's lock), and the file
    /// reads back whole.
    func testConcurrentAlternativesAddKeepEveryOne() throws {
        try home.writeConfig("# mine\ntimer_seconds = 20\n")
        let children = try (1...20).map { number in
            try home.start(home.binary, ["config", "alternatives", "add", "Choice \(number)", "--command", "true"])
        }
        for child in children { XCTAssertEqual(child.wait().status, 0, child.wait().stderr) }
        let listed = try home.miga(["config", "alternatives", "list"])
        XCTAssertEqual(listed.stderr, "")
        XCTAssertEqual(Set(listed.stdout.split(separator: "\n").map { $0.split(separator: ":")[0].split(separator: " ", maxSplits: 1)[1] }),
                       Set((1...20).map { "Choice \($0)"[...] }))
        XCTAssertTrue(try String(contentsOfFile: home.configFile, encoding: .utf8).hasPrefix("# mine\ntimer_seconds = 20\n"))
    }

    /// The sentence on the full screen: a wrong key clears it and says so, Backspace erases,
    /// Enter before its end does nothing, Esc goes back, and only the exact sentence opens.
    func testTheChallengeOnTheTerminal() throws {
        try home.writeConfig("timer_seconds = 15\ngrace_minutes = 0\n[apps.discord]\ncommand = \"true\"\nchallenge = \"type\"\n")
        let terminal = try gate()
        terminal.waitFor("━  ready", timeout: 40)
        try terminal.press("o")
        let asked = terminal.waitFor("Type this to open:")
        XCTAssertTrue(asked.contains("I am opening discord on purpose"), asked)
        try terminal.press("-l", "I am opx")
        terminal.waitFor("Start again: type it exactly")
        XCTAssertTrue(terminal.screen().contains("> _"), "the field is cleared\n\(terminal.screen())")
        try terminal.press("-l", "I am openi")
        terminal.waitFor("> I am openi_")
        try terminal.press("BSpace")
        terminal.waitFor("> I am open_")
        try terminal.press("-l", "ing discord")
        terminal.waitFor("> I am opening discord_")
        try terminal.press("Enter")
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertTrue(terminal.screen().contains("> I am opening discord_"), "Enter before its end keeps what is typed")
        try terminal.press("Escape")
        terminal.waitFor("[o] Open")
        XCTAssertFalse(terminal.screen().contains("Type this to open:"), "Esc goes back")
        try terminal.press("o")
        terminal.waitFor("> _")
        try terminal.press("-l", "I am opening discord on purpose")
        terminal.waitFor("> I am opening discord on purpose_")
        try terminal.press("Enter")
        terminal.waitFor("STATUS=0")
        terminal.assertTerminalRestored()
        XCTAssertEqual(home.recordedArguments(), ["x"])
        XCTAssertEqual(try home.events().last { $0.type == .openSelected }?.detail, #"{"challenge":true}"#)
    }

    /// An item's picture is for the window and the page: the terminal shows its words alone,
    /// full screen and plain, and never the path.
    func testTheTerminalShowsAPicturesItemAsTextAlone() throws {
        let picture = try home.writeFile("kids.png", "\u{89}PNG not really")
        try home.writeFile("home/.local/share/miga/quotes/mine.toml", """
            [[items]]
            id = "mine-sea"
            kind = "article"
            category = "own"
            title = "The sea at Dunwich"
            text = "Grey water, a long breath."
            image = "\(picture)"
            """)
        try home.writeConfig("timer_seconds = 15\ncategories = [\"articles\"]\n")
        // Every other article counts as shown, so the rotation's next is ours.
        let others = try home.miga(["content", "list", "--kind", "article"]).stdout
            .split(separator: "\n").map { String($0.split(separator: "\t")[0]) }.filter { $0 != "mine-sea" }
        XCTAssertGreaterThan(others.count, 10)
        for plain in [false, true] {
            _ = try home.miga(["gate", "--plain", "--app", "warmup", "--", "/bin/true"], environment: home.environment(["TERM": "dumb"]))
            _ = try home.sqlite("DELETE FROM rotation_shown; DELETE FROM rotation_state; "
                                + others.map { "INSERT INTO rotation_shown VALUES ('\($0)');" }.joined())
            let terminal = try gate(plain: plain)
            let screen = terminal.waitFor("Grey water, a long breath.")
            XCTAssertTrue(screen.contains("The sea at Dunwich"), screen)
            XCTAssertFalse(screen.contains("kids.png") || screen.contains("image"), screen)
            if plain { try terminal.enter("e") } else { try terminal.press("e") }
            terminal.waitFor("STATUS=0")
        }
    }

    // MARK: - Loosening waits

    var state: String { home.home + "/.local/state/miga/loosening.json" }
    var shim: String { home.home + "/.local/share/miga/bin/discord" }

    /// Moves every wait `minutes` into the past, as the clock would across a reboot (the time
    /// since boot that each wait also keeps, against a wall clock that jumps, is another boot's).
    func passTime(minutes: Int) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: state))
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let pending = try XCTUnwrap(object["pending"] as? [[String: Any]])
        object["pending"] = pending.map { entry -> [String: Any] in
            var moved = entry
            for key in ["since", "applies"] { moved[key] = ((entry[key] as? NSNumber)?.int64Value ?? 0) - Int64(minutes) * 60_000 }
            if let boot = entry["boot"] as? [Any], boot.count == 2 { moved["boot"] = ["an earlier boot", boot[1]] }
            return moved
        }
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: state))
    }

    func pendingSettings() throws -> [String] {
        let listed = try home.miga(["config", "pending", "--json"])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let entries = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        return entries.compactMap { $0["setting"] as? String }.sorted()
    }

    func testALooseningByVerbWaitsATighteningDoesNotAndUninstallNeverWaits() throws {
        XCTAssertEqual(try home.miga(["config", "set", "timer_seconds", "30"]).status, 0)
        let added = try home.miga(["config", "apps", "add", "discord", "--command", home.recorder])
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertEqual(try home.miga(["config", "set", "loosen_delay_minutes", "30"]).stdout, "loosen_delay_minutes = 30\n")

        let shorter = try home.miga(["config", "set", "timer_seconds", "20"], environment: home.environment(["TZ": "UTC"]))
        XCTAssertEqual(shorter.status, 0, shorter.stderr)
        // Past 23:30 the time it applies is tomorrow's, and the line names the day.
        XCTAssertNotNil(shorter.stdout.range(of: #"waiting: timer_seconds: 30 → 20 at \d\d:\d\d( on \d{4}-\d\d-\d\d)? \(in 30 min\)"#,
                                             options: .regularExpression),
                        shorter.stdout)
        let got = try home.miga(["config", "get", "timer_seconds"])
        XCTAssertEqual(got.stdout, "30\n", "what applies")
        XCTAssertTrue(got.stderr.hasPrefix("miga: warning: config.toml says 20; timer_seconds: 30 → 20 at "), got.stderr)
        let removed = try home.miga(["config", "apps", "remove", "discord"])
        XCTAssertTrue(removed.stdout.hasPrefix("discord is removed from config.toml; it stays gated until the wait is over:"), removed.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: shim), "its shim stays while the removal waits")
        let listed = try home.miga(["config", "apps", "list"]).stdout
        XCTAssertTrue(listed.hasPrefix("discord\n") && listed.contains("removed from config.toml; gated until the wait is over: apps.discord: gated → not gated at"),
                      listed)
        XCTAssertEqual(try pendingSettings(), ["apps.discord", "timer_seconds"])
        let shown = try home.miga(["config", "show"])
        XCTAssertTrue(shown.stdout.contains("# Waiting (loosen_delay_minutes = 30); what applies until then is below:"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("\ntimer_seconds = 30\n") && shown.stdout.contains("[apps.discord]"), shown.stdout)
        let status = try home.miga(["status", "--json"])
        XCTAssertTrue(status.stdout.contains(#""pending":[{"setting":"apps.discord","from":"gated","to":"not gated","applies":""#)
                      || status.stdout.contains(#""pending":[{"setting":"timer_seconds","from":"30","to":"20","applies":""#), status.stdout)
        XCTAssertTrue(try home.miga(["status"]).stdout.contains(" in 30 min (+1 more)"))

        // Still gated: the gate runs with the settled timer.
        let gated = try gate()
        let screen = gated.waitFor("[e] Exit")
        XCTAssertNotNil(screen.range(of: #"Open in (29|30) s"#, options: .regularExpression), screen)
        try gated.press("e")
        gated.waitFor("STATUS=0")

        // A tightening is at once, and takes the waiting looser value's place.
        XCTAssertEqual(try home.miga(["config", "set", "timer_seconds", "40"]).status, 0)
        XCTAssertEqual(try pendingSettings(), ["apps.discord"])
        XCTAssertTrue(try home.miga(["config", "show"]).stdout.contains("\ntimer_seconds = 40\n"))

        // The wait passes: discord's gate passes (its shim is still there), said as `removed`.
        try passTime(minutes: 31)
        XCTAssertEqual(try pendingSettings(), [])
        let passed = try home.miga(["gate", "--app", "discord", "--", home.recorder, "y"])
        XCTAssertEqual(passed.status, 0, passed.stderr)
        XCTAssertEqual(home.recordedArguments(), ["y"])
        let skipped = try XCTUnwrap(try home.events().last)
        XCTAssertEqual(skipped.type, .gatewaySkipped)
        XCTAssertEqual(skipped.detail, #"{"reason":"removed"}"#)
        let week = try home.miga(["stats", "--week", "--json"])
        XCTAssertTrue(week.stdout.contains(#""loosened":[{"setting":"apps.discord","from":"gated","to":"not gated"}]"#), week.stdout)
        // The next `config apps` change takes its shims away.
        XCTAssertEqual(try home.miga(["config", "apps", "add", "chat", "--command", home.recorder]).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: shim))
        let manifest = try String(contentsOfFile: home.home + "/.local/state/miga/installed.json", encoding: .utf8)
        XCTAssertFalse(manifest.contains("bin/discord"), "the manifest forgets it too\n\(manifest)")
        XCTAssertTrue(manifest.contains("bin/chat"), manifest)

        // `uninstall` is never delayed, whatever waits.
        XCTAssertEqual(try home.miga(["install"]).status, 0)
        XCTAssertEqual(try home.miga(["config", "set", "grace_minutes", "60"]).status, 0)
        XCTAssertEqual(try pendingSettings(), ["grace_minutes"])
        let uninstall = try home.miga(["uninstall"])
        XCTAssertEqual(uninstall.status, 0, uninstall.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.home + "/.local/share/miga/bin/chat"), "shims gone at once")

        for (arguments, said) in [(["config", "set", "loosen_delay_minutes", "-1"], "loosen_delay_minutes must be between 0 and 10080"),
                                  (["config", "set", "loosen_delay_minutes", "soon"], "loosen_delay_minutes must be"),
                                  (["config", "set", "challenge", "maybe"], "challenge must be one of \"off\", \"type\""),
                                  (["config", "alternatives", "add", "Walk", "--url", "file:///etc/passwd"], "alternative: url must be an http or https link"),
                                  (["config", "alternatives", "add", "Walk"], "give --command CMD or --url URL"),
                                  (["config", "alternatives", "remove", "7"], "no alternative \"7\" (none yet)")] {
            let refused = try home.miga(arguments)
            XCTAssertNotEqual(refused.status, 0, "\(arguments)")
            XCTAssertTrue(refused.stderr.contains(said), "\(arguments): \(refused.stderr)")
        }
    }

    /// A snooze loosens every gate it names: with a delay it waits, is listed, lets nothing
    /// through until its start, then runs; `config pending --cancel` drops one still waiting.
    func testASnoozeWaitsOutTheDelayToo() throws {
        try home.writeConfig("loosen_delay_minutes = 30\n[apps.discord]\ncommand = \"true\"\n")
        let snoozed = try home.miga(["snooze", "--begin", "20m", "discord"], environment: home.environment(["TZ": "UTC"]))
        XCTAssertEqual(snoozed.status, 0, snoozed.stderr)
        XCTAssertNotNil(snoozed.stdout.range(of: #"^The snooze of discord waits 30 min \(loosen_delay_minutes\): from \d\d:\d\d until \d\d:\d\d\."#,
                                             options: .regularExpression), snoozed.stdout)
        XCTAssertEqual(try pendingSettings(), ["snooze"])
        XCTAssertTrue(try home.miga(["status", "--json"]).stdout.contains(#""snooze":null"#), "not running yet")

        // Its start comes: the snooze file's times moved back 31 minutes, as the clock would.
        let file = home.home + "/.local/state/miga/snooze.json"
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
        for key in ["from", "until", "requested"] { object[key] = ((object[key] as? NSNumber)?.int64Value ?? 0) - 31 * 60_000 }
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: file))
        XCTAssertEqual(try pendingSettings(), [])
        let passed = try home.miga(["gate", "--app", "discord", "--", home.recorder, "z"])
        XCTAssertEqual(passed.status, 0, passed.stderr)
        XCTAssertEqual(home.recordedArguments(), ["z"])
        XCTAssertEqual(try home.events().last?.detail, #"{"snooze":true}"#)

        // Another, dropped while it waits.
        XCTAssertEqual(try home.miga(["snooze", "--begin", "1h"]).status, 0)
        XCTAssertEqual(try pendingSettings(), ["snooze"])
        XCTAssertEqual(try home.miga(["config", "pending", "--cancel"]).stdout, "Dropped: the snooze that was waiting.\n")
        XCTAssertEqual(try pendingSettings(), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: file))
    }

    func testAHandEditAndTheEditorWaitTooAndCancelSetsTheFileBack() throws {
        let text = "# mine\nloosen_delay_minutes = 30\ngrace_minutes = 5  # short\nintention = true\nsites = [\"reddit.com\"]\n"
        try home.writeConfig(text)
        XCTAssertEqual(try pendingSettings(), [])
        // By hand: a longer grace and no intention wait; the file stays as written.
        let edited = text.replacingOccurrences(of: "grace_minutes = 5", with: "grace_minutes = 60")
            .replacingOccurrences(of: "intention = true", with: "intention = false")
        try home.writeConfig(edited)
        XCTAssertEqual(try pendingSettings(), ["grace_minutes", "intention"])
        XCTAssertEqual(try String(contentsOfFile: home.configFile, encoding: .utf8), edited)
        XCTAssertTrue(try home.miga(["config", "show"]).stdout.contains("\ngrace_minutes = 5\n"))

        // The editor: removing a site waits, and says so on save.
        let editor = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) config", environment: home.environment())
        editor.waitFor("waiting: grace_minutes: 5 → 60 at")
        editor.waitForPrompt(ConfigCLITests.prompt)
        try editor.enter("site remove reddit.com")
        editor.waitFor("reddit.com will no longer be gated.")
        editor.waitForPrompt("*> ")
        try editor.enter(#"alternative add "Read a chapter" --command "foliate ~/book.epub""#)
        editor.waitFor("1. Read a chapter: foliate ~/book.epub will be on the gates")
        editor.waitForPrompt("*> ")
        try editor.enter("save")
        editor.waitFor("waiting: sites: reddit.com: gated → not gated at")
        editor.waitForPrompt("> ")
        try editor.enter("pending")
        editor.waitFor("waiting: intention: true → false at", count: 3)
        editor.waitForPrompt("> ")
        try editor.enter("quit")
        editor.waitFor("STATUS=0")
        XCTAssertEqual(try pendingSettings(), ["grace_minutes", "intention", "sites: reddit.com"])
        let sites = try home.miga(["config", "sites", "list"])
        XCTAssertEqual(sites.stdout, "reddit.com\n", "still gated while its removal waits")
        XCTAssertTrue(sites.stderr.contains("sites: reddit.com: gated → not gated at"), sites.stderr)
        XCTAssertEqual(try home.miga(["config", "alternatives", "list"]).stdout, "1. Read a chapter: foliate ~/book.epub\n")

        // Cancel: nothing waits, and config.toml says what applies again (comments kept).
        let cancelled = try home.miga(["config", "pending", "--cancel"])
        XCTAssertEqual(cancelled.status, 0, cancelled.stderr)
        XCTAssertTrue(cancelled.stdout.contains("Dropped: grace_minutes stays 5 (config.toml is set back)."), cancelled.stdout)
        XCTAssertEqual(try pendingSettings(), [])
        let after = try String(contentsOfFile: home.configFile, encoding: .utf8)
        XCTAssertTrue(after.hasPrefix("# mine\nloosen_delay_minutes = 30\ngrace_minutes = 5  # short\nintention = true\nsites = [\"reddit.com\"]\n"), after)
        XCTAssertEqual(try home.miga(["config", "pending", "--cancel"]).stdout, "Nothing is waiting.\n")
    }
}
