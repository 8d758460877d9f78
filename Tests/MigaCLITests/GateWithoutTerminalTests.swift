import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// The built binary without a terminal: pass-through, grace, fail-open, hand-off to a
/// terminal emulator, the recursion guard and --detach.
final class GateWithoutTerminalTests: XCTestCase {
    var home: MigaHome!

    override func setUpWithError() throws {
        home = try MigaHome()
    }

    func testNoTerminalAndNoDisplayFailsOpenWithOneLine() throws {
        let output = try home.miga(["gate", "--app", "chat", "--", home.recorder, "a b", ""])
        XCTAssertEqual(output.status, 0, output.stderr)
        XCTAssertEqual(home.recordedArguments(), ["a b", ""])
        XCTAssertEqual(output.stderr.split(separator: "\n").count, 1, output.stderr)
        XCTAssertTrue(output.stderr.contains("opening chat without a pause"), output.stderr)
        let events = try home.events()
        XCTAssertEqual(events.map(\.type), [.gatewaySkipped])
        XCTAssertEqual(events.first?.detail, #"{"reason":"no_terminal"}"#)
    }

    /// No usable home at all (HOME not absolute, no XDG folders): miga cannot keep its files,
    /// but the app still opens, also through its own PATH shim, and nothing is written.
    func testWithoutAHomeTheAppStillOpensAndSaysWhy() throws {
        let direct = try home.runInRoot(home.binary, ["gate", "--app", "chat", "--", home.recorder, "a b", ""],
                                  environment: home.environment(["HOME": "relative/home"]))
        XCTAssertEqual(direct.status, 0, direct.stderr)
        XCTAssertEqual(home.recordedArguments(), ["a b", ""])
        XCTAssertTrue(home.recordedInfo()?.hasPrefix("gated=chat ") == true, home.recordedInfo() ?? "")
        XCTAssertEqual(direct.stderr.split(separator: "\n").count, 1, direct.stderr)
        XCTAssertTrue(direct.stderr.contains("set HOME") && direct.stderr.contains("opening chat without a pause"), direct.stderr)

        // A shim that found itself again would loop for ever.
        try FileManager.default.createSymbolicLink(atPath: home.root + "/bin/rec", withDestinationPath: home.recorder)
        let shim = try home.writeFile("data/miga/bin/rec", mode: 0o755, PathShim.text(migaPath: home.binary, app: "rec", command: "rec"))
        try FileManager.default.removeItem(atPath: home.root + "/recorded.argv")
        let throughShim = try home.runInRoot(shim, ["x"], environment: home.environment([
            "HOME": "relative/home", "PATH": "\(home.root)/data/miga/bin:\(home.root)/bin:/usr/bin:/bin"]))
        XCTAssertEqual(throughShim.status, 0, throughShim.stderr)
        XCTAssertEqual(home.recordedArguments(), ["x"])
        XCTAssertTrue(throughShim.stderr.contains("opening rec without a pause"), throughShim.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.root + "/relative"), "nothing written beside the working directory")
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.home + "/.local"), "nor in a home")
    }

    /// A broken `[[schedule]]` that stays broken is said by the first gate after it appears,
    /// not by every launch of every app; a change of the file's warnings is said again, and
    /// `doctor` lists it every time.
    func testAConfigWarningIsSaidOncePerChange() throws {
        let broken = "[[schedule]]\ndays = \"someday\"\nfrom = \"09:00\"\nto = \"17:00\"\n"
        try home.writeConfig(broken)
        func gateWarnings() throws -> [String] {
            let output = try home.miga(["gate", "--app", "chat", "--", home.recorder])
            XCTAssertEqual(output.status, 0, output.stderr)
            return output.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("miga: warning:") }
        }
        let first = try gateWarnings()
        XCTAssertEqual(first.count, 1, "\(first)")
        XCTAssertTrue(first.first?.contains("config.toml:2: [[schedule]] 1: days must be") == true, "\(first)")
        XCTAssertEqual(try gateWarnings(), [], "the same warning again")
        XCTAssertEqual(try gateWarnings(), [])
        let doctor = try home.miga(["doctor"])
        XCTAssertTrue((doctor.stdout + doctor.stderr).contains("schedule"), doctor.stdout + doctor.stderr)
        try home.writeConfig("timer_seconds = 20\n" + broken) // another line: another warning
        XCTAssertEqual(try gateWarnings().count, 1)
        try home.writeConfig("timer_seconds = 20\n") // fixed, then broken again: news again
        XCTAssertEqual(try gateWarnings(), [])
        try home.writeConfig("timer_seconds = 20\n" + broken)
        XCTAssertEqual(try gateWarnings().count, 1)
    }

    func testAppStatusIsPassedThroughExec() throws {
        let output = try home.miga(["gate", "--", "/bin/sh", "-c", "exit 7"], environment: home.environment(["MIGA_GATED": "sh"]))
        XCTAssertEqual(output.status, 7, "after exec the process is the app")
    }

    func testGatedPassesStraightThroughWithoutTouchingAnything() throws {
        let output = try home.miga(["gate", "--app", "chat", "--", home.recorder, "x"], environment: home.environment(["MIGA_GATED": "chat"]))
        XCTAssertEqual(output.status, 0)
        XCTAssertEqual(output.stderr, "")
        XCTAssertEqual(home.recordedArguments(), ["x"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.home + "/.local"), "nothing written in a pass-through")
    }

    /// The configured emulator is started with the inner gate; this one never shows it (it
    /// only records its arguments), so after the wait the app opens, once, and that is recorded.
    func testGraphicalSessionOpensTheConfiguredTerminalAndFailsOpenWhenItShowsNothing() throws {
        let terminal = try home.writeFile("bin/fake-term", mode: 0o755, """
            #!/bin/sh
            # Written aside, then renamed: the test must never read half of it.
            out="$(dirname "$0")/../terminal.argv"
            for a in "$@"; do printf '%s\\0' "$a"; done > "$out.tmp"
            mv "$out.tmp" "$out"
            """)
        try home.writeConfig("terminal = \"\(terminal)\"\n")
        let output = try home.miga(["gate", "--app", "chat", "--", "recorder", "--x", "a b"],
                                   environment: home.environment(["DISPLAY": ":99", "PATH": home.root + "/bin:/usr/bin:/bin",
                                                                  "XDG_RUNTIME_DIR": home.root, "MIGA_GATE_WINDOW": "off"]))
        XCTAssertEqual(output.status, 0, output.stderr)
        eventually("the terminal emulator to start") { FileManager.default.fileExists(atPath: home.root + "/terminal.argv") }
        let data = try XCTUnwrap(FileManager.default.contents(atPath: home.root + "/terminal.argv"))
        let argv = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        XCTAssertEqual(argv.count, 12, "\(argv)")
        guard argv.count == 12 else { return }
        XCTAssertEqual(Array(argv.prefix(6)), ["-e", home.binary, "gate", "--app", "chat", "--detach"])
        XCTAssertEqual(argv[6], "--handoff")
        XCTAssertTrue(argv[7].hasPrefix(home.root + "/miga/handoff-"), argv[7])
        XCTAssertEqual(Array(argv.suffix(4)), ["--", "recorder", "--x", "a b"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: argv[7]), "withdrawn: a late inner gate ends at once")
        XCTAssertTrue(output.stderr.contains("fake-term did not show the gate within 3 s"), output.stderr)
        XCTAssertEqual(home.recordedArguments(), ["--x", "a b"], "the app opened without the pause")
        XCTAssertEqual(try home.events().map(\.detail), [#"{"reason":"no_terminal"}"#])
    }

    /// A gate started by a hand-off that was given up (its report file is gone) ends at once,
    /// showing nothing and opening nothing: the outer gate has opened the app already.
    func testAnInnerGateWhoseHandOffWasGivenUpEndsAtOnce() throws {
        try home.writeConfig("timer_seconds = 15\n")
        let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) gate --app chat --detach --handoff \(shellQuote(home.root + "/gone")) -- \(shellQuote(home.recorder)) x",
                                        environment: home.environment())
        let screen = terminal.waitFor("STATUS=")
        XCTAssertTrue(screen.contains("STATUS=0"), screen)
        XCTAssertFalse(screen.contains("[e] Exit"), screen)
        XCTAssertNil(home.recordedArguments())
        XCTAssertEqual(try home.events(), [])
    }

    func testGracePassAfterAnOpen() throws {
        _ = try home.miga(["gate", "--app", "chat", "--", "/bin/true"]) // creates the database
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        try EventStore(path: home.database).record(Event(timestamp: now - 60_000, utcOffsetMinutes: 0, session: "earlier",
                                                         type: .openSelected, app: "chat", waitMilliseconds: 20_000))
        let output = try home.miga(["gate", "--app", "chat", "--", home.recorder, "again"])
        XCTAssertEqual(output.status, 0)
        XCTAssertEqual(output.stderr, "", "a grace pass off a terminal is silent")
        XCTAssertEqual(home.recordedArguments(), ["again"])
        XCTAssertEqual(try home.events().map(\.type), [.gatewaySkipped, .openSelected, .gracePass])
    }

    /// A shim on PATH named like the app must not find itself: the gate skips miga's shim
    /// folder (by real path, also through a symlink) and reaches the real program.
    func testShimFolderIsSkippedNoRecursion() throws {
        let shims = home.home + "/.local/share/miga/bin"
        // The shim template from shell/, as `miga config apps add` will install it.
        let template = try String(contentsOfFile: MigaHome.repository + "/shell/shim.sh", encoding: .utf8)
        try home.writeFile("home/.local/share/miga/bin/chat", mode: 0o755,
                           PathShim.text(template: template, migaPath: home.binary, app: "chat", command: "chat"))
        try FileManager.default.createSymbolicLink(atPath: home.root + "/shim-alias", withDestinationPath: shims)
        try home.writeFile("real/chat", mode: 0o755, "#!/bin/sh\nexec \(shellQuote(home.recorder)) \"$@\"\n")
        let path = "\(home.root)/shim-alias:\(shims):\(home.root)/real:/usr/bin:/bin"
        let output = try home.run(shims + "/chat", ["--flag", "a b"], environment: home.environment(["PATH": path]))
        XCTAssertEqual(output.status, 0, output.stderr)
        XCTAssertEqual(home.recordedArguments(), ["--flag", "a b"])
        XCTAssertEqual(try home.events().count, 1, "one gate, no recursion")
    }

    /// miga removed or moved without `miga uninstall`: every PATH shim still opens its app,
    /// found past the shim folder and past a link into it, in every POSIX shell.
    func testAPathShimWithoutMigaStillOpensTheApp() throws {
        let shims = home.root + "/shims"
        try home.writeFile("shims/rec", mode: 0o755, PathShim.text(migaPath: home.root + "/gone/miga", app: "rec", command: "rec"))
        try home.writeFile("shims/ghost", mode: 0o755, PathShim.text(migaPath: home.root + "/gone/miga", app: "ghost", command: "ghost"))
        try FileManager.default.createDirectory(atPath: home.root + "/links", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: home.root + "/links/rec", withDestinationPath: shims + "/rec")
        try FileManager.default.createSymbolicLink(atPath: home.root + "/real-rec", withDestinationPath: home.recorder)
        try home.writeFile("real/.keep", "")
        try FileManager.default.createSymbolicLink(atPath: home.root + "/real/rec", withDestinationPath: home.recorder)
        let environment = home.environment(["PATH": "\(home.root)/links:\(shims):\(home.root)/real:/usr/bin:/bin"])
        for shell in ["/bin/sh", "/bin/dash", "/bin/bash", "/usr/bin/zsh"] where FileManager.default.isExecutableFile(atPath: shell) {
            try? FileManager.default.removeItem(atPath: home.root + "/recorded.argv")
            let output = try home.run(shell, [shims + "/rec", "a b", ""], environment: environment)
            XCTAssertEqual(output.status, 0, "\(shell): \(output.stderr)")
            XCTAssertEqual(home.recordedArguments(), ["a b", ""], shell)
        }
        let ghost = try home.run("/bin/sh", [shims + "/ghost"], environment: environment)
        XCTAssertEqual(ghost.status, 127)
        XCTAssertEqual(ghost.stderr, "ghost: command not found (and miga is no longer at \(home.root)/gone/miga)\n")
    }

    /// Inside its own app's gate (MIGA_GATED=NAME: the app miga opened starts itself again)
    /// the shim passes straight through by itself, in every POSIX shell, without starting
    /// miga, and still never finds itself; inside another app's gate, under the old value 1,
    /// or outside any, it starts miga.
    func testInsideItsOwnGateTheShimPassesThroughWithoutStartingMiga() throws {
        let shims = home.root + "/shims"
        let started = home.root + "/miga-started"
        try home.writeFile("fake/miga", mode: 0o755, "#!/bin/sh\necho \"$@\" > \(shellQuote(started))\n")
        try home.writeFile("shims/rec", mode: 0o755, PathShim.text(migaPath: home.root + "/fake/miga", app: "rec", command: "rec"))
        try home.writeFile("shims/abs", mode: 0o755, PathShim.text(migaPath: home.root + "/fake/miga", app: "abs", command: home.recorder))
        try home.writeFile("shims/nothing", mode: 0o755, PathShim.text(migaPath: home.root + "/fake/miga", app: "nothing", command: "nothing"))
        try FileManager.default.createDirectory(atPath: home.root + "/links", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: home.root + "/links/rec", withDestinationPath: shims + "/rec")
        try FileManager.default.createSymbolicLink(atPath: home.root + "/shim-alias", withDestinationPath: shims)
        try home.writeFile("real/.keep", "")
        try FileManager.default.createSymbolicLink(atPath: home.root + "/real/rec", withDestinationPath: home.recorder)
        let path = "\(home.root)/links:\(home.root)/shim-alias:\(shims):\(home.root)/real:/usr/bin:/bin"
        func gated(_ app: String) -> [String: String] { home.environment(["PATH": path, "MIGA_GATED": app]) }
        for shell in ["/bin/sh", "/bin/dash", "/bin/bash", "/usr/bin/zsh"] where FileManager.default.isExecutableFile(atPath: shell) {
            for shim in ["rec", "abs"] {
                try? FileManager.default.removeItem(atPath: home.root + "/recorded.argv")
                let output = try home.run(shell, [shims + "/" + shim, "a b", "", "*"], environment: gated(shim))
                XCTAssertEqual(output.status, 0, "\(shell) \(shim): \(output.stderr)")
                XCTAssertEqual(home.recordedArguments(), ["a b", "", "*"], "\(shell) \(shim)")
                XCTAssertTrue(home.recordedInfo()?.hasPrefix("gated=\(shim) ") == true, home.recordedInfo() ?? "")
            }
            let missing = try home.run(shell, [shims + "/nothing"], environment: gated("nothing"))
            XCTAssertEqual(missing.status, 127, shell)
            XCTAssertEqual(missing.stderr, "nothing: command not found\n", shell)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: started), "miga was started inside a gate")
        for outside in [gated("abs"), gated("1"), home.environment(["PATH": path])] {
            try? FileManager.default.removeItem(atPath: started)
            _ = try home.run(shims + "/rec", ["x"], environment: outside)
            XCTAssertEqual(try String(contentsOfFile: started, encoding: .utf8), "gate --app rec -- rec x\n",
                           "MIGA_GATED=\(outside["MIGA_GATED"] ?? "") is not rec's gate: the shim starts miga")
        }
    }

    /// A grace pass on a terminal says so in one line, whether the shim passes alone (its
    /// stamps) or miga decides (no stamps: after a reboot, say); off a terminal it is silent.
    func testAGracePassOnATerminalSaysSo() throws {
        try home.writeConfig("timer_seconds = 15\ngrace_minutes = 5\n")
        let run = home.root + "/run"
        try FileManager.default.createDirectory(atPath: run, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        _ = try home.miga(["gate", "--app", "other", "--", "/bin/true"]) // creates the database
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        try EventStore(path: home.database).record(Event(timestamp: now - 60_000, utcOffsetMinutes: 0, session: "earlier",
                                                         type: .openSelected, app: "rec", waitMilliseconds: 20_000))
        try home.writeFile("shims/rec", mode: 0o755, PathShim.text(migaPath: home.binary, app: "rec", command: "rec"))
        try home.writeFile("real/.keep", "")
        try FileManager.default.createSymbolicLink(atPath: home.root + "/real/rec", withDestinationPath: home.recorder)
        let environment = home.environment(["PATH": "\(home.root)/shims:\(home.root)/real:/usr/bin:/bin", "XDG_RUNTIME_DIR": run,
                                            "TERM": "xterm-256color"])
        // First miga decides (and leaves stamps), then the shim passes alone.
        for round in 1...2 {
            let terminal = try TmuxTerminal(home: home, command: shellQuote(home.root + "/shims/rec") + " x", environment: environment)
            let shown = terminal.waitFor("STATUS=", timeout: 15)
            XCTAssertTrue(shown.contains("miga: grace for rec, 4 min left") || shown.contains("miga: grace for rec, 5 min left"), "round \(round): \(shown)")
            XCTAssertTrue(shown.contains("STATUS=0"), shown)
            XCTAssertTrue(FileManager.default.fileExists(atPath: run + "/miga/grace/rec.until"), "miga left the shim its stamps")
        }
        // A `date` that answers nonsense (or fails): no line, and the app opens all the same.
        try home.writeFile("odd/date", mode: 0o755, "#!/bin/sh\necho 'not)a+number'\n")
        var bare = environment
        bare["PATH"] = "\(home.root)/shims:\(home.root)/real:\(home.root)/odd:/usr/bin:/bin"
        try? FileManager.default.removeItem(atPath: home.root + "/recorded.argv")
        let withoutDate = try TmuxTerminal(home: home, command: shellQuote(home.root + "/shims/rec") + " z", environment: bare)
        let screen = withoutDate.waitFor("STATUS=", timeout: 15)
        XCTAssertTrue(screen.contains("STATUS=0") && !screen.contains("grace for"), screen)
        XCTAssertEqual(home.recordedArguments(), ["z"])
        let quiet = try home.run(home.root + "/shims/rec", ["y"], environment: environment)
        XCTAssertEqual(quiet.stderr, "", "off a terminal a pass says nothing")
        XCTAssertEqual(home.recordedArguments(), ["y"])
    }

    /// In grace after an Open (the gate's stamps), the shim opens the app by itself without
    /// starting miga, in every POSIX shell; each pass becomes exactly one `grace_pass` event
    /// once any miga process opens the database. A changed config.toml or an ended grace sends
    /// the shim to miga again.
    func testAGracePassIsTheShimsAloneAndEveryPassIsCounted() throws {
        try home.writeConfig("timer_seconds = 15\n")
        _ = try EventStore(path: home.database) // the gate that opened the app made it
        let run = home.root + "/run"
        try FileManager.default.createDirectory(atPath: run + "/miga/grace", withIntermediateDirectories: true)
        let spool = home.home + "/.local/share/miga/spool"
        try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: true)
        let config = home.home + "/.config/miga/config.toml"
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-60)], ofItemAtPath: config)
        let started = home.root + "/miga-started"
        try home.writeFile("fake/miga", mode: 0o755, "#!/bin/sh\necho \"$@\" > \(shellQuote(started))\n")
        try home.writeFile("shims/rec", mode: 0o755, PathShim.text(migaPath: home.root + "/fake/miga", app: "rec", command: "rec"))
        try home.writeFile("real/.keep", "")
        try FileManager.default.createSymbolicLink(atPath: home.root + "/real/rec", withDestinationPath: home.recorder)
        let stamp = run + "/miga/grace/rec"
        try home.writeFile("run/miga/grace/rec.until", "")
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(300)], ofItemAtPath: stamp + ".until")
        try home.writeFile("run/miga/grace/rec.since", "")
        let environment = home.environment(["PATH": "\(home.root)/shims:\(home.root)/real:/usr/bin:/bin", "XDG_RUNTIME_DIR": run])
        var shells = 0
        for shell in ["/bin/sh", "/bin/dash", "/bin/bash", "/usr/bin/zsh"] where FileManager.default.isExecutableFile(atPath: shell) {
            try? FileManager.default.removeItem(atPath: home.root + "/recorded.argv")
            let output = try home.run(shell, [home.root + "/shims/rec", "a b", ""], environment: environment)
            XCTAssertEqual(output.status, 0, "\(shell): \(output.stderr)")
            XCTAssertEqual(home.recordedArguments(), ["a b", ""], shell)
            shells += 1
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: started), "a grace pass started miga")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: spool).count, shells)
        let passes = try home.events().filter { $0.type == .gracePass }
        XCTAssertEqual(passes.count, shells, "each pass is one event")
        XCTAssertEqual(Set(passes.map(\.session)).count, shells)
        XCTAssertTrue(passes.allSatisfy { $0.app == "rec" && abs(Double($0.timestamp) / 1000 - Date().timeIntervalSince1970) < 60 })
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: spool), [], "folded and removed")
        XCTAssertEqual(try home.events().filter { $0.type == .gracePass }.count, shells, "and never counted twice")

        // config.toml changed after the Open: miga decides.
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: config)
        _ = try home.run("/bin/sh", [home.root + "/shims/rec", "x"], environment: environment)
        XCTAssertEqual(try? String(contentsOfFile: started, encoding: .utf8), "gate --app rec -- rec x\n")
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-60)], ofItemAtPath: config)
        try FileManager.default.removeItem(atPath: started)
        // The grace is over: miga decides; the shim's unfinished mark is dropped once old.
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-1)], ofItemAtPath: stamp + ".until")
        _ = try home.run("/bin/sh", [home.root + "/shims/rec", "y"], environment: environment)
        XCTAssertEqual(try? String(contentsOfFile: started, encoding: .utf8), "gate --app rec -- rec y\n")
        let left = try FileManager.default.contentsOfDirectory(atPath: spool)
        XCTAssertEqual(left.count, 1)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-30)], ofItemAtPath: spool + "/" + left[0])
        XCTAssertEqual(try home.events().filter { $0.type == .gracePass }.count, shells, "an empty mark is not a pass")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: spool), [])
        // A relative XDG_RUNTIME_DIR is no folder of miga's (the spec says to ignore it).
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(300)], ofItemAtPath: stamp + ".until")
        try FileManager.default.removeItem(atPath: started)
        var relative = environment
        relative["XDG_RUNTIME_DIR"] = "run"
        let fromRoot = try home.runInRoot("/bin/sh", [home.root + "/shims/rec", "z"], environment: relative)
        XCTAssertEqual(fromRoot.status, 0, fromRoot.stderr)
        XCTAssertEqual(try? String(contentsOfFile: started, encoding: .utf8), "gate --app rec -- rec z\n")
    }

    /// An app whose command is set to its own shim would gate itself for ever; the gate runs
    /// the real program of that name instead, and `doctor` names the mistake.
    func testACommandThatIsItsOwnShimRunsTheRealProgram() throws {
        let shims = home.home + "/.local/share/miga/bin"
        try home.writeFile("real/rec", mode: 0o755, "#!/bin/sh\nexec \(shellQuote(home.recorder)) \"$@\"\n")
        let environment = home.environment(["PATH": "\(shims):\(home.root)/real:/usr/bin:/bin"])
        XCTAssertEqual(try home.miga(["config", "apps", "add", "rec"], environment: environment).status, 0)
        XCTAssertEqual(try home.miga(["config", "set", "apps.rec.command", shims + "/rec"], environment: environment).status, 0)
        XCTAssertEqual(try home.miga(["install"], environment: environment).status, 0)
        let output = try home.run("/usr/bin/timeout", ["-s", "KILL", "20", shims + "/rec", "once"],
                                  environment: environment.merging(["MIGA_GATED": "rec"]) { $1 })
        XCTAssertEqual(output.status, 0, output.stderr)
        XCTAssertEqual(home.recordedArguments(), ["once"])
        let doctor = try home.miga(["doctor"], environment: environment)
        XCTAssertTrue(DoctorText.unwrapped(doctor.stdout).contains("is miga's own shim"), doctor.stdout)
    }

    func testDetachStartsTheAppInItsOwnSessionAndReturnsAtOnce() throws {
        // The app lingers for a minute: miga having returned while it still runs shows it did
        // not wait for it, however slowly a busy machine starts either of them.
        let output = try home.miga(["gate", "--app", "chat", "--detach", "--", home.recorder, "bg"],
                                   environment: home.environment(["MIGA_GATED": "chat", "RECORDER_SLEEP": "60"]))
        XCTAssertEqual(output.status, 0)
        eventually("the detached app to run") { home.recordedInfo() != nil }
        let info = try XCTUnwrap(home.recordedInfo())
        let fields = Dictionary(uniqueKeysWithValues: info.split(separator: " ").map {
            let pair = $0.split(separator: "=", maxSplits: 1)
            return (String(pair[0]), pair.count > 1 ? String(pair[1]) : "")
        })
        let app = try XCTUnwrap(fields["pid"].flatMap { pid_t($0) }, info)
        defer { kill(-app, SIGKILL) } // the app and its sleep: it leads its own process group
        XCTAssertFalse(processEnded(app), "miga returned while the app still runs")
        XCTAssertEqual(fields["pid"], fields["sid"], "the app leads its own session: \(info)")
        XCTAssertEqual(fields["stdin"], "/dev/null")
        XCTAssertEqual(fields["stdout"], "/dev/null")
        XCTAssertEqual(home.recordedArguments(), ["bg"])
    }

    /// A program whose file name is not a valid app name (`My App`) is still gated, under a
    /// name made from it; only an explicit `--app` with such a name is a usage error.
    func testAProgramWithASpaceInItsNameOpens() throws {
        let program = try home.writeFile("opt/My App/My App", mode: 0o755, "#!/bin/sh\nexec \(shellQuote(home.recorder)) \"$@\"\n")
        let output = try home.miga(["gate", "--", program, "a b"])
        XCTAssertEqual(output.status, 0, output.stderr)
        XCTAssertEqual(home.recordedArguments(), ["a b"])
        XCTAssertEqual(try home.events().map(\.app), ["My-App"])
    }

    /// A command that cannot run fails at once with the shell's status, in a terminal too:
    /// never after a whole countdown, and nothing is recorded.
    func testACommandThatCannotRunFailsBeforeAnythingIsShown() throws {
        try home.writeConfig("timer_seconds = 15\n")
        let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) gate -- /etc/passwd", environment: home.environment())
        let screen = terminal.waitFor("STATUS=")
        XCTAssertTrue(screen.contains("STATUS=126"), screen)
        XCTAssertTrue(screen.contains("miga: /etc/passwd: Permission denied"), screen)
        XCTAssertFalse(screen.contains("[e] Exit"), screen)
        XCTAssertEqual(try home.events(), [])
        let detached = try home.miga(["gate", "--app", "x", "--detach", "--", home.root + "/no/such/app"])
        XCTAssertEqual(detached.status, 127)
        XCTAssertEqual(detached.stderr, "miga: \(home.root)/no/such/app: No such file or directory; check the path\n")
    }

    /// Every key the gate takes is in its --help (and so in the man page made from it).
    func testHelpNamesEveryKey() throws {
        let help = try home.miga(["gate", "--help"]).stdout
        for key in ["Esc", "Space", "Enter", "PgUp", "Home End", "Ctrl-Z", "Ctrl-C", "window"] {
            XCTAssertTrue(help.contains(key), "gate --help lacks \(key):\n\(help)")
        }
    }

    func testUsageErrors() throws {
        let noCommand = try home.miga(["gate", "--app", "chat"])
        XCTAssertEqual(noCommand.status, 64)
        XCTAssertTrue(noCommand.stderr.contains("usage: miga gate"), noCommand.stderr)
        let badName = try home.miga(["gate", "--app", "a/b", "--", "/bin/true"])
        XCTAssertEqual(badName.status, 64)
        let missing = try home.miga(["gate", "--", "no-such-program-xyz"])
        XCTAssertEqual(missing.status, 127)
        XCTAssertTrue(missing.stderr.contains("no-such-program-xyz: command not found"), missing.stderr)
        let gated = home.environment(["MIGA_GATED": "1"])
        let noFile = try home.miga(["gate", "--", home.root + "/no/such/program"], environment: gated)
        XCTAssertEqual(noFile.status, 127, "exec'ing a missing file: 127, as shells do")
        XCTAssertTrue(noFile.stderr.contains("No such file or directory"), noFile.stderr)
        let notExecutable = try home.writeFile("plain.txt", "not a program")
        XCTAssertEqual(try home.miga(["gate", "--", notExecutable], environment: gated).status, 126)
        let help = try home.miga(["gate", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("Examples:"), help.stdout)
    }
}

/// Many gates at once, and gates killed mid-write, against one real SQLite file.
final class GateConcurrencyTests: XCTestCase {
    func testTwentyGatesAtOnceLoseNoEvent() throws {
        let home = try MigaHome()
        // Twenty first-ever gates race to create the database and record.
        var processes: [MigaHome.Child] = []
        for index in 0..<20 {
            processes.append(try home.start(home.binary, ["gate", "--app", "chat", "--", "/bin/sh", "-c", "echo > \(shellQuote(home.root))/ran-\(index)"]))
        }
        let outputs = processes.map { $0.wait() }
        XCTAssertEqual(outputs.map(\.status), Array(repeating: 0, count: 20))
        var events = try home.events()
        if events.count != 20 { XCTFail(outputs.map(\.stderr).joined(separator: "\n")) }
        XCTAssertEqual(events.filter { $0.type == .gatewaySkipped }.count, 20)
        XCTAssertEqual(Set(events.map(\.session)).count, 20)
        let ran = try FileManager.default.contentsOfDirectory(atPath: home.root).filter { $0.hasPrefix("ran-") }
        XCTAssertEqual(ran.count, 20, "every app still opened")

        // Then twenty grace passes at once.
        try EventStore(path: home.database).record(Event(timestamp: Int64(Date().timeIntervalSince1970 * 1000), utcOffsetMinutes: 0,
                                                         session: "s", type: .openSelected, app: "chat"))
        processes = try (0..<20).map { _ in try home.start(home.binary, ["gate", "--app", "chat", "--", "/bin/true"]) }
        XCTAssertEqual(processes.map { $0.wait().status }, Array(repeating: 0, count: 20))
        events = try home.events()
        XCTAssertEqual(events.filter { $0.type == .gracePass }.count, 20)
        XCTAssertEqual(try home.sqlite("PRAGMA integrity_check"), "ok")
    }

    func testSIGKILLNeverCorruptsTheDatabase() throws {
        let home = try MigaHome()
        _ = try home.miga(["gate", "--app", "chat", "--", "/bin/true"])
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<4 {
            let processes = try (0..<12).map { _ in try home.start(home.binary, ["gate", "--app", "chat", "--", "/bin/true"]) }
            for process in processes {
                usleep(UInt32.random(in: 0...15_000, using: &generator))
                kill(process.pid, SIGKILL)
            }
            processes.forEach { _ = $0.wait() }
        }
        XCTAssertEqual(try home.sqlite("PRAGMA integrity_check"), "ok")
        let before = try home.events().count
        let after = try home.miga(["gate", "--app", "chat", "--", "/bin/true"])
        XCTAssertEqual(after.status, 0, after.stderr)
        XCTAssertEqual(try home.events().count, before + 1, "the next gate still records")
    }

    func testSIGKILLDuringTheFullScreenGate() throws {
        let home = try MigaHome()
        let terminal = try TmuxTerminal(home: home, command: "echo $$ > \(shellQuote(home.root + "/gate.pid")); exec \(shellQuote(home.binary)) gate --app chat -- /bin/true",
                                        environment: home.environment())
        terminal.waitFor("[e] Exit")
        try terminal.press("n")
        try eventually("a content_read event") { try home.events().count == 2 }
        let pid = try XCTUnwrap(Int32(String(contentsOfFile: home.root + "/gate.pid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(pid, SIGKILL)
        eventually("the gate to die") { processEnded(pid) }
        XCTAssertEqual(try home.sqlite("PRAGMA integrity_check"), "ok")
        XCTAssertEqual(try home.events().map(\.type), [.sessionStart, .contentRead])
    }
}

/// A database another program holds locked must not keep the person from their app.
final class GateLockedDatabaseTests: XCTestCase {
    func testALockedDatabaseFailsOpenWithinSeconds() throws {
        let home = try MigaHome()
        _ = try home.miga(["gate", "--app", "chat", "--", "/bin/true"]) // creates the database
        // sqlite3 takes an exclusive lock and holds it for 60 s, far longer than the gate waits.
        let (locker, released) = try home.lockDatabase("BEGIN EXCLUSIVE;", for: 60)
        defer { kill(-locker.pid, SIGKILL); _ = locker.wait() }
        let output = try home.miga(["gate", "--app", "chat", "--", home.recorder, "still opens"])
        XCTAssertEqual(home.recordedArguments(), ["still opens"], output.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: released), "the gate gave up on the lock while it was still held")
        XCTAssertTrue(output.stderr.contains("opening chat without a pause"), output.stderr)
    }
}

/// The desktop path for real: no terminal, a graphical session (Xvfb), and a real xterm that
/// miga opens; keys are pressed in that window through XTEST, as a person would.
final class RealTerminalEmulatorTests: XCTestCase {
    /// `DISPLAY` set but no X server there: the gate window cannot start, then xterm dies at
    /// once, and the app opens all the same.
    func testARealTerminalWithoutADisplayFailsOpen() throws {
        let home = try MigaHome()
        try home.writeConfig("timer_seconds = 15\nterminal = \"xterm\"\n")
        let output = try home.miga(["gate", "--app", "chat", "--", home.recorder, "still"], environment: home.environment(["DISPLAY": ":1997"]))
        XCTAssertEqual(output.status, 0, output.stderr)
        XCTAssertTrue(output.stderr.contains("the gate window ended before it showed (no display?); trying a terminal"), output.stderr)
        XCTAssertTrue(output.stderr.contains("xterm did not show the gate"), output.stderr)
        XCTAssertEqual(home.recordedArguments(), ["still"])
        XCTAssertEqual(try home.events().map(\.detail), [#"{"reason":"no_terminal"}"#])
    }

    func testGateOpensInXtermAndTheAppStartsDetachedAfterTheCountdown() throws {
        for tool in ["/usr/bin/Xvfb", "/usr/bin/xterm", "/usr/bin/xdotool"] where !FileManager.default.isExecutableFile(atPath: tool) {
            return XCTFail("\(tool) is missing: scripts/deps.sh installs xvfb, xterm and xdotool")
        }
        let home = try MigaHome()
        // Xvfb picks a free display and writes its number to stdout.
        let server = try home.start("/usr/bin/Xvfb", ["-displayfd", "1", "-screen", "0", "1024x768x24", "-nolisten", "tcp"])
        defer { kill(server.pid, SIGTERM); _ = server.wait() }
        var display = ""
        eventually("Xvfb to start") {
            display = (try? String(contentsOfFile: server.stdoutPath, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            return !display.isEmpty
        }
        // The terminal path: as when the gate window cannot run.
        let environment = home.environment(["DISPLAY": ":" + display, "MIGA_GATE_WINDOW": "off"])
        func xdotool(_ arguments: [String]) throws -> String {
            try home.run("/usr/bin/xdotool", arguments, environment: environment).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        func press(_ key: String, in window: String) throws {
            _ = try xdotool(["windowfocus", "--sync", window])
            _ = try xdotool(["key", key])
        }

        try home.writeConfig("timer_seconds = 15\nterminal = \"xterm\"\n")
        let outer = try home.miga(["gate", "--app", "chat", "--", home.recorder, "--flag", "a b"], environment: environment)
        XCTAssertEqual(outer.status, 0, outer.stderr)
        try eventually("the gate to start inside xterm") { try home.events().map(\.type) == [.sessionStart] }
        var window = ""
        try eventually("the xterm window") { window = try xdotool(["search", "--class", "xterm"]).split(separator: "\n").first.map(String.init) ?? ""; return !window.isEmpty }

        // Open during the countdown does nothing; the Read Next after it proves it was read.
        try press("o", in: window)
        try press("n", in: window)
        try eventually("the Read Next after Open") { try home.events().map(\.type) == [.sessionStart, .contentRead] }
        XCTAssertNil(home.recordedArguments(), "Open is locked during the countdown")
        try eventually(timeout: 25, "the countdown to end") { try home.events().contains { $0.type == .gatewayCompleted } }
        try press("o", in: window)
        // The recorder writes its argv, then what it inherited: wait for the last one.
        eventually("the app to start") { home.recordedInfo() != nil }
        XCTAssertEqual(home.recordedArguments(), ["--flag", "a b"])
        let info = home.recordedInfo() ?? ""
        XCTAssertTrue(info.contains("stdin=/dev/null"), "detached from the terminal: \(info)")
        try eventually("the xterm window to close") { try xdotool(["search", "--class", "xterm"]).isEmpty }
        XCTAssertEqual(try home.events().map(\.type), [.sessionStart, .contentRead, .gatewayCompleted, .openSelected])
    }
}
