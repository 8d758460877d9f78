// Only test builds have XCTest; a release build (`make release` builds every target) compiles
// this target without it.
#if canImport(XCTest)
import Foundation
import XCTest

/// A private X display for a test: Xvfb (kept up with -noreset) and, unless asked otherwise,
/// openbox as its EWMH window manager, both started here and ended by `stop()`. The display
/// number is the first free one of `numbers` (other test runs on the machine use others).
/// Skipped with one line when Xvfb or openbox is missing, failed instead when
/// `MIGA_REQUIRE_X11=1` (CI installs them: scripts/deps.sh).
public final class XDisplay {
    public let name: String
    public let home: TestHome
    private var processes: [TestHome.Child] = []

    public static let tools = ["/usr/bin/Xvfb", "/usr/bin/openbox", "/usr/bin/xprop", "/usr/bin/xdotool", "/usr/bin/xterm"]

    /// Throws XCTSkip (or fails, under MIGA_REQUIRE_X11=1) when one of `tools` is missing.
    public static func requireTools(_ tools: [String] = XDisplay.tools, file: StaticString = #filePath, line: UInt = #line) throws {
        let missing = tools.filter { !FileManager.default.isExecutableFile(atPath: $0) }
        guard !missing.isEmpty else { return }
        let message = "\(missing.joined(separator: ", ")) missing: scripts/deps.sh installs xvfb, openbox, x11-utils, xdotool and xterm"
        if ProcessInfo.processInfo.environment["MIGA_REQUIRE_X11"] == "1" { XCTFail(message, file: file, line: line) }
        throw XCTSkip(message)
    }

    public init(home: TestHome, numbers: ClosedRange<Int> = 71...79, windowManager: Bool = true) throws {
        self.home = home
        var started: (String, TestHome.Child)?
        for number in numbers where !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock") {
            let server = try home.start("/usr/bin/Xvfb", [":\(number)", "-noreset", "-screen", "0", "1024x768x24", "-nolisten", "tcp"])
            // Ours once its lock file names it; another server's lock, or its exit, means try the next.
            let ours = Self.waitUntil(timeout: 15) {
                let lock = (try? String(contentsOfFile: "/tmp/.X\(number)-lock", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
                return lock == String(server.pid) && FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
                    || kill(server.pid, 0) != 0
            } && kill(server.pid, 0) == 0
            if ours { started = (":\(number)", server); break }
            kill(server.pid, SIGTERM)
            _ = server.wait()
        }
        guard let (display, server) = started else { throw XCTSkip("no free X display among :\(numbers.lowerBound)–:\(numbers.upperBound)") }
        name = display
        processes.append(server)
        guard Self.waitUntil(timeout: 15, { (try? self.run("/usr/bin/xprop", ["-root", "-len", "1", "RESOURCE_MANAGER"]))?.status == 0 }) else {
            stop()
            throw XCTSkip("Xvfb on \(display) did not answer")
        }
        if windowManager {
            _ = try start("/usr/bin/openbox", ["--sm-disable"])
            guard Self.waitUntil(timeout: 20, { self.rootProperty("_NET_SUPPORTING_WM_CHECK").contains("window id") }) else {
                stop()
                XCTFail("openbox did not start on \(display)")
                throw XCTSkip("no window manager")
            }
        }
    }

    deinit { stop() }

    /// The test home's environment with DISPLAY set to this display.
    public func environment(_ extra: [String: String] = [:]) -> [String: String] {
        home.environment(["DISPLAY": name, "XDG_RUNTIME_DIR": home.root].merging(extra) { $1 })
    }

    @discardableResult
    public func run(_ tool: String, _ arguments: [String]) throws -> TestHome.Output {
        try home.run(tool, arguments, environment: environment())
    }

    /// Starts a program on this display; `stop()` ends it.
    @discardableResult
    public func start(_ tool: String, _ arguments: [String], environment extra: [String: String] = [:]) throws -> TestHome.Child {
        let child = try home.start(tool, arguments, environment: environment(extra))
        processes.append(child)
        return child
    }

    /// Ends what was started here, newest first (the window manager before its server).
    public func stop() {
        for child in processes.reversed() where kill(child.pid, 0) == 0 {
            kill(child.pid, SIGTERM)
            _ = child.wait()
        }
        processes = []
    }

    /// `xprop -root NAME`'s line, "" when it failed.
    public func rootProperty(_ property: String) -> String {
        (try? run("/usr/bin/xprop", ["-root", property]))?.stdout ?? ""
    }

    /// `xprop -id WINDOW NAME`'s line, "" when it failed (the window gone).
    public func property(_ property: String, of window: UInt32) -> String {
        (try? run("/usr/bin/xprop", ["-id", String(window), property]))?.stdout ?? ""
    }

    /// The window `_NET_ACTIVE_WINDOW` names (0: none).
    public func activeWindow() -> UInt32 {
        let line = rootProperty("_NET_ACTIVE_WINDOW")
        guard let hex = line.split(separator: "#").last?.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").first,
              hex.hasPrefix("0x") else { return 0 }
        return UInt32(hex.dropFirst(2), radix: 16) ?? 0
    }

    /// An xterm with this WM_CLASS (`-name INSTANCE -class CLASS`) and title, once its window
    /// is mapped: its window id and the process.
    public func xterm(instance: String, class windowClass: String, title: String) throws -> (window: UInt32, process: TestHome.Child) {
        let process = try start("/usr/bin/xterm", ["-name", instance, "-class", windowClass, "-T", title, "-e", "sleep", "600"])
        var window: UInt32 = 0
        _ = Self.waitUntil(timeout: 20) {
            let found = (try? self.run("/usr/bin/xdotool", ["search", "--onlyvisible", "--name", "^\(title)$"]))?.stdout ?? ""
            window = found.split(separator: "\n").first.flatMap { UInt32($0) } ?? 0
            return window != 0
        }
        guard window != 0 else { throw NSError(domain: "XDisplay", code: 1, userInfo: [NSLocalizedDescriptionKey: "xterm \(title) did not show on \(name)"]) }
        return (window, process)
    }

    /// Waits up to `timeout` seconds for `condition`, looking every 50 ms.
    public static func waitUntil(timeout: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(50_000)
        }
        return condition()
    }
}
#endif
