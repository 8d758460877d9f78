import FoundationEssentials

/// `sync_config = true`: config.toml kept in the sync folder as well (`FOLDER/config.toml`), so
/// every machine gates the same apps with the same rules. Whichever copy was changed last
/// wins, whole: the other is replaced and given its time, so neither looks newer afterwards.
/// Nothing is merged. A conflict copy the sync tool makes (two machines changed it between
/// two syncs) is left for the person: `doctor` names it.
public enum ConfigSync {
    static let fileName = "config.toml"

    public enum Outcome: Equatable {
        case same
        /// This machine's copy went to the folder.
        case shared
        /// The folder's copy replaced this machine's.
        case took
        /// The folder's copy was newer but not taken: why.
        case refused(String)
        /// Neither could be read or written: why.
        case failed(String)
    }

    public static func sharedPath(folder: String) -> String { folder + "/" + fileName }

    /// Brings the two copies level; `home` expands the folder's own `sync_folder`. Fails open:
    /// whatever goes wrong leaves this machine's copy as it is.
    public static func reconcile(local: String, folder: String, home: String?) -> Outcome {
        guard FileStatus.at(folder)?.isDirectory == true else { return .failed("the sync folder \(folder) is not there") }
        let shared = sharedPath(folder: folder)
        let localFile = FileStatus.at(local), sharedFile = FileStatus.at(shared)
        let localText: Data?, sharedText: Data?
        do {
            localText = try BoundedFile.readIfPresent(local, limit: BoundedFile.configLimit)
            sharedText = try BoundedFile.readIfPresent(shared, limit: BoundedFile.configLimit)
        } catch {
            return .failed("\(error)")
        }
        if localText == sharedText { return .same }
        let localNewer: Bool
        switch (localFile, sharedFile) {
        case (_?, nil): localNewer = true
        case (nil, _?): localNewer = false
        case let (l?, s?): localNewer = (l.modified.seconds, l.modified.nanoseconds) > (s.modified.seconds, s.modified.nanoseconds)
        case (nil, nil): return .same
        }
        do {
            if localNewer, let localText, let localFile {
                try AtomicFile.write(localText, to: shared, mode: 0o600)
                LinuxSystem.setModified(shared, to: localFile.modified)
                return .shared
            }
            guard let sharedText, let sharedFile else { return .same }
            if let problem = refusal(of: sharedText, folder: folder, home: home) { return .refused(problem) }
            try ConfigLock.holding(folderOf: local) {
                try AtomicFile.write(sharedText, to: local, mode: 0o600)
                LinuxSystem.setModified(local, to: sharedFile.modified)
            }
            return .took
        } catch {
            return .failed("\(error)")
        }
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
        LinuxSystem.directoryNames(in: folder, limit: 100) { $0.hasPrefix("config.sync-conflict-") && $0.hasSuffix(".toml") }
            .sorted().map { folder + "/" + $0 }
    }
}
