import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// `miga config show/get/set` in-process (moved from MigaCLITests' ConfigCLITests, which keeps
/// the editor, concurrent edits and the gate).
final class ConfigCommandTests: XCTestCase, ConfigCase {
    var home: CommandHome!

    override func setUpWithError() throws {
        home = try CommandHome()
        try writeHexchat()
    }

    func testShowAndGetPrintTheEffectiveSettings() throws {
        let defaults = try miga("config", "show")
        XCTAssertTrue(defaults.stdout.hasPrefix("# \(home.configFile) (not written yet: these are the defaults)\ntimer_seconds = 30\n"), defaults.stdout)
        try home.writeConfig(text)
        let shown = try miga("config", "show")
        XCTAssertTrue(shown.stdout.contains("timer_seconds = 25\ngrace_minutes = 5\n"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("[apps.signal]\ncommand = \"signal\"\n# timer_seconds = 25  (the global timer)\n"), shown.stdout)
        XCTAssertEqual(try miga("config").stdout, shown.stdout, "not on a terminal, `miga config` shows")
        XCTAssertEqual(try miga("config", "get", "timer_seconds").stdout, "25\n")
        XCTAssertEqual(try miga("config", "get", "apps.signal.timer_seconds").stdout, "25\n")
        XCTAssertEqual(try miga("config", "get", "sites").stdout, MigaConfig.formerDefaultSites.joined(separator: "\n") + "\n")
        let unknown = try miga("config", "get", "timer")
        XCTAssertEqual(unknown.status, 1)
        XCTAssertEqual(unknown.stderr, "miga: unknown key \"timer\"; did you mean \"timer_seconds\"?\n")
    }

    func testSetValidatesFirstAndChangesOneValueInPlace() throws {
        try home.writeConfig(text)
        let refused = try miga("config", "set", "timer_seconds", "50")
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stderr, "miga: timer_seconds must be between 15 and 45\n")
        XCTAssertEqual(configText, text, "untouched")
        for (key, value, problem) in [("grace_minutes", "lots", "must be a whole number"), ("timer", "20", "did you mean \"timer_seconds\""),
                                      ("apps.discord.timer_seconds", "20", "no app \"discord\""), ("breathing", "deep", "must be one of")] {
            let output = try miga("config", "set", key, value)
            XCTAssertEqual(output.status, 1, key)
            XCTAssertTrue(output.stderr.contains(problem), output.stderr)
            XCTAssertEqual(configText, text, "untouched after \(key)")
        }
        let set = try miga("config", "set", "apps.signal.timer_seconds", "40")
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertEqual(set.stdout, "apps.signal.timer_seconds = 40\n")
        XCTAssertEqual(try miga("config", "set", "timer_seconds", "20").status, 0)
        XCTAssertEqual(configText, "# my settings\ntimer_seconds = 20  # short\n" + text.split(separator: "\n")[2] + "\n\n[apps.signal]\ncommand = \"signal\"\ntimer_seconds = 40\n")
        XCTAssertEqual(AtomicFile.mode(of: home.configFile), 0o600)
    }

    /// Messages quote what a file holds; an escape sequence there (a window-title change) is
    /// shown, not obeyed.
    /// `set sites` replaces the list: a person who meant to add one hears which sites it
    /// dropped and how to add instead; a single label (`a`, a slip of the comma) is refused.
    func testSettingTheSitesSaysWhatItDroppedAndRefusesALoneLabel() throws {
        for arguments in [["config", "set", "sites", "reddit.com,a"], ["config", "sites", "add", "a"]] {
            let refused = try home.miga(arguments, environment: environment())
            XCTAssertEqual(refused.status, 1, "\(arguments)")
            XCTAssertTrue(refused.stderr.contains("\"a\" is not a site's host name (it needs a dot); give"), refused.stderr)
            XCTAssertNil(configText, "nothing written")
        }
        try home.writeConfig("sites = [" + MigaConfig.formerDefaultSites.map { "\"\($0)\"" }.joined(separator: ", ") + "]\n")
        let replaced = try miga("config", "set", "sites", "reddit.com")
        XCTAssertEqual(replaced.status, 0, replaced.stderr)
        let dropped = MigaConfig.formerDefaultSites.filter { $0 != "reddit.com" }
        XCTAssertTrue(replaced.stdout.contains("sites = [\"reddit.com\"]\n  no longer gated: \(dropped.joined(separator: ", ")) "
                                               + "(`set` replaces the list; `miga config sites add HOST` adds one and keeps the rest)"), replaced.stdout)
        let grown = try miga("config", "set", "sites", "reddit.com", "lobste.rs")
        XCTAssertFalse(grown.stdout.contains("no longer gated"), grown.stdout)
        XCTAssertEqual(try miga("config", "sites", "remove", "lobste.rs").status, 0)
        try home.writeConfig("sites = [\"intranet\"]\n") // a hand-written single label is still read
        XCTAssertEqual(try miga("config", "get", "sites").stdout, "intranet\n")
        XCTAssertEqual(try miga("config", "sites", "remove", "intranet").status, 0, "and can be removed")
    }

    /// A global key appended at the end of a file lands in its last `[apps.*]` table: the
    /// warning says so and where it belongs, not just "unknown key".
    func testAGlobalKeyInsideAnAppTableIsNamedAsSuch() throws {
        try home.writeConfig(text + "grace_minutes = 10\n")
        let shown = try miga("config", "show")
        XCTAssertEqual(shown.status, 0)
        XCTAssertTrue(shown.stderr.contains("config.toml:7: grace_minutes is a global key but sits in [apps.signal] (every line below a table header "
                                            + "belongs to it), so it is ignored; move it above the first table, or use `miga config set grace_minutes VALUE`"),
                      shown.stderr)
        XCTAssertEqual(try miga("config", "get", "grace_minutes").stdout, "5\n", "ignored, as it says")
        XCTAssertEqual(try miga("config", "set", "grace_minutes", "10").status, 0)
        XCTAssertEqual(try miga("config", "get", "grace_minutes").stdout, "10\n", "set puts a global key above the tables")
    }

    /// A `terminal` that is not installed is a problem `doctor` names, with the one it uses.
    func testDoctorNamesAConfiguredTerminalThatIsNotInstalled() throws {
        XCTAssertEqual(try miga("config", "set", "terminal", "kitty").status, 0)
        let doctor = try miga("doctor")
        XCTAssertNotNil(DoctorText.unwrapped(doctor.stdout).range(of: #"problem  terminal: terminal = "kitty" in config.toml is not installed \(not found on PATH\); /\S+ opens instead"#,
                                            options: .regularExpression), doctor.stdout)
        XCTAssertTrue(DoctorText.unwrapped(doctor.stdout).contains("miga config set terminal \"\""), doctor.stdout)
        XCTAssertEqual(try miga("config", "set", "terminal", "").status, 0)
        XCTAssertFalse(DoctorText.unwrapped(try miga("doctor").stdout).contains("in config.toml is not installed"))
    }

    func testAnEscapeSequenceInAKeyIsQuotedVisibly() throws {
        try home.writeConfig("\"\\u001b]0;pwned\\u0007\" = 1\n")
        let output = try miga("config", "show")
        XCTAssertEqual(output.status, 0, output.stderr)
        XCTAssertTrue(output.stderr.contains("unknown key \"\u{FFFD}]0;pwned\u{FFFD}\" ignored"), output.stderr)
        XCTAssertFalse(output.stderr.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" }, output.stderr)
    }

    /// A run killed mid-write leaves its temporary file (`.NAME.miga-PID`); the next write
    /// beside it removes it, and leaves one whose process still runs.
    func testTemporaryFilesOfAKilledRunAreRemovedByTheNext() throws {
        try home.writeConfig(text)
        let stale = home.home + "/.config/miga/.config.toml.miga-2147483646" // no such process
        let live = home.home + "/.config/miga/.config.toml.miga-1" // init: alive
        for file in [stale, live] { try "half".write(toFile: file, atomically: false, encoding: .utf8) }
        XCTAssertEqual(try miga("config", "set", "timer_seconds", "20").status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale), "the killed run's leftover is gone")
        XCTAssertTrue(FileManager.default.fileExists(atPath: live), "a running process's file is its own")
    }

    func testEveryVerbNamesTheLineOfABrokenFile() throws {
        try home.writeConfig("timer_seconds = 20\ngrace_minutes = = 3\n")
        for arguments in [["config", "show"], ["config", "get", "timer_seconds"], ["config", "set", "timer_seconds", "30"],
                          ["config", "apps", "add", "hexchat"], ["config", "sites", "add", "a.com"], ["config"]] {
            let output = try home.miga(arguments, environment: environment())
            XCTAssertEqual(output.status, 1, "\(arguments)")
            XCTAssertTrue(output.stderr.contains("config.toml:2:"), "\(arguments): \(output.stderr)")
        }
        XCTAssertEqual(configText, "timer_seconds = 20\ngrace_minutes = = 3\n")
    }
}
