import Foundation
import XCTest
@testable import MigaCore
import MigaTestSupport

/// DESIGN "Time and friction": "Do this instead", the typed challenge and loosening that
/// waits, as the session, the loader, the editor and `ConfigInForce` decide them.
final class FrictionTests: XCTestCase {
    let second: UInt64 = 1_000_000_000
    let start: UInt64 = 5_000_000_000

    // MARK: - The session

    func testAnAlternativeIsAnExitThatKeepsItsLabelAndIsFreeBeforeTheCountdown() {
        var gate = GateSession(app: "discord", timerSeconds: 30, item: .sample("a"), startedAt: start,
                               alternatives: ["Read a chapter", "Walk", "Call Mum", "A fourth is never shown"])
        XCTAssertEqual(gate.alternatives.count, 3, "at most three, keys 1…3")
        XCTAssertEqual(gate.chooseAlternative(4, at: start + second), [], "no fourth key")
        XCTAssertEqual(gate.chooseAlternative(0, at: start + second), [])
        XCTAssertNil(gate.outcome)
        let effects = gate.chooseAlternative(2, at: start + 3 * second)
        XCTAssertEqual(effects, [.record(.exitSelected, contentID: nil, waitMilliseconds: 3000, detail: #"{"alternative":"Walk"}"#),
                                 .finish(.exit)])
        XCTAssertEqual(gate.chosenAlternative, 2)
        XCTAssertEqual(gate.chooseAlternative(1, at: start + 4 * second), [], "one choice per gate")
    }

    func testTheChallengeComesFirstThenTheIntentionAndOnlyTheExactSentenceOpens() {
        var gate = GateSession(app: "discord", timerSeconds: 15, item: .sample("a"), startedAt: start, asksIntention: true,
                               challenge: "I am opening discord on purpose")
        let after = start + 15 * second
        _ = gate.tick(at: after)
        _ = gate.choose(.open, at: after)
        XCTAssertTrue(gate.askingChallenge)
        XCTAssertFalse(gate.askingIntention)
        XCTAssertFalse(gate.answerChallenge("I am opening discord on purpose.", at: after).accepted, "a full stop is not the sentence")
        XCTAssertFalse(gate.answerChallenge("i am opening discord on purpose", at: after).accepted, "nor another case")
        XCTAssertTrue(gate.askingChallenge)
        gate.withdrawQuestion()
        XCTAssertFalse(gate.isAsking, "Esc goes back")
        _ = gate.choose(.open, at: after)
        XCTAssertTrue(gate.askingChallenge, "and Open asks again")
        let typed = gate.answerChallenge("I am opening discord on purpose", at: after)
        XCTAssertTrue(typed.accepted)
        XCTAssertEqual(typed.effects, [])
        XCTAssertTrue(gate.askingIntention, "the intention follows")
        let opened = gate.answer("reply to Sam", at: after + second)
        XCTAssertEqual(opened.last, .finish(.open))
        XCTAssertEqual(opened.first, .record(.openSelected, contentID: nil, waitMilliseconds: 16_000,
                                             detail: #"{"intention":"reply to Sam","challenge":true}"#))
    }

    func testThePlanAsksTheSentenceForTheAppsOwnChallengeAndShowsItsAlternatives() throws {
        let loaded = try ConfigLoader().parse("""
            [apps.discord]
            command = "true"
            challenge = "type"

            [[alternative]]
            label = "Read"
            command = "foliate ~/book.epub"

            [[alternative]]
            label = "Only slack's"
            url = "https://example.org/"
            apps = ["slack"]
            """, path: "c")
        let day = LocalMoment(unixMilliseconds: 1_795_000_000_000, offsetMinutes: 0)
        let discord = GatePlan(config: loaded.config, app: "discord", isSite: false, at: day, history: AppHistory())
        XCTAssertEqual(discord.challenge, "I am opening discord on purpose")
        XCTAssertEqual(discord.alternatives.map(\.label), ["Read"])
        let slack = GatePlan(config: loaded.config, app: "slack", isSite: false, at: day, history: AppHistory())
        XCTAssertNil(slack.challenge, "challenge is discord's alone")
        XCTAssertEqual(slack.alternatives.map(\.label), ["Read", "Only slack's"])
    }

    // MARK: - [[alternative]] tables

    func testEachBrokenAlternativeIsOneWarningAtItsLineAndTheRestRead() throws {
        let loaded = try ConfigLoader().parse("""
            [[alternative]]
            label = "Read a chapter"
            command = ["foliate", "/home/me/book.epub"]

            [[alternative]]
            label = "No target"

            [[alternative]]
            label = "Both"
            command = "true"
            url = "https://example.org/"

            [[alternative]]
            label = "Bad link"
            url = "javascript:alert(1)"

            [[alternative]]
            label = "Walk\\u001b[31m"
            url = "https://example.org/walk"
            sites = ["Reddit.com"]
            colour = "green"
            """, path: "config.toml")
        XCTAssertEqual(loaded.config.alternatives.map(\.label), ["Read a chapter", "Walk[31m"], "control characters are dropped")
        XCTAssertEqual(loaded.config.alternatives.map(\.index), [1, 5], "numbered as the file has them")
        XCTAssertEqual(loaded.config.alternatives[0].action, .command(["foliate", "/home/me/book.epub"]))
        XCTAssertEqual(loaded.config.alternatives[1].sites, ["reddit.com"])
        XCTAssertTrue(loaded.config.alternatives[1].applies(to: "reddit.com"))
        XCTAssertFalse(loaded.config.alternatives[1].applies(to: "discord"))
        let warnings = loaded.warnings
        XCTAssertEqual(warnings.count, 4, "\(warnings)")
        XCTAssertTrue(warnings.contains { $0.hasPrefix("config.toml:6: [[alternative]] 2: give a command") }, "\(warnings)")
        XCTAssertTrue(warnings.contains { $0.hasPrefix("config.toml:11: [[alternative]] 3: give a command or a url, not both") }, "\(warnings)")
        XCTAssertTrue(warnings.contains { $0.hasPrefix("config.toml:15: [[alternative]] 4: url must be an http or https link") }, "\(warnings)")
        XCTAssertTrue(warnings.contains { $0.contains("unknown key \"colour\"") }, "\(warnings)")
        // An alternative that is not a table at all.
        let notTables = try ConfigLoader().parse("alternative = \"walk\"\n", path: "c")
        XCTAssertEqual(notTables.config.alternatives, [])
        XCTAssertEqual(notTables.warnings.count, 1)
    }

    func testShowWritesAlternativesBackAsTheyWereWritten() throws {
        let text = """
            [[alternative]]
            label = "Read"
            command = "foliate ~/book.epub"
            apps = ["discord"]

            [[alternative]]
            label = "Walk"
            command = ["xdg-open", "/home/me/walk map.pdf"]
            """
        let config = try ConfigLoader().parse(text, path: "c").config
        let shown = ConfigFile.show(config)
        XCTAssertTrue(shown.hasSuffix(text + "\n"), shown)
        XCTAssertEqual(try ConfigLoader().parse(shown, path: "c").config.alternatives, config.alternatives, "shown is read back the same")
        XCTAssertEqual(config.alternatives[1].summary, "2. Walk: xdg-open '/home/me/walk map.pdf'")
    }

    func testTheEditorAddsAndRemovesAlternativesKeepingEverythingElse() throws {
        let text = "# mine\ntimer_seconds = 20\n\n[apps.discord]\ncommand = \"true\"\n\n[[alternative]]\nlabel = \"One\"\nurl = \"https://example.org/1\"\n# the second\n[[alternative]]\nlabel = \"Two\"\ncommand = \"true\"\n"
        let shell = try ConfigShell(text: text, path: "c", commandExists: { _ in true })
        XCTAssertEqual(shell.execute(#"alternative add "Read a chapter" --command "foliate ~/book.epub" --app discord"#),
                       .say("3. Read a chapter: foliate ~/book.epub (only discord) will be on the gates; `save` writes it."))
        XCTAssertEqual(shell.config.alternatives.map(\.label), ["One", "Two", "Read a chapter"])
        XCTAssertEqual(shell.execute(#"alternative add "X" --url ftp://example.org"#),
                       .say("alternative: url must be an http or https link, like \"https://example.org/\""))
        XCTAssertEqual(shell.execute(#"alternative add "X" --command "true" --app slack"#),
                       .say("no app \"slack\" in the config (discord); add it with `miga config apps add slack`"))
        XCTAssertEqual(shell.execute("alternative add X"),
                       .say("an alternative opens a command or a link: give --command CMD or --url URL (one of them)"))
        XCTAssertEqual(shell.execute("alternative remove one"), .say("One will no longer be on the gates; `save` writes it."))
        XCTAssertEqual(shell.config.alternatives.map(\.label), ["Two", "Read a chapter"])
        XCTAssertEqual(shell.execute("alternative remove 9"),
                       .say("no alternative \"9\" (1. Two, 2. Read a chapter); `miga config alternatives list` numbers them"))
        XCTAssertTrue(shell.editor.text.hasPrefix("# mine\ntimer_seconds = 20\n\n[apps.discord]\ncommand = \"true\"\n# the second\n[[alternative]]\nlabel = \"Two\""),
                      shell.editor.text)
        XCTAssertEqual(ConfigShell.quotedWords(#"add "a \"b\" c" d  "" e"#), ["add", "a \"b\" c", "d", "", "e"])
        XCTAssertEqual(shell.completions(before: ["alternative", "add", "Read", "--app"], word: "", installedNames: { [] }), ["discord"])
    }

    // MARK: - Loosening

    func config(_ text: String) throws -> MigaConfig { try ConfigLoader().parse(text, path: "c").config }

    func testALooseningWaitsATighteningDoesNotAndEachWaitIsItsOwn() throws {
        let settled = try config("timer_seconds = 30\nloosen_delay_minutes = 30\nopens_per_day = 3\nsites = [\"reddit.com\", \"x.com\"]\n[apps.discord]\ncommand = \"true\"\n")
        let now: Int64 = 1_795_000_000_000
        // Shorter timer, one site and the app gone: all wait. A smaller allowance and a new
        // site tighten: at once.
        let wanted = try config("timer_seconds = 20\nloosen_delay_minutes = 30\nopens_per_day = 2\nsites = [\"reddit.com\", \"example.org\"]\n")
        let first = Loosening.resolve(wanted: wanted, settled: settled, pending: [], now: now)
        XCTAssertEqual(first.config.timerSeconds, 30)
        XCTAssertNotNil(first.config.apps["discord"])
        XCTAssertEqual(SiteMatcher(sites: first.config.sites).sites.sorted(), ["example.org", "reddit.com", "x.com"])
        XCTAssertEqual(first.config.opensPerDay, 2, "a smaller allowance is at once")
        XCTAssertEqual(first.pending.map(\.setting.name).sorted(), ["apps.discord", "sites: x.com", "timer_seconds"])
        XCTAssertTrue(first.pending.allSatisfy { $0.applies == now + 30 * 60_000 })
        XCTAssertEqual(first.applied, [])

        // A minute before its end it still waits; at its end it applies and is said once.
        let before = Loosening.resolve(wanted: wanted, settled: first.config, pending: first.pending, now: now + 29 * 60_000)
        XCTAssertEqual(before.config.timerSeconds, 30)
        XCTAssertEqual(before.pending, first.pending, "the wait is not restarted by looking")
        let after = Loosening.resolve(wanted: wanted, settled: before.config, pending: before.pending, now: now + 30 * 60_000)
        XCTAssertEqual(after.config.timerSeconds, 20)
        XCTAssertNil(after.config.apps["discord"])
        XCTAssertEqual(after.pending, [])
        XCTAssertEqual(after.applied.map(\.setting.name).sorted(), ["apps.discord", "sites: x.com", "timer_seconds"])

        // Changed again while waiting: a new wait for the new value.
        let again = try config("timer_seconds = 15\nloosen_delay_minutes = 30\nopens_per_day = 3\nsites = [\"reddit.com\", \"x.com\"]\n[apps.discord]\ncommand = \"true\"\n")
        let renewed = Loosening.resolve(wanted: again, settled: first.config, pending: first.pending, now: now + 10 * 60_000)
        let timer = try XCTUnwrap(renewed.pending.first { $0.setting == .key("timer_seconds") })
        XCTAssertEqual(timer.to, "15")
        XCTAssertEqual(timer.applies, now + 40 * 60_000)
    }

    func testEveryKindOfLooseningIsSeenAndLoweringTheDelayWaitsToo() throws {
        let base = "loosen_delay_minutes = 60\nintention = true\nask_minutes = true\ngrace_minutes = 5\nchallenge = \"type\"\nescalate_seconds = 10\n"
        let settled = try config(base + "[apps.discord]\ncommand = \"true\"\ntimer_seconds = 40\n")
        let cases: [(String, String)] = [
            ("intention = true", "intention = false"), ("ask_minutes = true", "ask_minutes = false"),
            ("grace_minutes = 5", "grace_minutes = 6"), ("challenge = \"type\"", "challenge = \"off\""),
            ("escalate_seconds = 10", "escalate_seconds = 0"), ("loosen_delay_minutes = 60", "loosen_delay_minutes = 0"),
        ]
        for (from, to) in cases {
            let wanted = try config(base.replacingOccurrences(of: from, with: to) + "[apps.discord]\ncommand = \"true\"\ntimer_seconds = 40\n")
            let outcome = Loosening.resolve(wanted: wanted, settled: settled, pending: [], now: 0)
            XCTAssertEqual(outcome.pending.count, 1, to)
            XCTAssertEqual(outcome.config, settled, "\(to) waits")
        }
        let shorterForOneApp = try config(base + "[apps.discord]\ncommand = \"true\"\ntimer_seconds = 20\n")
        XCTAssertEqual(Loosening.resolve(wanted: shorterForOneApp, settled: settled, pending: [], now: 0).pending.map(\.setting.name),
                       ["apps.discord.timer_seconds"])
        let noGateHours = try config(base + "[apps.discord]\ncommand = \"true\"\ntimer_seconds = 40\n[[schedule]]\ndays = \"daily\"\nfrom = \"09:00\"\nto = \"17:00\"\ngate = false\n")
        let hours = Loosening.resolve(wanted: noGateHours, settled: settled, pending: [], now: 0)
        XCTAssertEqual(hours.pending.map(\.setting), [.schedules])
        XCTAssertEqual(hours.config.schedules, [], "hours without a gate wait")
        let stricterHours = try config(base + "[apps.discord]\ncommand = \"true\"\ntimer_seconds = 40\n[[schedule]]\ndays = \"daily\"\nfrom = \"09:00\"\nto = \"17:00\"\ntimer_seconds = 45\n")
        XCTAssertEqual(Loosening.resolve(wanted: stricterHours, settled: settled, pending: [], now: 0).config.schedules.count, 1,
                       "stricter hours are at once")
        // What does not loosen anything (how the gate looks) is at once.
        let looks = try config(base.replacingOccurrences(of: "intention = true", with: "intention = true\nbreathing = \"off\"\nanimations = false")
                               + "[apps.discord]\ncommand = \"true\"\ntimer_seconds = 40\n")
        XCTAssertEqual(Loosening.resolve(wanted: looks, settled: settled, pending: [], now: 0).pending, [])
    }

    func testTheStateSurvivesItsFileAndHostileFilesAreNotBelieved() throws {
        let pending = [Loosening.Pending(setting: .appKey("discord", "timer_seconds"), from: "40", to: "20", since: 1, applies: 2),
                       Loosening.Pending(setting: .siteKey("reddit.com", "opens_per_day"), from: "2", to: "0", since: 3, applies: 4, cancelled: true),
                       Loosening.Pending(setting: .schedules, from: "1 table", to: "2 tables", since: 5, applies: 6)]
        let state = Loosening.State(settled: "timer_seconds = 30\n", pending: pending, retired: ["slack"])
        XCTAssertEqual(Loosening.State(json: state.json), state)
        for hostile in ["", "null", "{\"version\":2,\"settled\":\"\",\"pending\":[]}", "{\"version\":1,\"settled\":7,\"pending\":[]}",
                        "{\"version\":1,\"settled\":\"\",\"pending\":[{\"setting\":[\"key\",\"x\"],\"from\":\"a\",\"to\":\"b\",\"since\":1e400,\"applies\":2}]}",
                        String(repeating: "[", count: 100_000)] {
            XCTAssertNil(Loosening.State(json: hostile), String(hostile.prefix(60)))
        }
        // An entry that cannot be believed is forgotten (its change then waits anew), the rest kept.
        for entry in ["{\"setting\":[\"key\"],\"from\":\"a\",\"to\":\"b\",\"since\":1,\"applies\":2}",
                      "{\"setting\":[\"key\",\"x\"],\"from\":\"a\",\"to\":\"b\",\"since\":-9223372036854775808,\"applies\":2}"] {
            XCTAssertEqual(Loosening.State(json: "{\"version\":1,\"settled\":\"\",\"pending\":[\(entry)]}")?.pending, [], entry)
        }
        XCTAssertEqual(Loosening.State(json: "{\"version\":1,\"settled\":\"\",\"pending\":[],\"retired\":[\"../x\",\"ok\",3]}")?.retired, ["ok"])
    }

    // MARK: - The config in force, through a temporary home and a fake clock

    func context(_ root: TemporaryDirectory, clock: FakeClock) throws -> MigaContext {
        try TestContext.make(root: root, environment: ["TERM": "dumb"], clock: clock)
    }

    func write(_ text: String, _ context: MigaContext) throws {
        try FileManager.default.createDirectory(atPath: context.paths.configDirectory, withIntermediateDirectories: true)
        try text.write(toFile: context.paths.configFile, atomically: true, encoding: .utf8)
    }

    func testAHandEditedLooseningWaitsForTheClockAndIsRecordedOnceWhenItApplies() throws {
        let root = try TemporaryDirectory()
        let clock = FakeClock()
        let context = try context(root, clock: clock)
        try write("timer_seconds = 40\nloosen_delay_minutes = 30\n[apps.discord]\ncommand = \"true\"\n", context)
        _ = try EventStore(paths: context.paths) // a home that has gated before
        XCTAssertEqual(try ConfigInForce.load(context: context).config.timerSeconds, 40)
        try write("# by hand\ntimer_seconds = 15\nloosen_delay_minutes = 30\n", context)
        let waiting = try ConfigInForce.load(context: context)
        XCTAssertEqual(waiting.config.timerSeconds, 40)
        XCTAssertNotNil(waiting.config.apps["discord"])
        XCTAssertEqual(waiting.pending.map(\.setting.name), ["timer_seconds", "apps.discord"].sorted { $0 > $1 })
        XCTAssertEqual(try String(contentsOfFile: context.paths.configFile, encoding: .utf8).hasPrefix("# by hand\ntimer_seconds = 15"), true,
                       "the file stays as the person wrote it")
        clock.advance(seconds: 29 * 60)
        XCTAssertEqual(try ConfigInForce.load(context: context).config.timerSeconds, 40)
        clock.advance(seconds: 60)
        let applied = try ConfigInForce.load(context: context)
        XCTAssertEqual(applied.config.timerSeconds, 15)
        XCTAssertNil(applied.config.apps["discord"])
        XCTAssertEqual(applied.config.retiredApps, ["discord"], "its gates pass while its shims are still there")
        XCTAssertEqual(applied.pending, [])
        _ = try ConfigInForce.load(context: context)
        let loosened = try EventStore(paths: context.paths).allEvents().filter { $0.type == .settingLoosened }
        XCTAssertEqual(loosened.count, 2, "once each, however often it is loaded")
        XCTAssertEqual(loosened.first { $0.app == "" }?.detail, #"{"setting":"timer_seconds","from":"40","to":"15","waited_minutes":30}"#)
        XCTAssertEqual(loosened.first?.timestamp, clock.milliseconds(clock.now()) - 0, "at the moment the wait ended")

        let service = GateService(config: applied.config, store: try EventStore(paths: context.paths), context: context)
        let recorder = GateRecorder(app: "discord", session: "s", store: service.store, clock: clock)
        XCTAssertEqual(service.admit("discord", recorder: recorder), .removed)
        ConfigInForce.forgetRetired(["discord"], context: context)
        XCTAssertEqual(try ConfigInForce.load(context: context).config.retiredApps, [])
    }

    func testCancelSetsTheFileBackAndAnUnreadableStateWaitsAnew() throws {
        let root = try TemporaryDirectory()
        let clock = FakeClock()
        let context = try context(root, clock: clock)
        try write("# keep me\ntimer_seconds = 40 # mine\nloosen_delay_minutes = 10\nsites = [\"reddit.com\"]\n", context)
        _ = try ConfigInForce.load(context: context)
        try ConfigFile(path: context.paths.configFile).set("timer_seconds", to: "15")
        _ = try GatedSites(context: context).remove("reddit.com")
        XCTAssertEqual(try ConfigInForce.load(context: context).pending.count, 2)
        let dropped = try ConfigInForce.cancelPending(context: context)
        XCTAssertEqual(dropped.map(\.setting.name).sorted(), ["sites: reddit.com", "timer_seconds"])
        XCTAssertEqual(try String(contentsOfFile: context.paths.configFile, encoding: .utf8),
                       "# keep me\ntimer_seconds = 40 # mine\nloosen_delay_minutes = 10\nsites = [\"reddit.com\"]\n")
        clock.advance(seconds: 3600)
        XCTAssertEqual(try ConfigInForce.load(context: context).config.timerSeconds, 40, "nothing applies later")

        // A FIFO where the state was: never opened for a blocking read; its copy applies. Neither
        // to be read: what the file loosens waits anew, from the strictest it can be read as.
        let state = ConfigInForce.statePath(context.paths)
        try? FileManager.default.removeItem(atPath: state)
        XCTAssertEqual(mkfifo(state, 0o600), 0)
        XCTAssertEqual(try ConfigInForce.load(context: context).config.timerSeconds, 40)
        XCTAssertTrue((context.messages as? CollectingSink)?.lines.contains { $0.contains("is what applies") } == true)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: state)[.type] as? FileAttributeType, .typeRegular, "put back")
        try FileManager.default.removeItem(atPath: ConfigInForce.copyPath(context.paths))
        try FileManager.default.removeItem(atPath: state)
        XCTAssertEqual(mkfifo(state, 0o600), 0)
        XCTAssertEqual(try ConfigInForce.load(context: context).config.timerSeconds, MigaConfig.timerRange.upperBound)
        XCTAssertTrue((context.messages as? CollectingSink)?.lines.contains { $0.contains("waits again") } == true)
        clock.advance(seconds: 600)
        XCTAssertEqual(try ConfigInForce.load(context: context).config.timerSeconds, 40)
    }

    func testWithoutADelayNothingIsKeptBesideTheConfig() throws {
        let root = try TemporaryDirectory()
        let context = try context(root, clock: FakeClock())
        try write("timer_seconds = 40\n", context)
        try write("timer_seconds = 15\n", context)
        XCTAssertEqual(try ConfigInForce.load(context: context).config.timerSeconds, 15)
        XCTAssertFalse(FileManager.default.fileExists(atPath: ConfigInForce.statePath(context.paths)))
    }

    // MARK: - Pictures

    func testAnItemsPictureIsOnlyARegularFileOfSaneSizeAndAKnownKind() throws {
        let root = try TemporaryDirectory()
        let environment = ["HOME": root.path]
        let png = PictureSizeTests.pngClaiming(width: 64, height: 48)
        try png.write(to: URL(fileURLWithPath: root.path + "/kids.png"))
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: root.path + "/notes.png"))
        XCTAssertEqual(mkfifo(root.path + "/fifo.png", 0o600), 0)
        XCTAssertTrue(FileManager.default.createFile(atPath: root.path + "/huge.jpg", contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: root.path + "/huge.jpg"))
        try handle.truncate(atOffset: UInt64(ContentImage.fileLimit + 1))
        try handle.close()
        func item(_ image: String?) -> ContentItem {
            ContentItem(id: "a", kind: .quote, category: "c", text: "t", image: image)
        }
        XCTAssertEqual(ContentImage.path(of: item("~/kids.png"), environment: environment), root.path + "/kids.png")
        XCTAssertEqual(ContentImage.dataURL(of: item("~/kids.png"), environment: environment), "data:image/png;base64," + png.base64EncodedString())
        XCTAssertNil(ContentImage.dataURL(of: item("~/notes.png"), environment: environment), "not a picture, whatever its name")
        for skipped in ["~/missing.png", "~/fifo.png", "~/huge.jpg", "relative.png", nil] {
            XCTAssertNil(ContentImage.path(of: item(skipped), environment: environment), skipped ?? "none")
        }
        XCTAssertNil(ContentImage.path(of: item("~/kids.png"), environment: [:]), "no HOME, no ~")
        let report = ContentPack.check("[[items]]\nid = \"a\"\nkind = \"quote\"\ncategory = \"c\"\ntext = \"t\"\nimage = \"kids.png\"\n", name: "p")
        XCTAssertEqual(report.items, [], "a pack's image is absolute or under ~/")
    }

    // MARK: - The week

    func testTheWeeksExitShareIsExitsOfAllPauses() {
        var totals = WeekReport.Totals()
        XCTAssertEqual(totals.exitShare, 0)
        totals.sessions = 4
        totals.exits = 1
        totals.opens = 1
        XCTAssertEqual(totals.exitShare, 0.25, "two of the pauses ended with neither (abandoned, or still grace)")
        XCTAssertEqual(totals.exitRate, 0.5)
    }
}
