import Foundation
import XCTest
@testable import MigaCore
import MigaTestSupport

/// `miga watch`'s start: which sessions it cannot watch, and its one-per-user lock (which
/// `doctor` reads).
final class WatchStartTests: XCTestCase {
    func testOnlyAWaylandSessionThatIsNotGNOMEIsUnwatchable() {
        XCTAssertNil(RoomWatch.unwatchableSession(["DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "XFCE"]))
        XCTAssertNil(RoomWatch.unwatchableSession(["DISPLAY": ":0", "XDG_SESSION_TYPE": "x11", "XDG_CURRENT_DESKTOP": "KDE"]))
        XCTAssertNil(RoomWatch.unwatchableSession(["WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "ubuntu:GNOME"]))
        XCTAssertNil(RoomWatch.unwatchableSession(["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "GNOME-Classic:GNOME"]))
        let kde = RoomWatch.unwatchableSession(["WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "KDE"])
        XCTAssertTrue(kde?.hasPrefix("this is a Wayland session (KDE)") == true, kde ?? "nil")
        let unnamed = RoomWatch.unwatchableSession(["XDG_SESSION_TYPE": "wayland"])
        XCTAssertTrue(unnamed?.hasPrefix("this is a Wayland session (unknown desktop)") == true, unnamed ?? "nil")
        let hostile = RoomWatch.unwatchableSession(["WAYLAND_DISPLAY": "w", "XDG_CURRENT_DESKTOP": "sway\u{1b}[2J"]) ?? ""
        XCTAssertFalse(hostile.contains("\u{1b}"), hostile)
    }

    func testOneWatcherHoldsTheLockAndDoctorCanSeeIt() throws {
        let (root, _, context) = try TestContext.withFakeClock(environment: ["XDG_RUNTIME_DIR": "/nonexistent-\(UUID())"])
        _ = root
        var runtime = context
        runtime.paths.runtimeDirectory = nil
        XCTAssertEqual(WatchLock.path(paths: runtime.paths), runtime.paths.stateDirectory + "/watch.lock")
        XCTAssertFalse(WatchLock.isHeld(context: runtime))
        let lock = try XCTUnwrap(try WatchLock.take(context: runtime))
        XCTAssertTrue(WatchLock.isHeld(context: runtime))
        XCTAssertNil(try WatchLock.take(context: runtime), "a second watcher finds it held")
        lock.release()
        XCTAssertFalse(WatchLock.isHeld(context: runtime))
        XCTAssertNotNil(try WatchLock.take(context: runtime))
    }
}
