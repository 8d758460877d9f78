import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// What `install` and `uninstall` do for coming back to an open app: the watcher's autostart
/// entry everywhere but GNOME, and on GNOME the shell extension switched on in the person's
/// settings — through the real `gsettings`, kept in the temporary home (GSETTINGS_BACKEND=keyfile).
final class RoomInstallTests: XCTestCase, DesktopSystemCase {
    var home: CommandHome!
    var autostart: String { home.home + "/.config/autostart/app.miga.Watch.desktop" }

    override func setUpWithError() throws {
        home = try CommandHome()
        try Fixtures.writeDesktopSystem(into: home)
    }

    func testInstallWritesTheWatchersAutostartEntryAndUninstallTakesItAway() throws {
        let before = try homeFiles()
        XCTAssertEqual(try miga("install").status, 0)
        let entry = try XCTUnwrap(read(autostart))
        XCTAssertNotNil(entry.range(of: #"\nExec=/\S+/miga watch\n"#, options: .regularExpression), entry)
        XCTAssertTrue(entry.contains("\nNotShowIn=GNOME;\n") && entry.contains("\nNoDisplay=true\n"), entry)
        // One icon for every entry miga writes (the gate window's own entry is make install's).
        XCTAssertTrue(entry.contains("\nIcon=app.miga.Gate\n"), entry)
        let handler = try XCTUnwrap(read(applications + "/miga-url-handler.desktop"))
        XCTAssertTrue(handler.contains("\nIcon=app.miga.Gate\n"), handler)
        XCTAssertEqual(try miga("install").stdout, "miga is installed; nothing needed changing.\n")
        let removed = try miga("uninstall")
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertNil(read(autostart))
        XCTAssertEqual(try homeFiles(), before, "the home as it was, the autostart folder too")
    }

    func testOnGNOMEInstallEnablesTheExtensionBesideTheOthersAndUninstallDisablesOnlyIt() throws {
        try requireShellSchema()
        let gnome = gnomeSession("ubuntu:GNOME")
        try installExtension()
        try gsettings("set", "org.gnome.shell", "enabled-extensions", "['other@example.org', \"it's@example.org\"]")
        let install = try miga("install", environment: gnome)
        XCTAssertEqual(install.status, 0, install.stderr)
        XCTAssertTrue(install.stdout.contains("enabled the GNOME Shell extension miga@miga.app"), install.stdout)
        XCTAssertEqual(try enabled(), "['other@example.org', \"it's@example.org\", 'miga@miga.app']")
        XCTAssertEqual(try miga("install", environment: gnome).stdout, "miga is installed; nothing needed changing.\n")

        // The person turns it off: another install leaves it off.
        try gsettings("set", "org.gnome.shell", "enabled-extensions", "['other@example.org', \"it's@example.org\"]")
        XCTAssertEqual(try miga("install", environment: gnome).stdout, "miga is installed; nothing needed changing.\n")
        XCTAssertEqual(try enabled(), "['other@example.org', \"it's@example.org\"]")
        try gsettings("set", "org.gnome.shell", "enabled-extensions", "['other@example.org', \"it's@example.org\", 'miga@miga.app']")

        let removed = try miga("uninstall", environment: gnome)
        XCTAssertTrue(removed.stdout.contains("disabled the GNOME Shell extension miga@miga.app"), removed.stdout)
        XCTAssertEqual(try enabled(), "['other@example.org', \"it's@example.org\"]")
    }

    func testAnExtensionThePersonEnabledThemselvesStaysEnabledAfterUninstall() throws {
        try requireShellSchema()
        try installExtension()
        try gsettings("set", "org.gnome.shell", "enabled-extensions", "['miga@miga.app']")
        XCTAssertEqual(try miga("install", environment: gnomeSession()).status, 0)
        XCTAssertEqual(try miga("uninstall", environment: gnomeSession()).status, 0)
        XCTAssertEqual(try enabled(), "['miga@miga.app']")
    }

    func testASettingMigaCannotReadIsLeftAsItIsAndInstallGoesOn() throws {
        try requireShellSchema()
        try installExtension()
        // Not installed: nothing to switch on, and nothing said (doctor says it).
        try FileManager.default.removeItem(atPath: system + "/gnome-shell")
        let install = try miga("install", environment: gnomeSession())
        XCTAssertEqual(install.status, 0, install.stderr)
        XCTAssertEqual(try enabled(), "@as []")
    }

    /// `doctor` says per session whether coming back is paused, and the one thing to do.
    func testDoctorSaysWhereComingBackIsPaused() throws {
        XCTAssertEqual(try miga("install").status, 0)
        let x11 = DoctorText.unwrapped(try miga("doctor", environment: ["DISPLAY": ":93", "XDG_CURRENT_DESKTOP": "XFCE"]).stdout)
        XCTAssertTrue(x11.contains("note     returns: coming back to an open app is not paused: `miga watch` is not running"), x11)
        XCTAssertTrue(x11.contains("it starts at your next login; to start it now: `miga watch &`"), x11)
        let kde = DoctorText.unwrapped(try miga("doctor", environment: ["WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "KDE"]).stdout)
        XCTAssertTrue(kde.contains("note     returns: this is a Wayland session (KDE)"), kde)
        let none = DoctorText.unwrapped(try miga("doctor").stdout)
        XCTAssertFalse(none.contains("returns:"), "no desktop session, nothing said: \(none)")

        try requireShellSchema()
        let missing = DoctorText.unwrapped(try miga("doctor", environment: gnomeSession()).stdout)
        XCTAssertTrue(missing.contains("returns: coming back to an open app is not paused: GNOME Shell's extension miga@miga.app is not installed"), missing)
        try installExtension()
        let off = DoctorText.unwrapped(try miga("doctor", environment: gnomeSession()).stdout)
        XCTAssertTrue(off.contains("is installed but not enabled") && off.contains("fix: `gnome-extensions enable miga@miga.app`"), off)
        XCTAssertEqual(try miga("install", environment: gnomeSession()).status, 0)
        let on = DoctorText.unwrapped(try miga("doctor", environment: gnomeSession()).stdout)
        XCTAssertTrue(on.contains("ok       returns: coming back to an open app is paused here (GNOME Shell extension miga@miga.app enabled"), on)
    }

    func testTheListAsGSettingsPrintsIt() {
        XCTAssertEqual(ShellExtension.parseStringList("@as []\n"), [])
        XCTAssertEqual(ShellExtension.parseStringList("['a@b', \"it's\", 'x\\\\y']"), ["a@b", "it's", "x\\y"])
        XCTAssertNil(ShellExtension.parseStringList("['a', "))
        XCTAssertNil(ShellExtension.parseStringList("['a' 'b']"))
        XCTAssertNil(ShellExtension.parseStringList("uint32 3"))
        XCTAssertNil(ShellExtension.parseStringList("['a\\nb']"), "an escape it could not write back as it was")
        XCTAssertEqual(ShellExtension.formatStringList(["a", "it's", "x\\y"]), "['a', 'it\\'s', 'x\\\\y']")
        XCTAssertEqual(ShellExtension.parseStringList(ShellExtension.formatStringList(["a", "it's", "x\\y"])), ["a", "it's", "x\\y"])
    }

    // MARK: - Helpers

    func homeFiles() throws -> [String: String] {
        try snapshot(excludingMigaFolders: true).filter { !$0.key.contains("/.config/chromium") && !$0.key.contains("/.mozilla") }
    }

    /// A GNOME session's environment; the settings' schemas are the system's (the home's
    /// XDG_DATA_DIRS points at its own "system" folder, where none are).
    func gnomeSession(_ desktop: String = "GNOME") -> [String: String] {
        ["XDG_CURRENT_DESKTOP": desktop, "GSETTINGS_SCHEMA_DIR": "/usr/share/glib-2.0/schemas"]
    }

    func installExtension() throws {
        try home.writeFile("sys/gnome-shell/extensions/miga@miga.app/metadata.json", #"{"uuid":"miga@miga.app"}"#)
    }

    func requireShellSchema() throws {
        let listed = try gsettings("list-schemas")
        if !listed.split(separator: "\n").contains("org.gnome.shell") {
            if ProcessInfo.processInfo.environment["MIGA_REQUIRE_GNOME_SHELL"] == "1" { XCTFail("GNOME Shell's settings schema is missing") }
            throw XCTSkip("GNOME Shell is not installed (apt install gnome-shell)")
        }
    }

    func enabled() throws -> String {
        try gsettings("get", "org.gnome.shell", "enabled-extensions").trimmingCharacters(in: .newlines)
    }

    @discardableResult
    func gsettings(_ arguments: String...) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gsettings")
        process.arguments = arguments
        process.environment = environment(gnomeSession())
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "gsettings \(arguments)")
        return String(decoding: data, as: UTF8.self)
    }
}
