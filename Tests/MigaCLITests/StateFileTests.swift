import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// DESIGN "State files are input too", through the built binary: snooze.json and
/// loosening.json with numbers no clock wrote, a loosening record deleted or garbled, a
/// changed TZ, a grace stamp from the future, and `miga snooze` with no terminal and no window.
final class StateFileCLITests: XCTestCase {
    var home: MigaHome!

    override func setUpWithError() throws {
        home = try MigaHome()
    }

    var stateFolder: String { home.home + "/.local/state/miga" }
    var loosening: String { stateFolder + "/loosening.json" }

    func writeState(_ name: String, _ text: String) throws {
        try FileManager.default.createDirectory(atPath: stateFolder, withIntermediateDirectories: true)
        try text.write(toFile: stateFolder + "/" + name, atomically: true, encoding: .utf8)
    }

    /// Not a signal (a trap is SIGILL or SIGTRAP: 132, 133).
    func assertNoTrap(_ output: MigaHome.Output, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertLessThan(output.status, 128, "\(what): \(output.stderr)", file: file, line: line)
    }

    func testOutOfRangeSnoozeNumbersAreNoSnoozeAndNoTrap() throws {
        try home.writeConfig("[apps.discord]\ncommand = \"true\"\n")
        for text in [#"{"until":9223372036854775807,"from":-9223372036854775808}"#,
                     #"{"until":9223372036854775807,"from":9223372036854775000,"apps":[]}"#] {
            try writeState("snooze.json", text)
            let status = try home.miga(["status", "--json"])
            assertNoTrap(status, "status")
            XCTAssertTrue(status.stdout.contains(#""snooze":null"#), status.stdout)
            assertNoTrap(try home.miga(["config", "pending"]), "config pending")
            let gate = try home.miga(["gate", "--app", "discord", "--", home.recorder, "x"])
            assertNoTrap(gate, "gate")
            XCTAssertEqual(home.recordedArguments(), ["x"], "the app opens (no terminal: failed open, not snoozed)")
            XCTAssertNotEqual(try home.events().last?.detail, #"{"snooze":true}"#)
        }
    }

    func testOutOfRangeLooseningNumbersWaitAnewAndNoTrap() throws {
        try home.writeConfig("timer_seconds = 40\nloosen_delay_minutes = 30\n")
        XCTAssertEqual(try home.miga(["config", "get", "timer_seconds"]).stdout, "40\n")
        XCTAssertEqual(try home.miga(["config", "set", "timer_seconds", "20"]).status, 0)
        for (since, applies) in [("-9223372036854775808", "9223372036854775807"), ("0", "0")] {
            for path in [loosening, home.home + "/.local/share/miga/loosening.json"] {
                let text = try String(contentsOfFile: path, encoding: .utf8)
                    .replacingOccurrences(of: #""since":-?\d+,"applies":-?\d+"#, with: "\"since\":\(since),\"applies\":\(applies)",
                                          options: .regularExpression)
                try text.write(toFile: path, atomically: true, encoding: .utf8)
            }
            for arguments in [["status"], ["status", "--json"], ["config", "pending"], ["config", "show"]] {
                assertNoTrap(try home.miga(arguments), "\(arguments)")
            }
            let got = try home.miga(["config", "get", "timer_seconds"])
            XCTAssertEqual(got.stdout, "40\n", "still waiting (\(since), \(applies))")
            XCTAssertTrue(got.stderr.contains("(in 30 min)"), "waits anew, the whole delay: \(got.stderr)")
        }
    }

    func testADeletedOrGarbledLooseningRecordKeepsTheWait() throws {
        try home.writeConfig("timer_seconds = 40\nloosen_delay_minutes = 30\n")
        XCTAssertEqual(try home.miga(["config", "get", "timer_seconds"]).stdout, "40\n")
        XCTAssertEqual(try home.miga(["config", "set", "timer_seconds", "20"]).status, 0)
        try FileManager.default.removeItem(atPath: loosening)
        XCTAssertEqual(try home.miga(["config", "get", "timer_seconds"]).stdout, "40\n", "deleted")
        try "{ not json".write(toFile: loosening, atomically: true, encoding: .utf8)
        let garbled = try home.miga(["config", "get", "timer_seconds"])
        XCTAssertEqual(garbled.stdout, "40\n", "garbled")
        XCTAssertTrue(garbled.stderr.contains("is what applies"), garbled.stderr)
    }

    func testBothLooseningRecordsGarbledMakeTheLooseningWaitAnew() throws {
        try home.writeConfig("timer_seconds = 30\nloosen_delay_minutes = 60\n")
        XCTAssertEqual(try home.miga(["config", "get", "timer_seconds"]).stdout, "30\n", "settled")
        XCTAssertEqual(try home.miga(["config", "set", "timer_seconds", "15"]).status, 0)
        XCTAssertEqual(try home.miga(["config", "get", "timer_seconds"]).stdout, "30\n", "a loosening: it waits")
        let copy = home.home + "/.local/share/miga/loosening.json"
        for path in [loosening, copy] { try "{{{".write(toFile: path, atomically: true, encoding: .utf8) }
        // What was settled is not known: the strictest the file can be read as stands for it.
        let got = try home.miga(["config", "get", "timer_seconds"])
        XCTAssertEqual(got.stdout, "\(MigaConfig.timerRange.upperBound)\n", "still strict, never the 15 that waited: \(got.stderr)")
        XCTAssertTrue(got.stderr.contains("waits again") && got.stderr.contains("miga config pending"), got.stderr)
        let pending = try home.miga(["config", "pending"])
        XCTAssertTrue(pending.stdout.contains("timer_seconds: \(MigaConfig.timerRange.upperBound) → 15"), pending.stdout)
        XCTAssertTrue(pending.stdout.contains("(in 60 min)"), "the whole delay, from now: \(pending.stdout)")
        XCTAssertFalse(pending.stderr.contains("waits again"), "said once: both copies are written again: \(pending.stderr)")
        XCTAssertEqual(try String(contentsOfFile: copy, encoding: .utf8), try String(contentsOfFile: loosening, encoding: .utf8))
    }

    func testALooseningRecordOfALargeConfigIsReadBack() throws {
        // A `"` in a literal string is one byte in config.toml, `\"` as miga writes the config
        // back and `\\\"` in the record: a config under its limit once made a record over its own.
        let command = "true " + String(repeating: "\"", count: 300_000)
        let text = "timer_seconds = 40\nloosen_delay_minutes = 30\n"
            + (0..<2).map { "[apps.a\($0)]\ncommand = '\(command)'\n" }.joined()
        XCTAssertLessThan(text.utf8.count, 1 << 20)
        try home.writeConfig(text)
        XCTAssertEqual(try home.miga(["config", "get", "timer_seconds"]).stdout, "40\n")
        XCTAssertEqual(try home.miga(["config", "set", "timer_seconds", "20"]).status, 0)
        let got = try home.miga(["config", "get", "timer_seconds"])
        XCTAssertEqual(got.stdout, "40\n", got.stderr)
    }

    func testANewTimeZoneDoesNotMoveHoursWithoutAGateOntoNow() throws {
        // Hours without a gate that are now for a clock 12 hours ahead of UTC (TZ="UTC-12").
        let hour = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date()).hour!
        let from = (hour + 11) % 24, to = (hour + 13) % 24
        func clock(_ hour: Int) -> String { (hour < 10 ? "0" : "") + "\(hour):00" }
        try home.writeConfig("""
            loosen_delay_minutes = 30
            [apps.discord]
            command = "true"
            [[schedule]]
            days = "daily"
            from = "\(clock(from))"
            to = "\(clock(to))"
            gate = false
            """)
        XCTAssertEqual(try home.miga(["status"], environment: home.environment(["TZ": "UTC"])).status, 0)
        let moved = try home.miga(["gate", "--app", "discord", "--", home.recorder, "x"], environment: home.environment(["TZ": "UTC-12"]))
        XCTAssertEqual(moved.status, 0, moved.stderr)
        let skipped = try XCTUnwrap(try home.events().last)
        XCTAssertEqual(skipped.detail, #"{"reason":"no_terminal"}"#, "a gate (here failing open for want of a terminal), not the hours' pass")
        let pending = try home.miga(["config", "pending"], environment: home.environment(["TZ": "UTC-12"]))
        XCTAssertTrue(pending.stdout.contains("time zone: UTC+00:00 → UTC+12:00"), pending.stdout)
    }

    func testAGraceStampedInTheFutureIsNotBelievedByTheShim() throws {
        try home.writeConfig("grace_minutes = 60\n[apps.discord]\ncommand = \(shellQuote(home.recorder).replacingOccurrences(of: "'", with: "\""))\n")
        let runtime = home.root + "/run"
        try FileManager.default.createDirectory(atPath: runtime + "/miga/grace", withIntermediateDirectories: true)
        XCTAssertEqual(try home.miga(["install"], environment: home.environment(["XDG_RUNTIME_DIR": runtime])).status, 0)
        // Stamps an Open made while the clock was a day ahead would leave.
        let future = Date().addingTimeInterval(86_400)
        for (name, date) in [("discord.until", future.addingTimeInterval(3600)), ("discord.since", future)] {
            let path = runtime + "/miga/grace/" + name
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
            try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path)
        }
        try FileManager.default.createDirectory(atPath: home.home + "/.local/share/miga/spool", withIntermediateDirectories: true)
        let shim = home.home + "/.local/share/miga/bin/discord"
        let ran = try home.run(shim, ["y"], environment: home.environment(["XDG_RUNTIME_DIR": runtime]))
        XCTAssertEqual(ran.status, 0, ran.stderr)
        XCTAssertEqual(home.recordedArguments(), ["y"])
        XCTAssertEqual(try home.events().last?.type, .gatewaySkipped, "miga decided (no terminal: failed open, recorded), not the shim alone")
    }

    func testASnoozeWithoutTerminalOrWindowStartsNothing() throws {
        try home.writeConfig("sites = []\n[apps.discord]\ncommand = \"true\"\n")
        let snoozed = try home.miga(["snooze", "4h"])
        XCTAssertNotEqual(snoozed.status, 0)
        XCTAssertEqual(snoozed.stderr.split(separator: "\n").count, 1, snoozed.stderr)
        XCTAssertTrue(snoozed.stderr.hasPrefix("miga: nothing was snoozed: a snooze starts only after its pause"), snoozed.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stateFolder + "/snooze.json"))
        XCTAssertTrue(try home.miga(["status", "--json"]).stdout.contains(#""snooze":null"#))
    }
}
