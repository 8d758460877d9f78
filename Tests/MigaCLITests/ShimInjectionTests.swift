import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// What a name or a command can do once miga has written it into a shim (DESIGN "Never in the
/// way, never a way in"): nothing but name a file and a program. Probed through the
/// built binary: a line break in a command, `.` and `..` as names, hand-edited shims, and
/// `MIGA_GATED` passing every gate inside a gated terminal.
final class ShimInjectionTests: XCTestCase {
    var home: MigaHome!
    var shims: String { home.home + "/.local/share/miga/bin" }
    var applications: String { home.home + "/.local/share/applications" }
    /// Made by any injected line that ran.
    var pwned: String { home.root + "/pwned" }

    override func setUpWithError() throws {
        home = try MigaHome()
        try home.writeFile("sys/applications/chat.desktop", "[Desktop Entry]\nType=Application\nName=Chat\nExec=\(home.recorder) %U\n")
    }

    /// Desktop entries from the temp tree only, never the machine's own.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        home.environment(["XDG_DATA_DIRS": home.root + "/sys", "XDG_CONFIG_DIRS": home.root + "/etc"].merging(extra) { $1 })
    }

    func miga(_ arguments: String..., environment extra: [String: String] = [:]) throws -> MigaHome.Output {
        try home.miga(arguments, environment: environment(extra))
    }

    /// The error itself; a usage error goes on with ArgumentParser's usage lines.
    func firstLine(_ text: String) -> Substring { text.split(separator: "\n").first ?? "" }

    func lines(_ text: String, containing word: String) -> [Substring] {
        text.split(separator: "\n").filter { $0.contains(word) }
    }

    /// Runs every PATH shim miga made, inside and outside a gate of its own app: none may run
    /// anything but miga and its app. In the throwaway folder: whatever an injected line
    /// creates goes away with it.
    func runEveryShim() throws {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: shims)) ?? [] {
            for gated in ["", name] {
                _ = try home.runInRoot("/bin/sh", [shims + "/" + name], environment: environment(["MIGA_GATED": gated]))
            }
        }
    }

    // MARK: - 1. A line break in a command

    /// A hand-edited config.toml: the app with the line break is warned about and left out,
    /// the others are installed, and no shim runs the second line.
    func testACommandWithALineBreakInConfigTomlNeverBecomesShellCode() throws {
        try home.writeConfig("""
            [apps.chat]
            command = "\(home.recorder)"

            [apps.evil]
            command = "/bin/true\\ntouch \(pwned)"

            """)
        let install = try miga("install")
        XCTAssertEqual(install.status, 0, install.stderr)
        let warning = lines(install.stderr, containing: "evil")
        XCTAssertEqual(warning.count, 1, install.stderr)
        XCTAssertTrue(warning.first?.contains("control character (U+000A)") == true, install.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: shims + "/evil"), "no shim for a command that is not one line")
        XCTAssertTrue(FileManager.default.fileExists(atPath: shims + "/chat"), "the other apps are installed")
        try runEveryShim()
        XCTAssertFalse(FileManager.default.fileExists(atPath: pwned), "a shim ran the command's second line")

        let doctor = try miga("doctor")
        XCTAssertEqual(doctor.status, 1)
        XCTAssertTrue(lines(DoctorText.unwrapped(doctor.stdout), containing: "problem  config:").contains { $0.contains("evil") }, doctor.stdout)
    }

    /// A desktop entry whose Exec holds a line break (a string escape inside quotes) names no
    /// program miga will write: `apps add` refuses it in one line and writes nothing. So do
    /// `--command` and `config set` with any control character, C1 included.
    func testACommandWithAControlCharacterIsRefusedWhereverItEnters() throws {
        try home.writeFile("sys/applications/evil.desktop",
                           "[Desktop Entry]\nType=Application\nName=Evil\nExec=\"/bin/true\\ntouch \(pwned)\" %u\n")
        let fromEntry = try miga("config", "apps", "add", "evil")
        XCTAssertEqual(fromEntry.status, 1, fromEntry.stderr)
        XCTAssertEqual(fromEntry.stderr.split(separator: "\n").count, 1, fromEntry.stderr)
        XCTAssertTrue(fromEntry.stderr.contains("evil.desktop") && fromEntry.stderr.contains("control character (U+000A)")
                      && fromEntry.stderr.contains("give the program"), fromEntry.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.configFile), "nothing written")
        XCTAssertFalse(FileManager.default.fileExists(atPath: shims + "/evil"))

        for command in ["/bin/true\ntouch \(pwned)", "tru\u{85}e", "true\u{7F}"] {
            let option = try miga("config", "apps", "add", "evil", "--command", command)
            XCTAssertEqual(option.status, 64, option.stderr)
            XCTAssertTrue(firstLine(option.stderr).contains("control character"), option.stderr)
        }

        XCTAssertEqual(try miga("config", "apps", "add", "chat", "--command", home.recorder).status, 0)
        let set = try miga("config", "set", "apps.chat.command", "/bin/true\ntouch \(pwned)")
        XCTAssertEqual(set.status, 1, set.stderr)
        XCTAssertTrue(set.stderr.contains("control character (U+000A)"), set.stderr)
        XCTAssertEqual(try ConfigLoader().load(path: home.configFile).config.apps["chat"]?.command, home.recorder)
        try runEveryShim()
        XCTAssertFalse(FileManager.default.fileExists(atPath: pwned))
    }

    /// The shim holds the app's name and command in quotes only: no comment repeats them, so
    /// no value can end a comment line.
    func testTheShimHoldsNameAndCommandOnlyInQuotes() throws {
        let text = PathShim.text(migaPath: "/opt/mi'ga", app: "chat", command: "/opt/odd'name/ch at")
        for line in text.split(separator: "\n") where line.drop(while: { $0 == " " }).hasPrefix("#") || line.contains(" # ") {
            XCTAssertFalse(line.contains("chat") || line.contains("odd") || line.contains("mi'ga"), "a value in a comment: \(line)")
        }
        XCTAssertTrue(text.contains("'/opt/odd'\\''name/ch at'"), text)
    }

    // MARK: - 6. `.` and `..`

    func testDotAndDotDotAreNoAppNames() throws {
        for name in [".", ".."] {
            let added = try miga("config", "apps", "add", name, "--command", home.recorder)
            XCTAssertEqual(added.status, 64, added.stderr)
            XCTAssertTrue(firstLine(added.stderr).contains("app name \"\(name)\" is not a file name"), added.stderr)
            let gate = try miga("gate", "--app", name, "--", home.recorder)
            XCTAssertEqual(gate.status, 64, gate.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.configFile), "nothing written")

        // Hand-edited: that table is skipped with one warning; every other app is installed.
        try home.writeConfig("[apps.\"..\"]\ncommand = \"\(home.recorder)\"\n\n[apps.chat]\ncommand = \"\(home.recorder)\"\n")
        let install = try miga("install")
        XCTAssertEqual(install.status, 0, install.stderr)
        XCTAssertEqual(lines(install.stderr, containing: "\"..\"").count, 1, install.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: shims + "/chat"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: applications + "/chat.desktop"))
    }

    // MARK: - doctor

    /// doctor compares every shim with what miga would write now, byte for byte: a PATH shim
    /// changed on disk, and a desktop shim whose recorded hash was changed with it (as an older
    /// miga would have left it), are both reported, and `miga install` mends both.
    func testDoctorReportsAShimThatDiffersFromWhatMigaWritesAndInstallMendsIt() throws {
        XCTAssertEqual(try miga("config", "apps", "add", "chat", "--command", home.recorder).status, 0)
        XCTAssertEqual(try miga("install").status, 0)
        let onPath = ["PATH": "\(shims):/usr/bin:/bin", "TERMINAL": "/bin/true"]
        XCTAssertTrue(DoctorText.unwrapped(try miga("doctor", environment: onPath).stdout).contains("ok       app chat:"))

        let shim = shims + "/chat"
        let original = try String(contentsOfFile: shim, encoding: .utf8)
        try original.replacingOccurrences(of: "#!/bin/sh\n", with: "#!/bin/sh\ntouch \(pwned)\n")
            .write(toFile: shim, atomically: true, encoding: .utf8)
        let desktop = applications + "/chat.desktop"
        let older = try String(contentsOfFile: desktop, encoding: .utf8).replacingOccurrences(of: "Name=Chat", with: "Name=Chat (older)")
        try older.write(toFile: desktop, atomically: true, encoding: .utf8)
        let manifest = home.home + "/.local/state/miga/installed.json"
        let recorded = AtomicFile.sha256(ofFile: applications + "/chat.desktop")!
        var files = try InstallManifest.load(path: manifest)
        for index in files.files.indices where files.files[index].path == desktop { files.files[index].sha256 = recorded }
        try files.save(path: manifest)

        let sick = try miga("doctor", environment: onPath)
        XCTAssertEqual(sick.status, 1, sick.stdout)
        let finding = lines(DoctorText.unwrapped(sick.stdout), containing: "app chat:").joined()
        XCTAssertTrue(finding.hasPrefix("problem") && finding.contains("PATH shim differs from what miga writes now")
                      && finding.contains("chat.desktop differs from what miga writes now"), sick.stdout)
        XCTAssertTrue(DoctorText.unwrapped(sick.stdout).contains("fix: miga install"), sick.stdout)

        let mend = try miga("install")
        XCTAssertEqual(mend.status, 0, mend.stderr)
        XCTAssertEqual(try String(contentsOfFile: shim, encoding: .utf8), original)
        XCTAssertFalse(try String(contentsOfFile: desktop, encoding: .utf8).contains("(older)"))
        let well = try miga("doctor", environment: onPath)
        XCTAssertTrue(DoctorText.unwrapped(well.stdout).contains("ok       app chat:"), well.stdout)
        try runEveryShim()
        XCTAssertFalse(FileManager.default.fileExists(atPath: pwned))
    }

    // MARK: - 10. A pass inside a gate is for that app alone

    /// A terminal opened through its gate runs another gated app's shim: that app shows its
    /// own gate (here, with no terminal, it fails open and says so, recording why), and opens
    /// with MIGA_GATED naming it.
    func testAnAppOpenedThroughItsGateStillMeetsAnotherAppsGate() throws {
        let terminal = try home.writeFile("bin/term", mode: 0o755, "#!/bin/sh\nexec \(shellQuote(shims + "/chat")) \"$@\"\n")
        XCTAssertEqual(try miga("config", "apps", "add", "term", "--command", terminal).status, 0)
        XCTAssertEqual(try miga("config", "apps", "add", "chat", "--command", home.recorder).status, 0)

        let opened = try miga("gate", "--app", "term", "--", terminal, "hello")
        XCTAssertEqual(opened.status, 0, opened.stderr)
        XCTAssertEqual(home.recordedArguments(), ["hello"])
        XCTAssertTrue(home.recordedInfo()?.hasPrefix("gated=chat ") == true, home.recordedInfo() ?? "")
        XCTAssertEqual(try home.events().map(\.app), ["term", "chat"], "chat's own gate ran inside term")
    }

    /// `miga gate` passes straight through only for the app MIGA_GATED names; any other name,
    /// or the old value 1, meets the gate.
    func testAGateInsideAGatePassesOnlyForTheSameApp() throws {
        let same = try miga("gate", "--app", "chat", "--", home.recorder, "x", environment: ["MIGA_GATED": "chat"])
        XCTAssertEqual(same.status, 0, same.stderr)
        XCTAssertEqual(same.stderr, "")
        XCTAssertEqual(home.recordedArguments(), ["x"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.home + "/.local"), "nothing written in a pass-through")

        for outer in ["term", "1"] {
            let other = try miga("gate", "--app", "chat", "--", home.recorder, "y", environment: ["MIGA_GATED": outer])
            XCTAssertEqual(other.status, 0, other.stderr)
            XCTAssertTrue(other.stderr.contains("opening chat without a pause"), "MIGA_GATED=\(outer): \(other.stderr)")
            XCTAssertTrue(home.recordedInfo()?.hasPrefix("gated=chat ") == true, home.recordedInfo() ?? "")
        }
        XCTAssertEqual(try home.events().map(\.type), [.gatewaySkipped, .gatewaySkipped])
    }
}
