import Foundation
import XCTest
@testable import MigaCore
import MigaTestSupport

/// Desktop Entry Specification 1.5 parsing and the shims built from it, against real entries
/// from Debian packages (Tests/Fixtures/desktop) and hand-written ones for each Exec rule.
final class DesktopEntryTests: XCTestCase {
    static let fixtures = Fixtures.path("desktop")

    func fixtureNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: Self.fixtures).filter { $0.hasSuffix(".desktop") }.sorted()
    }

    func exec(_ raw: String) throws -> ExecLine { try ExecLine(rawValue: raw) }

    func testEveryFixtureParsesWithItsActions() throws {
        XCTAssertEqual(try fixtureNames().count, 10)
        for name in try fixtureNames() {
            let entry = try DesktopEntry.load(path: Self.fixtures + "/" + name)
            XCTAssertEqual(entry.groups.first, DesktopEntry.mainGroup, name)
            XCTAssertNotNil(entry.rawValue("Exec"), name)
            XCTAssertNotNil(entry.string("Name"), name)
        }
        let epiphany = try DesktopEntry.load(path: Self.fixtures + "/org.gnome.Epiphany.desktop")
        XCTAssertEqual(epiphany.actionGroups, ["Desktop Action new-window", "Desktop Action Incognito"])
        XCTAssertEqual(epiphany.rawValue("Exec", in: "Desktop Action Incognito"), "epiphany --incognito-mode %U")
        XCTAssertEqual(epiphany.boolean("Terminal"), false)
    }

    func testExecGrammar() throws {
        XCTAssertEqual(try exec("/usr/bin/telegram-desktop -- %u").arguments, [.literal("/usr/bin/telegram-desktop"), .literal("--"), .field("u")])
        XCTAssertEqual(try exec(#"qutebrowser "qute://settings""#).arguments, [.literal("qutebrowser"), .literal("qute://settings")])
        XCTAssertEqual(try exec(#"app "%u" 100%% "a b""#).arguments, [.literal("app"), .literal("%u"), .literal("100%"), .literal("a b")])
        // String escapes come first: \\ in the file is one backslash for the Exec rules.
        XCTAssertEqual(try exec(#"sh -c "echo \\"hi\\" \\$HOME \\\\ \\`x\\`""#).arguments,
                       [.literal("sh"), .literal("-c"), .literal(#"echo "hi" $HOME \ `x`"#)])
        XCTAssertEqual(try exec(#"a\sb"#).arguments, [.literal("a"), .literal("b")], "\\s is a space, which separates")
        XCTAssertEqual(try exec(#"app """#).arguments, [.literal("app"), .literal("")], "an empty quoted argument")
        XCTAssertEqual(try exec("app --url=%u").arguments, [.literal("app"), .embedded(prefix: "--url=", field: "u", suffix: "")])
        XCTAssertThrowsError(try exec(#"app "unterminated"#)) { XCTAssertEqual($0 as? ExecLineError, .unterminatedQuote) }
        XCTAssertThrowsError(try exec(#"app "bad \q""#))
        XCTAssertThrowsError(try exec("   ")) { XCTAssertEqual($0 as? ExecLineError, .empty) }
    }

    func testFieldCodeExpansion() throws {
        let urls = ["https://a.example/x y", "file:///tmp/b"]
        XCTAssertEqual(try exec("konversation -qwindowtitle %c %u").expand(urls: urls, icon: "konv", name: "Konversation", location: nil),
                       ["konversation", "-qwindowtitle", "Konversation", "https://a.example/x y"])
        XCTAssertEqual(try exec("app %i %U").expand(urls: urls, icon: "app-icon", name: nil, location: nil),
                       ["app", "--icon", "app-icon", "https://a.example/x y", "file:///tmp/b"])
        XCTAssertEqual(try exec("app %i %F").expand(urls: [], icon: nil, name: nil, location: nil), ["app"], "%i without Icon and no files: nothing")
        XCTAssertEqual(try exec("app %k %d %D %n %N %v %m --x").expand(urls: [], icon: nil, name: nil, location: "/a/app.desktop"),
                       ["app", "/a/app.desktop", "--x"], "deprecated codes are dropped")
    }

    func testMalformedEntriesAreRefusedWithTheFileAndLine() throws {
        let root = try TemporaryDirectory()
        let cases: [(String, Data, String)] = [
            ("nogroup.desktop", Data("Name=x\nExec=y\n".utf8), "key outside any group"),
            ("wrongfirst.desktop", Data("[Other]\nExec=y\n".utf8), "first group must be [Desktop Entry]"),
            ("garbage.desktop", Data("[Desktop Entry]\nExec=y\nthis is not a key\n".utf8), "garbage.desktop:3:"),
            ("latin1.desktop", Data([0x5B] + Array("Desktop Entry]\nName=caf".utf8) + [0xE9, 0x0A]), "not valid UTF-8"),
            ("empty.desktop", Data(), "no [Desktop Entry] group"),
        ]
        for (name, data, expected) in cases {
            let path = root.path + "/" + name
            _ = FileManager.default.createFile(atPath: path, contents: data)
            XCTAssertThrowsError(try DesktopEntry.load(path: path)) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error) should contain \(expected)")
                XCTAssertTrue("\(error)".hasPrefix(name), "\(error) names the file")
            }
        }
        // A 5 MB file is refused after reading at most a little over 1 MiB.
        let big = root.path + "/big.desktop"
        _ = FileManager.default.createFile(atPath: big, contents: Data("[Desktop Entry]\n".utf8) + Data(repeating: 0x41, count: 5 << 20))
        XCTAssertThrowsError(try DesktopEntry.load(path: big)) { XCTAssertTrue("\($0)".contains("larger than 1024 KiB"), "\($0)") }
        let unterminated = try DesktopEntry(text: "[Desktop Entry]\nExec=app \"oops\n", name: "q.desktop")
        XCTAssertThrowsError(try DesktopShim.text(for: unterminated, migaPath: "/usr/bin/miga", app: "app"))
    }

    func testIdentifierAndCommandMatching() throws {
        XCTAssertEqual(DesktopEntry.identifier(relativePath: "kde4/konversation.desktop"), "kde4-konversation.desktop")
        let thunderbird = try DesktopEntry.load(path: Self.fixtures + "/thunderbird.desktop")
        XCTAssertTrue(DesktopShim.runs("thunderbird", entry: thunderbird))
        XCTAssertTrue(DesktopShim.runs("/usr/bin/thunderbird", entry: thunderbird))
        XCTAssertFalse(DesktopShim.runs("thunder", entry: thunderbird))
        XCTAssertFalse(DesktopShim.runs("/opt/thunderbird", entry: thunderbird))
    }

    /// Packaged apps start through a wrapper, in the forms Flatpak's exporter and snapd write.
    func testFlatpakAndSnapEntriesAreFoundByTheAppsName() throws {
        func entry(_ exec: String) throws -> DesktopEntry {
            try DesktopEntry(text: "[Desktop Entry]\nType=Application\nName=App\nExec=\(exec)\n", name: "app.desktop")
        }
        let discord = try entry("/usr/bin/flatpak run --branch=stable --arch=x86_64 --command=discord com.discordapp.Discord")
        XCTAssertTrue(DesktopShim.runs("discord", entry: discord))
        XCTAssertTrue(DesktopShim.runs("com.discordapp.Discord", entry: discord))
        XCTAssertFalse(DesktopShim.runs("slack", entry: discord))
        let signal = try entry("/usr/bin/flatpak run --branch=stable --arch=x86_64 --command=signal-desktop --file-forwarding org.signal.Signal @@u %U @@")
        XCTAssertTrue(DesktopShim.runs("signal-desktop", entry: signal))
        XCTAssertTrue(DesktopShim.runs("signal", entry: signal), "the app ID's last part, whatever its case")
        let slack = try entry("flatpak run --arch x86_64 --branch stable com.slack.Slack")
        XCTAssertTrue(DesktopShim.runs("slack", entry: slack))
        XCTAssertFalse(DesktopShim.runs("x86_64", entry: slack), "an option's value is not the app")
        XCTAssertFalse(DesktopShim.runs("stable", entry: slack))
        let snap = try entry("env BAMF_DESKTOP_FILE_HINT=/var/lib/snapd/desktop/applications/discord_discord.desktop /snap/bin/discord %U")
        XCTAssertTrue(DesktopShim.runs("discord", entry: snap))
        XCTAssertTrue(DesktopShim.runs("/snap/bin/discord", entry: snap))
        XCTAssertFalse(DesktopShim.runs("env", entry: snap))
        XCTAssertTrue(DesktopShim.runs("hexchat", entry: try entry("env -u GTK_THEME LANG=C hexchat --existing %U")))
        XCTAssertFalse(DesktopShim.runs("discord", entry: try entry("flatpak update")), "not a flatpak run")
        XCTAssertEqual(LaunchedProgram(try ExecLine(rawValue: "/usr/bin/flatpak run --command=signal-desktop org.signal.Signal")).names,
                       ["flatpak", "signal-desktop", "signal"], "what completion offers")
    }
}

final class DesktopShimTests: XCTestCase {
    let miga = "/home/u/.local/bin/miga"

    /// The script the shim's `sh -c` runs, as sh receives it.
    static func script(detach: Bool) -> String {
        "if [ -x \"$0\" ]; then exec \"$0\" gate --app 'chat'\(detach ? " --detach" : "") -- \"$@\"; fi; exec \"$@\""
    }

    /// A launched shim runs the gate with exactly the app's words; with miga gone, the app
    /// itself with those words (its menu entry never stops working).
    func testAShimRunsTheGateOrWithoutMigaTheAppItself() throws {
        let root = try TemporaryDirectory()
        let record = { (name: String) in "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > \"$(dirname \"$0\")/\(name).out\"\n" }
        let fakeMiga = try root.write(record("miga"), to: "bin/miga", mode: 0o755)
        let app = try root.write(record("app"), to: "bin/app", mode: 0o755)
        let original = try DesktopEntry(text: "[Desktop Entry]\nType=Application\nName=A\nExec=\(app) --flag %u\n", name: "a.desktop")
        for (migaPath, expected) in [(fakeMiga, ("miga", ["gate", "--app", "chat", "--detach", "--", app, "--flag", "https://x.example/a b"])),
                                     (root.path + "/gone/miga", ("app", ["--flag", "https://x.example/a b"]))] {
            let (_, shimmed) = try shim(original, miga: migaPath)
            let argv = try ExecLine(rawValue: shimmed.rawValue("Exec")!).expand(urls: ["https://x.example/a b"], icon: nil, name: nil, location: nil)
            XCTAssertEqual(try runProgram(argv[0], Array(argv.dropFirst())).status, 0)
            let out = try String(contentsOfFile: root.path + "/bin/\(expected.0).out", encoding: .utf8)
            XCTAssertEqual(out.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init), expected.1, migaPath)
        }
    }
    let managed = ["Exec", "Terminal", "DBusActivatable", DesktopShim.markerKey]

    func shim(_ entry: DesktopEntry, app: String = "chat", miga: String? = nil) throws -> (text: String, entry: DesktopEntry) {
        let text = try DesktopShim.text(for: entry, migaPath: miga ?? self.miga, app: app)
        return (text, try DesktopEntry(text: text, name: "shim"))
    }

    /// Lines DESIGN does not name, in order, exactly as they were.
    func untouched(_ entry: DesktopEntry) -> [String] {
        zip(entry.lines, entry.rawLines).compactMap { line, raw in
            if case .entry(let key, nil, _) = line, managed.contains(key) { return nil }
            return raw
        }
    }

    func testEveryFixtureShimFollowsTheDesignAndValidates() throws {
        let validator = "/usr/bin/desktop-file-validate"
        let root = try TemporaryDirectory()
        for name in try FileManager.default.contentsOfDirectory(atPath: DesktopEntryTests.fixtures).filter({ $0.hasSuffix(".desktop") }) {
            let original = try DesktopEntry.load(path: DesktopEntryTests.fixtures + "/" + name)
            let (text, shimmed) = try shim(original)
            XCTAssertEqual(untouched(shimmed), untouched(original), "\(name): other lines byte for byte")
            for group in [DesktopEntry.mainGroup] + original.actionGroups {
                let before = try XCTUnwrap(original.rawValue("Exec", in: group))
                XCTAssertEqual(shimmed.rawValue("Exec", in: group), DesktopShim.execPrefix(migaPath: miga, app: "chat", detach: true) + before,
                               "\(name) [\(group)]")
                // What a launcher runs: sh with miga's words, then exactly what it ran before.
                let urls = ["https://example.org/a b"]
                let launched = try ExecLine(rawValue: shimmed.rawValue("Exec", in: group)!).expand(urls: urls, icon: "i", name: "n", location: "/l")
                let direct = try ExecLine(rawValue: before).expand(urls: urls, icon: "i", name: "n", location: "/l")
                XCTAssertEqual(Array(launched.prefix(4)), ["/bin/sh", "-c", Self.script(detach: true), miga], "\(name) [\(group)]")
                XCTAssertEqual(Array(launched.dropFirst(4)), direct, "\(name) [\(group)]")
            }
            XCTAssertEqual(shimmed.rawValue("Terminal"), original.boolean("Terminal") == true ? "true" : "false",
                           "\(name): a graphical app's gate shows as a window, so no terminal")
            XCTAssertEqual(shimmed.rawValue("DBusActivatable"), "false", name)
            XCTAssertEqual(shimmed.rawValue("TryExec"), original.rawValue("TryExec"), "\(name): its own TryExec, never miga's")
            XCTAssertEqual(shimmed.rawValue(DesktopShim.markerKey), "true", name)
            XCTAssertEqual(text.hasSuffix("\n"), original.rawLines.last == "", "\(name): same ending")

            guard FileManager.default.isExecutableFile(atPath: validator) else { continue }
            let path = root.path + "/" + name
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let (status, output) = try runProgram(validator, [path])
            XCTAssertEqual(status, 0, "\(name):\n\(output)")
            XCTAssertFalse(output.contains("error:"), "\(name):\n\(output)")
        }
        if !FileManager.default.isExecutableFile(atPath: validator) {
            XCTFail("desktop-file-validate is missing: install desktop-file-utils (scripts/deps.sh does)")
        }
    }

    func testDBusActivatableEntryAndExistingKeysAreReplacedNotDuplicated() throws {
        let original = try DesktopEntry(text: """
            # a comment
            [Desktop Entry]
            Type=Application
            Name=Chat
            Name[de]=Plaudern
            Exec=chat %U
            TryExec=chat
            DBusActivatable=true
            Terminal=false
            X-Miga-Shim=true
            X-Unknown=kept

            [Desktop Action new]
            Name=New
            Exec=chat --new

            """, name: "chat.desktop")
        let (text, shimmed) = try shim(original)
        for key in ["Terminal", "DBusActivatable", "TryExec", DesktopShim.markerKey, "Exec"] {
            XCTAssertEqual(text.components(separatedBy: "\n").filter { $0.hasPrefix(key + "=") }.count, key == "Exec" ? 2 : 1, key)
        }
        XCTAssertEqual(shimmed.rawValue("DBusActivatable"), "false")
        XCTAssertEqual(shimmed.rawValue("Terminal"), "false", "the gate shows itself as a window; no terminal flashes up")
        XCTAssertEqual(shimmed.rawValue("Exec", in: "Desktop Action new"), DesktopShim.execPrefix(migaPath: miga, app: "chat", detach: true) + "chat --new")
        XCTAssertTrue(text.hasPrefix("# a comment\n[Desktop Entry]\n"))
        XCTAssertTrue(text.contains("Name[de]=Plaudern\n"))
        XCTAssertTrue(text.contains("X-Unknown=kept\nX-Miga-Shim=true\n\n[Desktop Action new]"), text)
    }

    func testMigaPathWithSpacesIsQuotedForExecAndPlainForTryExec() throws {
        let original = try DesktopEntry(text: "[Desktop Entry]\nType=Application\nName=A\nExec=app %u\n", name: "a.desktop")
        let odd = "/home/u/My Apps/mi\"ga"
        let (_, shimmed) = try shim(original, miga: odd)
        XCTAssertTrue(shimmed.rawValue("Exec")?.hasSuffix(#" "/home/u/My Apps/mi\\"ga" app %u"#) == true, shimmed.rawValue("Exec") ?? "")
        XCTAssertEqual(try ExecLine(rawValue: shimmed.rawValue("Exec")!).expand(urls: ["u"], icon: nil, name: nil, location: nil),
                       ["/bin/sh", "-c", Self.script(detach: true), odd, "app", "u"])
        XCTAssertNil(shimmed.string("TryExec"), "no TryExec that would hide the app once miga is gone")
    }

    /// A terminal app keeps its terminal: the gate and the app share the one the launcher
    /// opens, so it is not detached.
    func testATerminalAppIsNotDetached() throws {
        let original = try DesktopEntry(text: "[Desktop Entry]\nType=Application\nName=Mutt\nExec=neomutt %u\nTerminal=true\n", name: "neomutt.desktop")
        let (_, shimmed) = try shim(original)
        XCTAssertEqual(shimmed.rawValue("Exec"), DesktopShim.execPrefix(migaPath: miga, app: "chat", detach: false) + "neomutt %u")
        XCTAssertEqual(try ExecLine(rawValue: shimmed.rawValue("Exec")!).expand(urls: ["u"], icon: nil, name: nil, location: nil),
                       ["/bin/sh", "-c", Self.script(detach: false), miga, "neomutt", "u"])
        XCTAssertEqual(shimmed.rawValue("Terminal"), "true")
    }

    /// Quitting a running app is never paused: such actions keep their Exec as it was.
    func testQuitActionsPassStraightThrough() throws {
        let original = try DesktopEntry(text: """
            [Desktop Entry]
            Type=Application
            Name=Chat
            Exec=chat %U
            Actions=new;quit;Shutdown;

            [Desktop Action new]
            Name=New Window
            Exec=chat --new-window

            [Desktop Action quit]
            Exec=chat --quit
            Name=Quit Chat
            Name[de]=Beenden

            [Desktop Action Shutdown]
            Name=Close All Windows
            Exec=chat --close-all

            """, name: "chat.desktop")
        let (_, shimmed) = try shim(original)
        let prefix = DesktopShim.execPrefix(migaPath: miga, app: "chat", detach: true)
        XCTAssertEqual(shimmed.rawValue("Exec", in: "Desktop Action new"), prefix + "chat --new-window")
        XCTAssertEqual(shimmed.rawValue("Exec", in: "Desktop Action quit"), "chat --quit")
        XCTAssertEqual(shimmed.rawValue("Exec", in: "Desktop Action Shutdown"), "chat --close-all")
        XCTAssertEqual(shimmed.rawValue("Exec"), prefix + "chat %U")
    }

    /// Only application entries launch a program; a KDE service or a link is left alone.
    func testOnlyApplicationEntriesAreShimmed() throws {
        for type in ["Service", "Link", "Directory"] {
            let original = try DesktopEntry(text: "[Desktop Entry]\nType=\(type)\nName=S\nExec=chat %u\n", name: "s.desktop")
            XCTAssertThrowsError(try shim(original), type)
        }
    }
}
