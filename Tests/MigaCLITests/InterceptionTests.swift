import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// `miga config apps/sites`, `install`, `uninstall`, `doctor` and `open-url`, run as the built
/// binary in a temp HOME whose "system" desktop entries live in a temp XDG_DATA_DIRS, with
/// real tools (desktop-file-validate, update-desktop-database, gio) where they matter.
/// The cases that need no process of their own run in-process in MigaCommandTests' InterceptionCommandTests.
final class InterceptionTests: XCTestCase, DesktopSystemCase {
    var home: MigaHome!

    override func setUpWithError() throws {
        home = try MigaHome()
        try Fixtures.writeDesktopSystem(into: home)
    }

    // MARK: - apps add / list / remove

    func testAppsAddMakesValidShimsForEveryEntryRunningTheCommandAndRemoveTakesThemAway() throws {
        // Files that are not usable entries: each is skipped with one line naming it.
        try home.writeFile("sys/applications/no-group.desktop", "Name=Nothing\nExec=chat\n")
        try home.writeFile("sys/applications/bad-quote.desktop", "[Desktop Entry]\nType=Application\nName=Q\nExec=chat \"oops\n")
        try Data([0x5B, 0x44, 0xFF, 0xFE, 0x0A]).write(to: URL(fileURLWithPath: system + "/applications/not-utf8.desktop"))
        try Data(repeating: 0x23, count: 5 << 20).write(to: URL(fileURLWithPath: system + "/applications/huge.desktop"))
        // A KDE service entry that runs chat (as konqueror's do) and a terminal app.
        try home.writeFile("sys/applications/chat-service.desktop", "[Desktop Entry]\nType=Service\nName=S\nExec=chat %u\n")
        try home.writeFile("sys/applications/chat-tui.desktop", "[Desktop Entry]\nType=Application\nName=T\nExec=chat --tui\nTerminal=true\n")

        let added = try miga("config", "apps", "add", "chat", "--timer", "20")
        XCTAssertEqual(added.status, 0, added.stderr)
        for name in ["no-group.desktop", "bad-quote.desktop", "not-utf8.desktop", "huge.desktop"] {
            XCTAssertEqual(added.stderr.components(separatedBy: "\n").filter { $0.contains(name) }.count, 1,
                           "one warning naming \(name):\n\(added.stderr)")
        }
        // Said once: the next run is quiet about the same files; doctor lists them all.
        let quiet = try miga("config", "apps", "add", "other", "--command", home.recorder)
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        XCTAssertFalse(quiet.stderr.contains(".desktop"), "a broken file is said once, not on every add:\n\(quiet.stderr)")
        let doctor = try miga("doctor")
        for name in ["no-group.desktop", "bad-quote.desktop", "not-utf8.desktop", "huge.desktop"] {
            XCTAssertTrue(DoctorText.unwrapped(doctor.stdout).contains("note     desktop entry: ") && DoctorText.unwrapped(doctor.stdout).contains(name), doctor.stdout)
        }
        XCTAssertEqual(try miga("config", "apps", "remove", "other").status, 0)
        XCTAssertTrue(added.stdout.contains("created PATH shim ~/.local/share/miga/bin/chat"), added.stdout)
        XCTAssertTrue(added.stdout.contains("created desktop shim ~/.local/share/applications/chat.desktop"), added.stdout)
        XCTAssertTrue(added.stdout.contains("created desktop shim ~/.local/share/applications/vendor-chat-beta.desktop"), added.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: applications + "/other.desktop"), "only entries that run chat")
        XCTAssertFalse(FileManager.default.fileExists(atPath: applications + "/chat-service.desktop"), "only application entries")
        XCTAssertTrue(try XCTUnwrap(read(applications + "/chat-tui.desktop")).contains(
            "Exec=" + DesktopShim.execPrefix(migaPath: home.binary, app: "chat", detach: false) + "chat --tui\n"),
                      "a terminal app shares the gate's terminal, not detached")
        XCTAssertEqual(AtomicFile.mode(of: shims + "/chat"), 0o755)
        XCTAssertEqual(try ConfigLoader().load(path: home.configFile).config.apps["chat"],
                       MigaConfig.App(name: "chat", command: "chat", timerSeconds: 20))

        // Each shim follows DESIGN and passes the reference validator.
        let shim = try XCTUnwrap(read(applications + "/chat.desktop"))
        let prefix = DesktopShim.execPrefix(migaPath: home.binary, app: "chat", detach: true)
        XCTAssertTrue(shim.contains("Exec=\(prefix)chat %U\n"), shim)
        XCTAssertTrue(shim.contains("Exec=\(prefix)chat --new-window\n"), "the action keeps its own arguments")
        XCTAssertTrue(shim.contains("Name[de]=Plaudern\n# a comment that must survive\n"), shim)
        for key in ["Terminal=false", "DBusActivatable=false", "X-Miga-Shim=true"] {
            XCTAssertTrue(shim.contains(key + "\n"), key)
        }
        XCTAssertTrue(try XCTUnwrap(read(applications + "/chat-tui.desktop")).contains("Terminal=true\n"), "a terminal app keeps its terminal")
        XCTAssertFalse(shim.contains("TryExec="), "no TryExec that hides the app once miga is gone")
        let beta = try XCTUnwrap(read(applications + "/vendor-chat-beta.desktop"))
        XCTAssertTrue(beta.contains("DBusActivatable=false\n") && !beta.contains("DBusActivatable=true"), beta)
        for file in ["chat.desktop", "vendor-chat-beta.desktop", "chat-tui.desktop"] {
            let validation = try home.run("/usr/bin/desktop-file-validate", [applications + "/" + file])
            XCTAssertEqual(validation.status, 0, "\(file): \(validation.stdout)\(validation.stderr)")
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: applications + "/mimeinfo.cache"), "update-desktop-database ran")

        let list = try miga("config", "apps", "list")
        XCTAssertTrue(list.stdout.contains("chat\n  command       chat\n  timer         20 s\n"), list.stdout)
        XCTAssertTrue(list.stdout.contains("desktop shim  ~/.local/share/applications/vendor-chat-beta.desktop"), list.stdout)

        let again = try miga("config", "apps", "add", "chat")
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.stderr.contains("already gated"), again.stderr)

        let removed = try miga("config", "apps", "remove", "chat")
        XCTAssertEqual(removed.status, 0, removed.stderr)
        for path in [shims + "/chat", applications + "/chat.desktop", applications + "/vendor-chat-beta.desktop"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: path), path)
        }
        XCTAssertNil(try ConfigLoader().load(path: home.configFile).config.apps["chat"])
        XCTAssertEqual(try miga("config", "apps", "remove", "chat").status, 1, "removing twice is an error")
    }

    /// A Flatpak app has no command on PATH; its exported entry runs `flatpak run … APPID`.
    /// Gating it by its name shadows that entry, and the gate runs the same wrapper.
    func testAFlatpakAppIsGatedByItsName() throws {
        let exports = home.root + "/flatpak/exports/share"
        let exec = "/usr/bin/flatpak run --branch=stable --arch=x86_64 --command=discord --file-forwarding com.discordapp.Discord @@u %U @@"
        try home.writeFile("flatpak/exports/share/applications/com.discordapp.Discord.desktop", """
            [Desktop Entry]
            Name=Discord
            StartupWMClass=discord
            GenericName=Internet Messenger
            Exec=\(exec)
            Icon=com.discordapp.Discord
            Type=Application
            Categories=Network;InstantMessaging;
            X-Flatpak-Tags=proprietary;
            X-Flatpak=com.discordapp.Discord

            """)
        let added = try miga("config", "apps", "add", "discord", environment: ["XDG_DATA_DIRS": system + ":" + exports])
        XCTAssertEqual(added.status, 0, added.stderr)
        let path = applications + "/com.discordapp.Discord.desktop"
        XCTAssertTrue(added.stdout.contains("created desktop shim ~/.local/share/applications/com.discordapp.Discord.desktop"), added.stdout)
        let shim = try XCTUnwrap(read(path))
        XCTAssertTrue(shim.contains("Exec=" + DesktopShim.execPrefix(migaPath: home.binary, app: "discord", detach: true) + exec + "\n"), shim)
        XCTAssertTrue(shim.contains("X-Flatpak=com.discordapp.Discord\n"), "the rest is kept")
        let validation = try home.run("/usr/bin/desktop-file-validate", [path])
        XCTAssertEqual(validation.status, 0, validation.stdout + validation.stderr)
    }

    /// A Flatpak-only app has no command on PATH: the PATH shim runs its exported launcher.
    func testAFlatpakOnlyAppsPATHShimRunsItsExportedLauncher() throws {
        let exports = home.root + "/flatpak/exports"
        try home.writeFile("flatpak/exports/share/applications/com.example.Chatter.desktop",
                           "[Desktop Entry]\nType=Application\nName=Chatter\nExec=/usr/bin/flatpak run --branch=stable com.example.Chatter %U\n")
        let launcher = try home.writeFile("flatpak/exports/bin/com.example.Chatter", mode: 0o755,
                                          "#!/bin/sh\nexec \(shellQuote(home.recorder)) \"$@\"\n")
        let env = ["XDG_DATA_DIRS": system + ":" + exports + "/share"]
        let added = try miga("config", "apps", "add", "chatter", environment: env)
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertEqual(try ConfigLoader().load(path: home.configFile).config.apps["chatter"]?.command, launcher)
        XCTAssertTrue(added.stdout.contains("created desktop shim ~/.local/share/applications/com.example.Chatter.desktop"), added.stdout)
        // As a shell runs it (inside its own gate, so it passes straight through): the app starts.
        let ran = try home.run(shims + "/chatter", ["--new", "a b"], environment: environment(env.merging(["MIGA_GATED": "chatter"]) { $1 }))
        XCTAssertEqual(ran.status, 0, ran.stderr)
        XCTAssertEqual(home.recordedArguments(), ["--new", "a b"])
        XCTAssertTrue(DoctorText.unwrapped(try miga("doctor", environment: env).stdout).contains("ok       app chatter:"))
    }

    // MARK: - gio launch: the shim gives the app exactly the original's argv

    func testLaunchingShimsWithGioGivesTheAppTheSameArgvAsTheOriginals() throws {
        let gio = "/usr/bin/gio"
        guard FileManager.default.isExecutableFile(atPath: gio) else { throw XCTSkip("gio (libglib2.0-bin) is not installed") }
        let recorder = home.recorder
        // One entry per rule of the Exec grammar (and the real-world cases DESIGN names).
        let cases: [(id: String, exec: String, extra: String)] = [
            ("dashdash", "\(recorder) -- %u", ""),
            ("quoted", "\(recorder) \"qute://settings\" \"a \\\\\"b\\\\\" \\\\$HOME \\\\`x\\\\` \\\\\\\\\" %U", ""),
            ("codes", "\(recorder) -qwindowtitle %c %i --percent=100%% %u", "Icon=chat-icon\n"),
            ("location", "\(recorder) --entry %k %f", ""),
            ("dbus", "\(recorder) --gapplication-service %U", "DBusActivatable=true\n"),
            ("escapes", "\(recorder)\\s--tab\\t%u", ""),
        ]
        for entry in cases {
            try home.writeFile("sys/applications/\(entry.id).desktop",
                               "[Desktop Entry]\nType=Application\nName=Case \(entry.id)\n\(entry.extra)Exec=\(entry.exec)\n")
        }
        let add = try miga("config", "apps", "add", "rec", "--command", recorder)
        XCTAssertEqual(add.status, 0, add.stderr)

        // GLib opens Terminal=true entries in the first emulator it finds; this one runs the command.
        try home.writeFile("term/xterm", mode: 0o755, "#!/bin/sh\nwhile [ $# -gt 0 ] && [ \"$1\" != -e ]; do shift; done\nshift\nexec \"$@\"\n")
        let gioEnvironment = environment(["PATH": "\(home.root)/term:/usr/bin:/bin", "MIGA_GATED": "rec", "DISPLAY": ""])
        func launch(_ file: String, _ uris: [String]) throws -> [String] {
            for suffix in ["argv", "info"] { unlink(home.root + "/recorded." + suffix) }
            let output = try home.run(gio, ["launch", file] + uris, environment: gioEnvironment)
            XCTAssertEqual(output.status, 0, "\(file): \(output.stderr)")
            eventually("the app to start from \(file)") { home.recordedInfo() != nil }
            return home.recordedArguments() ?? []
        }
        for entry in cases {
            // %u and %f start one process per URI (each through its own gate); one URI keeps
            // the comparison to a single process.
            let uris = entry.exec.contains("%U") ? ["https://example.org/a?b=c d", "file:///tmp/x y.txt"]
                : entry.exec.contains("%f") ? ["file:///tmp/x y.txt"] : ["https://example.org/a?b=c d"]
            let original = try launch(system + "/applications/\(entry.id).desktop", uris)
            let gated = try launch(applications + "/\(entry.id).desktop", uris)
            XCTAssertFalse(original.isEmpty, entry.id)
            // %k is the entry's own location: the shim's, by definition.
            let expected = original.map { $0 == system + "/applications/\(entry.id).desktop" ? applications + "/\(entry.id).desktop" : $0 }
            XCTAssertEqual(gated, expected, "\(entry.id): Exec=\(entry.exec)")
            XCTAssertTrue(home.recordedInfo()?.contains("gated=rec ") == true, "went through miga gate")
        }
    }

    /// The real Debian entries, their program swapped for the recorder (everything else, their
    /// arguments, field codes, DBusActivatable and actions, as shipped).
    func testLaunchingShimsOfTheRealDebianEntriesWithGio() throws {
        let gio = "/usr/bin/gio"
        guard FileManager.default.isExecutableFile(atPath: gio) else { throw XCTSkip("gio (libglib2.0-bin) is not installed") }
        let fixtures = MigaHome.repository + "/Tests/Fixtures/desktop"
        let names = try FileManager.default.contentsOfDirectory(atPath: fixtures).filter { $0.hasSuffix(".desktop") }.sorted()
        XCTAssertEqual(names.count, 10)
        for name in names {
            let text = try String(contentsOfFile: fixtures + "/" + name, encoding: .utf8)
            let swapped = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
                for key in ["Exec=", "TryExec="] where line.hasPrefix(key) {
                    let rest = line.dropFirst(key.count).drop { $0 != " " }
                    return key + home.recorder + rest
                }
                return String(line)
            }.joined(separator: "\n")
            try home.writeFile("sys/applications/\(name)", swapped)
        }
        XCTAssertEqual(try miga("config", "apps", "add", "rec", "--command", home.recorder).status, 0)
        try home.writeFile("term/xterm", mode: 0o755, "#!/bin/sh\nwhile [ $# -gt 0 ] && [ \"$1\" != -e ]; do shift; done\nshift\nexec \"$@\"\n")
        let gioEnvironment = environment(["PATH": "\(home.root)/term:/usr/bin:/bin", "MIGA_GATED": "rec", "DISPLAY": ""])
        func launch(_ file: String) throws -> [String] {
            for suffix in ["argv", "info"] { unlink(home.root + "/recorded." + suffix) }
            let output = try home.run(gio, ["launch", file, "https://example.org/x"], environment: gioEnvironment)
            XCTAssertEqual(output.status, 0, "\(file): \(output.stderr)")
            eventually("the app to start from \(file)") { home.recordedInfo() != nil }
            return home.recordedArguments() ?? []
        }
        for name in names {
            let shim = applications + "/" + name
            XCTAssertTrue(FileManager.default.fileExists(atPath: shim), name)
            let validation = try home.run("/usr/bin/desktop-file-validate", [shim])
            XCTAssertEqual(validation.status, 0, "\(name): \(validation.stdout)")
            XCTAssertEqual(try launch(shim), try launch(system + "/applications/" + name), name)
        }
    }

    // MARK: - install / uninstall

    func testInstallTwiceThenUninstallLeavesTheHomeExactlyAsItWas() throws {
        // A lived-in home: rc files (one without a final newline, one a symlink into dotfiles),
        // a mimeapps.list with other people's lines, the person's own copy of chat's entry.
        try home.writeFile("home/.bashrc", "alias ll='ls -l'\nexport EDITOR=vi")
        try home.writeFile("home/.zshrc", "bindkey -e\n")
        try home.writeFile("home/dotfiles/profile", "umask 022\n")
        try FileManager.default.createSymbolicLink(atPath: home.home + "/.profile", withDestinationPath: "dotfiles/profile")
        let mimeapps = """
            # managed by hand
            [Default Applications]
            text/html=web.desktop
            x-scheme-handler/https=web.desktop
            application/pdf=evince.desktop;

            [Added Associations]
            image/png=eog.desktop;

            [Removed Associations]
            text/plain=vim.desktop;
            """
        try home.writeFile("home/.config/mimeapps.list", mimeapps)
        try home.writeFile("home/.local/share/applications/chat.desktop",
                           "[Desktop Entry]\nType=Application\nName=My Chat\nExec=chat --profile mine %U\n")
        try home.writeFile("home/.local/share/applications/notes.desktop", "[Desktop Entry]\nType=Application\nName=Notes\nExec=notes\nMimeType=text/x-notes;\n")
        XCTAssertEqual(try home.run("/usr/bin/update-desktop-database", [applications]).status, 0)
        let before = try snapshot()

        XCTAssertEqual(try miga("config", "apps", "add", "chat").status, 0)
        let install = try miga("install")
        XCTAssertEqual(install.status, 0, install.stderr)
        XCTAssertTrue(install.stdout.contains("links go on to web.desktop"), install.stdout)
        let installed = try snapshot()
        let manifestAfterFirst = read(manifest)

        // The person's own chat.desktop was the source of the shim, and is kept aside.
        let shim = try XCTUnwrap(read(applications + "/chat.desktop"))
        XCTAssertTrue(shim.contains("Name=My Chat\n") && shim.contains(" chat --profile mine %U\n"), shim)
        XCTAssertTrue(read(home.home + "/.bashrc")!.hasPrefix("alias ll='ls -l'\nexport EDITOR=vi\nif [ -r "), "newline added, then one line")
        XCTAssertEqual(read(home.home + "/.bashrc")!.components(separatedBy: ShellIntegration.marker).count, 2)
        XCTAssertTrue(read(home.root + "/home/dotfiles/profile")!.contains(ShellIntegration.marker), "written through the symlink")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: home.home + "/.profile"), "dotfiles/profile")
        let list = try XCTUnwrap(read(home.home + "/.config/mimeapps.list"))
        XCTAssertTrue(list.contains("x-scheme-handler/https=miga-url-handler.desktop;web.desktop;\n"), list)
        XCTAssertTrue(list.contains("text/html=web.desktop\n") && list.contains("[Removed Associations]\ntext/plain=vim.desktop;"), list)
        XCTAssertEqual(read(home.home + "/.config/environment.d/60-miga.conf")?.contains("PATH=\(shims):${PATH}"), true)
        let handler = try home.run("/usr/bin/desktop-file-validate", [applications + "/miga-url-handler.desktop"])
        XCTAssertEqual(handler.status, 0, handler.stdout)

        let second = try miga("install")
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(second.stdout, "miga is installed; nothing needed changing.\n")
        XCTAssertEqual(try snapshot(), installed, "a second install changes nothing")
        XCTAssertEqual(read(manifest), manifestAfterFirst)

        let uninstall = try miga("uninstall")
        XCTAssertEqual(uninstall.status, 0, uninstall.stderr)
        XCTAssertTrue(uninstall.stdout.contains("put back your own ~/.local/share/applications/chat.desktop"), uninstall.stdout)
        XCTAssertTrue(uninstall.stdout.contains("run `hash -r` in each, or open a new shell"), "bash keeps the removed shims hashed: \(uninstall.stdout)")
        XCTAssertEqual(try snapshot(), before, "rc files, applications, mimeapps.list: byte for byte as before")
        XCTAssertEqual(read(home.home + "/.config/mimeapps.list"), mimeapps)
        XCTAssertFalse(FileManager.default.fileExists(atPath: manifest))
        XCTAssertNotNil(try ConfigLoader().load(path: home.configFile).config.apps["chat"], "config stays without --purge")
    }

    /// On a terminal, a purge lists what it deletes and asks; "no" changes nothing.
    func testPurgeAsksOnATerminal() throws {
        XCTAssertEqual(try miga("config", "apps", "add", "chat").status, 0)
        try home.writeFile("home/.local/share/miga/quotes/mine.toml", "")
        try home.writeFile("home/.local/share/miga/notes.txt", "mine")
        let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) uninstall --purge", environment: environment())
        let screen = terminal.waitFor("Delete all of this? [y/N]")
        XCTAssertTrue(screen.contains("It keeps what miga did not make in its data folder:\n  - ~/.local/share/miga/notes.txt"), screen)
        XCTAssertTrue(screen.contains("your content pack ~/.local/share/miga/quotes/mine.toml"), screen)
        XCTAssertTrue(screen.contains("your settings, ~/.config/miga/config.toml"), screen)
        try terminal.enter("n")
        terminal.waitFor("Nothing was changed.")
        terminal.waitFor("STATUS=0")
        XCTAssertTrue(FileManager.default.fileExists(atPath: home.configFile))
        XCTAssertTrue(FileManager.default.fileExists(atPath: home.home + "/.local/share/miga/quotes/mine.toml"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: shims + "/chat"), "not even uninstalled")
    }

    // MARK: - doctor

    // MARK: - open-url

    /// Only http and https links are miga's to open: anything else is refused whole with 64,
    /// and nothing reaches the browser. Sites are checked on input; a wildcard works.
    func testOpenURLRefusesOtherSchemesAndSitesAreCheckedOnInput() throws {
        XCTAssertEqual(try miga("install").status, 0)
        for url in ["javascript:alert(1)", "file:///etc/passwd", "data:text/html,<script>", "ftp://reddit.com/", "https://"] {
            let output = try miga("open-url", "https://www.debian.org/", url, environment: ["DISPLAY": ""])
            XCTAssertEqual(output.status, 64, url)
            XCTAssertTrue(output.stderr.contains("is not an http or https link; nothing was opened"), output.stderr)
        }
        for arguments in [["open-url"], ["open-url", "--forward", "--"]] {
            let none = try home.miga(arguments, environment: environment(["DISPLAY": ""]))
            XCTAssertEqual(none.status, 64, "\(arguments): no link is a usage error")
            XCTAssertTrue(none.stderr.contains("Missing expected argument"), none.stderr)
        }
        usleep(200_000)
        XCTAssertNil(home.recordedArguments(), "nothing was forwarded")

        let comma = try miga("config", "sites", "add", "a,b.example")
        XCTAssertEqual(comma.status, 1)
        XCTAssertTrue(comma.stderr.contains("a,b.example"), comma.stderr)
        XCTAssertEqual(try miga("config", "sites", "add", "*.example.net").status, 0)
        XCTAssertTrue(try miga("config", "sites", "list").stdout.contains("*.example.net\n"))
        let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) open-url https:news.example.net",
                                        environment: environment(["DISPLAY": ""]))
        terminal.waitFor("[e] Exit")
        XCTAssertTrue(terminal.screen().contains("miga · example.net"), terminal.screen())
        try terminal.press("e")
        terminal.waitFor("STATUS=0")
        XCTAssertNil(home.recordedArguments())
    }

    /// After a gate lets a link through, a browser that ends at once with a failure (a missing
    /// library, no display) is said on stderr and as a desktop notification, never silence;
    /// one that keeps running, or hands the link on and exits 0, is not.
    func testABrowserThatFailsToStartAfterAGateIsReported() throws {
        try home.writeFile("bin/notify-send", mode: 0o755, "#!/bin/sh\nprintf '%s\\n' \"$@\" > \(shellQuote(home.root + "/notified"))\n")
        try home.writeFile("bin/browser", mode: 0o755, "#!/bin/sh\necho 'browser: cannot open display' >&2\nexit 3\n")
        try home.writeFile("sys/applications/web.desktop", "[Desktop Entry]\nType=Application\nName=Web\nExec=browser %u\n")
        try home.writeConfig("sites = [\"reddit.com\"]\n")
        XCTAssertEqual(try miga("install").status, 0)
        let store = try EventStore(path: home.database)
        try store.record(Event(timestamp: Int64(Date().timeIntervalSince1970 * 1000), utcOffsetMinutes: 0, session: "test", type: .openSelected, app: "reddit.com"))
        // The forwarder is detached and speaks after `open-url` returns: a pipe's reader sees
        // it, as a terminal does.
        func openThroughPipe() throws -> MigaHome.Output {
            try home.runInRoot("/bin/sh", ["-c", "\(shellQuote(home.binary)) open-url https://reddit.com/r/linux 2>&1 | cat"],
                               environment: environment(["DISPLAY": ":7"]))
        }
        let failed = try openThroughPipe()
        let said = "miga: Web (\(home.root)/bin/browser) ended at once with status 3, so the link did not open: https://reddit.com/r/linux; "
            + "open it yourself, or choose another default browser and run `miga install`"
        XCTAssertTrue(failed.stdout.contains(said), failed.stdout)
        XCTAssertEqual(try home.events().last?.type, .gracePass)
        eventually { self.read(self.home.root + "/notified") != nil }
        XCTAssertEqual(read(home.root + "/notified"), "--app-name=miga\nmiga\n\(said)\n")

        unlink(home.root + "/notified")
        try home.writeFile("bin/browser", mode: 0o755, "#!/bin/sh\nsleep 3\n")
        let running = try openThroughPipe()
        XCTAssertEqual(running.status, 0, running.stdout)
        XCTAssertFalse(running.stdout.contains("did not open"), running.stdout)
        XCTAssertNil(read(home.root + "/notified"))
    }

    func testOpenURLForwardsOtherLinksAtOnceAndGatesListedSites() throws {
        try home.writeConfig("sites = [\"reddit.com\"]\n")
        XCTAssertEqual(try miga("install").status, 0)
        let forwarded = try miga("open-url", "https://reddit.com@evil.example/", environment: ["DISPLAY": ""])
        XCTAssertEqual(forwarded.status, 0, forwarded.stderr)
        eventually { home.recordedInfo() != nil }
        XCTAssertEqual(home.recordedArguments(), ["--new-window", "https://reddit.com@evil.example/"])
        XCTAssertEqual(try home.events(), [], "no gate for a site that is not listed")

        // A listed site in a terminal: the gate shows; Exit means the browser never runs.
        for suffix in ["argv", "info"] { unlink(home.root + "/recorded." + suffix) }
        let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) open-url 'HTTPS://OLD.REDDIT.COM./r/linux'",
                                        environment: environment(["DISPLAY": ""]))
        terminal.waitFor("[e] Exit")
        XCTAssertTrue(terminal.screen().contains("miga · reddit.com"), terminal.screen())
        try terminal.press("e")
        terminal.assertTerminalRestored()
        let types = try home.events().map(\.type)
        XCTAssertTrue(types.contains(.exitSelected) && !types.contains(.openSelected), "\(types)")
        XCTAssertEqual(Set(try home.events().map(\.app)), ["reddit.com"])
        XCTAssertNil(home.recordedArguments())

        // Within the grace period the same site passes, and the browser gets the link.
        let store = try EventStore(path: home.database)
        try store.record(Event(timestamp: Int64(Date().timeIntervalSince1970 * 1000), utcOffsetMinutes: 0, session: "test", type: .openSelected, app: "reddit.com"))
        let graced = try miga("open-url", "https://old.reddit.com/r/linux", environment: ["DISPLAY": ""])
        XCTAssertEqual(graced.status, 0, graced.stderr)
        eventually { home.recordedInfo() != nil }
        XCTAssertEqual(home.recordedArguments(), ["--new-window", "https://old.reddit.com/r/linux"])
        XCTAssertEqual(try home.events().last?.type, .gracePass)
    }

    /// A path site (`youtube.com/shorts`): added and listed as written; a `/watch` link of the
    /// same host goes to the browser at once, a `/shorts/…` link is gated under the path
    /// site's own name, and its grace and hand-over files carry the name percent-encoded,
    /// never as a folder.
    func testOpenURLGatesAPathSiteAndPassesTheRestOfItsHost() throws {
        let run = home.root + "/run"
        XCTAssertEqual(mkdir(run, 0o700), 0)
        let env = ["DISPLAY": "", "XDG_RUNTIME_DIR": run]
        XCTAssertEqual(try miga("install").status, 0)
        try home.writeConfig("timer_seconds = 15\ngrace_minutes = 5\nsites = []\n")
        let added = try miga("config", "sites", "add", "YouTube.com/shorts/")
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertTrue(added.stdout.contains("youtube.com/shorts is gated"), added.stdout)
        XCTAssertEqual(try miga("config", "sites", "list").stdout, "youtube.com/shorts\n")
        let query = try miga("config", "sites", "add", "youtube.com/watch?v=1")
        XCTAssertEqual(query.status, 1)
        XCTAssertTrue(query.stderr.contains("is not a site's path"), query.stderr)

        let watch = try miga("open-url", "https://www.youtube.com/watch?v=1", environment: env)
        XCTAssertEqual(watch.status, 0, watch.stderr)
        eventually { self.home.recordedInfo() != nil }
        XCTAssertEqual(home.recordedArguments(), ["--new-window", "https://www.youtube.com/watch?v=1"])
        XCTAssertEqual(try home.events(), [], "the host's other pages are not gated")

        for suffix in ["argv", "info"] { unlink(home.root + "/recorded." + suffix) }
        let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) open-url 'https://youtube.com/shorts/abc'",
                                        environment: environment(env))
        terminal.waitFor("[e] Exit")
        XCTAssertTrue(terminal.screen().contains("miga · youtube.com/shorts"), terminal.screen())
        try terminal.press("e")
        terminal.assertTerminalRestored()
        XCTAssertEqual(Set(try home.events().map(\.app)), ["youtube.com/shorts"])
        XCTAssertNil(home.recordedArguments())

        // An Open of the path site: its grace lets the next link through, and leaves its files.
        let store = try EventStore(path: home.database)
        try store.record(Event(timestamp: Int64(Date().timeIntervalSince1970 * 1000), utcOffsetMinutes: 0, session: "test",
                               type: .openSelected, app: "youtube.com/shorts"))
        let graced = try miga("open-url", "https://m.youtube.com/shorts/xyz?feature=share", environment: env)
        XCTAssertEqual(graced.status, 0, graced.stderr)
        eventually { self.home.recordedInfo() != nil }
        XCTAssertEqual(home.recordedArguments(), ["--new-window", "https://m.youtube.com/shorts/xyz?feature=share"])
        XCTAssertEqual(try home.events().last?.type, .gracePass)
        XCTAssertEqual(try home.events().last?.app, "youtube.com/shorts")
        eventually { FileManager.default.fileExists(atPath: run + "/miga/grace/youtube.com%2Fshorts.until") }
        XCTAssertTrue(FileManager.default.fileExists(atPath: run + "/miga/pass/youtube.com%2Fshorts"))
        for folder in ["grace", "pass"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: run + "/miga/\(folder)/youtube.com"), "no folder named after the host")
        }
        let removed = try miga("config", "sites", "remove", "youtube.com/shorts")
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertFalse(try miga("config", "sites", "list").stdout.contains("youtube.com/shorts"))
    }

    /// "Do this instead" with a link, chosen at a terminal gate: the link goes to the person's
    /// own browser (the default before miga's), never gated, though it is a gated site's.
    func testALinkAlternativeGoesToTheBrowserWithoutAGate() throws {
        XCTAssertEqual(try miga("install").status, 0)
        try home.writeConfig("timer_seconds = 15\ngrace_minutes = 0\nsites = [\"reddit.com\"]\n")
        let added = try miga("config", "alternatives", "add", "Books instead", "--url", "https://reddit.com/r/books")
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertEqual(added.stdout, "Added: 1. Books instead: https://reddit.com/r/books\n")
        let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) gate --app chat -- /bin/false",
                                        environment: environment(["DISPLAY": ""]))
        terminal.waitFor("Instead: [1] Books instead")
        try terminal.press("1")
        terminal.waitFor("STATUS=0")
        eventually { home.recordedInfo() != nil }
        XCTAssertEqual(home.recordedArguments(), ["--new-window", "https://reddit.com/r/books"])
        XCTAssertEqual(try home.events().filter { $0.app == "reddit.com" }, [], "no gate, no pass: the alternative is the Exit's")
        XCTAssertEqual(try home.events().last { $0.type == .exitSelected }?.detail, #"{"alternative":"Books instead"}"#)
    }

    /// A site opened "for 10 minutes" through `open-url`'s gate: the browser gets the link,
    /// and the timebox is left running for the browser's extension to end softly (the link's
    /// own forwarder ending is not the site closing).
    func testASiteOpenedForSomeMinutesThroughOpenURL() throws {
        XCTAssertEqual(try miga("install").status, 0)
        try home.writeConfig("timer_seconds = 15\ngrace_minutes = 0\nsites = [\"reddit.com\"]\n[site.\"reddit.com\"]\nask_minutes = true\n")
        let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) open-url https://reddit.com/r/linux",
                                        environment: environment(["DISPLAY": ""]))
        terminal.waitFor("━  ready", timeout: 40)
        try terminal.press("o")
        terminal.waitFor("For how long?")
        try terminal.press("2")
        terminal.waitFor("STATUS=0")
        eventually { home.recordedInfo() != nil }
        XCTAssertEqual(home.recordedArguments(), ["--new-window", "https://reddit.com/r/linux"])
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertEqual(try home.events().filter { $0.type == .openSelected }.map(\.detail), [#"{"minutes":10}"#])
        XCTAssertFalse(try home.events().contains { $0.type == .timeboxEnded })
        let status = try miga("status", "--json").stdout
        XCTAssertNotNil(status.range(of: #""timeboxes":\[\{"app":"reddit.com","minutes":10,"until":"[^"]+"\}\]"#, options: .regularExpression), status)
    }
}
