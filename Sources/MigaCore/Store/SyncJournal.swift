import FoundationEssentials
import JSON

/// This machine's place in a folder the person's sync tool shares between their machines
/// (DESIGN "One history across a person's machines"):
///
///     FOLDER/DEVICE/events-2026-11.jsonl
///
/// Each machine appends its own events, as lines of `events export`, to files under its own
/// id, and nothing else ever writes there: a sync tool then never sees two writers of one
/// file, so never makes a conflict copy. Every machine folds the others' files into its own
/// database (`EventStore+JournalFold.swift`). The database itself never goes in the folder:
/// SQLite's files copied half-written by a sync tool are a damaged database.
public struct SyncJournal: Sendable, Equatable {
    /// The shared folder, absolute.
    public let folder: String
    /// This machine's id, the name of its own subfolder.
    public let device: String
    /// miga's state folder, on this machine's own disk: where the id is kept and the lock
    /// that lets one process at a time append is taken.
    public let stateDirectory: String

    public init(folder: String, device: String, stateDirectory: String) {
        self.folder = folder
        self.device = device
        self.stateDirectory = stateDirectory
    }

    /// The version of the files' layout, in each file's first line. A file of a later version
    /// is left unread (and said so) until this machine's miga is updated.
    public static let format = JournalLines.format
    /// The id's file in miga's state folder: kept there, never in the shared folder, so a
    /// copied folder never gives two machines one id.
    static let deviceFileName = "device"

    public var ownFolder: String { folder + "/" + device }

    /// The journal named by `sync_folder` (`~` expanded), with this machine's id (made on
    /// first use); nil when `sync_folder` is empty.
    public static func named(_ written: String, paths: MigaPaths, environment: [String: String],
                             files: any FileService = SystemFiles()) throws -> SyncJournal? {
        guard !written.isEmpty else { return nil }
        guard let folder = SyncFolderSetting.expanded(written, home: environment["HOME"]) else {
            throw SyncError.badFolder(written)
        }
        return SyncJournal(folder: folder, device: try deviceID(stateDirectory: paths.stateDirectory, files: files), stateDirectory: paths.stateDirectory)
    }

    /// This machine's id: 16 hex digits, random, made once. Two processes making it at the
    /// same moment agree: each writes its own whole under a temporary name and links it into
    /// place, and the one whose link fails reads the other's.
    public static func deviceID(stateDirectory: String, files: any FileService = SystemFiles()) throws -> String {
        let path = stateDirectory + "/" + deviceFileName
        if let existing = readDeviceID(path) { return existing }
        do {
            try files.makeDirectories(stateDirectory, mode: 0o700)
            var generator = SystemRandomNumberGenerator()
            let id = (0..<2).map { _ in hex(generator.next() as UInt32) }.joined()
            let temporary = try files.createUniqueFile(in: stateDirectory, prefix: ".device.miga-")
            defer { files.removeFile(temporary) }
            try AtomicFile.write(id + "\n", to: temporary, mode: 0o600)
            if files.linkIfAbsent(temporary, to: path) { return id }
            if let existing = readDeviceID(path) { return existing }
            // Something that is not an id is there (hand-edited, damaged): replaced whole.
            try AtomicFile.write(id + "\n", to: path, mode: 0o600)
            return id
        } catch {
            throw SyncError.noDeviceID(path: path, reason: "\(error)")
        }
    }

    private static func readDeviceID(_ path: String) -> String? {
        guard let data = try? BoundedFile.readIfPresent(path, limit: 64) else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimming(.whitespacesAndNewlines)
        return isDeviceID(text) ? text : nil
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// A subfolder name that is a machine's id; anything else in the folder is not miga's.
    public static func isDeviceID(_ name: String) -> Bool {
        name.utf8.count == 16 && name.utf8.allSatisfy { ("0"..."9").contains(Character(UnicodeScalar($0))) || ("a"..."f").contains(Character(UnicodeScalar($0))) }
    }

    /// This machine's journal files as its folder holds them now (`include` on each name),
    /// read through `SharedFolder`: never through a link in the folder's place, never from
    /// another user's folder, and looking at `limit` entries at most. Empty when it is not there.
    public func ownFiles(lookingAt limit: Int = 100_000, where include: (String) -> Bool = SyncJournal.isJournalFileName) -> [String] {
        guard let shared = try? SharedFolder(opening: folder), let own = try? shared.subfolder(device, own: true) else { return [] }
        return own.names(lookingAt: limit, where: include).names
    }

    /// The file of the month (UTC) an event happened in.
    static func fileName(forTimestamp timestamp: Int64) -> String {
        let (year, month, _) = CivilDay(unixMilliseconds: timestamp, offsetMinutes: 0).components
        let clamped = min(max(year, 0), 9999)
        let yearText = String(clamped)
        return "events-" + String(repeating: "0", count: 4 - yearText.count) + yearText + "-" + (month < 10 ? "0" : "") + String(month) + ".jsonl"
    }

    /// A journal file of a machine: `events-YYYY-MM.jsonl`, or a copy a sync tool made of one
    /// (`events-2026-11.sync-conflict-20261127-101010-ABCDEFG.jsonl`), which is read too: it
    /// can only hold that machine's own events, and the identity rule drops any repeated.
    public static func isJournalFileName(_ name: String) -> Bool {
        guard name.hasPrefix("events-"), name.hasSuffix(".jsonl"), !name.contains("/") else { return false }
        let middle = name.dropFirst("events-".count).dropLast(".jsonl".count)
        let month = middle.prefix(7)
        guard month.count == 7, month.utf8.enumerated().allSatisfy({ $0.offset == 4 ? $0.element == UInt8(ascii: "-") : ($0.element >= 0x30 && $0.element <= 0x39) }) else {
            return false
        }
        let rest = middle.dropFirst(7)
        return rest.isEmpty || rest.hasPrefix(".sync-conflict-")
    }

    public static func isConflictCopy(_ name: String) -> Bool { name.contains(".sync-conflict-") }

    /// A file's first line: what wrote it, so that a later layout is recognised.
    func header(hostName: String?) -> String {
        var fields: [(String, OrderedJSON)] = [("miga_journal", .int(Self.format)), ("device", .string(device))]
        if let hostName { fields.append(("host", .string(hostName))) }
        return OrderedJSON.object(fields).text + "\n"
    }
}

extension ConfigSync {
    /// `sync_config`: this machine's config.toml and the folder's copy brought level, with this
    /// machine's id and clock. Touches the folder: never in front of an app (see `ConfigInForce`).
    public static func reconcile(folder: String, context: MigaContext) -> Outcome {
        let paths = context.paths
        do {
            let device = try SyncJournal.deviceID(stateDirectory: paths.stateDirectory, files: context.files)
            return reconcile(folder: folder, machine: Machine(configFile: paths.configFile, stateDirectory: paths.stateDirectory, device: device,
                                                              home: context.environment["HOME"], now: context.clock.nowMilliseconds()))
        } catch {
            return .failed("\(error)")
        }
    }
}

/// Why the sync folder could not be used; each says what to do.
public enum SyncError: Error, CustomStringConvertible, Equatable {
    case badFolder(String)
    case noDeviceID(path: String, reason: String)
    case folderMissing(String)
    case notOwnFolder(String, reason: String)
    case busy(String)

    public var description: String {
        switch self {
        case .badFolder(let written):
            return "sync_folder = \"\(written)\" is not an absolute path or one starting with ~/; set it with `miga config set sync_folder ~/Sync/miga`"
        case .folderMissing(let folder):
            return "the sync folder \(folder) is not there (is the sync tool set up, the drive mounted?); make it, or change sync_folder"
        case .notOwnFolder(let folder, let reason):
            return "this machine's folder \(TerminalText.excerpt(folder)) in the sync folder is not a folder of yours (\(reason)); miga writes nothing through it: move it aside, and the next miga command makes it anew"
        case .busy(let folder):
            return "another miga process is still writing to the sync folder \(TerminalText.excerpt(folder)) (is it on a drive that stopped answering?); this machine's events wait, and the next miga command writes them"
        case .noDeviceID(let path, let reason):
            return "cannot keep this machine's id in \(path) (\(reason)); check that folder's permissions"
        }
    }
}
