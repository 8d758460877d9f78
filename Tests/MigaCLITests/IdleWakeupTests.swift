import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// How often a process woke by itself: its voluntary context switches (each sleep that
/// ended), from /proc/PID/status; -1 when it cannot be read. A process that sleeps until
/// something changes adds none while nothing does.
func voluntaryWakeups(_ pid: pid_t) -> Int {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") } ?? ""
    return Int(line.split(separator: "\t").last.map(String.init) ?? "") ?? -1
}

/// The long-lived helpers sleep until something changes (DESIGN "Performance": no polling):
/// each is left alone for a few seconds and must not wake, then changed and must see it at
/// once (bench/idle.sh counts the same over a minute).
final class IdleWakeupTests: XCTestCase {
    var home: MigaHome!

    override func setUpWithError() throws {
        home = try MigaHome()
        try home.writeConfig("timer_seconds = 15\nsites = []\n[apps.chat]\ncommand = \"true\"\n")
    }

    /// An Open "for 10 minutes" of chat, `minutesAgo` minutes ago, in session `box1`.
    func openForTenMinutes(minutesAgo: Int) throws {
        try FileManager.default.createDirectory(atPath: home.home + "/.local/share/miga", withIntermediateDirectories: true)
        _ = try EventStore(path: home.database)
        let at = Int64(Date().timeIntervalSince1970 * 1000) - Int64(minutesAgo) * 60_000
        _ = try home.sqlite("""
            INSERT INTO events (ts, utc_offset_min, session, type, app, wait_ms, detail)
            VALUES (\(at), 0, 'box1', 'open_selected', 'chat', 31000, '{"minutes":10}')
            """)
    }

    /// The timebox watch beside an app opened for 10 minutes sleeps until the notice is due:
    /// no look at the store every few seconds. It still sees, at once, the store changed (the
    /// notice due now) and the app's processes gone.
    func testTheTimeboxWatchSleepsUntilSomethingChanges() throws {
        let said = home.root + "/notified"
        try home.writeFile("notify/notify-send", mode: 0o755, "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '\(said)'\n")
        try openForTenMinutes(minutesAgo: 0)
        let app = try home.start("/bin/sleep", ["300"], ownGroup: true)
        defer { kill(-app.pid, SIGKILL); _ = app.wait() }
        let environment = home.environment(["PATH": home.root + "/notify:/usr/local/bin:/usr/bin:/bin", "DISPLAY": ":99"])
        let watch = try home.start(home.binary, ["timebox-watch", "box1", String(app.pid)], environment: environment)
        defer { kill(watch.pid, SIGKILL); _ = watch.wait() }

        // Settled (the first look done), then left alone: a look every 5 s would show twice.
        usleep(1_500_000)
        let before = voluntaryWakeups(watch.pid)
        XCTAssertGreaterThan(before, 0)
        Thread.sleep(forTimeInterval: 10.5)
        XCTAssertLessThanOrEqual(voluntaryWakeups(watch.pid) - before, 1, "an idle timebox watch should not wake up (it polled?)")

        // Nine minutes on (the store rewritten, as a clock that moved would show): the notice now.
        _ = try home.sqlite("UPDATE events SET ts = ts - \(9 * 60_000) WHERE type = 'open_selected'")
        eventually(timeout: 2, "the notice a minute before, at once") {
            ((try? String(contentsOfFile: said, encoding: .utf8)) ?? "").contains("1 minute left of your 10 in chat")
        }

        // The app ends: recorded as gone at once, and the watch leaves.
        kill(-app.pid, SIGTERM)
        try eventually(timeout: 2, "gone recorded at once") {
            try home.events().contains { $0.type == .timeboxEnded && ($0.detail ?? "").contains(#""choice":"gone""#) }
        }
        XCTAssertEqual(watch.wait().status, 0)
    }
}
