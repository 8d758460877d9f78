import Foundation

/// The processes still running in a test's home: everything a test starts runs with HOME set to
/// its home, and so does what those start in turn (a session bus GTK launches for a window
/// under Xvfb, the accessibility bus it activates), which a test never sees as its child.
/// After each test they are ended (`HomeSweeper`), so a run leaves nothing behind; and
/// scripts/run-suite.sh checks after the suite that nothing of any test home still runs.
public enum LeftoverProcesses {
    /// The processes other than this one whose environment has HOME=`home`.
    public static func of(home: String) -> [pid_t] {
        let wanted = Array(("HOME=" + home).utf8)
        let me = getpid()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return names.compactMap { pid_t($0) }.filter { pid in
            guard pid != me, let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return false }
            return environ.split(separator: 0).contains { $0.elementsEqual(wanted) }
        }
    }

    /// Ends them: SIGTERM, then SIGKILL for any still there after `patience` seconds.
    public static func end(home: String, patience: Double = 2) {
        var left = of(home: home)
        guard !left.isEmpty else { return }
        for pid in left { kill(pid, SIGTERM) }
        let deadline = Date().addingTimeInterval(patience)
        while !left.isEmpty, Date() < deadline {
            usleep(20_000)
            left = left.filter { isRunning($0) }
        }
        for pid in left { kill(pid, SIGKILL) }
    }

    /// Alive, and not a zombie waiting for its parent.
    static func isRunning(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0, let status = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = status.lastIndex(of: ")") else { return false }
        return status[status.index(after: close)...].trimmingCharacters(in: .whitespaces).first != "Z"
    }
}

#if canImport(XCTest)
import XCTest

/// Ends, after each test, whatever still runs in the homes made during it (`LeftoverProcesses`).
/// An observer rather than each class's tearDown: a test case object lives to the end of the
/// run, and a home's deinit with it.
final class HomeSweeper: NSObject, XCTestObservation, @unchecked Sendable {
    static let shared = HomeSweeper()
    private let lock = NSLock()
    private var homes: [String] = []
    private var observing = false

    /// Called by every TestHome as it is made.
    static func sweepAfterThisTest(_ home: String) {
        shared.lock.lock()
        defer { shared.lock.unlock() }
        shared.homes.append(home)
        guard !shared.observing else { return }
        shared.observing = true
        XCTestObservationCenter.shared.addTestObserver(shared)
    }

    func testCaseDidFinish(_ testCase: XCTestCase) {
        lock.lock()
        let finished = homes
        homes = []
        lock.unlock()
        for home in finished { LeftoverProcesses.end(home: home) }
    }
}
#endif
