import FoundationEssentials

/// Writing this machine's events into its journal in the sync folder (`SyncJournal`).
///
/// The database stays the record; the journal follows it. `sync_written` holds the id of the
/// last of this machine's events (`device IS NULL`) the journal has. A write commits its
/// events first and only marks the journal behind: the folder may be a dead network mount or
/// a stalled stick, so nothing in front of an app touches it. The events are appended after
/// the commit by `catchUpJournal`, in id order, by one process at a time (the journal's lock in
/// the state folder, never in the sync folder), outside any transaction, so a folder that
/// hangs holds up no other writer; a gate has it done by a process of its own (`miga sync
/// push`, started by `GateService.shareInBackground`). What cannot be appended now is
/// appended by a later push: the mark moves only past what reached the file.
/// Turning sync on is the same step with nothing written yet: the history goes in, once.
extension EventStore {
    /// How many events one push appends at a time.
    static let journalBatch = 500
    /// How long a push waits for another process's push to finish (that one may be stuck on
    /// a folder that hangs): then it leaves its events for a later push.
    static let journalLockPatience: UInt64 = 2_000_000_000

    /// Appends every event of this machine the journal lacks, `journalBatch` at a time;
    /// returns how many went in. Throws why the journal cannot be written (a person's own
    /// command says it; a background push leaves the events for the next).
    @discardableResult
    public func catchUpJournal() throws -> Int {
        guard let journal else { return 0 }
        return try holdingJournalLock(journal) { try appendAllPending(to: journal) }
    }

    /// Runs `work` holding the journal's lock: one process at a time writes the journal (and,
    /// for `miga sync push`, reads the folder), so however long a folder hangs, at most one
    /// process waits on it; the others give up after `journalLockPatience`.
    func holdingJournalLock<T>(_ journal: SyncJournal, _ work: () throws -> T) throws -> T {
        let lock: DirectoryLock
        do {
            try files.makeDirectories(journal.stateDirectory, mode: 0o700)
            lock = try DirectoryLock(journal.stateDirectory, patience: Self.journalLockPatience)
        } catch {
            throw SyncError.busy(journal.folder)
        }
        defer { lock.unlock() }
        return try work()
    }

    private func appendAllPending(to journal: SyncJournal) throws -> Int {
        var total = 0
        while true {
            let written = try appendPending(to: journal, limit: Self.journalBatch)
            total += written
            if written < Self.journalBatch { journalBehind = false; return total }
        }
    }

    /// This machine's events not yet in its journal.
    public func unjournaledCount() throws -> Int {
        guard let journal else { return 0 }
        let last = try journalMark(journal)
        return Int(StoredValue.integer(try db.value("SELECT count(*) FROM events WHERE id > ? AND device IS NULL", [.integer(last)])) ?? 0)
    }

    private func journalMark(_ journal: SyncJournal) throws -> Int64 {
        StoredValue.integer(try db.value("SELECT last_id FROM sync_written WHERE folder = ? AND device = ?",
                                         [.text(journal.folder), .text(journal.device)])) ?? 0
    }

    /// Under the journal's lock, outside any transaction: reads what follows the mark, appends
    /// it, then moves the mark in a short write of its own.
    private func appendPending(to journal: SyncJournal, limit: Int) throws -> Int {
        let mark = try journalMark(journal)
        var files: [String: Data] = [:]
        var order: [String] = []
        var last = mark, count = 0
        var report = StoredDataReport()
        try db.forEachRow("SELECT \(Event.storedColumns) FROM events WHERE id > ? AND device IS NULL ORDER BY id LIMIT ?",
                          [.integer(mark), .integer(Int64(limit))]) { row in
            last = max(last, StoredValue.integer(row.value(StoredColumn.id.rawValue)) ?? last)
            count += 1
            // A row no event could have (edited outside miga) is passed over, as every read does.
            guard let event = Event(stored: row, report: &report) else { return }
            let name = SyncJournal.fileName(forTimestamp: event.timestamp)
            if files[name] == nil { order.append(name) }
            files[name, default: Data()].append(contentsOf: Array((EventLine.jsonl(event) + "\n").utf8))
        }
        guard last > mark else { return 0 }
        let own = try Self.openOwnFolder(journal)
        let header = Data(journal.header(hostName: processes.hostName()).utf8)
        for name in order {
            try own.append(files[name]!, to: name, header: header)
        }
        try db.transaction(immediate: true) {
            try db.execute("""
                INSERT INTO sync_written (folder, device, last_id) VALUES (?1, ?2, ?3)
                ON CONFLICT (folder, device) DO UPDATE SET last_id = max(last_id, ?3)
                """, [.text(journal.folder), .text(journal.device), .integer(last)])
        }
        return count
    }

    /// This machine's own subfolder, made when missing, but never the shared folder itself: a
    /// folder that is not there is a sync tool not set up or a stick not plugged in, and
    /// making one would put the journal where nothing carries it. A link or another user's
    /// folder in its place is refused: nothing is written through it.
    static func openOwnFolder(_ journal: SyncJournal) throws -> SharedFolder {
        let folder: SharedFolder
        do {
            folder = try SharedFolder(opening: journal.folder)
        } catch {
            throw SyncError.folderMissing(journal.folder)
        }
        do {
            return try folder.subfolder(journal.device, creating: true, own: true)
        } catch {
            throw SyncError.notOwnFolder(journal.ownFolder, reason: "\(error)")
        }
    }
}

extension EventStore {
    /// Points `journal` at `config`'s `sync_folder` (off when it is empty); returns why the
    /// folder cannot be used, when it cannot. The id is read once per store.
    @discardableResult
    public func useSyncFolder(of config: MigaConfig, context: MigaContext) -> SyncError? {
        guard !config.syncFolder.isEmpty else {
            journal = nil
            return nil
        }
        if let journal, journal.folder == SyncFolderSetting.expanded(config.syncFolder, home: context.environment["HOME"]) { return nil }
        do {
            journal = try SyncJournal.named(config.syncFolder, paths: context.paths, environment: context.environment, files: context.files)
            return nil
        } catch {
            journal = nil
            return error as? SyncError ?? .badFolder(config.syncFolder)
        }
    }

    /// The store a command that reads events uses (`stats`, `status`, `sync status`): with
    /// sync on, every other machine's events folded in first and this machine's journal
    /// brought up to date, and anything new that could not be read said once. Without sync,
    /// nil when there is no database (reading must not make one).
    public static func openForReading(config: MigaConfig, context: MigaContext) throws -> EventStore? {
        guard !config.syncFolder.isEmpty else { return try openExisting(context: context) }
        let store = try EventStore(context: context)
        if let problem = store.useSyncFolder(of: config, context: context) {
            context.messages.say("miga: \(problem)")
            return store
        }
        store.foldEverything()
        do {
            try store.catchUpJournal()
        } catch {
            store.journalProblem = error as? SyncError ?? .notOwnFolder(store.journal?.ownFolder ?? "", reason: "\(error)")
        }
        for line in store.unsaidSyncProblems() { context.messages.say("miga: " + line) }
        return store
    }

    /// `miga sync push`, the process gates and the browser's host start so that they never
    /// touch the sync folder themselves: this machine's events appended, the other machines'
    /// files folded in (a gate's share), `sync_config`'s copy brought level. `config` was
    /// loaded without touching the folder (`ConfigInForce.load(inFrontOfApp: true)`).
    /// Everything that touches the folder happens under the journal's lock, so a folder that
    /// hangs holds one such process at most (the rest give up); it is ended by SIGALRM after
    /// `backgroundLimit` seconds where the kernel lets a wait end, and what it did not do is
    /// left for the next miga process.
    public static func pushInBackground(config: MigaConfig, context: MigaContext) throws {
        context.signals.endAfter(seconds: backgroundLimit)
        // Behind whatever the person is doing: a gate starting meanwhile gets the processor first.
        context.processes.yieldProcessor()
        try push(config: config, context: context)
    }

    /// What `miga sync push` does, bounded by nothing: for a process that may wait.
    public static func push(config: MigaConfig, context: MigaContext) throws {
        guard !config.syncFolder.isEmpty else { return }
        let store = try EventStore(context: context)
        guard store.useSyncFolder(of: config, context: context) == nil, let journal = store.journal else { return }
        try store.holdingJournalLock(journal) {
            // This machine's events first: they are what only this machine can give the others.
            _ = try? store.appendAllPending(to: journal)
            store.foldJournals(budget: gateFoldBudget)
            if config.syncConfig { _ = ConfigSync.reconcile(folder: journal.folder, context: context) }
        }
    }

    static let backgroundLimit: UInt32 = 60

    /// Folds until nothing whole is left to read (a person's own command may take the time).
    public func foldEverything() {
        var last = FoldResult(events: -1, unread: -1)
        for _ in 0..<64 {
            let result = foldJournals()
            if result.unread == 0 || result == last { return }
            last = result
        }
    }
}

extension EventStore {
    /// One machine's part of the history, as this database holds it.
    public struct MachineHistory: Equatable, Sendable {
        /// nil: this machine.
        public var device: String?
        /// The name its journal gives (its host name), when it gives one.
        public var host: String?
        public var events = 0
        /// Its latest event (Unix ms), when it has any.
        public var lastEvent: Int64?
    }

    /// Every machine with events here, this one first, then by id; for `sync status` and
    /// `stats --by-machine`. A walk of every event: only for those commands.
    public func machineHistories() throws -> [MachineHistory] {
        var machines: [MachineHistory] = []
        try db.forEachRow("SELECT device, count(*), max(ts) FROM events GROUP BY device ORDER BY device IS NOT NULL, device") { row in
            let device = StoredValue.text(row.value(0))
            machines.append(MachineHistory(device: device, events: Int(StoredValue.integer(row.value(1)) ?? 0),
                                           lastEvent: StoredValue.integer(row.value(2))))
        }
        if journal != nil {
            let hosts = try machineHosts()
            for index in machines.indices { machines[index].host = machines[index].device.flatMap { hosts[$0] } }
            // Machines whose files are in the folder but gave no event yet.
            for device in hosts.keys.sorted() where !machines.contains(where: { $0.device == device }) {
                machines.append(MachineHistory(device: device, host: hosts[device]))
            }
        }
        return machines
    }

    /// The names the other machines' journals give (their host names), by machine id.
    public func machineHosts() throws -> [String: String] {
        guard let journal else { return [:] }
        var hosts: [String: String] = [:]
        try db.forEachRow("SELECT device, max(host) FROM sync_read WHERE folder = ? AND host IS NOT NULL GROUP BY device", [.text(journal.folder)]) { row in
            if let device = StoredValue.text(row.value(0)), let host = StoredValue.text(row.value(1)) { hosts[device] = host }
        }
        return hosts
    }

    /// What could not be read from the sync folder, and why: `sync status`'s "skipped".
    public func syncProblems() throws -> [(file: String, problem: String)] {
        guard let journal else { return [] }
        var problems: [(String, String)] = []
        try db.forEachRow("SELECT file, problem FROM sync_read WHERE folder = ? AND problem IS NOT NULL ORDER BY file", [.text(journal.folder)]) { row in
            guard let file = StoredValue.text(row.value(0)), let problem = StoredValue.text(row.value(1)) else { return }
            problems.append((file == Self.folderRow ? journal.folder : journal.folder + "/" + file, problem))
        }
        return problems
    }

    /// Counts per machine and type for local days `from...to` (optionally one app): `stats --by-machine`.
    public func machineCounts(from: CivilDay, to: CivilDay, app: String?) throws -> [(device: String?, type: String, count: Int)] {
        let margin: Int64 = 14 * 3_600_000 + 60_000
        var sql = """
            SELECT device, type, count(*) FROM events WHERE ts BETWEEN ? AND ? AND utc_offset_min BETWEEN -1080 AND 1080
                AND (ts + utc_offset_min * 60000) / 86400000 BETWEEN ? AND ?
            """
        var arguments: [SQLiteValue] = [.integer(Int64(from.daysSinceEpoch) * 86_400_000 - margin),
                                        .integer(Int64(to.daysSinceEpoch + 1) * 86_400_000 + margin),
                                        .integer(Int64(from.daysSinceEpoch)), .integer(Int64(to.daysSinceEpoch))]
        if let app {
            sql += " AND app = ?"
            arguments.append(.text(app))
        }
        sql += " GROUP BY device, type"
        var counts: [(String?, String, Int)] = []
        try db.forEachRow(sql, arguments) { row in
            guard let type = StoredValue.text(row.value(1)), let count = StoredValue.integer(row.value(2)) else { return }
            counts.append((StoredValue.text(row.value(0)), type, Int(count)))
        }
        return counts
    }
}

extension EventStore {
    /// `data delete` with sync on: this machine's journal files go too (it is their only
    /// writer), so its history does not come back to it or reach another machine anew.
    /// Returns how many files were removed.
    public func removeOwnJournal() -> Int {
        guard let journal, let folder = try? SharedFolder(opening: journal.folder),
              let own = try? folder.subfolder(journal.device, own: true) else { return 0 }
        let names = own.names(lookingAt: 100_000, where: SyncJournal.isJournalFileName).names
        let removed = names.filter { own.remove($0) }.count
        folder.removeSubfolder(journal.device)
        return removed
    }
}

extension EventStore {
    /// `config set sync_folder …` (or `sync_config`): turning sync on writes this machine's
    /// history into the folder at once (making the folder, as the person asked for it) and
    /// folds in what the other machines wrote; turning it off writes nothing more and leaves
    /// the folder as it is. Returns what to tell the person.
    public static func shareHistory(config: MigaConfig, context: MigaContext) throws -> [String] {
        guard !config.syncFolder.isEmpty else {
            return ["Sync is off: this machine keeps its events to itself from now on; the folder is left as it is."]
        }
        guard let folder = SyncFolderSetting.expanded(config.syncFolder, home: context.environment["HOME"]) else {
            throw SyncError.badFolder(config.syncFolder)
        }
        do {
            try context.files.makeDirectories(folder, mode: 0o700)
        } catch {
            throw SyncError.folderMissing(folder)
        }
        let store = try EventStore(context: context, lockWait: .patient)
        if let problem = store.useSyncFolder(of: config, context: context) { throw problem }
        guard let journal = store.journal else { return [] }
        let written = try store.catchUpJournal()
        store.foldEverything()
        var lines = ["This machine is \(journal.device): \(written) event\(written == 1 ? "" : "s") written to \(journal.ownFolder)."]
        let others = try store.machineHistories().filter { $0.device != nil }
        if !others.isEmpty {
            let events = others.map(\.events).reduce(0, +)
            lines.append("Other machines: \(others.count), with \(events) event\(events == 1 ? "" : "s") here now.")
        }
        if let inside = databaseInside(folder: folder, paths: context.paths, files: context.files) { lines.append("warning: " + inside) }
        lines += store.unsaidSyncProblems()
        if config.syncConfig {
            switch ConfigSync.reconcile(folder: folder, context: context) {
            case .shared: lines.append("config.toml is shared through the folder now.")
            case .took: lines.append("config.toml was taken from the folder (it was newer there).")
            case .refused(let why), .failed(let why): lines.append("config.toml not shared: \(why)")
            case .same: break
            }
        }
        return lines
    }

    /// Says so when miga's database lies inside the sync folder: a sync tool copies SQLite's
    /// files while they are written, and a copy made so is a damaged database.
    /// The machine's id too: a folder that carries it gives every machine one id, and then
    /// two writers to one file.
    public static func databaseInside(folder: String, paths: MigaPaths, files: any FileService = SystemFiles()) -> String? {
        let shared = files.realPath(folder) ?? folder
        func inside(_ path: String) -> Bool {
            let real = files.realPath(path) ?? path
            return real == shared || real.hasPrefix(shared + "/")
        }
        if inside(paths.dataDirectory) {
            return "miga's database (\(paths.database)) is inside the sync folder \(folder), where a sync tool can copy it half-written; "
                + "point XDG_DATA_HOME elsewhere, or choose another sync_folder"
        }
        if inside(paths.stateDirectory) {
            return "miga's state folder (\(paths.stateDirectory)), which holds this machine's id, is inside the sync folder \(folder): "
                + "every machine would write as one; point XDG_STATE_HOME elsewhere, or choose another sync_folder"
        }
        return nil
    }
}
