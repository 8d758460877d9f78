import FoundationEssentials

/// `sync_config = true`: config.toml kept in the sync folder as well (`FOLDER/config.toml`), so
/// every machine gates the same apps with the same rules.
///
/// The folder is someone else's disk (DESIGN "One history across a person's machines"), so:
/// - the shared copy is read and replaced through `SharedFolder`: a link there is never
///   followed, and miga's copy is put in place by renaming a new file over it, never by
///   writing through what is there;
/// - miga replaces only a copy it wrote, known by its first line
///   (`# miga sync_config DEVICE ISO-TIME`); any other file there is the person's or another
///   program's, and is left alone (sharing then waits, and says why);
/// - which copy wins is decided by what changed since the two last agreed (the agreed text's
///   hash is kept in the state folder): the one that changed wins. Only when both changed does
///   the later time win, and a time beyond now counts as now, so a copy dated in the future
///   wins once, never for ever;
/// - the copy taken is checked as a hand edit is (it must read cleanly and keep this machine
///   sharing), and `ConfigInForce` then holds back any loosening in it as for any edit.
/// Nothing is merged. A conflict copy the sync tool makes is left for the person: `doctor` names it.
public enum ConfigSync {
    static let fileName = "config.toml"
    static let headerPrefix = "# miga sync_config "
    /// In the state folder: the SHA-256 of the text both copies last agreed on.
    static let agreedFileName = "sync-config-agreed"

    public enum Outcome: Equatable {
        case same
        /// This machine's copy went to the folder.
        case shared
        /// The folder's copy replaced this machine's.
        case took
        /// The folder's copy was not taken, or this machine's not shared: why.
        case refused(String)
        /// Neither could be read or written: why.
        case failed(String)
    }

    /// Where this machine's copy lives and how it is named in the folder's copy.
    public struct Machine {
        public var configFile: String
        public var stateDirectory: String
        /// This machine's id (`SyncJournal.deviceID`), written in the shared copy's first line.
        public var device: String
        /// Expands the folder's own `sync_folder` (`~`).
        public var home: String?
        /// Unix ms.
        public var now: Int64

        public init(configFile: String, stateDirectory: String, device: String, home: String?, now: Int64) {
            (self.configFile, self.stateDirectory, self.device, self.home, self.now) = (configFile, stateDirectory, device, home, now)
        }
    }

    public static func sharedPath(folder: String) -> String { folder + "/" + fileName }

    /// The shared copy as miga wrote it: the text after its first line, and when it was written.
    struct SharedCopy: Equatable {
        var text: Data
        var written: Int64
    }

    /// The folder's copy read as miga's, or nil when its first line is not miga's.
    static func sharedCopy(_ bytes: Data) -> SharedCopy? {
        guard let end = bytes.firstIndex(of: 0x0A), end - bytes.startIndex <= 200 else { return nil }
        let line = String(decoding: bytes[bytes.startIndex..<end], as: UTF8.self)
        guard line.hasPrefix(headerPrefix) else { return nil }
        let fields = line.dropFirst(headerPrefix.count).split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count == 2, let time = EventTimestamp.parse(String(fields[1])) else { return nil }
        return SharedCopy(text: Data(bytes[(end + 1)...]), written: time.unixMilliseconds)
    }

    static func header(device: String, written: Int64) -> String {
        headerPrefix + device + " " + EventTimestamp.format(unixMilliseconds: written, offsetMinutes: 0) + "\n"
    }

    /// Brings the two copies level. Fails open: whatever goes wrong leaves this machine's copy
    /// as it is.
    public static func reconcile(folder: String, machine: Machine) -> Outcome {
        guard let shared = try? SharedFolder(opening: folder) else { return .failed("the sync folder \(folder) is not there") }
        let localText: Data?
        do {
            localText = try BoundedFile.readIfPresent(machine.configFile, limit: BoundedFile.configLimit)
        } catch {
            return .failed("\(error)")
        }
        let sharedBytes: Data?
        do {
            sharedBytes = try shared.read(fileName, from: 0, limit: BoundedFile.configLimit + 256).bytes
        } catch FileReadError.missing {
            sharedBytes = nil
        } catch {
            return .refused("\(sharedPath(folder: folder)) cannot be used (\(error)); miga leaves it alone and this machine keeps its own")
        }
        guard let sharedBytes else {
            guard let localText else { return .same }
            return share(localText, to: shared, machine: machine)
        }
        guard let copy = sharedCopy(sharedBytes) else {
            // Not miga's (another program's, the person's, an older miga's): never replaced.
            // One that holds exactly this machine's text loses nothing by becoming miga's.
            if let localText, localText == sharedBytes { return share(localText, to: shared, machine: machine) }
            return .refused("\(sharedPath(folder: folder)) was not written by miga (its first line is not \"\(headerPrefix)…\"); "
                            + "miga never replaces it: move it aside to share this machine's config.toml")
        }
        if copy.text == localText {
            agree(on: copy.text, machine: machine)
            return .same
        }
        guard let localText else { return take(copy, from: folder, machine: machine) }
        let agreed = AtomicFile.read(machine.stateDirectory + "/" + agreedFileName).map { String(decoding: $0.prefix(64), as: UTF8.self) }
        let localChanged = agreed != AtomicFile.sha256(localText)
        let sharedChanged = agreed != AtomicFile.sha256(copy.text)
        let localWins: Bool
        if localChanged != sharedChanged {
            localWins = localChanged
        } else {
            // Both changed (or nothing is known of their last agreement): the later wins, and no
            // time counts as later than now.
            let localTime = modifiedMilliseconds(machine.configFile) ?? 0
            localWins = min(localTime, machine.now) >= min(copy.written, machine.now)
        }
        return localWins ? share(localText, to: shared, machine: machine) : take(copy, from: folder, machine: machine)
    }

    private static func share(_ text: Data, to shared: SharedFolder, machine: Machine) -> Outcome {
        let written = min(modifiedMilliseconds(machine.configFile) ?? machine.now, machine.now)
        do {
            try shared.replace(fileName, with: Data(header(device: machine.device, written: written).utf8) + text, mode: 0o600)
        } catch {
            return .failed("\(error)")
        }
        agree(on: text, machine: machine)
        return .shared
    }

    private static func take(_ copy: SharedCopy, from folder: String, machine: Machine) -> Outcome {
        if let problem = refusal(of: copy.text, folder: folder, home: machine.home) { return .refused(problem) }
        do {
            try ConfigLock.holding(folderOf: machine.configFile) {
                try AtomicFile.write(copy.text, to: machine.configFile, mode: 0o600)
            }
        } catch {
            return .failed("\(error)")
        }
        agree(on: copy.text, machine: machine)
        return .took
    }

    private static func modifiedMilliseconds(_ path: String) -> Int64? {
        FileStatus.at(path).flatMap { UnixTime.date(of: $0.modified) }.flatMap { UnixTime.milliseconds($0) }
    }

    private static func agree(on text: Data, machine: Machine, files: any FileService = SystemFiles()) {
        let path = machine.stateDirectory + "/" + agreedFileName
        let hash = AtomicFile.sha256(text)
        guard AtomicFile.read(path).map({ String(decoding: $0.prefix(64), as: UTF8.self) }) != hash else { return }
        try? files.makeDirectories(machine.stateDirectory, mode: 0o700)
        try? AtomicFile.write(hash, to: path, mode: 0o600)
    }

    /// Why the folder's copy must not replace this machine's: one that does not read cleanly,
    /// or that would stop this machine sharing (another folder, or sync_config off), would
    /// cut it off from the copy that could set it right.
    static func refusal(of text: Data, folder: String, home: String?) -> String? {
        guard let string = String(validating: text, as: UTF8.self), let loaded = try? ConfigLoader().parse(string, path: "config.toml") else {
            return "the shared config.toml does not read cleanly; fix it there (this machine keeps its own)"
        }
        guard loaded.warnings.isEmpty else {
            return "the shared config.toml has problems (\(loaded.warnings[0])); fix it there (this machine keeps its own)"
        }
        guard loaded.config.syncConfig, SyncFolderSetting.expanded(loaded.config.syncFolder, home: home) == folder else {
            return "the shared config.toml would stop this machine sharing (its sync_folder or sync_config differ); this machine keeps its own"
        }
        return nil
    }

    /// Conflict copies of the shared config (`config.sync-conflict-….toml`): for `doctor`.
    public static func conflictCopies(folder: String) -> [String] {
        guard let shared = try? SharedFolder(opening: folder) else { return [] }
        return shared.names(lookingAt: 10_000) { $0.hasPrefix("config.sync-conflict-") && $0.hasSuffix(".toml") }.names
            .prefix(100).sorted().map { folder + "/" + $0 }
    }
}
