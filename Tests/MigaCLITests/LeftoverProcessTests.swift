import Foundation
import MigaTestSupport
import XCTest

/// What the suite starts, it ends: a process a test's program left running on its own (as GTK's
/// session bus under Xvfb is), with the test's HOME, is found and ended after the test.
final class LeftoverProcessTests: XCTestCase {
    func testAProcessLeftRunningInATestsHomeIsFoundAndEnded() throws {
        let home = try MigaHome()
        // Started by a shell that exits at once: the test never sees it as a child of its own.
        let output = try home.run("/bin/sh", ["-c", "setsid sleep 600 >/dev/null 2>&1 < /dev/null & echo $!"], environment: home.environment())
        let pid = try XCTUnwrap(pid_t(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), output.stdout)
        XCTAssertTrue(Self.eventually { LeftoverProcesses.of(home: home.home).contains(pid) }, "the process with the test's HOME is found")
        XCTAssertFalse(LeftoverProcesses.of(home: NSTemporaryDirectory() + "not-a-test-home").contains(pid))
        LeftoverProcesses.end(home: home.home)
        XCTAssertTrue(Self.eventually { kill(pid, 0) != 0 }, "ended")
    }

    static func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if condition() { return true }
            usleep(50_000)
        }
        return condition()
    }
}
