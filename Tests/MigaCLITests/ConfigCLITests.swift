import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// `miga config show/get/set` and the interactive editor, as the built binary in a temp HOME;
/// the editor driven through tmux as a person types.
/// The cases that need no process of their own run in-process in MigaCommandTests' ConfigCommandTests.
final class ConfigCLITests: XCTestCase, ConfigCase {
    var home: MigaHome!

    override func setUpWithError() throws {
        home = try MigaHome()
        try writeHexchat()
    }

    /// The end of the editor's prompt, "miga config (timer 25 s, …)> ".
    static let prompt = "> "

    /// The editor follows the same site rules as the verbs.
    func testTheEditorRefusesALoneLabelAndSaysWhatSetSitesDropped() throws {
        try home.writeConfig(text)
        let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) config", environment: environment())
        terminal.waitForPrompt(Self.prompt)
        try step(terminal, "site add a", shows: "\"a\" is not a site's host name (it needs a dot)")
        try step(terminal, "set sites x.com", shows: "(`set` replaces the list; `site add HOST` adds one and keeps the rest)")
        XCTAssertTrue(terminal.screen().contains("no longer gated: reddit.com"), terminal.screen())
        try terminal.enter("quit")
        terminal.waitFor("Discard unsaved changes? [y/N]")
        try terminal.enter("y")
        terminal.waitFor("STATUS=0")
        XCTAssertEqual(configText, text, "nothing saved")
    }

    /// In a terminal of 80 columns: Tab after `set ` offers a table at a time (not every
    /// site's keys), then the sites, then one site's keys; `help` names the habits' keys and
    /// the snooze.
    func testTheEditorsSetCompletesATableAtATimeAndHelpNamesEveryKey() throws {
        try home.writeConfig(text)
        let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) config", environment: environment(), columns: 80, rows: 40)
        terminal.waitFor("Tab completes.")
        terminal.waitForPrompt(Self.prompt)
        try terminal.type("set ")
        try terminal.press("Tab", "Tab")
        var screen = terminal.waitFor("timer_seconds")
        XCTAssertTrue(screen.contains("site.") && screen.contains("apps."), screen)
        XCTAssertFalse(screen.contains("site.x.com.") || screen.contains("apps.signal."), screen)
        terminal.waitForPrompt("> set ")
        try terminal.type("site.")
        try terminal.press("Tab", "Tab")
        screen = terminal.waitFor("site.youtube.com.")
        XCTAssertFalse(screen.contains("site.x.com.ask_minutes"), screen)
        terminal.waitForPrompt("> set site.")
        try terminal.type("x.c")
        try terminal.press("Tab")
        terminal.waitForInput(endingWith: "> set site.x.com.")
        try terminal.type("ask")
        try terminal.press("Tab")
        terminal.waitForInput(endingWith: "> set site.x.com.ask_minutes ")
        try terminal.enter("true")
        terminal.waitFor("site.x.com.ask_minutes = true")
        try step(terminal, "help", shows: "miga snooze 20m")
        screen = terminal.screen()
        XCTAssertTrue(screen.contains("ask_minutes*") && screen.contains("opens_per_day*") && screen.contains("default_minutes*"), screen)
        try step(terminal, "help ask_minutes", shows: "Open asks \"For how long?\"")
        try terminal.enter("quit")
        terminal.waitFor("Discard unsaved changes? [y/N]")
        try terminal.enter("y")
        terminal.waitFor("STATUS=0")
    }

    /// While a loosening waits, the editor's prompt shows the value in force, the saved one
    /// marked pending; and `config set` of another key says its own wait only.
    func testWhileALooseningWaitsThePromptShowsWhatAppliesAndSetSaysOnlyItsOwnWait() throws {
        try home.writeConfig("timer_seconds = 30\nloosen_delay_minutes = 30\n")
        XCTAssertEqual(try miga("config", "show").status, 0)
        let timer = try miga("config", "set", "timer_seconds", "20")
        XCTAssertTrue(timer.stdout.contains("waiting: timer_seconds: 30 → 20 at"), timer.stdout)
        let grace = try miga("config", "set", "grace_minutes", "10")
        XCTAssertTrue(grace.stdout.contains("waiting: grace_minutes: 5 → 10 at"), grace.stdout)
        XCTAssertFalse(grace.stdout.contains("timer_seconds"), "the other wait is not said again:\n\(grace.stdout)")
        XCTAssertTrue(grace.stdout.contains("1 other waiting: `miga config pending`"), grace.stdout)

        let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) config", environment: environment(), columns: 120)
        terminal.waitForPrompt("miga config (timer 30 s (20 pending), grace 5 min (10 pending), 0 apps)> ")
        try step(terminal, "timer 40", shows: "timer_seconds = 40")
        terminal.waitForPrompt("miga config (timer 40 s, grace 5 min (10 pending), 0 apps)*> ")
        try terminal.enter("quit")
        terminal.waitFor("Discard unsaved changes? [y/N]")
        try terminal.enter("y")
        terminal.waitFor("STATUS=0")
    }

    /// Twenty edits at once (a script adding sites in parallel) keep all twenty: each holds the
    /// config lock across its read, change and write.
    func testTwentyConcurrentEditsKeepEveryChange() throws {
        try home.writeConfig(text)
        let children = try (0..<20).map { try home.start(home.binary, ["config", "sites", "add", "site\($0).example"], environment: environment()) }
        let outputs = children.map { $0.wait() }
        XCTAssertEqual(outputs.map(\.status), Array(repeating: 0, count: 20), outputs.map(\.stderr).joined())
        let listed = Set(try miga("config", "sites", "list").stdout.split(separator: "\n").map(String.init))
        XCTAssertTrue(Set((0..<20).map { "site\($0).example" }).isSubset(of: listed), "\(listed.sorted())")
        XCTAssertTrue(configText?.hasPrefix("# my settings\ntimer_seconds = 25  # short\n") == true, configText ?? "")
    }

    func testTheEditorCompletesAppNamesSavesKeepingCommentsAndRemembersHistory() throws {
        try home.writeConfig(text)
        var terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) config", environment: environment())
        terminal.waitFor("Tab completes.")
        terminal.waitForPrompt(Self.prompt)
        try terminal.type("add hexc")
        try terminal.press("Tab")
        terminal.waitFor("add hexchat")
        try terminal.press("Enter")
        terminal.waitFor("hexchat will be gated")
        terminal.waitForPrompt(Self.prompt)
        try step(terminal, "timer 20", shows: "timer_seconds = 20")
        try terminal.enter("save")
        terminal.waitFor("Saved \(home.configFile).")
        terminal.waitFor("created PATH shim ~/.local/share/miga/bin/hexchat")
        terminal.waitForPrompt(Self.prompt)
        try terminal.enter("quit")
        terminal.waitFor("STATUS=0")
        XCTAssertEqual(configText, "# my settings\ntimer_seconds = 20  # short\nsites = [\"reddit.com\", \"x.com\", \"twitter.com\", \"instagram.com\", \"facebook.com\", \"tiktok.com\", \"youtube.com\"]\n\n[apps.signal]\ncommand = \"signal\"\n\n[apps.hexchat]\ncommand = \"hexchat\"\n")

        // A second run: Up recalls the first run's lines; Ctrl-D with an unsaved change asks.
        terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) config", environment: environment())
        terminal.waitForPrompt(Self.prompt)
        try terminal.press("Up")
        try terminal.press("Up")
        terminal.waitFor("> save")
        try terminal.press("Up")
        terminal.waitFor("> timer 20")
        try terminal.press("C-u")
        try terminal.enter("grace 10")
        terminal.waitFor("grace_minutes = 10")
        // Ctrl-D reaches the editor only at its prompt: in the terminal driver's line mode
        // (between two prompts) it would end a read that nobody is making.
        terminal.waitForPrompt(Self.prompt)
        try terminal.press("C-d")
        terminal.waitForPrompt("Discard unsaved changes? [y/N] ")
        try terminal.enter("n")
        terminal.waitForPrompt(Self.prompt)
        try terminal.press("C-d")
        terminal.waitFor("Discard unsaved changes?", count: 2)
        terminal.waitForPrompt("Discard unsaved changes? [y/N] ")
        try terminal.enter("y")
        terminal.waitFor("STATUS=0")
        terminal.assertTerminalRestored()
        XCTAssertFalse(configText?.contains("grace") ?? true, "discarded, not saved")
    }

    /// `miga config` started from an interactive bash (so job control and `$?` are real), with
    /// `timer 20` entered and not saved.
    func editorInBashWithAnUnsavedChange() throws -> TmuxTerminal {
        try home.writeConfig(text)
        let terminal = try TmuxTerminal.interactiveBash(home: home, environment: environment())
        try step(terminal, "\(shellQuote(home.binary)) config", shows: "Tab completes.")
        try step(terminal, "timer 20", shows: "timer_seconds = 20")
        return terminal
    }

    /// Ctrl-C clears the line, as in a shell, and never throws away unsaved changes; Ctrl-Z
    /// suspends to the shell and `fg` brings the prompt back with the half-typed line.
    /// Every hint the editor gives is a line it accepts: `--command` in its own `add`.
    func testTheEditorsAdviceIsACommandThatWorks() throws {
        try home.writeConfig(text)
        let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) config", environment: environment())
        terminal.waitForPrompt(Self.prompt)
        try step(terminal, "add ghost", shows: "give the program with --command PATH")
        try addGhostAndSave(terminal)
        try terminal.enter("quit")
        terminal.waitFor("STATUS=0")
        XCTAssertTrue(configText?.contains("[apps.ghost]\ncommand = \"true\"\n") == true, configText ?? "")
    }

    /// `set apps.NAME.command` in the editor follows the rule `miga config set` follows: the
    /// command is checked as `add` checks it (an interpreter is refused), and `save` remakes
    /// the app's shims, which would otherwise go on running the old command.
    func testTheEditorsSetOfAnAppsCommandRemakesItsShims() throws {
        try home.writeConfig(text)
        let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) config", environment: environment())
        terminal.waitForPrompt(Self.prompt)
        try addGhostAndSave(terminal)
        let shim = home.home + "/.local/share/miga/bin/ghost"
        XCTAssertTrue(try String(contentsOfFile: shim, encoding: .utf8).contains("command='true'"))
        try step(terminal, "set apps.ghost.command bash", shows: "bash runs scripts and tools besides itself")
        try step(terminal, "set apps.ghost.command false", shows: "`save` writes it and remakes ghost's shims")
        try step(terminal, "save", shows: "PATH shim ~/.local/share/miga/bin/ghost")
        try terminal.enter("quit")
        terminal.waitFor("STATUS=0")
        XCTAssertTrue(configText?.contains("[apps.ghost]\ncommand = \"false\"\n") == true, configText ?? "")
        let remade = try String(contentsOfFile: shim, encoding: .utf8)
        XCTAssertTrue(remade.contains("command='false'") && !remade.contains("command='true'"), remade)
    }

    /// Types `line` at the editor's prompt and waits for `text`, then for the prompt again.
    func step(_ terminal: TmuxTerminal, _ input: String, shows text: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try terminal.enter(input)
        terminal.waitFor(text, file: file, line: line)
        terminal.waitForPrompt(Self.prompt, file: file, line: line)
    }

    /// `add ghost --command true` and `save`, which makes its PATH shim.
    func addGhostAndSave(_ terminal: TmuxTerminal, file: StaticString = #filePath, line: UInt = #line) throws {
        try step(terminal, "add ghost --command true", shows: "ghost will be gated", file: file, line: line)
        try step(terminal, "save", shows: "created PATH shim ~/.local/share/miga/bin/ghost", file: file, line: line)
    }

    /// `save`, then `quit` to the interactive shell the editor runs in, which reports its status.
    func saveAndQuitToTheShell(_ terminal: TmuxTerminal, file: StaticString = #filePath, line: UInt = #line) throws {
        try step(terminal, "save", shows: "Saved \(home.configFile).", file: file, line: line)
        try terminal.enter("quit")
        terminal.waitForPrompt("$ ", file: file, line: line)
        try terminal.enter("echo STATUS=$?")
        terminal.waitFor("STATUS=0", file: file, line: line)
    }

    /// Where libreadline cannot be loaded (it is loaded only when a prompt needs it), the
    /// editor says what is missing and still edits and saves, with the terminal's own line
    /// editing: Backspace works, Ctrl-C drops the line.
    func testTheEditorWorksWithoutLibreadline() throws {
        try home.writeConfig(text)
        // In an interactive shell, as a person runs it: Ctrl-C reaches the editor alone.
        let terminal = try TmuxTerminal.interactiveBash(home: home, environment: environment(["MIGA_LIBREADLINE": "libmiga-missing.so.0"]))
        try terminal.enter("\(shellQuote(home.binary)) config")
        let screen = terminal.waitFor("Type help for the commands.")
        XCTAssertTrue(screen.contains("no line editing, history or Tab completion (libmiga-missing.so.0: cannot open shared object file"), screen)
        XCTAssertTrue(screen.contains("install libreadline8 for them"), screen)
        terminal.waitForPrompt(Self.prompt)
        try terminal.type("grace 7")
        try terminal.press("C-c")
        terminal.waitFor("> grace 7^C")
        terminal.waitForPrompt(Self.prompt)
        try terminal.type("timer 20x")
        try terminal.press("BSpace")
        try terminal.press("Enter")
        terminal.waitFor("timer_seconds = 20")
        terminal.waitForPrompt(Self.prompt)
        try saveAndQuitToTheShell(terminal)
        XCTAssertEqual(configText, "# my settings\ntimer_seconds = 20  # short\nsites = [\"reddit.com\", \"x.com\", \"twitter.com\", \"instagram.com\", \"facebook.com\", \"tiktok.com\", \"youtube.com\"]\n\n[apps.signal]\ncommand = \"signal\"\n")
    }

    func testCtrlCClearsTheLineAndCtrlZSuspendsWithoutLosingChanges() throws {
        let terminal = try editorInBashWithAnUnsavedChange()
        // Each key that raises a signal goes only once the editor has read (and so echoed)
        // what came before it: the kernel discards unread input when it sends the signal.
        try terminal.type("grace 7")
        try terminal.press("C-c")
        terminal.waitFor("> grace 7^C")
        terminal.waitForPrompt(Self.prompt)
        try terminal.enter("show")
        let screen = terminal.waitFor("[apps.signal]")
        XCTAssertFalse(screen.contains("grace_minutes = 7"), "the interrupted line did nothing:\n\(screen)")

        terminal.waitForPrompt(Self.prompt)
        // Back at its prompt after Ctrl-Z and `fg`, with the half-typed line drawn again.
        try terminal.suspendAndResume(at: Self.prompt, typed: "tim")
        try terminal.type("er 30")
        try terminal.press("Enter")
        terminal.waitFor("timer_seconds = 30")
        terminal.waitForPrompt(Self.prompt)
        try saveAndQuitToTheShell(terminal)
        XCTAssertEqual(configText, "# my settings\ntimer_seconds = 30  # short\nsites = [\"reddit.com\", \"x.com\", \"twitter.com\", \"instagram.com\", \"facebook.com\", \"tiktok.com\", \"youtube.com\"]\n\n[apps.signal]\ncommand = \"signal\"\n")
        XCTAssertEqual(terminal.display("#{alternate_on} #{cursor_flag}"), "0 1")
    }

    /// Told to stop (SIGTERM), the editor leaves the file as it was, says what it discarded and
    /// reports the signal in its status, as a shell does for a process a signal ended.
    /// A terminal closed under the editor with unsaved changes: the editor ends, the file
    /// as it was. (It read each end of input as Ctrl-D and asked "Discard unsaved changes?"
    /// of the vanished terminal for ever, at full speed, long after the window was gone.)
    func testTheEditorEndsWhenItsTerminalIsGone() throws {
        try home.writeConfig(text)
        var terminal: TmuxTerminal? = try TmuxTerminal(home: home, command: "echo PID=$$; exec \(shellQuote(home.binary)) config",
                                                       environment: environment())
        terminal?.waitFor("Tab completes.")
        let screen = terminal?.screen() ?? ""
        let editor = try XCTUnwrap(screen.range(of: #"PID=\d+"#, options: .regularExpression).flatMap { Int32(screen[$0].dropFirst(4)) })
        try terminal?.enter("timer 20")
        terminal?.waitFor("timer_seconds = 20")
        terminal = nil // tmux kill-server: the window is gone
        eventually(timeout: 15, "the editor to end once its terminal is gone") { processEnded(editor) }
        if !processEnded(editor) { kill(editor, SIGKILL) }
        XCTAssertEqual(configText, text, "nothing half-written")
    }

    func testSIGTERMLeavesTheFileAndEndsWithTheSignalsStatus() throws {
        let terminal = try editorInBashWithAnUnsavedChange()
        let shell = terminal.display("#{pane_pid}")
        let editor = try XCTUnwrap(Int32(try home.run("/usr/bin/pgrep", ["-P", shell, "-x", "miga"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)), "the editor runs under the pane's shell")
        kill(editor, SIGTERM)
        terminal.waitFor("miga config: stopped by SIGTERM; unsaved changes were discarded")
        terminal.waitForPrompt("$ ")
        try terminal.enter("echo STATUS=$?")
        terminal.waitFor("STATUS=143")
        terminal.waitForPrompt("$ ")
        try terminal.printSettings()
        terminal.assertTerminalRestored()
        XCTAssertEqual(configText, text, "nothing half-written")
    }

    func testABrokenFileIsOfferedToTheEditorNotOverwritten() throws {
        try home.writeConfig("timer_seconds = = 20\n")
        // The "editor" mends the file the way a person would.
        let editor = try home.writeFile("bin/fix-editor", mode: 0o755, "#!/bin/sh\nprintf 'timer_seconds = 20\\n' > \"$1\"\n")
        let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) config", environment: environment(["EDITOR": editor]))
        terminal.waitFor("config.toml:1:")
        terminal.waitForPrompt("Open it in \(editor)? [Y/n] ")
        try step(terminal, "", shows: "timer 20 s")
        try terminal.enter("quit")
        terminal.waitFor("STATUS=0")
        XCTAssertEqual(configText, "timer_seconds = 20\n")
    }

    // MARK: Files readline opens by name

    var historyFile: String { home.home + "/.local/state/miga/config_history" }

    /// Edits `timer 20`, saves and quits the editor running in `terminal`.
    func editSaveAndQuit(_ terminal: TmuxTerminal, file: StaticString = #filePath, line: UInt = #line) throws {
        terminal.waitForPrompt(Self.prompt, file: file, line: line)
        try step(terminal, "timer 20", shows: "timer_seconds = 20", file: file, line: line)
        try step(terminal, "save", shows: "Saved \(home.configFile).", file: file, line: line)
        try terminal.enter("quit")
        terminal.waitFor("STATUS=0", file: file, line: line)
    }

    func fileType(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    /// readline opens its history file and its init file (~/.inputrc) with a blocking open: a
    /// FIFO at either hung the editor before its first prompt, deaf to every signal. Now each
    /// is left alone with one line saying so, and the editor works without it.
    func testAFIFOWhereReadlineReadsIsLeftAloneAndTheEditorWorks() throws {
        try home.writeConfig(text)
        try FileManager.default.createDirectory(atPath: home.home + "/.local/state/miga", withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(historyFile, 0o600), 0)
        XCTAssertEqual(mkfifo(home.home + "/.inputrc", 0o600), 0)
        let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) config", environment: environment())
        let screen = terminal.waitFor("Tab completes.")
        XCTAssertTrue(screen.contains("miga config: history is off: \(historyFile): it is a FIFO, not a regular file; move it aside"), screen)
        XCTAssertTrue(screen.contains("miga: warning: readline's settings not read: \(home.home)/.inputrc: it is a FIFO"), screen)
        try editSaveAndQuit(terminal)
        XCTAssertEqual(configText, "# my settings\ntimer_seconds = 20  # short\nsites = [\"reddit.com\", \"x.com\", \"twitter.com\", \"instagram.com\", \"facebook.com\", \"tiktok.com\", \"youtube.com\"]\n\n[apps.signal]\ncommand = \"signal\"\n")
        XCTAssertEqual(fileType(historyFile), S_IFIFO, "the FIFO is still there, untouched")
        XCTAssertEqual(fileType(home.home + "/.inputrc"), S_IFIFO)
    }

    /// A symlink at the history path: readline would append the session's lines to whatever
    /// file it names. History is off instead, and that file stays byte for byte.
    func testASymlinkAtTheHistoryPathIsNotWrittenThrough() throws {
        try home.writeConfig(text)
        let target = try home.writeFile("elsewhere/notes.txt", "my own notes\n")
        try FileManager.default.createDirectory(atPath: home.home + "/.local/state/miga", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: historyFile, withDestinationPath: target)
        let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) config", environment: environment())
        let screen = terminal.waitFor("Tab completes.")
        XCTAssertTrue(screen.contains("miga config: history is off: \(historyFile): it is a symbolic link, not a regular file"), screen)
        try editSaveAndQuit(terminal)
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "my own notes\n")
        XCTAssertEqual(fileType(historyFile), S_IFLNK)
    }

    /// A SIGTERM that comes while the person's editor mends a broken file is not lost: once
    /// the editor is done, miga ends by it, the file as the editor left it.
    func testSIGTERMDuringTheFileEditorEndsMigaAfterIt() throws {
        try home.writeConfig("timer_seconds = = 20\n")
        let started = home.root + "/editor-started", go = home.root + "/editor-go"
        let editor = try home.writeFile("bin/slow-editor", mode: 0o755, """
            #!/bin/sh
            touch \(shellQuote(started))
            while [ ! -e \(shellQuote(go)) ]; do sleep 0.05; done
            printf 'timer_seconds = 20\\n' > "$1"
            """)
        let terminal = try TmuxTerminal.interactiveBash(home: home, environment: environment(["EDITOR": editor]))
        try terminal.enter("\(shellQuote(home.binary)) config")
        terminal.waitForPrompt("Open it in \(editor)? [Y/n] ")
        try terminal.enter("")
        eventually("the editor to start") { FileManager.default.fileExists(atPath: started) }
        let shell = terminal.display("#{pane_pid}")
        let migaPID = try XCTUnwrap(Int32(try home.run("/usr/bin/pgrep", ["-P", shell, "-x", "miga"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(migaPID, SIGTERM)
        XCTAssertTrue(FileManager.default.createFile(atPath: go, contents: nil))
        terminal.waitForPrompt("$ ")
        try terminal.enter("echo STATUS=$?")
        terminal.waitFor("STATUS=143")
        XCTAssertEqual(configText, "timer_seconds = 20\n")
        terminal.waitForPrompt("$ ")
        try terminal.printSettings()
        terminal.assertTerminalRestored()
    }

    // MARK: Bounds

    /// config.toml near the 1 MiB miga reads: an edit that would pass it writes nothing and
    /// says so in one line (a written file would turn every gate into a fail-open).
    func testAnEditThatWouldPassTheSizeLimitWritesNothing() throws {
        let nearLimit = "# " + String(repeating: "x", count: BoundedFile.configLimit - 10) + "\n"
        try home.writeConfig(nearLimit)
        for arguments in [["config", "set", "timer_seconds", "20"], ["config", "sites", "add", "news.example.com"]] {
            let output = try home.miga(arguments, environment: environment())
            XCTAssertEqual(output.status, 1, "\(arguments)")
            XCTAssertEqual(output.stderr.split(separator: "\n").count, 1, output.stderr)
            XCTAssertTrue(output.stderr.contains("nothing was written") && output.stderr.contains("remove something from it first"), output.stderr)
            XCTAssertTrue(configText == nearLimit, "\(arguments): the file is byte-identical")
        }
        XCTAssertEqual(try miga("config", "get", "timer_seconds").stdout, "30\n", "the file still reads")

        // The editor's save goes the same one way.
        let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) config", environment: environment())
        terminal.waitForPrompt(Self.prompt)
        try step(terminal, "timer 20", shows: "timer_seconds = 20")
        try terminal.enter("save")
        terminal.waitFor("nothing was written")
        XCTAssertTrue(configText == nearLimit, "the editor wrote nothing")
    }

    /// A key as long as the file allows is named in a line's worth, not echoed whole at every
    /// command and gate; so is a key in a TOML error.
    func testAHugeKeyIsQuotedInALinesWorth() throws {
        let key = String(repeating: "k", count: 900_000)
        try home.writeConfig("\(key) = 1\ntimer_seconds = 20\nsites = []\n")
        let shown = try miga("config", "show")
        XCTAssertEqual(shown.status, 0, String(shown.stderr.prefix(300)))
        XCTAssertEqual(shown.stderr.split(separator: "\n").count, 1)
        XCTAssertLessThanOrEqual(shown.stderr.utf8.count, 200, String(shown.stderr.prefix(300)))
        XCTAssertTrue(shown.stderr.contains("unknown key \"kkkk") && shown.stderr.contains("…\" ignored"), String(shown.stderr.prefix(300)))
        // A gate with no terminal or display fails open, warning first.
        let gate = try home.miga(["gate", "--app", "chat", "--", "/bin/true"], environment: environment(["DISPLAY": ""]))
        XCTAssertEqual(gate.status, 0)
        let warning = gate.stderr.split(separator: "\n").first { $0.contains("unknown key") } ?? ""
        XCTAssertLessThanOrEqual(warning.utf8.count, 200, String(gate.stderr.prefix(300)))

        let half = String(repeating: "d", count: 400_000)
        try home.writeConfig("\(half) = 1\n\(half) = 2\n")
        let duplicate = try miga("config", "show")
        XCTAssertEqual(duplicate.status, 1)
        XCTAssertLessThanOrEqual(duplicate.stderr.utf8.count, 300, String(duplicate.stderr.prefix(400)))
        XCTAssertTrue(duplicate.stderr.contains("duplicate key \"ddd"), String(duplicate.stderr.prefix(400)))
    }
}
