#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLinuxShims
import FoundationEssentials

/// Says when a process group may have ended, without looking every few seconds: a pidfd for
/// each of its processes (readable once that process ends), taken afresh from /proc when one
/// of them ends. A wake-up says "look again" (`AppProcessGroup.isStillTheApp` decides).
///
/// `descriptors` is empty when the group cannot be watched so (no pidfd_open: a kernel
/// before 5.3, or a process that could not be opened); the caller then looks on a timer.
public final class ProcessGroupWatch {
    /// At most this many of the group's processes are watched; a bigger group is looked at on
    /// a timer (an app's group is a handful).
    static let processLimit = 64
    public let group: Int32
    public private(set) var descriptors: [Int32] = []
    /// Whether the group's processes are all watched (else the caller keeps a timer).
    public private(set) var watching = false

    public init(group: Int32) {
        self.group = group
        rearm()
    }

    deinit { closeAll() }

    /// After a wake-up on one of `descriptors`: the group's processes watched as they are now.
    public func rearm() {
        closeAll()
        let members = LinuxSystem.processGroupMembers(group, limit: Self.processLimit + 1)
        guard members.count <= Self.processLimit else { return }
        for pid in members {
            let descriptor = miga_pidfd_open(pid)
            // A process that ended in between is no loss; any other failure means no watch.
            if descriptor < 0 {
                if errno == ESRCH { continue }
                closeAll()
                return
            }
            descriptors.append(descriptor)
        }
        watching = true
    }

    private func closeAll() {
        descriptors.forEach { close($0) }
        descriptors = []
        watching = false
    }
}

extension LinuxSystem {
    /// The processes of group `group` that have not ended (zombies left out), at most `limit`.
    public static func processGroupMembers(_ group: Int32, limit: Int) -> [Int32] {
        guard group > 1 else { return [] }
        return processGroupScan(group, limit: limit) ?? []
    }

    /// The group's live processes from /proc, at most `limit`; nil when /proc cannot be listed.
    /// A zombie has ended: it only waits for a parent that may never reap it (the gate that
    /// started it is long gone, and a container's init may not).
    static func processGroupScan(_ group: Int32, limit: Int) -> [Int32]? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
        var members: [Int32] = []
        for entry in entries where entry.first?.isNumber == true {
            guard let pid = Int32(entry),
                  let data = FileManager.default.contents(atPath: "/proc/\(entry)/stat"),
                  let close = data.lastIndex(of: UInt8(ascii: ")")) else { continue }
            // "pid (comm) state ppid pgrp …": comm may hold anything but ends at the last ')'.
            let fields = data[(close + 1)...].split(separator: UInt8(ascii: " "))
            guard fields.count > 3, fields[0].first != UInt8(ascii: "Z"),
                  Int32(String(decoding: fields[2], as: UTF8.self)) == group else { continue }
            members.append(pid)
            if members.count >= limit { break }
        }
        return members
    }
}
