import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// DESIGN "Habits beyond the pause" through the built binary: "3rd time today", the last
/// intention and a longer wait on screen, the question before Open (full screen and plain),
/// `status`, `stats --week` and the config's schedule checks.
/// The cases that need no process of their own run in-process in MigaCommandTests' HabitsCommandTests.
final class HabitsCLITests: XCTestCase, HabitsCase {
    var home: MigaHome!

    override func setUpWithError() throws {
        home = try MigaHome()
    }

    func gate(_ app: String = "discord", plain: Bool = false) throws -> TmuxTerminal {
        let command = "\(shellQuote(home.binary)) gate \(plain ? "--plain " : "")--app \(app) -- \(shellQuote(home.recorder)) x"
        return try TmuxTerminal(home: home, command: command, environment: home.environment(["TZ": "UTC"]))
    }

    /// `opens_per_day` on a terminal: the count left before the countdown, then, past it, the
    /// longest wait and "Open anyway", full screen and plain; a bad value is a clear error.
    func testTheDaysAllowanceOnTheTerminal() throws {
        try home.writeConfig("timer_seconds = 15\ngrace_minutes = 0\n[apps.discord]\nopens_per_day = 2\n")
        try importToday([(.sessionStart, "discord", 90, nil), (.openSelected, "discord", 80, nil)])
        let under = try gate()
        let screen = under.waitFor("[e] Exit")
        XCTAssertTrue(screen.contains("1 of 2 opens left today") && screen.contains("[o] Open in 1"), screen)
        try under.press("e")
        under.waitFor("STATUS=0")

        try importToday([(.sessionStart, "discord", 70, nil), (.openSelected, "discord", 60, nil)])
        let over = try gate()
        let full = over.waitFor("[e] Exit")
        XCTAssertTrue(full.contains("Today's 2 opens are used: Open is still yours, after 45 s"), full)
        XCTAssertNotNil(full.range(of: #"\[o\] Open anyway in 4[45] s"#, options: .regularExpression), full)
        try over.press("e")
        over.waitFor("STATUS=0")
        let plain = try gate(plain: true)
        let lines = plain.waitFor("Open unlocks in 45 s")
        XCTAssertTrue(lines.contains("Today's 2 opens are used"), lines)
        try plain.enter("e")
        plain.waitFor("STATUS=0")

        for bad in ["-1", "101", "three"] {
            let refused = try home.miga(["config", "set", "apps.discord.opens_per_day", bad])
            XCTAssertEqual(refused.status, 1, bad)
            XCTAssertTrue(refused.stderr.hasPrefix("miga: apps.discord.opens_per_day must be"), refused.stderr)
        }
        XCTAssertEqual(try home.miga(["config", "set", "apps.discord.opens_per_day", "--", "3"]).stdout, "apps.discord.opens_per_day = 3\n")
        try home.writeConfig("opens_per_day = -1\n")
        let warned = try home.miga(["config", "show"])
        XCTAssertTrue(warned.stderr.contains("opens_per_day"), warned.stderr)
    }

    /// `miga snooze`: behind its own countdown; Exit there snoozes nothing; Open snoozes, gates
    /// then pass as grace with {"snooze":true}, `status` shows it, `--off` brings gates back;
    /// every bad value is one clear line.
    func testSnoozeBehindItsOwnPauseThenOff() throws {
        try home.writeConfig("timer_seconds = 15\ngrace_minutes = 0\n[apps.chat]\ncommand = \"true\"\n")
        for (arguments, said) in [(["snooze", "0"], "a snooze lasts 5 minutes to 4 hours, not 0"),
                                  (["snooze", "9h"], "a snooze lasts 5 minutes to 4 hours, not 9h"),
                                  (["snooze", "soon"], "\"soon\" is not a duration"),
                                  (["snooze", "20m", "nosuch"], "\"nosuch\" is neither a gated app nor a gated site"),
                                  (["snooze"], "give a duration: miga snooze 20m")] {
            let refused = try home.miga(arguments)
            XCTAssertEqual(refused.status, 1, "\(arguments)")
            XCTAssertTrue(refused.stderr.contains(said), refused.stderr)
        }
        func snoozeThroughItsGate(_ key: String) throws -> String {
            let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) snooze 20m chat reddit.com",
                                            environment: home.environment(["TZ": "UTC"]))
            let screen = terminal.waitFor("[e] Exit")
            XCTAssertTrue(screen.contains("miga · snooze"), screen)
            if key == "o" { terminal.waitFor("━  ready", timeout: 40) }
            try terminal.press(key)
            return terminal.waitFor("STATUS=0")
        }
        _ = try snoozeThroughItsGate("e")
        XCTAssertTrue(try home.miga(["status", "--json"]).stdout.contains("\"snooze\":null"), "Exit snoozes nothing")
        let snoozed = try snoozeThroughItsGate("o")
        XCTAssertTrue(snoozed.contains("Snoozed chat, reddit.com until "), snoozed)

        let passed = try home.miga(["gate", "--app", "chat", "--", home.recorder, "x"], environment: home.environment(["XDG_RUNTIME_DIR": home.root + "/run"]))
        XCTAssertEqual(passed.status, 0, passed.stderr)
        XCTAssertEqual(home.recordedArguments(), ["x"])
        XCTAssertEqual(try home.events().last?.type, .gracePass)
        XCTAssertEqual(try home.events().last?.detail, #"{"snooze":true}"#)
        let stamps = FileManager.default.enumerator(atPath: home.root)?.compactMap { $0 as? String }.filter { $0.hasSuffix("chat.until") } ?? []
        XCTAssertEqual(stamps, [], "a snoozed pass leaves the shim no grace stamp, so --off reaches every launch")
        let status = try home.miga(["status", "--json"]).stdout
        XCTAssertNotNil(status.range(of: #""snooze":\{"until":"[0-9T:.+-]+","apps":\["chat","reddit.com"\]\}"#, options: .regularExpression), status)
        XCTAssertTrue(try home.miga(["status"]).stdout.contains("snoozed chat, reddit.com until "))

        XCTAssertEqual(try home.miga(["snooze", "--off"]).stdout, "The snooze is over: gates are back.\n")
        XCTAssertEqual(try home.miga(["snooze", "--off"]).stdout, "No snooze is running.\n")
        // No grace after a snooze's Open: the next snooze waits behind its own pause again.
        try home.writeConfig("timer_seconds = 15\ngrace_minutes = 30\n[apps.chat]\ncommand = \"true\"\n")
        let again = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) snooze 5m", environment: home.environment())
        XCTAssertTrue(again.waitFor("[e] Exit").contains("miga · snooze"))
        try again.press("e")
        again.waitFor("STATUS=0")
        try home.writeConfig("timer_seconds = 15\ngrace_minutes = 0\n[apps.chat]\ncommand = \"true\"\n")
        _ = try home.miga(["gate", "--app", "chat", "--", home.recorder, "y"])
        XCTAssertNotEqual(try home.events().last?.type, .gracePass, "the gate is back (here: no terminal, so it fails open and says so)")
    }

    /// A snooze's pause is a pause, not an app: with `ask_minutes`, `opens_per_day` and
    /// escalation on, and snoozes earlier today, its gate says no count of times or opens,
    /// waits no longer and asks no "For how long?"; it starts no timebox and no grace (nothing
    /// left in `status` after `--off`); its events carry {"snooze":true} and count in the
    /// day's totals and the streak, in no app's row of `stats` or `stats --week`.
    func testASnoozesPauseIsAPauseNotAnApp() throws {
        try home.writeConfig("""
            timer_seconds = 15\ngrace_minutes = 30\nask_minutes = true\nopens_per_day = 3\nescalate_seconds = 5
            [apps.discord]\ncommand = "true"\n
            """)
        let mark = Event.snoozeDetail
        try importToday([(.sessionStart, "snooze", 300, mark), (.exitSelected, "snooze", 290, mark),
                         (.sessionStart, "snooze", 200, mark), (.openSelected, "snooze", 190, mark)])
        let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) snooze 20m discord",
                                        environment: home.environment(["TZ": "UTC"]))
        let screen = terminal.waitFor("[e] Exit")
        XCTAssertTrue(screen.contains("miga · snooze"), screen)
        for word in ["time today", "opens left", "longer"] { XCTAssertFalse(screen.contains(word), "\(word): \(screen)") }
        XCTAssertNotNil(screen.range(of: #"\[o\] Open in 1[345] s"#, options: .regularExpression), "no escalation: \(screen)")
        terminal.waitFor("━  ready", timeout: 40)
        try terminal.press("o")
        let opened = terminal.waitFor("STATUS=0")
        XCTAssertFalse(opened.contains("For how long?"), opened)
        XCTAssertTrue(opened.contains("Snoozed discord until "), opened)

        let pause = try home.events().filter { $0.app == Snooze.gateName && !$0.session.hasPrefix("s") }
        XCTAssertEqual(Set(pause.map(\.type)), [.sessionStart, .gatewayCompleted, .openSelected])
        for event in pause { XCTAssertTrue(event.detail?.hasPrefix(#"{"snooze":true"#) == true, "\(event)") }
        let status = try home.miga(["status"]).stdout
        XCTAssertTrue(status.contains("snoozed discord until "), status)
        XCTAssertFalse(status.contains("grace") || status.contains(" left"), "no grace, no timebox: \(status)")
        let statusJSON = try home.miga(["status", "--json"]).stdout
        XCTAssertTrue(statusJSON.contains(#""grace":[]"#) && statusJSON.contains(#""timeboxes":[]"#), statusJSON)

        let stats = try home.miga(["stats", "--json"]).stdout
        XCTAssertNotNil(stats.range(of: #""sessions":3,"exits":1,"opens":2,"#, options: .regularExpression), "the day's totals: \(stats)")
        XCTAssertTrue(stats.contains(#""streak":{"current":1,"#), stats)
        XCTAssertTrue(stats.contains(#""apps":[]"#), "no app's row: \(stats)")
        XCTAssertFalse(try home.miga(["stats"]).stdout.contains("snooze"))
        let week = try home.miga(["stats", "--week", "--json"]).stdout
        XCTAssertTrue(week.contains(#""apps":[]"#) && week.contains(#""sessions":3"#), week)
        XCTAssertFalse(try home.miga(["stats", "--week"]).stdout.contains("snooze"))

        XCTAssertEqual(try home.miga(["snooze", "--off"]).stdout, "The snooze is over: gates are back.\n")
        let after = try home.miga(["status"]).stdout
        XCTAssertFalse(after.contains("snooze") || after.contains(" left") || after.contains("grace"), "nothing running: \(after)")
    }

    /// With `loosen_delay_minutes` a snooze waits: its pause says so before the countdown.
    func testASnoozeSaysItWillWaitBeforeItsPause() throws {
        try home.writeConfig("timer_seconds = 15\nloosen_delay_minutes = 1\n[apps.discord]\ncommand = \"true\"\n")
        let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) snooze 20m discord",
                                        environment: home.environment(["TZ": "UTC"]))
        let screen = terminal.waitFor("[e] Exit")
        XCTAssertTrue(screen.contains("The snooze starts 1 minute after Open (loosen_delay_minutes)"), screen)
        try terminal.press("e")
        terminal.waitFor("STATUS=0")
        XCTAssertTrue(try home.miga(["status", "--json"]).stdout.contains(#""snooze":null"#), "Exit snoozes nothing")
    }

    func testTheThirdGateSaysSoAndTheQuestionBeforeOpenKeepsTheAnswer() throws {
        try home.writeConfig("timer_seconds = 15\ngrace_minutes = 0\nintention = true\nescalate_seconds = 5\n")
        try importToday([(.sessionStart, "discord", 90, nil), (.sessionStart, "discord", 60, nil),
                         (.openSelected, "discord", 50, #"{"intention":"check the event"}"#),
                         (.sessionStart, "slack", 40, nil)])
        let terminal = try gate()
        let screen = terminal.waitFor("[e] Exit")
        XCTAssertTrue(screen.contains("3rd time today"), screen)
        XCTAssertTrue(screen.contains("Last time: check the event"), screen)
        XCTAssertTrue(screen.contains("5 s longer: opened once today"), screen)
        let left = screen.range(of: #"Open in \d+ s"#, options: .regularExpression).map { Int(screen[$0].dropFirst(8).dropLast(2)) ?? 0 } ?? 0
        XCTAssertTrue((16...20).contains(left), "15 s and 5 s for today's one Open: \(left)\n\(screen)")

        terminal.waitFor("━  ready", timeout: 40)
        try terminal.press("o")
        terminal.waitFor("What are you here to do?")
        XCTAssertNil(home.recordedArguments(), "Open asks first")
        try terminal.press("-l", "not this")
        terminal.waitFor("> not this_")
        try terminal.press("Escape")
        terminal.waitFor("[o] Open")
        XCTAssertFalse(terminal.screen().contains("What are you here to do?"), "Esc goes back to the choices")
        try terminal.press("o")
        terminal.waitFor("> _")
        // Keys that are choices elsewhere are letters here.
        try terminal.press("-l", "reply to Sam, e n o q")
        terminal.waitFor("> reply to Sam, e n o q_")
        try terminal.press("Enter")
        terminal.waitFor("STATUS=0")
        terminal.assertTerminalRestored()
        XCTAssertEqual(home.recordedArguments(), ["x"])
        let last = try home.events().last
        XCTAssertEqual(last?.type, .openSelected)
        XCTAssertEqual(last?.detail, #"{"intention":"reply to Sam, e n o q"}"#)

        // The next gate of the app shows it.
        let next = try gate()
        let shown = next.waitFor("Last time: reply to Sam, e n o q")
        XCTAssertTrue(shown.contains("4th time today") && shown.contains("10 s longer: opened twice today"), shown)
        try next.press("e")
        next.waitFor("STATUS=0")
    }

    /// `ask_minutes` on the terminal: "For how long?" after the countdown; `2` opens for ten
    /// minutes (the detail, and the grace the next launch gets whatever `grace_minutes` is);
    /// the app is waited for, and when it ends past its minutes (here the app moves its Open
    /// back twelve minutes, the wall clock the timebox is measured by), one line says so and
    /// `timebox_ended` is recorded as `gone`, and the app's status is passed on.
    func testForHowLongOnTheTerminalThenTheLineWhenTheAppRanOver() throws {
        try home.writeConfig("timer_seconds = 15\ngrace_minutes = 0\n[apps.discord]\nask_minutes = true\n")
        let overrun = try home.writeFile("bin/overrun", mode: 0o755, """
            #!/bin/sh
            /usr/bin/sqlite3 \(shellQuote(home.database)) "UPDATE events SET ts = ts - 720000 WHERE type = 'open_selected'"
            echo "app ran: $*"
            exit 3
            """)
        let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) gate --app discord -- \(shellQuote(overrun)) x",
                                        environment: home.environment(["TZ": "UTC"]))
        terminal.waitFor("━  ready", timeout: 40)
        try terminal.press("o")
        let asked = terminal.waitFor("For how long?")
        XCTAssertTrue(asked.contains("[1] 5 min   [2] 10 min   [3] 20 min   [4] 30 min"), asked)
        XCTAssertTrue(asked.contains("Enter 10 min · Esc back · Ctrl-C exit"), asked)
        try terminal.press("Escape")
        terminal.waitFor("[o] Open")
        XCTAssertFalse(terminal.screen().contains("For how long?"), "Esc goes back")
        try terminal.press("o")
        terminal.waitFor("For how long?")
        try terminal.press("2")
        let ended = terminal.waitFor("STATUS=3")
        terminal.assertTerminalRestored()
        XCTAssertTrue(ended.contains("app ran: x"), ended)
        XCTAssertTrue(ended.contains("miga: 12 min in discord; you said 10."), ended)
        let events = try home.events()
        XCTAssertEqual(events.first { $0.type == .openSelected }?.detail, #"{"minutes":10}"#)
        XCTAssertEqual(events.last?.type, .timeboxEnded)
        XCTAssertEqual(events.last?.detail, #"{"minutes":10,"choice":"gone","used":12}"#)

        // Within its minutes: the next launch passes as grace, and nothing is said at its end.
        try home.writeConfig("timer_seconds = 15\ngrace_minutes = 0\n[apps.discord]\nask_minutes = true\ndefault_minutes = 30\n")
        let again = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) gate --app discord -- \(shellQuote(home.recorder)) y",
                                     environment: home.environment(["TZ": "UTC"]))
        again.waitFor("━  ready", timeout: 40)
        try again.press("o")
        again.waitFor("Enter 30 min")
        try again.press("Enter")
        let quiet = again.waitFor("STATUS=0")
        XCTAssertFalse(quiet.contains("you said"), quiet)
        XCTAssertEqual(try home.events().last?.detail, #"{"minutes":30,"choice":"gone","used":0}"#)
        let passed = try home.miga(["gate", "--app", "discord", "--", home.recorder, "z"])
        XCTAssertEqual(passed.status, 0, passed.stderr)
        XCTAssertEqual(home.recordedArguments(), ["z"])
        XCTAssertEqual(try home.events().last?.type, .gracePass, "thirty minutes of grace though grace_minutes = 0")
    }

    func testPlainModeAsksHowLongOnItsOwnLine() throws {
        try home.writeConfig("timer_seconds = 15\nask_minutes = true\n")
        let terminal = try gate("chat", plain: true)
        terminal.waitForPrompt(PlainModeTests.prompt, timeout: 40)
        try terminal.enter("o")
        // Each key apart from its minutes: a screen reader never reads "1 5 min" as "15 min".
        let asked = terminal.waitFor("For how long? 1 = 5 min, 2 = 10 min, 3 = 20 min, 4 = 30 min.")
        XCTAssertFalse(asked.contains("1 5 min"), asked)
        terminal.waitForPrompt("A key, minutes such as 15m, or Enter for 10 min > ")
        try terminal.enter("an hour")
        terminal.waitFor("Please type 1, 2, 3 or 4, minutes such as 15m (1–240), or Enter for 10 min.")
        try terminal.enter("20m")
        terminal.waitFor("STATUS=0")
        XCTAssertEqual(home.recordedArguments(), ["x"])
        XCTAssertEqual(try home.events().first { $0.type == .openSelected }?.detail, #"{"minutes":20}"#)
    }

    /// README says `10m` works: so does any number of minutes in range (`15m`, `45 min`),
    /// kept as typed; out of range (`241m`) asks again.
    func testPlainModeTakesAnyMinutesInRange() throws {
        try home.writeConfig("timer_seconds = 15\nask_minutes = true\n")
        let terminal = try gate("chat", plain: true)
        terminal.waitForPrompt(PlainModeTests.prompt, timeout: 40)
        try terminal.enter("o")
        terminal.waitForPrompt("A key, minutes such as 15m, or Enter for 10 min > ")
        try terminal.enter("241m")
        terminal.waitFor("minutes such as 15m (1–240)")
        try terminal.enter("15m")
        terminal.waitFor("STATUS=0")
        XCTAssertEqual(home.recordedArguments(), ["x"])
        XCTAssertEqual(try home.events().first { $0.type == .openSelected }?.detail, #"{"minutes":15}"#)
        XCTAssertEqual(try home.events().last?.detail, #"{"minutes":15,"choice":"gone","used":0}"#, "the timebox kept the 15")
    }

    /// Small terminals keep what a person must read to act: at 40×10 the day's notes and the
    /// alternative's label while rows are free; "For how long?" with each key's minutes; at
    /// 20×5 the whole sentence to type (the text and the decoration give way first).
    func testSmallTerminalsKeepTheNotesTheMinutesAndTheSentence() throws {
        try home.writeConfig("""
            timer_seconds = 15
            grace_minutes = 0
            opens_per_day = 3
            [apps.slack]
            challenge = "type"
            ask_minutes = true
            [[alternative]]
            label = "Read a chapter"
            command = "true"
            """)
        try importToday([(.sessionStart, "slack", 60, nil), (.openSelected, "slack", 50, nil)])
        func gate(columns: Int, rows: Int) throws -> TmuxTerminal {
            try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) gate --app slack -- \(shellQuote(home.recorder)) x",
                             environment: home.environment(["TZ": "UTC"]), columns: columns, rows: rows)
        }
        func assertFits(_ screen: String, columns: Int, _ what: String) {
            for row in screen.split(separator: "\n") { XCTAssertLessThanOrEqual(DisplayWidth.of(String(row)), columns, "\(what): \(row)") }
        }
        let medium = try gate(columns: 40, rows: 10)
        let countdown = medium.waitFor("e/n/o · 1 instead")
        for expected in ["2nd time today", "2 of 3 opens left today", "Read a chapter"] {
            XCTAssertTrue(countdown.contains(expected), "40×10: \(expected) is missing:\n\(countdown)")
        }
        assertFits(countdown, columns: 40, "40×10")
        medium.waitFor("e/n/o · 1 instead · ready", timeout: 40)
        try medium.press("o")
        medium.waitFor("Type this to open:")
        try medium.press("-l", "I am opening slack on purpose")
        medium.waitFor("purpose_")
        try medium.press("Enter")
        let minutes = medium.waitFor("For how long?")
        for choice in ["[1] 5", "[2] 10", "[3] 20", "[4] 30", "Enter 10 min"] {
            XCTAssertTrue(minutes.contains(choice), "40×10: \(choice) is missing:\n\(minutes)")
        }
        assertFits(minutes, columns: 40, "40×10 minutes")
        try medium.press("Escape")
        medium.waitFor("e/n/o · 1 instead · ready")
        try medium.press("e")
        try eventually("the Exit at 40×10") { try home.events().last?.type == .exitSelected }

        let tiny = try gate(columns: 20, rows: 5)
        tiny.waitFor("e/n/o ready", timeout: 40)
        try tiny.press("o")
        let sentence = tiny.waitFor("> _")
        XCTAssertTrue(sentence.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            .contains("I am opening slack on purpose"), "20×5: the whole sentence to type:\n\(sentence)")
        XCTAssertFalse(sentence.contains("…"), "20×5: nothing cut:\n\(sentence)")
        assertFits(sentence, columns: 20, "20×5")
        try tiny.press("-l", "I am opening slack on purpose")
        tiny.waitFor("purpose_")
        try tiny.press("Enter")
        let asked = tiny.waitFor("Enter 10 min")
        for choice in ["[1] 5", "[2] 10", "[3] 20", "[4] 30"] { XCTAssertTrue(asked.contains(choice), "20×5: \(choice):\n\(asked)") }
        try tiny.press("3")
        try eventually("the Open at 20×5") { try home.events().filter { $0.type == .openSelected }.count == 2 }
        XCTAssertEqual(try home.events().last { $0.type == .openSelected }?.detail, #"{"minutes":20,"challenge":true}"#)
        eventually("the app started") { home.recordedArguments() == ["x"] }
    }

    func testPlainModeAsksOnItsOwnLine() throws {
        try home.writeConfig("timer_seconds = 15\nintention = true\n")
        try importToday([(.sessionStart, "chat", 30, nil)])
        let terminal = try gate("chat", plain: true)
        let start = terminal.waitFor("Open unlocks in")
        XCTAssertTrue(start.contains("miga · chat\n2nd time today"), start)
        terminal.waitForPrompt(PlainModeTests.prompt, timeout: 40)
        try terminal.enter("o")
        terminal.waitForPrompt(Intention.question + " > ")
        try terminal.enter("look up the address")
        terminal.waitFor("STATUS=0")
        XCTAssertEqual(home.recordedArguments(), ["x"])
        XCTAssertEqual(try home.events().last?.detail, #"{"intention":"look up the address"}"#)
    }

}
