#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import FoundationEssentials

/// The process group of an app miga started detached (`miga timebox-watch` closes it), known
/// by its number *and* its leader's start time. A number alone is not the app: once every
/// process of the group has ended the kernel hands the number out again, and a signal to it
/// would reach whatever took it. While any process of the group lives the number cannot be
/// reused (the group holds it), so the group is still the app's exactly when it is alive and
/// no other process than its first leader bears its number.
public struct AppProcessGroup: Sendable, Equatable {
    public let group: Int32
    /// The leader's start, in clock ticks after boot (`/proc/PID/stat` field 22), when it was
    /// first seen; nil when the leader had already ended then (a launcher that started the
    /// app and left): any process bearing the number later is then a stranger.
    public let leaderStart: UInt64?

    public init(group: Int32, leaderStart: UInt64?) {
        self.group = group
        self.leaderStart = leaderStart
    }

    /// The group `group` as it is now (its leader's start read now).
    public static func now(_ group: Int32) -> AppProcessGroup {
        AppProcessGroup(group: group, leaderStart: LinuxSystem.processStartTime(group))
    }

    /// Whether the group is still there and still the app's.
    public var isStillTheApp: Bool {
        guard LinuxSystem.processGroupAlive(group) else { return false }
        let start = LinuxSystem.processStartTime(group)
        // No process with the number: its leader ended, and the group's other processes hold
        // the number, so it is the app's still.
        return start == nil || start == leaderStart
    }

    /// SIGTERM to every process of the group, only while it is still the app's; false when it
    /// is not (nothing is sent) or the signal could not be sent.
    @discardableResult
    public func terminate() -> Bool {
        guard isStillTheApp else { return false }
        return LinuxSystem.terminateProcessGroup(group)
    }
}

extension LinuxSystem {
    /// When process `pid` started, in clock ticks after boot (`/proc/PID/stat` field 22): with
    /// the pid, it names one process for as long as the machine runs. nil when there is no
    /// such process (or a zombie's entry could not be read).
    public static func processStartTime(_ pid: Int32) -> UInt64? {
        guard pid > 0, let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat"),
              let close = data.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        // "pid (comm) state ppid …": comm may hold anything but ends at the last ')'; the
        // fields after it start at field 3, so field 22 is the 20th.
        let fields = data[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count > 19 else { return nil }
        return UInt64(String(decoding: fields[19], as: UTF8.self))
    }
}
