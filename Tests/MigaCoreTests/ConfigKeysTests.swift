import Foundation
import XCTest
@testable import MigaCore
import MigaTestSupport

/// `config set` and the editor: values checked before anything is written, one value changed
/// in place, everything else in the file left as the person wrote it.
final class ConfigKeysTests: XCTestCase {
    let file = """
        # my settings
        timer_seconds   = 25   # a bit shorter
        categories = [
            "quotes",     # the classics
            "articles",
        ]

        [apps.signal]
        # keep this
        command = "signal-desktop"

        # the next one
        [apps.matrix]
        command = 'element'
        timer_seconds = 40 # long
        """ + "\n"

    func set(_ key: String, _ value: String, in text: String) throws -> String {
        let config = try ConfigLoader().parse(text, path: "c").config
        let path = try ConfigKeys.resolve(key, in: config)
        var editor = ConfigEditor(text: text)
        XCTAssertTrue(editor.setValue(try ConfigKeys.tomlValue(value, for: path), forKey: path.key, table: path.table))
        return editor.text
    }

    /// The table of keys is the one list: every key in it is read by the loader where its
    /// scope says (no "unknown key": the scope is where its entry has a reader), a value
    /// `config set` accepts for it loads without a warning and reads back as `show` writes it,
    /// and a key outside it is unknown in either place.
    func testTheLoaderReadsExactlyTheKeysOfTheTable() throws {
        func typed(_ key: ConfigKey) -> String {
            switch key.kind {
            case .integer(let range, _): return String(range.upperBound)
            case .flag: return "off"
            case .choice(let choices): return choices.last!
            case .categories: return "articles, quotes"
            case .sites: return "example.com"
            case .someOf(let choices): return choices.joined(separator: ", ")
            case .command: return "true"
            case .text: return "xterm"
            case .folder: return "~/Sync/miga"
            }
        }
        var top = "", app = "[apps.chat]\n"
        for key in ConfigKeys.table {
            if key.scope != .app {
                top += "\(key.name) = \(try ConfigKeys.tomlValue(typed(key), for: ConfigKeyPath(app: nil, key: key.name)))\n"
            }
            if key.scope != .global {
                app += "\(key.name) = \(try ConfigKeys.tomlValue(typed(key), for: ConfigKeyPath(app: "chat", key: key.name)))\n"
            }
        }
        let loaded = try ConfigLoader().parse(top + "\n" + app, path: "config.toml")
        XCTAssertEqual(loaded.warnings, [], top + app)
        for key in ConfigKeys.table where key.scope != .app {
            XCTAssertEqual(ConfigKeys.toml(ConfigKeyPath(app: nil, key: key.name), in: loaded.config),
                           try ConfigKeys.tomlValue(typed(key), for: ConfigKeyPath(app: nil, key: key.name)), key.name)
        }
        let unknown = try ConfigLoader().parse("command = \"x\"\nsnooze = 5\n[apps.chat]\ngrace_minutes = 3\ncolour = 1\n", path: "config.toml")
        XCTAssertEqual(unknown.warnings, ["config.toml:1: unknown key \"command\" ignored", "config.toml:2: unknown key \"snooze\" ignored",
                                          "config.toml:4: grace_minutes is a global key but sits in [apps.chat] (every line below a table header "
                                            + "belongs to it), so it is ignored; move it above the first table, or use `miga config set grace_minutes VALUE`",
                                          "config.toml:5: unknown key \"colour\" in [apps.chat] ignored"])
        XCTAssertEqual(ConfigKeys.topLevel, ["timer_seconds", "grace_minutes", "categories", "extra_categories", "breathing", "animations", "terminal", "sites",
                                             "intention", "escalate_seconds", "opens_per_day", "ask_minutes", "default_minutes", "challenge", "weekly_summary",
                                             "reentry_minutes", "minutes_per_day", "loosen_delay_minutes", "sync_folder", "sync_config"])
        XCTAssertEqual(ConfigKeys.perApp, ["command", "timer_seconds", "intention", "escalate_seconds", "opens_per_day", "ask_minutes",
                                           "default_minutes", "challenge", "reentry_minutes", "minutes_per_day"])
    }

    /// A new entry of the table needs nothing else: for every key, in each scope it has, a
    /// value other than the default that `config set` accepts goes into the file, the loader
    /// reads it and `get` shows it back (and the browser host sends it, for the keys it sends);
    /// an app that leaves a key unset shows the global value.
    func testEveryKeyRoundTripsThroughTheFileInEachScope() throws {
        let base = try ConfigLoader().parse("[apps.chat]\n", path: "c").config
        /// A value `get` shows as typed, other than what it shows for `base`.
        func changed(_ key: ConfigKey, _ path: ConfigKeyPath) -> String {
            let shown = ConfigKeys.display(path, in: base)
            switch key.kind {
            case .integer(let range, _): return String(shown == String(range.upperBound) ? range.lowerBound : range.upperBound)
            case .flag: return String(shown != "true")
            case .choice(let choices): return choices.first { $0 != shown }!
            case .categories: return shown == "articles" ? "quotes" : "articles"
            case .sites: return "example.com"
            case .someOf(let choices): return shown == choices[0] ? choices[1] : choices[0]
            case .command: return shown == "true" ? "false" : "true"
            case .text: return shown == "xterm" ? "kitty" : "xterm"
            case .folder: return shown == "/srv/sync" ? "~/Sync/miga" : "/srv/sync"
            }
        }
        func load(_ text: String) throws -> MigaConfig {
            let loaded = try ConfigLoader().parse(text, path: "c")
            XCTAssertEqual(loaded.warnings, [], text)
            return loaded.config
        }
        for key in ConfigKeys.table {
            let global = ConfigKeyPath(app: nil, key: key.name), app = ConfigKeyPath(app: "chat", key: key.name)
            if key.scope != .app {
                let value = changed(key, global)
                let config = try load("\(key.name) = \(try ConfigKeys.tomlValue(value, for: global))\n[apps.chat]\n")
                XCTAssertEqual(ConfigKeys.display(global, in: config), value, key.name)
                if let state = key.state {
                    XCTAssertNotEqual(state(config), state(base), "\(key.name) is sent as it is set")
                }
                if key.scope == .globalAndApp {
                    XCTAssertEqual(ConfigKeys.display(app, in: config), value, "\(key.name): an app without its own shows the global value")
                }
            }
            if key.scope != .global {
                let value = changed(key, app)
                let config = try load("[apps.chat]\n\(key.name) = \(try ConfigKeys.tomlValue(value, for: app))\n")
                XCTAssertEqual(ConfigKeys.display(app, in: config), value, "apps.chat.\(key.name)")
                if key.scope == .globalAndApp {
                    XCTAssertEqual(ConfigKeys.display(global, in: config), ConfigKeys.display(global, in: base), "\(key.name) is the app's only")
                }
            }
        }
        // What the extension reads from `state`: the host sends these keys of the table.
        XCTAssertEqual(ConfigKeys.state(of: base).map(\.0), ["timer_seconds", "grace_minutes", "breathing", "animations", "sites"])
    }

    /// `miga config show > file` gives a file miga reads back the same: every key an app sets
    /// itself is shown, and only those (an unset one keeps following the global value).
    func testShowReadsBackAsTheSameConfig() throws {
        var config = MigaConfig()
        config.timerSeconds = 40
        config.intention = true
        config.apps["chat"] = MigaConfig.App(name: "chat", command: "/usr/bin/chat", timerSeconds: 20, intention: false, escalateSeconds: 7)
        config.apps["mail"] = MigaConfig.App(name: "mail", command: "mail")
        let shown = ConfigFile.show(config)
        let read = try ConfigLoader().parse(shown, path: "shown.toml")
        XCTAssertEqual(read.warnings, [])
        XCTAssertEqual(read.config, config)
        XCTAssertTrue(shown.contains("[apps.mail]\ncommand = \"mail\"\n# timer_seconds = 40  (the global timer)\n"), shown)
    }

    func testSettingAValueChangesOnlyThatValueKeepingSpacingAndComments() throws {
        XCTAssertEqual(try set("timer_seconds", "30", in: file),
                       file.replacingOccurrences(of: "timer_seconds   = 25   # a bit shorter", with: "timer_seconds   = 30   # a bit shorter"))
        XCTAssertEqual(try set("apps.matrix.timer_seconds", "20", in: file),
                       file.replacingOccurrences(of: "timer_seconds = 40 # long", with: "timer_seconds = 20 # long"))
        // A multi-line array with comments inside is replaced whole; the rest stays.
        let categories = try set("categories", "quotes affirmations", in: file)
        XCTAssertEqual(categories, file.replacingOccurrences(of: "[\n    \"quotes\",     # the classics\n    \"articles\",\n]",
                                                               with: "[\"quotes\", \"affirmations\"]"))
    }

    func testMissingKeysAreAddedWhereTheyBelong() throws {
        let grace = try set("grace_minutes", "10", in: file)
        XCTAssertTrue(grace.contains("]\n\ngrace_minutes = 10\n\n[apps.signal]"), "top-level keys go before the first table:\n\(grace)")
        XCTAssertEqual(try ConfigLoader().parse(grace, path: "c").config.graceMinutes, 10)
        let own = try set("apps.signal.timer_seconds", "35", in: file)
        XCTAssertTrue(own.contains("command = \"signal-desktop\"\ntimer_seconds = 35\n\n# the next one\n[apps.matrix]"), own)
        XCTAssertEqual(try ConfigLoader().parse(own, path: "c").config.apps["signal"]?.timerSeconds, 35)
        XCTAssertEqual(try set("breathing", "off", in: ""), "breathing = \"off\"\n")
    }

    func testValuesAreCheckedWithMessagesThatSayTheRule() throws {
        let config = try ConfigLoader().parse(file, path: "c").config
        func problem(_ key: String, _ value: String) -> String {
            do {
                let path = try ConfigKeys.resolve(key, in: config)
                _ = try ConfigKeys.tomlValue(value, for: path)
                return "accepted"
            } catch {
                return "\(error)"
            }
        }
        XCTAssertEqual(problem("timer_seconds", "50"), "timer_seconds must be between 15 and 45")
        XCTAssertEqual(problem("grace_minutes", "-1"), "grace_minutes must be between 0 and 120")
        XCTAssertEqual(problem("timer_seconds", "soon"), "timer_seconds must be a whole number of seconds")
        XCTAssertEqual(problem("timer", "20"), "unknown key \"timer\"; did you mean \"timer_seconds\"?")
        XCTAssertEqual(problem("apps.signal.timer", "20"), "unknown key \"apps.signal.timer\"; did you mean \"apps.signal.timer_seconds\"?")
        XCTAssertEqual(problem("apps.discord.timer_seconds", "20"),
                       "no app \"discord\" in the config (matrix, signal); add it with `miga config apps add discord`")
        XCTAssertEqual(problem("breathing", "slow"), "breathing must be one of \"box\", \"off\"")
        XCTAssertEqual(problem("animations", "maybe"), "animations must be true or false")
        XCTAssertEqual(problem("categories", "quotes,videos"), "categories: \"videos\" must be one of \"quotes\", \"affirmations\", \"articles\"")
        XCTAssertEqual(problem("sites", "reddit.com, site/x"), "\"site/x\" is not a site's host name (it needs a dot); give sites like reddit.com")
        XCTAssertEqual(problem("sites", "youtube.com/watch?v=1"),
                       "\"youtube.com/watch?v=1\" is not a site's path (a path holds no ? or #, and % only before two hex digits); give sites like reddit.com")
        XCTAssertEqual(try ConfigKeys.tomlValue("YouTube.com/shorts/, reddit.com/r/all", for: ConfigKeyPath(app: nil, key: "sites")),
                       "[\"youtube.com/shorts\", \"reddit.com/r/all\"]")
        XCTAssertEqual(try ConfigKeys.tomlValue("Reddit.com., HTTPS://X.com/ reddit.com", for: ConfigKeyPath(app: nil, key: "sites")),
                       "[\"reddit.com\", \"x.com\"]")
        XCTAssertEqual(try ConfigKeys.tomlValue("off", for: ConfigKeyPath(app: nil, key: "animations")), "false")
    }

    func testAnInlineAppTableIsRefusedNotRewritten() throws {
        let folder = try TemporaryDirectory()
        let sites = "sites = []\n" // a config of now: an old one gets its sites written in by any edit
        let text = sites + "[apps]\nchat = { command = \"chat\" }\n"
        let path = try folder.write(text, to: "config.toml")
        XCTAssertThrowsError(try ConfigFile(path: path).set("apps.chat.timer_seconds", to: "20")) { error in
            XCTAssertTrue("\(error)".contains("cannot change safely"), "\(error)")
        }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), text)
        XCTAssertThrowsError(try ConfigFile(path: path).set("timer_seconds", to: "99"))
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), text)
        try ConfigFile(path: path).set("timer_seconds", to: "20")
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), sites + "timer_seconds = 20\n\n" + text.dropFirst(sites.count))
        XCTAssertEqual(AtomicFile.mode(of: path), 0o600)
    }

    func testTheEditorStagesChangesAndAsksBeforeDiscardingThem() throws {
        let shell = try ConfigShell(text: file, path: "config.toml", commandExists: { $0 == "hexchat" })
        XCTAssertEqual(shell.execute("quit"), .quit, "nothing changed: no question")
        XCTAssertEqual(shell.execute("timer 50"), .say("timer_seconds must be between 15 and 45"))
        XCTAssertEqual(shell.execute("set foo 3"), .say("unknown key \"foo\"; type `show` for the keys"), "`show` is the editor's own command")
        XCTAssertFalse(shell.dirty)
        XCTAssertEqual(shell.execute("timer 20"), .say("timer_seconds = 20"))
        XCTAssertTrue(shell.dirty)
        XCTAssertTrue(shell.prompt.hasSuffix("*> "))
        XCTAssertEqual(shell.execute("add hexchat 15"), .say("hexchat will be gated (15 s); `save` writes it and makes its shims."))
        XCTAssertEqual(shell.execute("add nosuchapp"), .say("\"nosuchapp\" is not a command on PATH or in any installed desktop entry; check the spelling, or give the program with --command PATH"))
        // The hint's own words work here too.
        XCTAssertEqual(shell.execute("add ghost 20 --command hexchat"), .say("ghost will be gated (20 s); `save` writes it and makes its shims."))
        guard case .say(let refusal) = shell.execute("add py --command python3") else { return XCTFail("no answer") }
        XCTAssertTrue(refusal.contains("miga config apps add py --command python3 --force"), refusal)
        XCTAssertEqual(shell.execute("add shell --command bash --force"), .say("\"bash\" (for shell) is not a command on PATH or in any installed desktop entry; check the spelling, or give the program with --command PATH"))
        XCTAssertEqual(shell.execute("add"), .say("usage: add NAME [SECONDS] [--command PROGRAM] [--force]"))
        XCTAssertEqual(shell.execute("remove ghost"), .say("ghost will no longer be gated; `save` writes it and removes its shims."))
        XCTAssertEqual(shell.execute("remove signal"), .say("signal will no longer be gated; `save` writes it and removes its shims."))
        XCTAssertEqual(shell.execute("site add News.YCombinator.com"), .say("news.ycombinator.com will be gated."))
        XCTAssertEqual(shell.execute("breathing off"), .say("breathing = \"off\""))
        XCTAssertEqual(shell.execute("tmier 3"), .say("unknown command \"tmier\"; did you mean \"timer\"? (type help)"))
        XCTAssertEqual(shell.added.map(\.name), ["hexchat"])
        XCTAssertEqual(shell.removed, ["signal"])
        XCTAssertEqual(shell.execute("quit"), .confirmQuit)
        XCTAssertEqual(shell.execute("save"), .save)
        let saved = try ConfigLoader().parse(shell.editor.text, path: "c").config
        XCTAssertEqual(saved.timerSeconds, 20)
        XCTAssertEqual(saved.apps["hexchat"]?.timerSeconds, 15)
        XCTAssertNil(saved.apps["signal"])
        XCTAssertTrue(saved.sites.contains("news.ycombinator.com"))
        XCTAssertTrue(shell.editor.text.hasPrefix("# my settings\ntimer_seconds   = 20   # a bit shorter\n"), shell.editor.text)
        shell.saved()
        XCTAssertEqual(shell.execute("quit"), .quit)
    }

    /// `[site."NAME"]`: a site's own values of the keys an app may set (no command), read,
    /// set (the table made when it is not there), shown and used by the site's gate plan; a
    /// table of a site not in `sites`, or holding a command, is said.
    func testASiteHasItsOwnTable() throws {
        let text = "sites = [\"reddit.com\", \"x.com\"]\n"
        var written = try set("site.reddit.com.ask_minutes", "on", in: text)
        written = try set("site.Reddit.com.opens_per_day", "3", in: written)
        XCTAssertEqual(written, text + "\n[site.\"reddit.com\"]\nask_minutes = true\nopens_per_day = 3\n")
        let loaded = try ConfigLoader().parse(written, path: "c")
        XCTAssertEqual(loaded.warnings, [])
        XCTAssertEqual(loaded.config.siteSettings["reddit.com"]?.askMinutes, true)
        XCTAssertEqual(ConfigKeys.display(try ConfigKeys.resolve("site.reddit.com.opens_per_day", in: loaded.config), in: loaded.config), "3")
        XCTAssertEqual(ConfigKeys.display(try ConfigKeys.resolve("site.x.com.opens_per_day", in: loaded.config), in: loaded.config), "0",
                       "unset: the global value")
        XCTAssertTrue(ConfigFile.show(loaded.config).hasSuffix("\n[site.\"reddit.com\"]\nopens_per_day = 3\nask_minutes = true\n"))
        XCTAssertEqual(try ConfigLoader().parse(ConfigFile.show(loaded.config), path: "c").config, loaded.config, "show reads back the same")

        let moment = LocalMoment(unixMilliseconds: 1_795_000_000_000, offsetMinutes: 0)
        let reddit = GatePlan(config: loaded.config, app: "reddit.com", isSite: true, at: moment, history: AppHistory())
        let x = GatePlan(config: loaded.config, app: "x.com", isSite: true, at: moment, history: AppHistory())
        XCTAssertEqual([reddit.asksMinutes, x.asksMinutes], [true, false])
        XCTAssertEqual([reddit.opensPerDay, x.opensPerDay], [3, 0])

        XCTAssertThrowsError(try ConfigKeys.resolve("site.news.example.timer_seconds", in: loaded.config)) {
            XCTAssertEqual("\($0)", "no site \"news.example\" in sites (reddit.com, x.com); add it with `miga config sites add news.example`")
        }
        XCTAssertThrowsError(try ConfigKeys.resolve("site.reddit.com.command", in: loaded.config))
        let odd = try ConfigLoader().parse(text + "[site.\"news.example\"]\nintention = true\n[site.\"x.com\"]\ncommand = \"x\"\ngrace_minutes = 3\n[site.\"a\"]\n",
                                           path: "c")
        XCTAssertEqual(odd.warnings, [
            "c:5: unknown key \"command\" in [site.\"x.com\"] ignored",
            "c:6: grace_minutes is a global key but sits in [site.\"x.com\"] (every line below a table header belongs to it), so it is ignored; "
                + "move it above the first table, or use `miga config set grace_minutes VALUE`",
            "c: [site.\"a\"]: " + SiteMatcher.problem(with: "a") + "; ignoring it",
            "c: [site.\"news.example\"] is not in sites, so it applies to nothing; add it with `miga config sites add news.example`",
        ])
    }

    func testCompletionOfCommandsKeysAppsAndSites() throws {
        let shell = try ConfigShell(text: file, path: "config.toml", commandExists: { _ in true })
        let installed = { ["hexchat", "hexedit", "discord"] }
        XCTAssertEqual(shell.completions(before: [], word: "s", installedNames: installed), ["save", "set", "show", "site"])
        XCTAssertEqual(shell.completions(before: [], word: "a", installedNames: installed), ["add", "alternative", "animations"])
        XCTAssertEqual(shell.completions(before: ["set", "challenge"], word: "", installedNames: installed), ["off", "type"])
        XCTAssertEqual(shell.completions(before: ["add"], word: "hex", installedNames: installed), ["hexchat", "hexedit"])
        XCTAssertEqual(shell.completions(before: ["remove"], word: "", installedNames: installed), ["matrix", "signal"])
        XCTAssertEqual(shell.completions(before: ["set"], word: "apps.s", installedNames: installed), ["apps.signal.ask_minutes", "apps.signal.challenge", "apps.signal.command", "apps.signal.default_minutes",
                                                                                                         "apps.signal.escalate_seconds", "apps.signal.intention",
                                                                                                         "apps.signal.minutes_per_day", "apps.signal.opens_per_day",
                                                                                                         "apps.signal.reentry_minutes", "apps.signal.timer_seconds"])
        XCTAssertEqual(shell.completions(before: ["set"], word: "w", installedNames: installed), ["weekly_summary"])
        XCTAssertEqual(shell.completions(before: ["set", "intention"], word: "", installedNames: installed), ["false", "true"])
        XCTAssertEqual(shell.completions(before: ["site", "remove"], word: "red", installedNames: installed), ["reddit.com"])
        XCTAssertEqual(shell.completions(before: ["breathing"], word: "", installedNames: installed), ["box", "off"])
    }

    /// `set KEY <Tab>` offers the values the key table gives the key, for every key: a flag's
    /// true and false (sync_config's too: a hand-written list once left it out), a choice's
    /// choices, nothing to a number or text.
    func testCompletionOfValuesComesFromTheKeyTable() throws {
        let shell = try ConfigShell(text: file, path: "config.toml", commandExists: { _ in true })
        XCTAssertEqual(shell.completions(before: ["set"], word: "sync_c", installedNames: { [] }), ["sync_config"])
        XCTAssertEqual(shell.completions(before: ["set", "sync_config"], word: "", installedNames: { [] }), ["false", "true"])
        XCTAssertEqual(shell.completions(before: ["set", "apps.signal.ask_minutes"], word: "t", installedNames: { [] }), ["true"])
        for key in ConfigKeys.table {
            let offered = shell.completions(before: ["set", key.name], word: "", installedNames: { [] })
            switch key.kind {
            case .flag: XCTAssertEqual(offered, ["false", "true"], key.name)
            case .choice(let choices): XCTAssertEqual(offered, choices.sorted(), key.name)
            default: XCTAssertEqual(offered, [], key.name)
            }
        }
    }

    /// Tab after `set` offers a table at a time: the top-level keys with `apps.` and `site.`,
    /// then the apps or sites, then one table's keys; a prefix that leaves one table opens it.
    func testSetCompletesATableAtATime() throws {
        let text = "sites = [\"x.com\", \"x.com.au\", \"reddit.com\"]\n" + file
        let sited = try ConfigShell(text: text, path: "config.toml", commandExists: { _ in true })
        let first = sited.completions(before: ["set"], word: "", installedNames: { [] })
        XCTAssertEqual(first, (ConfigKeys.topLevel + ["apps.", "site."]).sorted())
        XCTAssertFalse(first.contains { $0.hasPrefix("site.x.com.") || $0.hasPrefix("apps.signal.") }, "\(first)")
        XCTAssertEqual(sited.completions(before: ["set"], word: "site.", installedNames: { [] }),
                       ["site.reddit.com.", "site.x.com.", "site.x.com.au."])
        XCTAssertEqual(sited.completions(before: ["set"], word: "apps.", installedNames: { [] }), ["apps.matrix.", "apps.signal."])
        XCTAssertEqual(sited.completions(before: ["set"], word: "site.x.com.", installedNames: { [] }),
                       (ConfigKeys.perSite.map { "site.x.com." + $0 } + ["site.x.com.au."]).sorted())
        XCTAssertEqual(sited.completions(before: ["set"], word: "site.re", installedNames: { [] }),
                       ConfigKeys.perSite.map { "site.reddit.com." + $0 }.sorted(), "one table left: its keys")
        XCTAssertEqual(sited.completions(before: ["set"], word: "site.x.com.ask", installedNames: { [] }), ["site.x.com.ask_minutes"])
        XCTAssertEqual(sited.completions(before: ["set"], word: "sit", installedNames: { [] }), ["site.", "sites"])
        // No sites: no `site.` to go into.
        let bare = try ConfigShell(text: "sites = []\n", path: "config.toml", commandExists: { _ in true })
        XCTAssertEqual(bare.completions(before: ["set"], word: "", installedNames: { [] }), ConfigKeys.topLevel.sorted())
        XCTAssertEqual(bare.completions(before: ["set"], word: "site.", installedNames: { [] }), [])
    }

    /// `help` names every key the table has (the habits' too), from the table; `help keys` and
    /// `help KEY` say what each does; and a break from the gates is findable: the snooze.
    func testHelpNamesEveryKeyFromTheTable() throws {
        let shell = try ConfigShell(text: file, path: "config.toml", commandExists: { _ in true })
        guard case .say(let help) = shell.execute("help") else { return XCTFail("help says something") }
        for key in ConfigKeys.table where key.scope != .app {
            XCTAssertTrue(help.contains(key.name), "\(key.name) in help:\n\(help)")
        }
        XCTAssertTrue(help.contains("miga snooze 20m"), help)
        XCTAssertTrue(help.contains("ask_minutes*") && help.contains("opens_per_day*"), "per app and site: marked")
        guard case .say(let keys) = shell.execute("help keys") else { return XCTFail("help keys says something") }
        for key in ConfigKeys.table where key.scope != .app {
            XCTAssertTrue(keys.contains("  " + key.name), "\(key.name) in help keys")
        }
        XCTAssertTrue(keys.contains("Open asks \"For how long?\""), keys)
        guard case .say(let one) = shell.execute("help apps.signal.opens_per_day") else { return XCTFail("help KEY says something") }
        XCTAssertTrue(one.hasPrefix("  opens_per_day*") && one.contains("opens a day"), one)
        for line in (help + "\n" + keys).split(separator: "\n") {
            XCTAssertLessThanOrEqual(line.count, 79, "fits 80 columns: \(line)")
        }
    }

    /// The prompt shows what applies: a saved loosening still waiting is marked pending, not
    /// shown as if it were in force; an unsaved change shows as typed.
    func testThePromptShowsValuesInForce() throws {
        let shell = try ConfigShell(text: "timer_seconds = 20\ngrace_minutes = 30\n", path: "config.toml", commandExists: { _ in true })
        XCTAssertEqual(shell.prompt, "miga config (timer 20 s, grace 30 min, 0 apps)> ")
        var inForce = MigaConfig()
        inForce.timerSeconds = 30
        inForce.graceMinutes = 30
        shell.inForce = inForce
        XCTAssertEqual(shell.prompt, "miga config (timer 30 s (20 pending), grace 30 min, 0 apps)> ")
        _ = shell.execute("timer 25")
        XCTAssertEqual(shell.prompt, "miga config (timer 25 s, grace 30 min, 0 apps)*> ")
    }
}
