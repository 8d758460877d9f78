import FoundationEssentials
import JSON

/// What `miga sync status` shows: this machine's id and folder, every machine seen with its
/// events and its latest, whether this one is behind, and what could not be read.
public struct SyncReport: Sendable {
    public struct Machine: Sendable {
        public var device: String
        public var host: String?
        public var thisMachine: Bool
        public var events: Int
        public var lastWrite: Int64?
    }

    /// nil when sync is off.
    public var folder: String?
    public var device: String?
    public var machines: [Machine] = []
    /// This machine's events not yet in its journal.
    public var unwritten = 0
    /// Bytes of other machines' files not yet read (a copy in progress, or a folder that
    /// could not be read).
    public var unread = 0
    public var skipped: [(file: String, reason: String)] = []
    /// This machine's host name, beside its id in the text.
    public var hostName: String?
    /// For the times shown.
    public var offsetMinutes = 0

    public var behind: Bool { unwritten > 0 || unread > 0 }

    /// The report for `store` (folded and written as `EventStore.openForReading` leaves it).
    public static func build(store: EventStore?, device: String?, offsetMinutes: Int, processes: any ProcessService) throws -> SyncReport {
        var report = SyncReport(device: device, offsetMinutes: offsetMinutes)
        guard let store, let journal = store.journal else { return report }
        report.hostName = processes.hostName()
        report.folder = journal.folder
        report.device = journal.device
        for history in try store.machineHistories() {
            let id = history.device ?? journal.device
            if let index = report.machines.firstIndex(where: { $0.device == id }) {
                // Events of this machine's own id folded back (its database was made anew).
                report.machines[index].events += history.events
                report.machines[index].lastWrite = [report.machines[index].lastWrite, history.lastEvent].compactMap { $0 }.max()
                continue
            }
            report.machines.append(Machine(device: id, host: history.device == nil ? report.hostName : history.host,
                                           thisMachine: id == journal.device, events: history.events, lastWrite: history.lastEvent))
        }
        if !report.machines.contains(where: \.thisMachine) {
            report.machines.insert(Machine(device: journal.device, host: report.hostName, thisMachine: true, events: 0), at: 0)
        }
        report.unwritten = try store.unjournaledCount()
        report.unread = store.foldJournals(budget: 0).unread
        report.skipped = try store.syncProblems().map { ($0.file, $0.problem) }
        return report
    }

    private func time(_ milliseconds: Int64?) -> String? {
        milliseconds.map { EventTimestamp.format(unixMilliseconds: $0, offsetMinutes: offsetMinutes) }
    }

    public var json: String {
        OrderedJSON.object([
            ("device", .optional(device)),
            ("folder", .optional(folder)),
            ("machines", .array(machines.map { machine in
                .object([("device", .string(machine.device)), ("host", .optional(machine.host)),
                         ("this_machine", .bool(machine.thisMachine)), ("last_write", .optional(time(machine.lastWrite))),
                         ("events", .int(machine.events))])
            })),
            ("behind", .bool(behind)), ("unwritten", .int(unwritten)), ("unread_bytes", .int(unread)),
            ("skipped", .array(skipped.map { .object([("file", .string($0.file)), ("reason", .string($0.reason))]) })),
        ]).text
    }

    public var text: String {
        guard let folder, let device else {
            return "Sync is off: each machine keeps its own history.\n"
                + "Turn it on with a folder your sync tool shares: miga config set sync_folder ~/Sync/miga\n"
        }
        // Every name here but this machine's own may come from the folder, written by anyone:
        // shown only through the sanitiser.
        let shown = TerminalText.field
        var lines = ["This machine: \(shown(device))" + (hostName.map { " (\(shown($0)))" } ?? ""), "Folder: \(shown(folder))", "Machines:"]
        let hosts = machines.map { shown($0.host ?? "") }
        let width = hosts.map(\.count).max() ?? 0
        for (name, machine) in zip(hosts, machines) {
            let host = name + String(repeating: " ", count: max(0, width - name.count))
            let last = time(machine.lastWrite).map { "latest " + String($0.prefix(16)).replacingEvery("T", with: " ") } ?? "no events yet"
            lines.append("  \(shown(machine.device))  \(host)  \(machine.thisMachine ? "this machine" : "            ")  "
                         + "\(machine.events) event\(machine.events == 1 ? "" : "s"), \(last)")
        }
        if !behind {
            lines.append("Up to date.")
        } else {
            if unwritten > 0 { lines.append("Behind: \(unwritten) of this machine's events are not in the folder yet; they go in with the next event.") }
            if unread > 0 { lines.append("Behind: \(BoundedFile.describe(max(unread, 1024))) of other machines' journals not read yet (a copy in progress).") }
        }
        if !skipped.isEmpty {
            lines.append("Skipped:")
            lines += skipped.map { "  \(shown($0.file)): \(shown($0.reason))" }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
