import XCTest
@testable import MigaCore
import MigaTestSupport

/// The gate's decisions (pass-through, grace, fail-open, hand-off) with a fake launcher and
/// clock in a temporary XDG tree. The interactive front ends are covered by MigaCLITests.
final class GatekeeperTests: XCTestCase {
    var root: TemporaryDirectory!
    var clock: FakeClock!
    var launcher: FakeLauncher!
    var messages: CollectingSink!

    override func setUpWithError() throws {
        root = try TemporaryDirectory()
        clock = FakeClock()
        launcher = FakeLauncher()
        messages = CollectingSink()
        _ = try root.write("#!/bin/sh\n", to: "usr/bin/chat", mode: 0o755)
        _ = try root.write("#!/bin/sh\n", to: "usr/bin/fake-term", mode: 0o755)
    }

    func gatekeeper(environment extra: [String: String] = [:], hasTerminal: Bool = false) -> (Gatekeeper, MigaPaths) {
        let context = try! TestContext.make(root: root, environment: ["PATH": root.path + "/usr/bin"].merging(extra) { $1 }, clock: clock,
                                            launcher: launcher, messages: messages, hasTerminal: hasTerminal)
        return (Gatekeeper(context: context), context.paths)
    }

    func events(_ paths: MigaPaths) throws -> [Event] { try EventStore(path: paths.database).allEvents() }

    func testInsideItsOwnGateAnAppPassesStraightThrough() throws {
        let (gate, paths) = gatekeeper(environment: ["MIGA_GATED": "chat"])
        XCTAssertEqual(gate.run(GateRequest(app: "chat", command: ["chat", "--x", ""])), 126)
        XCTAssertEqual(launcher.calls.count, 1)
        XCTAssertEqual(launcher.calls[0].command, ResolvedCommand(executable: root.path + "/usr/bin/chat", arguments: ["chat", "--x", ""]))
        XCTAssertEqual(launcher.calls[0].environment["MIGA_GATED"], "chat")
        XCTAssertFalse(FileManager.default.fileExists(atPath: paths.database), "a pass-through touches no database")
    }

    /// Inside another app's gate (a gated terminal starting chat), or under the old value 1,
    /// chat meets its own gate, and opens with MIGA_GATED naming it.
    func testInsideAnotherAppsGateTheGateRuns() throws {
        for outer in ["term", "1"] {
            launcher.calls = []
            let (gate, paths) = gatekeeper(environment: ["MIGA_GATED": outer])
            _ = gate.run(GateRequest(app: "chat", command: ["chat"], detach: true))
            XCTAssertEqual(try events(paths).last?.type, .gatewaySkipped, "MIGA_GATED=\(outer): the gate ran (and failed open)")
            XCTAssertEqual(launcher.calls.last?.environment["MIGA_GATED"], "chat")
        }
    }

    /// The trial's 72 hours start at the first gate of an app or site the person chose: a gate
    /// of an app they never added (`make demo`'s) starts nothing.
    func testTheTrialStartsAtTheFirstGateOfAChosenAppOrSiteOnly() throws {
        let (gate, paths) = gatekeeper()
        let entitlement = paths.configDirectory + "/entitlement.json"
        _ = try root.write("sites = [\"reddit.com\"]\n[apps.chat]\ncommand = \"chat\"\n", to: "home/.config/miga/config.toml")
        _ = gate.run(GateRequest(app: "demo", command: ["chat"], detach: true))
        XCTAssertFalse(try events(paths).isEmpty, "the demo met its gate")
        XCTAssertFalse(FileManager.default.fileExists(atPath: entitlement), "the demo's gate starts no trial")
        XCTAssertEqual(EntitlementStore(path: entitlement, clock: clock).status().state, .trialNotStarted)

        clock.advance(seconds: 3600)
        _ = gate.run(GateRequest(app: "chat", command: ["chat"], detach: true))
        XCTAssertEqual(EntitlementStore(path: entitlement, clock: clock).status().state,
                       .trial(endsAt: clock.now().addingTimeInterval(72 * 3600), remaining: 72 * 3600), "chat's gate started it")

        try FileManager.default.removeItem(atPath: entitlement)
        _ = gate.run(GateRequest(app: "reddit.com", command: ["chat"], detach: true))
        XCTAssertTrue(FileManager.default.fileExists(atPath: entitlement), "so does a gated site's (open-url)")
    }

    func testMalformedConfigFailsOpenWithItsLineAndRecordsWhy() throws {
        let (gate, paths) = gatekeeper()
        _ = try root.write("timer_seconds = 30\ngrace_minutes = \n", to: "home/.config/miga/config.toml")
        _ = gate.run(GateRequest(app: "chat", command: ["chat"], detach: true))
        XCTAssertEqual(launcher.calls.map(\.command.arguments), [["chat"]])
        XCTAssertTrue(launcher.calls[0].detached)
        XCTAssertEqual(messages.lines.count, 1, messages.lines.joined(separator: "\n"))
        XCTAssertTrue(messages.lines[0].contains("config.toml:2:"), messages.lines[0])
        XCTAssertTrue(messages.lines[0].hasSuffix("opening chat without a pause"))
        let recorded = try events(paths)
        XCTAssertEqual(recorded.map(\.type), [.gatewaySkipped])
        XCTAssertEqual(recorded[0].detail, #"{"reason":"config_error"}"#)
        XCTAssertEqual(recorded[0].utcOffsetMinutes, 60)
        XCTAssertEqual(recorded[0].timestamp, 1_795_000_000_000)
    }

    func testNoTerminalAndNoGraphicalSessionFailsOpen() throws {
        let (gate, paths) = gatekeeper()
        _ = gate.run(GateRequest(app: "chat", command: ["chat", "a b"]))
        XCTAssertEqual(launcher.calls.map(\.command.arguments), [["chat", "a b"]])
        XCTAssertFalse(launcher.calls[0].detached, "without --detach the app is exec'd")
        XCTAssertEqual(try events(paths).map(\.detail), [#"{"reason":"no_terminal"}"#])
    }

    func testNoTerminalWithAGraphicalSessionOpensOneRunningADetachedGate() throws {
        let (gate, paths) = gatekeeper(environment: ["DISPLAY": ":0", "TERMINAL": "fake-term"])
        // The emulator shows the inner gate, which reports at the path it was given.
        var reportPath: String?
        launcher.onSpawn = { command in
            let arguments = command.arguments
            guard let index = arguments.firstIndex(of: "--handoff"), index + 1 < arguments.count else { return }
            reportPath = arguments[index + 1]
            XCTAssertTrue(HandOffReport.reportShown(arguments[index + 1]))
        }
        XCTAssertEqual(gate.run(GateRequest(app: "chat", command: ["chat", "--flag", "a b"], plain: true)), 0)
        XCTAssertEqual(launcher.calls.count, 1, "the emulator only: the app opens from the inner gate")
        XCTAssertTrue(launcher.calls[0].detached)
        let report = try XCTUnwrap(reportPath)
        XCTAssertEqual(launcher.calls[0].command.arguments, [
            "fake-term", "-e", "/opt/miga/bin/miga", "gate", "--app", "chat", "--detach", "--plain", "--handoff", report,
            "--", "chat", "--flag", "a b",
        ])
        XCTAssertFalse(FileManager.default.fileExists(atPath: report), "the report file is removed after use")
        XCTAssertNil(launcher.calls[0].environment["MIGA_GATED"], "the inner gate must not pass through")
        XCTAssertEqual(try events(paths), [], "the inner gate records the session")
    }

    /// An emulator that never shows the gate (no display, broken) counts as none: after the
    /// wait the app opens, once, and the report file is gone, so a late inner gate ends.
    func testAnEmulatorThatNeverShowsTheGateFailsOpen() throws {
        let (gate, paths) = gatekeeper(environment: ["DISPLAY": ":0", "TERMINAL": "fake-term"])
        gate.handOffSeconds = 0.2
        _ = gate.run(GateRequest(app: "chat", command: ["chat", "x"]))
        XCTAssertEqual(launcher.calls.map(\.detached), [true, false], "the emulator, then the app itself")
        XCTAssertEqual(launcher.calls.last?.command.arguments, ["chat", "x"])
        XCTAssertEqual(try events(paths).map(\.detail), [#"{"reason":"no_terminal"}"#])
        let report = try XCTUnwrap(launcher.calls[0].command.arguments.drop { $0 != "--handoff" }.dropFirst().first)
        XCTAssertFalse(HandOffReport.isAwaited(report), "a late inner gate finds it gone")
        XCTAssertFalse(HandOffReport.reportShown(report))
    }

    func testGraceAfterAnOpenPassesThroughThenExpires() throws {
        let runtime = root.path + "/run"
        let (gate, paths) = gatekeeper(environment: ["DISPLAY": "", "XDG_RUNTIME_DIR": runtime])
        let store = try EventStore(path: paths.database)
        let opened = clock.wall
        try store.record(Event(timestamp: Int64(clock.wall.timeIntervalSince1970 * 1000), utcOffsetMinutes: 60,
                               session: "before", type: .openSelected, app: "chat", waitMilliseconds: 30_000))
        clock.advance(seconds: 4 * 60 + 59)
        _ = gate.run(GateRequest(app: "chat", command: ["chat"]))
        XCTAssertEqual(try events(paths).map(\.type), [.openSelected, .gracePass])
        XCTAssertEqual(launcher.calls.count, 1)
        // The stamps that let the PATH shim decide the rest of this grace alone.
        let until = try FileManager.default.attributesOfItem(atPath: runtime + "/miga/grace/chat.until")[.modificationDate] as? Date
        XCTAssertEqual(until?.timeIntervalSince1970 ?? 0, opened.addingTimeInterval(300).timeIntervalSince1970, accuracy: 0.01)
        XCTAssertTrue(FileManager.default.fileExists(atPath: runtime + "/miga/grace/chat.since"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: paths.dataDirectory + "/spool"), "the shim's spool is made for it")

        clock.advance(seconds: 2) // now past the default 5 minutes
        _ = gate.run(GateRequest(app: "chat", command: ["chat"]))
        XCTAssertEqual(try events(paths).map(\.type), [.openSelected, .gracePass, .gatewaySkipped],
                       "after grace the gate runs again (here: no terminal, so it fails open)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: runtime + "/miga/grace/chat.until"), "an ended grace's stamps go")

        _ = gatekeeper().0.run(GateRequest(app: "other", command: ["chat"]))
        XCTAssertEqual(try events(paths).last?.type, .gatewaySkipped, "grace is per app")
    }

    /// Hours with `gate = false` pass straight through, recorded as skipped for `schedule`;
    /// outside them (or for an app the table does not name) the gate runs.
    func testAScheduleWithoutAGatePassesThroughInItsHoursOnly() throws {
        let (gate, paths) = gatekeeper()
        // The fake clock's now is Wednesday 12:06 at +01:00.
        _ = try root.write("[apps.chat]\ncommand = \"chat\"\n\n[[schedule]]\ndays = \"wed\"\nfrom = \"12:00\"\nto = \"12:10\"\ngate = false\napps = [\"chat\"]\n",
                           to: "home/.config/miga/config.toml")
        XCTAssertEqual(gate.run(GateRequest(app: "chat", command: ["chat", "x"])), 126, "FakeLauncher's exec throws")
        XCTAssertEqual(launcher.calls.map(\.command.arguments), [["chat", "x"]])
        XCTAssertEqual(launcher.calls[0].environment["MIGA_GATED"], "chat")
        XCTAssertEqual(messages.lines, ["miga: Exec()"], "a chosen pass is not a fault: nothing to say (but the fake exec's throw)")
        XCTAssertEqual(try events(paths).map(\.type), [.gatewaySkipped])
        XCTAssertEqual(try events(paths).last?.detail, #"{"reason":"schedule"}"#)

        _ = gate.run(GateRequest(app: "other", command: ["chat"]))
        XCTAssertEqual(try events(paths).last?.detail, #"{"reason":"no_terminal"}"#, "another app still meets its gate")
        clock.advance(seconds: 4 * 60)
        _ = gate.run(GateRequest(app: "chat", command: ["chat"]))
        XCTAssertEqual(try events(paths).last?.detail, #"{"reason":"no_terminal"}"#, "12:10 is past the table's end")
    }

    /// `weekly_summary = true`: one notification at the first gate of a week, none after.
    func testTheWeeklySummaryGoesOnceAWeek() throws {
        _ = try root.write("#!/bin/sh\n", to: "usr/bin/notify-send", mode: 0o755)
        _ = try root.write("weekly_summary = true\n", to: "home/.config/miga/config.toml")
        let (gate, paths) = gatekeeper(environment: ["DISPLAY": ":0", "MIGA_GATE_WINDOW": ""])
        let store = try EventStore(path: paths.database)
        // Last week: two Exits.
        for day in 7...8 {
            try store.record(Event(timestamp: Int64(clock.wall.timeIntervalSince1970 * 1000) - Int64(day) * 86_400_000,
                                   utcOffsetMinutes: 60, session: "s\(day)", type: .exitSelected, app: "chat", waitMilliseconds: 20_000))
        }
        func notifications() -> [[String]] {
            launcher.calls.filter { $0.command.arguments.count == 4 && $0.command.arguments[2].hasPrefix("miga · your week") }
                .map(\.command.arguments)
        }
        clock.advance(seconds: 4 * 86_400) // Sunday 22 November: the week before this one was 9–15
        _ = gate.run(GateRequest(app: "chat", command: ["chat"], detach: true))
        XCTAssertEqual(notifications().count, 1)
        XCTAssertEqual(notifications().first?[2], "miga · your week 2026-11-09 – 2026-11-15")
        XCTAssertTrue(notifications().first?[3].hasPrefix("2 exits, 0 opens (last week 0 and 0)") == true, notifications().first?[3] ?? "")
        _ = gate.run(GateRequest(app: "chat", command: ["chat"], detach: true))
        XCTAssertEqual(notifications().count, 1, "once a week")
        clock.advance(seconds: 86_400) // Monday 23 November (still in the trial)
        _ = gate.run(GateRequest(app: "chat", command: ["chat"], detach: true))
        XCTAssertEqual(notifications().count, 2)
        XCTAssertEqual(notifications().last?[2], "miga · your week 2026-11-16 – 2026-11-22")
    }

    /// A grace the shim may decide alone never outlasts the trial: after it, miga must decide
    /// (and record the skip as the trial's).
    func testTheShimsGraceEndsWithTheTrial() throws {
        let runtime = root.path + "/run"
        _ = try root.write("{\"kind\":\"trial\",\"trial_started\":\"2026-11-15T11:08:40.000Z\"}\n",
                           to: "home/.config/miga/entitlement.json") // ends two minutes after the fake now
        let (gate, paths) = gatekeeper(environment: ["XDG_RUNTIME_DIR": runtime])
        try EventStore(path: paths.database).record(Event(timestamp: Int64(clock.wall.timeIntervalSince1970 * 1000), utcOffsetMinutes: 60,
                                                          session: "s", type: .openSelected, app: "chat"))
        let trialEnd = clock.wall.addingTimeInterval(120)
        clock.advance(seconds: 10)
        _ = gate.run(GateRequest(app: "chat", command: ["chat"]))
        XCTAssertEqual(try events(paths).last?.type, .gracePass)
        let until = try FileManager.default.attributesOfItem(atPath: runtime + "/miga/grace/chat.until")[.modificationDate] as? Date
        XCTAssertEqual(until?.timeIntervalSince1970 ?? 0, trialEnd.timeIntervalSince1970, accuracy: 0.01)
    }

    func testGraceZeroDisablesIt() throws {
        let (gate, paths) = gatekeeper()
        _ = try root.write("grace_minutes = 0\n", to: "home/.config/miga/config.toml")
        try EventStore(path: paths.database).record(Event(timestamp: Int64(clock.wall.timeIntervalSince1970 * 1000),
                                                          utcOffsetMinutes: 0, session: "s", type: .openSelected, app: "chat"))
        _ = gate.run(GateRequest(app: "chat", command: ["chat"]))
        XCTAssertEqual(try events(paths).map(\.type), [.openSelected, .gatewaySkipped])
    }

    func testUnusableDatabaseFailsOpen() throws {
        let (gate, paths) = gatekeeper()
        _ = try root.write(String(repeating: "not sqlite ", count: 200), to: "home/.local/share/miga/miga.sqlite3")
        _ = gate.run(GateRequest(app: "chat", command: ["chat"]))
        XCTAssertEqual(launcher.calls.count, 1)
        XCTAssertTrue(messages.lines.first?.contains("is not a miga database") == true, messages.lines.joined())
        XCTAssertTrue(try String(contentsOfFile: paths.database, encoding: .utf8).hasPrefix("not sqlite"))
    }

    func testUsageErrors() {
        let (gate, _) = gatekeeper()
        XCTAssertEqual(gate.run(GateRequest(command: [])), 64)
        XCTAssertEqual(gate.run(GateRequest(app: "bad/name", command: ["chat"])), 64)
        XCTAssertTrue(messages.lines.last?.contains("--app bad-name") == true, messages.lines.joined())
        XCTAssertEqual(gate.run(GateRequest(command: ["no-such-command-x"])), 127)
        XCTAssertEqual(launcher.calls, [])
    }

    func testAppNameDefaultsToTheCommandsName() throws {
        let (gate, paths) = gatekeeper()
        _ = gate.run(GateRequest(command: [root.path + "/usr/bin/chat"]))
        XCTAssertEqual(try events(paths).map(\.app), ["chat"])
    }
}
