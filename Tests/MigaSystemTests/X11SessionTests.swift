#if canImport(Glibc)
import Glibc
#endif
import Foundation
import XCTest
@testable import MigaSystem
import CX11
import MigaTestSupport

/// `X11Session` against a real X server: Xvfb with openbox as the window manager (EWMH),
/// xterms as the windows, started by the test itself (see `XDisplay`).
final class X11SessionTests: XCTestCase {
    var home: TestHome!
    var display: XDisplay!
    var session: X11Session!

    override func setUpWithError() throws {
        try XDisplay.requireTools()
        home = try TestHome(prefix: "miga-x11-")
        display = try XDisplay(home: home)
        session = try X11Session.connect(display: display.name)
    }

    override func tearDown() {
        session = nil
        display?.stop()
    }

    /// Reads events until the window `id` is reported in front (up to 10 s); its facts.
    func focus(of window: UInt32, file: StaticString = #filePath, line: UInt = #line) throws -> WindowFacts? {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if case .focused(let facts?) = try session.next(milliseconds: 500), facts.id == String(window) { return facts }
        }
        XCTFail("window \(window) was not reported in front", file: file, line: line)
        return nil
    }

    func activate(_ window: UInt32) throws {
        XCTAssertEqual(try display.run("/usr/bin/xdotool", ["windowactivate", "--sync", String(window)]).status, 0)
    }

    /// Every event until none comes for `milliseconds`.
    func drain(milliseconds: Int32 = 500) throws -> [DesktopEvent] {
        var events: [DesktopEvent] = []
        while let event = try session.next(milliseconds: milliseconds) { events.append(event) }
        return events
    }

    func testTheWindowInFrontIsReportedWithItsApplicationIDClassAndProcess() throws {
        let one = try display.xterm(instance: "migatest", class: "MigaTest", title: "one")
        let two = try display.xterm(instance: "other", class: "Other", title: "two")
        XCTAssertEqual(try display.run("/usr/bin/xprop", ["-id", String(one.window), "-f", "_GTK_APPLICATION_ID", "8u",
                                                          "-set", "_GTK_APPLICATION_ID", "com.example.One"]).status, 0)
        try activate(one.window)
        let facts = try focus(of: one.window)
        XCTAssertEqual(facts?.applicationID, "com.example.One")
        XCTAssertEqual(facts?.wmClass, ["migatest", "MigaTest"])
        XCTAssertEqual(facts?.pid, one.process.pid, "xterm sets _NET_WM_PID to its own process")
        XCTAssertNil(facts?.desktopID)

        try activate(two.window)
        let second = try focus(of: two.window)
        XCTAssertEqual(second?.wmClass, ["other", "Other"])
        XCTAssertNil(second?.applicationID)
    }

    func testTheWindowAlreadyInFrontIsReportedFirst() throws {
        let one = try display.xterm(instance: "migatest", class: "MigaTest", title: "one")
        try activate(one.window)
        session = try X11Session.connect(display: display.name)
        XCTAssertEqual(try session.next(milliseconds: 2000), .focused(WindowFacts(id: String(one.window), wmClass: ["migatest", "MigaTest"], pid: one.process.pid)))
    }

    func testAHugeOrOddPropertyIsReadBoundedAndAnImpossiblePIDIsNone() throws {
        let one = try display.xterm(instance: "migatest", class: "MigaTest", title: "one")
        let huge = String(repeating: "é", count: 50_000)
        XCTAssertEqual(try display.run("/usr/bin/xprop", ["-id", String(one.window), "-f", "_GTK_APPLICATION_ID", "8u", "-set", "_GTK_APPLICATION_ID", huge]).status, 0)
        XCTAssertEqual(try display.run("/usr/bin/xprop", ["-id", String(one.window), "-f", "_NET_WM_PID", "32c", "-set", "_NET_WM_PID", "4294967295"]).status, 0)
        XCTAssertEqual(try display.run("/usr/bin/xprop", ["-id", String(one.window), "-f", "WM_CLASS", "8s", "-set", "WM_CLASS", "lonely"]).status, 0)
        try activate(one.window)
        let facts = try focus(of: one.window)
        let applicationID = try XCTUnwrap(facts?.applicationID)
        XCTAssertLessThanOrEqual(applicationID.utf8.count, X11Session.propertyLimit + 3, "a property is read up to its cap")
        XCTAssertTrue(applicationID.hasPrefix("éé"))
        XCTAssertNil(facts?.pid, "a pid beyond Int32 is no pid")
        XCTAssertEqual(facts?.wmClass, ["lonely"])

        // Numbers where text belongs are no text.
        let two = try display.xterm(instance: "other", class: "Other", title: "two")
        XCTAssertEqual(try display.run("/usr/bin/xprop", ["-id", String(two.window), "-f", "_GTK_APPLICATION_ID", "32c", "-set", "_GTK_APPLICATION_ID", "7"]).status, 0)
        XCTAssertEqual(try display.run("/usr/bin/xprop", ["-id", String(two.window), "-f", "WM_CLASS", "16c", "-set", "WM_CLASS", "7"]).status, 0)
        try activate(two.window)
        let numbers = try focus(of: two.window)
        XCTAssertNil(numbers?.applicationID)
        XCTAssertEqual(numbers?.wmClass, [])
    }

    func testRaiseMinimiseAndCloseDoWhatTheySay() throws {
        let one = try display.xterm(instance: "migatest", class: "MigaTest", title: "one")
        let two = try display.xterm(instance: "other", class: "Other", title: "two")
        try activate(one.window)
        _ = try focus(of: one.window)

        session.minimise(String(one.window))
        XCTAssertTrue(XDisplay.waitUntil(timeout: 10) { self.display.property("WM_STATE", of: one.window).contains("Iconic") },
                      "minimised: \(display.property("WM_STATE", of: one.window))")
        XCTAssertTrue(display.property("_NET_WM_STATE", of: one.window).contains("_NET_WM_STATE_HIDDEN"))
        guard case .focused(let after) = try session.next(milliseconds: 5000) else { return XCTFail("no focus change on minimising") }
        XCTAssertNotEqual(after?.id, String(one.window), "the minimised window is no longer in front")

        session.raise(String(one.window))
        XCTAssertTrue(XDisplay.waitUntil(timeout: 10) { self.display.activeWindow() == one.window }, "raised and focused")
        XCTAssertTrue(display.property("WM_STATE", of: one.window).contains("Normal"))
        _ = try focus(of: one.window)

        session.close(String(two.window))
        XCTAssertTrue(XDisplay.waitUntil(timeout: 10) { processEnded(two.process.pid) }, "xterm closes its window and ends when asked to close")
        XCTAssertEqual(try display.run("/usr/bin/xprop", ["-id", String(two.window), "WM_CLASS"]).status == 0, false, "the window is gone")

        // Handles that are no window are ignored, not sent.
        for nonsense in ["", "0", "-1", "abc", "99999999999"] {
            session.raise(nonsense)
            session.minimise(nonsense)
            session.close(nonsense)
        }
        XCTAssertEqual(display.activeWindow(), one.window)
    }

    func testIdlenessIsReportedOnlyWhileAskedFor() throws {
        let one = try display.xterm(instance: "migatest", class: "MigaTest", title: "one")
        try activate(one.window)
        _ = try focus(of: one.window)
        XCTAssertEqual(try display.run("/usr/bin/xdotool", ["mousemove", "10", "10"]).status, 0)

        session.watchIdle(true, idleSeconds: 1)
        let started = Date()
        XCTAssertEqual(try session.next(milliseconds: 5000), .idle(true))
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 0.5, "not idle before the threshold")

        XCTAssertEqual(try display.run("/usr/bin/xdotool", ["mousemove", "200", "200"]).status, 0)
        XCTAssertEqual(try session.next(milliseconds: 5000), .idle(false), "back within the 2 s it looks again")

        session.watchIdle(false, idleSeconds: 1)
        XCTAssertEqual(try drain(milliseconds: 3000), [], "no idleness reported once the watcher stops asking")
    }

    /// Idle with the watcher asking, the session sleeps until input (an alarm on the X
    /// server's IDLETIME counter) rather than asking the screensaver extension every 2 s, and
    /// sees the person back at once; and going idle again is seen as before.
    func testAnIdlePersonIsWaitedForNotLookedAtAndSeenBackAtOnce() throws {
        let one = try display.xterm(instance: "migatest", class: "MigaTest", title: "one")
        try activate(one.window)
        _ = try focus(of: one.window)
        XCTAssertEqual(try display.run("/usr/bin/xdotool", ["mousemove", "10", "10"]).status, 0)
        session.watchIdle(true, idleSeconds: 1)
        XCTAssertEqual(try session.next(milliseconds: 5000), .idle(true))

        let before = Self.threadWakeups()
        XCTAssertNil(try session.next(milliseconds: 4500))
        XCTAssertLessThanOrEqual(Self.threadWakeups() - before, 2, "an idle person's session woke while nothing happened (it polled?)")

        XCTAssertEqual(try display.run("/usr/bin/xdotool", ["key", "shift"]).status, 0)
        let pressed = Date()
        XCTAssertEqual(try session.next(milliseconds: 5000), .idle(false))
        XCTAssertLessThan(Date().timeIntervalSince(pressed), 0.5, "back seen at once, not at the next look")

        XCTAssertEqual(try session.next(milliseconds: 5000), .idle(true), "idle again a second later")
        XCTAssertEqual(try display.run("/usr/bin/xdotool", ["mousemove", "300", "300"]).status, 0)
        XCTAssertEqual(try session.next(milliseconds: 5000), .idle(false))
    }

    /// The alarms test comparisons: one armed after the input it waits for rings at once (no
    /// input between a look and the arming is lost), and one whose test is not met stays quiet.
    func testAnIdleAlarmArmedAfterTheFactRingsAtOnce() throws {
        let xcb = try XCTUnwrap(miga_xcb()).pointee
        var screen: Int32 = 0
        let connection = try XCTUnwrap(xcb.connect(display.name, &screen))
        defer { xcb.disconnect(connection) }
        let alarms = try XCTUnwrap(X11Session.IdleAlarms(xcb: xcb, connection: connection), "libxcb-sync and Xvfb's SYNC extension with IDLETIME")
        XCTAssertEqual(try display.run("/usr/bin/xdotool", ["mousemove", "20", "20"]).status, 0)
        usleep(300_000)

        func rings(within milliseconds: Int32) -> [UInt32] {
            var rung: [UInt32] = []
            var descriptor = pollfd(fd: xcb.get_file_descriptor(connection), events: Int16(POLLIN), revents: 0)
            let deadline = Date().addingTimeInterval(Double(milliseconds) / 1000)
            while Date() < deadline {
                _ = poll(&descriptor, 1, 50)
                while let event = xcb.poll_for_event(connection) {
                    if event.pointee.response_type & 0x7F == alarms.notifyEvent {
                        rung.append(UnsafeRawPointer(event).load(as: MigaXcbSyncAlarmNotifyEvent.self).alarm)
                    }
                    free(event)
                }
            }
            return rung
        }
        XCTAssertEqual(rings(within: 500), [], "created spent, with events off")
        XCTAssertEqual(alarms.armBack(threshold: 60_000), alarms.back)
        XCTAssertEqual(rings(within: 1000), [alarms.back], "input 0.3 s ago: back at once, once")
        XCTAssertEqual(alarms.armIdle(threshold: 60_000), alarms.becameIdle)
        XCTAssertEqual(rings(within: 1000), [], "not idle for a minute yet")
        alarms.silence(alarms.becameIdle)
        XCTAssertEqual(alarms.armIdle(threshold: 200), alarms.becameIdle)
        XCTAssertEqual(rings(within: 1000), [alarms.becameIdle], "idle for 0.2 s already: at once")
    }

    /// This thread's voluntary context switches (each sleep that ended).
    static func threadWakeups() -> Int {
        let status = (try? String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") } ?? ""
        return Int(line.split(separator: "\t").last.map(String.init) ?? "") ?? -1
    }

    func testNothingChangingCostsNothing() throws {
        let one = try display.xterm(instance: "migatest", class: "MigaTest", title: "one")
        let two = try display.xterm(instance: "other", class: "Other", title: "two")
        try activate(one.window)
        _ = try focus(of: one.window)
        _ = try drain()

        let cpuBefore = Self.threadCPUMilliseconds()
        let started = Date()
        XCTAssertNil(try session.next(milliseconds: 2000))
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 1.9)
        XCTAssertLessThan(Self.threadCPUMilliseconds() - cpuBefore, 50, "waiting is poll(2), not a loop")

        // And with no limit it waits until the front changes, however long that takes.
        let waiting = SessionBox(session)
        let done = DispatchSemaphore(value: 0)
        let result = ResultBox()
        DispatchQueue.global().async {
            result.event = try? waiting.session.next(milliseconds: nil)
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 2), .timedOut, "next(nil) returned with nothing changed: \(String(describing: result.event))")
        try activate(two.window)
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        if case .focused(let facts?) = result.event { XCTAssertEqual(facts.id, String(two.window)) } else { XCTFail("\(String(describing: result.event))") }
    }

    func testTheActivationEnvironmentCarriesTheServersTime() throws {
        let first = session.activationEnvironment()["DESKTOP_STARTUP_ID"] ?? ""
        let second = session.activationEnvironment()["DESKTOP_STARTUP_ID"] ?? ""
        XCTAssertTrue(first.hasPrefix("miga-watch-\(getpid())-1_TIME"), first)
        XCTAssertTrue(second.hasPrefix("miga-watch-\(getpid())-2_TIME"), second)
        let time = UInt32(first.split(separator: "_TIME").last ?? "") ?? 0
        XCTAssertGreaterThan(time, 0, "the X server's time, not CurrentTime")
        XCTAssertGreaterThanOrEqual(UInt32(second.split(separator: "_TIME").last ?? "") ?? 0, time)
    }

    func testNoDisplayIsOneLine() throws {
        display.stop()
        XCTAssertThrowsError(try X11Session.connect(display: "")) { error in
            XCTAssertEqual("\(error)", "no X display: DISPLAY is not set (run miga watch inside an X11 session)")
        }
        XCTAssertThrowsError(try X11Session.connect(display: display.name)) { error in
            XCTAssertEqual("\(error)", "no X display: cannot connect to \(display.name)")
        }
        var ended: Error?
        for _ in 0..<3 where ended == nil {
            do { _ = try session.next(milliseconds: 2000) } catch { ended = error }
        }
        XCTAssertEqual(ended.map { "\($0)" }, "the X display closed", "a server gone ends the session")
    }

    static func threadCPUMilliseconds() -> Int {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return spec.tv_sec * 1000 + spec.tv_nsec / 1_000_000
    }
}

private final class SessionBox: @unchecked Sendable {
    let session: X11Session
    init(_ session: X11Session) { self.session = session }
}

private final class ResultBox: @unchecked Sendable {
    var event: DesktopEvent??
}

private func processEnded(_ pid: pid_t) -> Bool {
    var status: Int32 = 0
    return waitpid(pid, &status, WNOHANG) == pid || kill(pid, 0) != 0
}
