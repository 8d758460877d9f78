// Only test builds have XCTest; a release build (`make release` builds every target) compiles
// this target without these cases.
#if canImport(XCTest)
import Foundation
import MigaCore
import MigaSystem
import XCTest

// The setups and helpers a MigaCLITests class (the built binary) and its in-process twin in
// MigaCommandTests both use: one protocol each, whose extension gives the class what it had,
// so the same fixture is written once whichever way the test runs miga.

/// InterceptionTests and InterceptionCommandTests: a temp HOME whose "system" desktop entries
/// live in a temp XDG_DATA_DIRS (`Fixtures.writeDesktopSystem(into:)`).
public protocol DesktopSystemCase: HomeCase {}

extension DesktopSystemCase {
    public var system: String { home.root + "/sys" }
    public var applications: String { home.home + "/.local/share/applications" }
    public var shims: String { home.home + "/.local/share/miga/bin" }
    public var manifest: String { home.home + "/.local/state/miga/installed.json" }

    /// A person's environment with the system folders pointed at the temp tree.
    public func environment(_ extra: [String: String] = [:]) -> [String: String] {
        home.environment(["XDG_DATA_DIRS": system, "XDG_CONFIG_DIRS": home.root + "/etc",
                          "PATH": "\(home.root)/bin:/usr/bin:/bin"].merging(extra) { $1 })
    }

    @discardableResult
    public func miga(_ arguments: String..., environment extra: [String: String] = [:],
                     file: StaticString = #filePath, line: UInt = #line) throws -> TestHome.Output {
        try home.miga(arguments, environment: environment(extra))
    }

    public func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    /// Every file and folder below HOME (except miga's own XDG folders): type, mode, bytes.
    public func snapshot(excludingMigaFolders: Bool = true) throws -> [String: String] {
        var result: [String: String] = [:]
        let skipped = [".config/miga", ".local/share/miga", ".local/state/miga"]
        guard let walker = FileManager.default.enumerator(atPath: home.home) else { return result }
        while let relative = walker.nextObject() as? String {
            if excludingMigaFolders, skipped.contains(where: { relative == $0 || relative.hasPrefix($0 + "/") }) { continue }
            let path = home.home + "/" + relative
            var info = stat()
            lstat(path, &info)
            let mode = String(info.st_mode, radix: 8)
            switch info.st_mode & S_IFMT {
            case S_IFLNK: result[relative] = "link \(mode) " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "")
            case S_IFDIR: result[relative] = "dir \(mode)"
            default: result[relative] = "file \(mode) " + AtomicFile.sha256(AtomicFile.read(path) ?? Data())
            }
        }
        return result
    }
}

extension Fixtures {
    /// The app `chat` (a command on PATH that runs the home's fake app) and the "system" of a
    /// `DesktopSystemCase`: desktop entries under `sys/applications` (with an action, a
    /// vendor subfolder, a D-Bus one, a browser) and the distribution's default browser.
    public static func writeDesktopSystem(into home: TestHome) throws {
        // The app: a command on PATH that records its argv.
        try home.writeFile("bin/chat", mode: 0o755, "#!/bin/sh\nexec \(shellQuote(home.recorder)) \"$@\"\n")
        try home.writeFile("sys/applications/chat.desktop", """
            [Desktop Entry]
            Type=Application
            Name=Chat
            Name[de]=Plaudern
            # a comment that must survive
            Exec=chat %U
            Icon=chat
            MimeType=x-scheme-handler/chat;
            Actions=new;

            [Desktop Action new]
            Name=New window
            Exec=chat --new-window

            """)
        try home.writeFile("sys/applications/vendor/chat-beta.desktop",
                           "[Desktop Entry]\nType=Application\nName=Chat Beta\nExec=\(home.root)/bin/chat -- %u\nDBusActivatable=true\n")
        try home.writeFile("sys/applications/other.desktop", "[Desktop Entry]\nType=Application\nName=Other\nExec=other %f\n")
        try home.writeFile("sys/applications/web.desktop", """
            [Desktop Entry]
            Type=Application
            Name=Web
            Exec=\(home.recorder) --new-window %u
            MimeType=x-scheme-handler/http;x-scheme-handler/https;

            """)
        // The system-wide default browser, as a distribution sets it.
        try home.writeFile("etc/mimeapps.list", "[Default Applications]\nx-scheme-handler/https=web.desktop\n")
    }
}

/// LicenseCLITests and LicenseCommandTests: `miga-license` (built beside miga) signs with the
/// test key, which debug builds trust.
public protocol LicenseCase: HomeCase {}

extension LicenseCase {
    public var entitlement: String { home.home + "/.config/miga/entitlement.json" }
    public var seller: String { (home.binary as NSString).deletingLastPathComponent + "/miga-license" }
    public var testKey: String { TestHome.repository + "/Tests/Fixtures/license/test-signing-key" }

    /// Skips the case where the seller's tool was not built.
    public func requireTheSellersTool() throws {
        guard FileManager.default.isExecutableFile(atPath: seller) else { throw XCTSkip("miga-license not built") }
    }

    /// A licence for Ada Lovelace (L-42) signed with the test key, written to a file: its path.
    public func sign(_ extra: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let output = try home.run(seller, ["sign", "--private-key", testKey, "--licensee", "Ada Lovelace", "--license-id", "L-42"] + extra)
        XCTAssertEqual(output.status, 0, output.stderr, file: file, line: line)
        return try home.writeFile("licence-\(UUID().uuidString).json", output.stdout)
    }

    /// A trial that started 72 hours and a minute ago.
    public func endTheTrial() throws {
        try home.startTheTrial(at: Date().addingTimeInterval(-(72 * 3600 + 60)))
    }
}

extension TestHome {
    /// A trial started at `date` (now by default), as the first pause of a chosen app or site
    /// would start it: nothing else starts one.
    public func startTheTrial(at date: Date = Date()) throws {
        let stamp = EventTimestamp.format(unixMilliseconds: Int64(date.timeIntervalSince1970 * 1000), offsetMinutes: 0)
        try writeFile("home/.config/miga/entitlement.json", "{\"kind\":\"trial\",\"trial_started\":\"\(stamp.dropLast(6))Z\"}\n")
    }
}

/// StatsCLITests and StatsCommandTests: miga with TZ=UTC, on events dated relative to today.
public protocol StatsCase: HomeCase {}

extension StatsCase {
    public func miga(_ arguments: String..., extra: [String: String] = [:]) throws -> TestHome.Output {
        try home.miga(arguments, environment: home.environment(["TZ": "UTC"].merging(extra) { $1 }))
    }

    /// An exported line for an event `daysAgo` local days before today, at `hour` UTC.
    public func line(_ type: EventType, daysAgo: Int, hour: Int = 12, app: String = "chat", session: String = UUID().uuidString,
                     wait: Int? = nil) -> String {
        let today = CivilDay(unixMilliseconds: Int64(Date().timeIntervalSince1970 * 1000), offsetMinutes: 0)
        let ms = Int64(today.adding(days: -daysAgo).daysSinceEpoch) * 86_400_000 + Int64(hour) * 3_600_000
        return EventLine.jsonl(Event(timestamp: ms, utcOffsetMinutes: 0, session: session, type: type, app: app,
                                     waitMilliseconds: wait))
    }

    public func importEvents(_ lines: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let events = try home.writeFile("events.jsonl", lines.joined(separator: "\n") + "\n")
        let output = try miga("events", "import", events)
        XCTAssertEqual(output.status, 0, output.stderr, file: file, line: line)
    }
}

/// HabitsCLITests and HabitsCommandTests: today's earlier gates, imported.
public protocol HabitsCase: HomeCase {}

extension HabitsCase {
    /// Today's earlier gates of `app`, imported as a person's export would be (UTC, so the
    /// binary's local day is the test's).
    public func importToday(_ lines: [(EventType, String, Int, String?)], file: StaticString = #filePath, line: UInt = #line) throws {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        // Never across midnight: a test run at 00:00:30 counts from 00:00:00.
        let startOfDay = now - now % 86_400_000
        let text = lines.enumerated().map { index, line in
            let ts = max(startOfDay, now - Int64(line.2) * 1000)
            return "{\"ts\":\"\(EventTimestamp.format(unixMilliseconds: ts, offsetMinutes: 0))\",\"type\":\"\(line.0.rawValue)\","
                + "\"app\":\"\(line.1)\",\"session\":\"s\(index)\",\"content_id\":null,\"wait_ms\":null,\"detail\":\(line.3 ?? "null")}"
        }.joined(separator: "\n") + "\n"
        let today = try home.writeFile("today.jsonl", text)
        let imported = try home.miga(["events", "import", today], environment: nil)
        XCTAssertEqual(imported.status, 0, imported.stderr, file: file, line: line)
    }
}

/// ConfigCLITests and ConfigCommandTests: a config with a comment, a timer and an app, and an
/// app `hexchat` on PATH.
public protocol ConfigCase: HomeCase {}

extension ConfigCase {
    public var text: String {
        """
        # my settings
        timer_seconds = 25  # short
        sites = ["reddit.com", "x.com", "twitter.com", "instagram.com", "facebook.com", "tiktok.com", "youtube.com"]

        [apps.signal]
        command = "signal"
        """ + "\n"
    }

    public func writeHexchat() throws {
        try home.writeFile("bin/hexchat", mode: 0o755, "#!/bin/sh\n")
    }

    public func environment(_ extra: [String: String] = [:]) -> [String: String] {
        home.environment(["PATH": "\(home.root)/bin:/usr/bin:/bin", "XDG_DATA_DIRS": home.root + "/sys"].merging(extra) { $1 })
    }

    public func miga(_ arguments: String...) throws -> TestHome.Output {
        try home.miga(arguments, environment: environment())
    }

    public var configText: String? { try? String(contentsOfFile: home.configFile, encoding: .utf8) }
}
#endif
