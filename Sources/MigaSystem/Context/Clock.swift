import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Time, injected so that tests can run a 45-second countdown in no time at all.
public protocol MigaClock: Sendable {
    /// Wall-clock time, for event timestamps and grace periods.
    func now() -> Date
    /// Monotonic nanoseconds, for the countdown: immune to NTP steps and manual clock changes.
    func monotonicNanoseconds() -> UInt64
    /// The local offset from UTC at `date`, in minutes (stored with every event).
    func utcOffsetMinutes(at date: Date) -> Int
    /// Time since this boot, time suspended included, and which boot: a witness that time has
    /// passed which no step of the wall clock moves (NTP, `date -s`, faketime). nil: unknown.
    func sinceBoot() -> BootTime?
}

/// A reading of the time since boot.
public struct BootTime: Equatable, Sendable {
    /// The boot's identity (`/proc/sys/kernel/random/boot_id`).
    public var boot: String
    public var milliseconds: Int64

    public init(boot: String, milliseconds: Int64) {
        self.boot = boot
        self.milliseconds = milliseconds
    }
}

extension MigaClock {
    public func sinceBoot() -> BootTime? { nil }
}

public struct SystemClock: MigaClock {
    public init() {}

    public func now() -> Date { Date() }

    public func monotonicNanoseconds() -> UInt64 { LinuxSystem.monotonicNanoseconds() }

    public func utcOffsetMinutes(at date: Date) -> Int {
        LinuxSystem.utcOffsetSeconds(at: date.timeIntervalSince1970) / 60
    }

    /// Read from /proc rather than `clock_gettime`, which a preloaded faketime moves with
    /// the wall clock; the kernel's files it cannot.
    public func sinceBoot() -> BootTime? {
        guard let id = Self.small("/proc/sys/kernel/random/boot_id")?.split(separator: "\n").first, !id.isEmpty,
              let uptime = Self.small("/proc/uptime")?.split(separator: " ").first, let seconds = Double(uptime),
              seconds.isFinite, seconds >= 0, seconds < 1e12 else { return nil }
        return BootTime(boot: String(id), milliseconds: Int64(seconds * 1000))
    }

    /// A /proc file's first few bytes (its size reads as 0, so it is read, not stat'ed).
    private static func small(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, 128) }
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }
}
