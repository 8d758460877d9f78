import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// `miga native-host` as browsers run it: the built binary on pipes, started with the argv
/// Chromium and Firefox give it (through the `miga-native-host` link that `miga install`
/// makes), fed whole, split, garbage and oversized messages.
final class NativeHostTests: XCTestCase {
    var home: MigaHome!

    override func setUpWithError() throws {
        home = try MigaHome()
        try home.writeConfig("timer_seconds = 15\nsites = [\"reddit.com\"]\n")
    }

    /// A host process with its stdin and stdout on pipes held by the test.
    final class Host {
        let pid: pid_t
        private(set) var input: Int32
        private(set) var output: Int32
        let stderrPath: String
        private let reader: NativeMessageReader

        init(_ executable: String, _ arguments: [String], environment: [String: String], argv0: String? = nil, stderrPath: String) throws {
            var toHost: [Int32] = [-1, -1], fromHost: [Int32] = [-1, -1]
            guard pipe(&toHost) == 0, pipe(&fromHost) == 0 else { throw NSError(domain: "pipe", code: Int(errno)) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, toHost[0], 0)
            posix_spawn_file_actions_adddup2(&actions, fromHost[1], 1)
            posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            for fd in toHost + fromHost { posix_spawn_file_actions_addclose(&actions, fd) }
            let attributes = SpawnAttributes()
            let argv = ([argv0 ?? executable] + arguments).map { strdup($0) } + [nil]
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { (argv + envp).forEach { free($0) } }
            var pid = pid_t()
            let status = posix_spawn(&pid, executable, &actions, &attributes.raw, argv, envp)
            close(toHost[0])
            close(fromHost[1])
            guard status == 0 else { throw NSError(domain: "spawn", code: Int(status)) }
            self.pid = pid
            input = toHost[1]
            output = fromHost[0]
            reader = NativeMessageReader(descriptor: fromHost[0])
            self.stderrPath = stderrPath
        }

        deinit {
            if input >= 0 { close(input) }
            if output >= 0 { close(output) }
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, WNOHANG)
        }

        func write(_ bytes: Data) {
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = Glibc.write(input, raw.baseAddress! + offset, raw.count - offset)
                    if written <= 0 { return }
                    offset += written
                }
            }
        }

        func send(_ json: String) { write(NativeMessageFraming.frame(Data(json.utf8))) }

        /// The browser stops reading (its end of our output goes).
        func closeOutput() {
            close(output)
            output = -1
            reader.descriptor = -1
        }

        func closeInput() {
            close(input)
            input = -1
        }

        /// The next message, or nil at end of file or after `timeout` seconds.
        func receive(timeout: Double = 30) -> [String: Any]? { reader.receive(timeout: timeout) }

        /// The exit status, waiting at most `timeout` seconds (nil if it is still running).
        func exitStatus(timeout: Double = 30) -> Int32? {
            let deadline = Date().addingTimeInterval(timeout)
            var status: Int32 = 0
            while Date() < deadline {
                let result = waitpid(pid, &status, WNOHANG)
                if result == pid { return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F) }
                usleep(20_000)
            }
            return nil
        }

        var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }
    }

    func startHost(argv0: String? = nil, arguments: [String] = ["chrome-extension://\(BrowserExtension.chromiumID)/"],
                   executable: String? = nil) throws -> Host {
        try Host(executable ?? home.binary, argv0 == nil ? ["native-host"] + arguments : arguments,
                 environment: home.environment(), argv0: argv0, stderrPath: home.root + "/host-\(UUID().uuidString).err")
    }

    func testChromiumAndFirefoxStartItThroughTheLinkInstallMakesAndItAnswers() throws {
        try FileManager.default.createDirectory(atPath: home.home + "/.config/chromium", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: home.home + "/.mozilla", withIntermediateDirectories: true)
        let install = try home.miga(["install"])
        XCTAssertEqual(install.status, 0, install.stderr)
        let chromiumManifest = home.home + "/.config/chromium/NativeMessagingHosts/miga.gateway.json"
        let firefoxManifest = home.home + "/.mozilla/native-messaging-hosts/miga.gateway.json"
        let chromium = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: chromiumManifest))) as? [String: Any])
        let firefox = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: firefoxManifest))) as? [String: Any])
        XCTAssertEqual(chromium["allowed_origins"] as? [String], ["chrome-extension://ofokomeiepojclgahgdjidagbanoehml/"])
        XCTAssertEqual(firefox["allowed_extensions"] as? [String], ["miga@miga.app"])
        let link = try XCTUnwrap(chromium["path"] as? String)
        XCTAssertEqual(link, home.home + "/.local/share/miga/bin/miga-native-host")
        XCTAssertEqual(firefox["path"] as? String, link)

        // As the browsers run it: argv[0] is the manifest's path, then their own arguments.
        for arguments in [["chrome-extension://\(BrowserExtension.chromiumID)/"], [firefoxManifest, BrowserExtension.geckoID]] {
            let host = try Host(link, arguments, environment: home.environment(), argv0: link,
                                stderrPath: home.root + "/host.err")
            host.send(#"{"type":"hello","id":41}"#)
            let reply = try XCTUnwrap(host.receive(), host.stderr)
            XCTAssertEqual(reply["type"] as? String, "state")
            XCTAssertEqual(reply["id"] as? Int, 41)
            XCTAssertEqual(reply["sites"] as? [String], ["reddit.com"])
            host.closeInput()
            XCTAssertEqual(host.exitStatus(), 0, "ends when the browser closes the pipe")
        }

        XCTAssertEqual(DoctorText.unwrapped(try home.miga(["doctor"]).stdout).components(separatedBy: "lets the miga extension reach miga").count, 3)
        let uninstall = try home.miga(["uninstall"])
        XCTAssertEqual(uninstall.status, 0, uninstall.stderr)
        for path in [chromiumManifest, firefoxManifest, link] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: path), path)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: home.home + "/.config/chromium"), "the browser's own folder stays")
    }

    func testDoctorNamesAManifestThatNoLongerLeadsHereAndAFlatpakBrowser() throws {
        try FileManager.default.createDirectory(atPath: home.home + "/.config/chromium", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: home.home + "/.var/app/org.mozilla.firefox", withIntermediateDirectories: true)
        let install = try home.miga(["install"])
        XCTAssertTrue(install.stdout.contains("Chromium host manifest"), install.stdout)
        let permission = "flatpak permission-set webextensions miga.gateway org.mozilla.firefox yes"
        XCTAssertTrue(install.stderr.contains("Firefox here is a Flatpak (~/.var/app/org.mozilla.firefox); it reaches miga through the WebExtensions portal only once you allow it: \(permission)"), install.stderr)
        XCTAssertTrue(install.stdout.contains("Firefox host manifest"), "the portal reads the manifest outside the sandbox: \(install.stdout)")
        var doctor = try home.miga(["doctor"])
        XCTAssertTrue(DoctorText.unwrapped(doctor.stdout).contains("note     browser Firefox (Flatpak): installed as a Flatpak (~/.var/app/org.mozilla.firefox); it reaches miga only through the WebExtensions portal"), doctor.stdout)
        XCTAssertTrue(DoctorText.unwrapped(doctor.stdout).contains("fix: \(permission)"), doctor.stdout)
        XCTAssertTrue(DoctorText.unwrapped(doctor.stdout).contains("ok       browser Chromium:"), doctor.stdout)

        // miga moved (a second copy installed elsewhere): the manifests lead to the other one.
        let moved = home.root + "/other/miga"
        try FileManager.default.createDirectory(atPath: home.root + "/other", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: home.binary, toPath: moved)
        XCTAssertEqual(try home.run(moved, ["install"]).status, 0)
        doctor = try home.miga(["doctor"])
        XCTAssertEqual(doctor.status, 1)
        XCTAssertTrue(DoctorText.unwrapped(doctor.stdout).contains("problem  browser Chromium: ~/.local/share/miga/bin/miga-native-host does not lead to this miga"), doctor.stdout)
        XCTAssertEqual(try home.miga(["install"]).status, 0)
        XCTAssertTrue(DoctorText.unwrapped(try home.miga(["doctor"]).stdout).contains("ok       browser Chromium:"))

        // A manifest someone broke is named, never silently rewritten.
        let manifest = home.home + "/.config/chromium/NativeMessagingHosts/miga.gateway.json"
        try "{\"name\": \"miga.gateway\", \"type\": \"stdio\", \"path\": \"/nowhere\"}".write(toFile: manifest, atomically: true, encoding: .utf8)
        doctor = try home.miga(["doctor"])
        XCTAssertTrue(DoctorText.unwrapped(doctor.stdout).contains("problem  browser Chromium: ~/.config/chromium/NativeMessagingHosts/miga.gateway.json names /nowhere"), doctor.stdout)
        XCTAssertTrue(try home.miga(["install"]).stderr.contains("was changed since miga wrote it; left as it is"))
    }

    /// doctor says per browser and profile whether sites are paused there, reading the files
    /// the browsers write (a FIFO among them, which must not hold it up).
    func testDoctorSaysPerProfileWhetherTheExtensionIsOn() throws {
        try home.writeFile("home/.mozilla/firefox/profiles.ini", "[Profile0]\nName=default-release\nIsRelative=1\nPath=ab12.default-release\nDefault=1\n")
        try home.writeFile("home/.mozilla/firefox/ab12.default-release/extensions.json",
                           #"{"schemaVersion":36,"addons":[{"id":"miga@miga.app","active":true,"userDisabled":false,"appDisabled":false,"location":"app-profile"}]}"#)
        try home.writeFile("home/.mozilla/firefox/ab12.default-release/extension-preferences.json",
                           #"{"miga@miga.app":{"permissions":["internal:privateBrowsingAllowed"],"origins":[]}}"#)
        try home.writeFile("home/.config/chromium/Default/Preferences", #"{"extensions":{"settings":{}}}"#)
        try FileManager.default.createDirectory(atPath: home.home + "/.config/chromium/Profile 1", withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(home.home + "/.config/chromium/Profile 1/Preferences", 0o644), 0)
        try FileManager.default.createDirectory(atPath: home.home + "/snap/firefox/common/.mozilla/firefox", withIntermediateDirectories: true)
        let install = try home.miga(["install"])
        XCTAssertEqual(install.status, 0, install.stderr)
        XCTAssertTrue(install.stderr.contains("Firefox here is a Snap (~/snap/firefox); it reaches miga through the WebExtensions portal, which asks you once"), install.stderr)

        let doctor = try home.miga(["doctor"])
        XCTAssertEqual(doctor.status, 1, doctor.stdout)
        for line in [
            "ok       browser Firefox: ~/.mozilla/native-messaging-hosts/miga.gateway.json lets the miga extension reach miga",
            "ok       browser Firefox: miga's extension is on in profile default-release (private windows: allowed)",
            "ok       browser Firefox (Snap): installed as a Snap (~/snap/firefox); reaches miga through the WebExtensions portal (it asks once)",
            "problem  browser Chromium: miga's extension is not installed in profile Default: sites open there without a pause\n         fix: chrome://extensions → Developer mode → Load unpacked → ",
            "note     browser Chromium: could not read ~/.config/chromium/Profile 1/Preferences (it is a FIFO, not a file), so miga cannot tell whether its extension is on in profile Profile 1",
        ] {
            XCTAssertTrue(DoctorText.unwrapped(doctor.stdout).contains(line), "«\(line)» not in:\n\(doctor.stdout)")
        }
    }

    func testMessagesSplitIntoSingleBytesAndSeveralInOneWriteAreAllAnswered() throws {
        let host = try startHost()
        let one = NativeMessageFraming.frame(Data(#"{"type":"state","id":1}"#.utf8))
        for byte in one {
            host.write(Data([byte]))
            usleep(2_000)
        }
        XCTAssertEqual(host.receive()?["id"] as? Int, 1)
        host.write(NativeMessageFraming.frame(Data(#"{"type":"state","id":2}"#.utf8)) + NativeMessageFraming.frame(Data(#"{"type":"stats","id":3}"#.utf8)))
        XCTAssertEqual(host.receive()?["id"] as? Int, 2)
        let stats = host.receive()
        XCTAssertEqual(stats?["type"] as? String, "stats")
        XCTAssertEqual(stats?["id"] as? Int, 3)
        host.closeInput()
        XCTAssertEqual(host.exitStatus(), 0)
    }

    func testGarbageGetsAnErrorAndTheConversationGoesOn() throws {
        let host = try startHost()
        for garbage in ["", "nonsense", "{\"type\":\"unknown\",\"id\":5}", "[[[[[[[[[[[[[[[[", "{\"type\":17}"] {
            host.send(garbage)
            let reply = host.receive()
            XCTAssertEqual(reply?["type"] as? String, "error", garbage)
        }
        host.write(NativeMessageFraming.frame(Data([0xFF, 0xFE, 0x00, 0xC3])))
        XCTAssertEqual(host.receive()?["error"] as? String, "not UTF-8 JSON")
        host.send(#"{"type":"hello","id":9}"#)
        XCTAssertEqual(host.receive()?["type"] as? String, "state", "still answering")
        host.closeInput()
        XCTAssertEqual(host.exitStatus(), 0)
        XCTAssertEqual(try home.events().count, 0)
    }

    /// Ids and JSON that once killed the host (abs(Int64.min) trapped) or got the wrong
    /// words: each gets an error naming its fault, and the gate open in that host is still
    /// recorded as abandoned when the browser lets it go.
    func testHostileIdsAndJSONGetTheirOwnErrorAndTheHostLivesOn() throws {
        let host = try startHost()
        host.send(#"{"type":"gate","url":"https://reddit.com/","id":1}"#)
        XCTAssertEqual(host.receive()?["action"] as? String, "gate")
        for message in [#"{"type":"hello","id":-9223372036854775808}"#, #"{"id":-9223372036854775808}"#,
                        #"{"type":"hello","id":9223372036854775807}"#, #"{"type":"hello","id":-9007199254740992}"#] {
            host.send(message)
            let reply = host.receive()
            XCTAssertNotNil(reply, "the host died on \(message): \(host.stderr)")
            XCTAssertTrue(reply?["id"] is NSNull, "an id a browser cannot keep exactly is not echoed: \(reply ?? [:])")
        }
        host.send(String(repeating: "[", count: 600) + String(repeating: "]", count: 600))
        XCTAssertEqual(host.receive()?["error"] as? String, "JSON nested deeper than 512 levels (at byte 513)")
        host.send(#"{"type":"hello","id":1e400}"#)
        XCTAssertEqual(host.receive()?["error"] as? String, "a JSON number too large to represent (at byte 22)")
        host.send(#"{"type":"hello","id":-4}"#)
        XCTAssertEqual(host.receive()?["id"] as? Int, -4)
        host.closeInput()
        XCTAssertEqual(host.exitStatus(), 0, host.stderr)
        XCTAssertEqual(try home.events().map(\.type), [.sessionStart])
    }

    func testAnOversizedLengthEndsTheConversationWithAnErrorNotAHang() throws {
        let host = try startHost()
        var length = UInt32.max
        host.write(Data(bytes: &length, count: 4))
        let reply = try XCTUnwrap(host.receive(timeout: 10))
        XCTAssertEqual(reply["type"] as? String, "error")
        XCTAssertTrue((reply["error"] as? String)?.contains("4294967295 bytes") == true, "\(reply)")
        XCTAssertEqual(host.exitStatus(timeout: 10), 1)
        XCTAssertNil(host.receive(timeout: 1), "nothing more")
    }

    func testEndOfFileInTheMiddleOfAMessageEndsQuietlyAndLeavesOpenGatesToResume() throws {
        let host = try startHost()
        host.send(#"{"type":"gate","id":1,"url":"https://www.reddit.com/r/linux"}"#)
        let gate = try XCTUnwrap(host.receive())
        XCTAssertEqual(gate["action"] as? String, "gate")
        host.write(Data([200, 0, 0, 0]) + Data("{\"type\":".utf8))
        host.closeInput()
        XCTAssertEqual(host.exitStatus(), 0)
        XCTAssertTrue(host.stderr.contains("closed the pipe in the middle of a message"), host.stderr)
        // The worker restarting looks the same as the browser quitting: its gate page resumes.
        XCTAssertEqual(try home.events().map(\.type), [.sessionStart])
        let next = try startHost()
        next.send(#"{"type":"resume","id":2,"session":"\#(gate["session"] as? String ?? "")","url":"https://www.reddit.com/r/linux"}"#)
        XCTAssertEqual(try XCTUnwrap(next.receive())["session"] as? String, gate["session"] as? String)
        next.closeInput()
        XCTAssertEqual(next.exitStatus(), 0)
    }

    func testABrowserThatStopsReadingDoesNotKillTheHostWithSIGPIPE() throws {
        let host = try startHost()
        host.closeOutput() // the browser went away without closing our input
        host.send(#"{"type":"hello","id":1}"#)
        host.closeInput()
        XCTAssertEqual(host.exitStatus(), 0, "a write to a closed pipe ends the host quietly")
    }

    func testAConfigEditReachesTheExtensionWithinSeconds() throws {
        let host = try startHost()
        host.send(#"{"type":"hello","id":1}"#)
        XCTAssertEqual(host.receive()?["sites"] as? [String], ["reddit.com"])
        try home.writeConfig("timer_seconds = 15\nsites = [\"reddit.com\", \"late.test\"]\n")
        let pushed = try XCTUnwrap(host.receive(timeout: 10), "no state pushed after the edit")
        XCTAssertEqual(pushed["type"] as? String, "state")
        XCTAssertTrue(pushed["id"] is NSNull)
        XCTAssertEqual(pushed["sites"] as? [String], ["reddit.com", "late.test"])

        // An edit followed at once by another request (Read Next on a gate page) is not lost.
        try home.writeConfig("timer_seconds = 15\nsites = [\"reddit.com\", \"later.test\"]\n")
        host.send(#"{"type":"stats","id":2}"#)
        let replies = [host.receive(), host.receive(timeout: 10)].compactMap { $0 }
        XCTAssertEqual(Set(replies.compactMap { $0["type"] as? String }), ["stats", "state"], "the edit was swallowed by the stats reply")
        XCTAssertEqual(replies.first { $0["type"] as? String == "state" }?["sites"] as? [String], ["reddit.com", "later.test"])
    }

    /// The config is watched by inotify, not by looking every second: an idle host sleeps
    /// (no wake-ups at all while nothing happens), yet sees the config's folder made after it
    /// started, and a file renamed over config.toml, as an editor saves.
    func testTheConfigIsWatchedNotPolledFromAFolderThatDidNotExistYet() throws {
        try FileManager.default.removeItem(atPath: home.home + "/.config/miga")
        let host = try startHost()
        host.send(#"{"type":"hello","id":1}"#)
        XCTAssertEqual(host.receive()?["sites"] as? [String], [])

        let switches = { () -> Int in
            let status = (try? String(contentsOfFile: "/proc/\(host.pid)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") } ?? ""
            return Int(line.split(separator: "\t").last.map(String.init) ?? "") ?? -1
        }
        let before = switches()
        Thread.sleep(forTimeInterval: 2.5)
        XCTAssertLessThanOrEqual(switches() - before, 1, "an idle host should not wake up (it polled?)")

        try home.writeConfig("timer_seconds = 15\nsites = [\"made.test\"]\n")
        let pushed = try XCTUnwrap(host.receive(timeout: 10), "no state pushed when the config appeared")
        XCTAssertEqual(pushed["sites"] as? [String], ["made.test"])

        let saved = home.home + "/.config/miga/.config.toml.swp"
        try "timer_seconds = 15\nsites = [\"renamed.test\"]\n".write(toFile: saved, atomically: false, encoding: .utf8)
        XCTAssertEqual(rename(saved, home.configFile), 0)
        XCTAssertEqual(try XCTUnwrap(host.receive(timeout: 10), "no state pushed after a rename")["sites"] as? [String], ["renamed.test"])
        host.closeInput()
        XCTAssertEqual(host.exitStatus(), 0)
    }

    func testManyHostsAtOnceLoseNoEvent() throws {
        let hosts = try (0..<4).map { _ in try startHost() }
        let rounds = 15
        for _ in 0..<rounds {
            for host in hosts { host.send(#"{"type":"gate","url":"https://reddit.com/"}"#) }
            var sessions: [String] = []
            for host in hosts {
                let reply = host.receive()
                XCTAssertEqual(reply?["action"] as? String, "gate", "\(reply ?? [:]) \(host.stderr)")
                sessions.append(reply?["session"] as? String ?? "")
            }
            for (host, session) in zip(hosts, sessions) { host.send(#"{"type":"abandon","session":"\#(session)"}"#) }
            for host in hosts { XCTAssertEqual(host.receive()?["type"] as? String, "abandon", host.stderr) }
        }
        for host in hosts { host.closeInput() }
        for host in hosts { XCTAssertEqual(host.exitStatus(), 0, host.stderr) }
        let events = try home.events()
        XCTAssertEqual(events.filter { $0.type == .sessionStart }.count, 4 * rounds)
        XCTAssertEqual(events.filter { $0.type == .abandoned }.count, 4 * rounds, "every tab closed mid-countdown is recorded")
    }

    /// `--help` is a person asking, whatever the standard input: the help, not a silent host.
    func testHelpPrintsTheHelp() throws {
        for flag in ["--help", "-h"] {
            let result = try home.run(home.binary, ["native-host", flag])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stdout.contains("The browser extension's native messaging host"), "\(flag): \(result.stdout)")
            XCTAssertTrue(result.stdout.contains("USAGE: miga native-host"), result.stdout)
        }
    }

    func testRunByHandOnATerminalItSaysWhatItIsFor() throws {
        let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) native-host", environment: home.environment())
        _ = terminal.waitFor("STATUS=64")
        XCTAssertTrue(terminal.screen().contains("started by your browser's miga extension"), terminal.screen())
    }
}
