import FoundationEssentials

/// Folding the other machines' journals (`SyncJournal`) into this database.
///
/// The files arrive by a sync tool, a copy, a stick: any of them may be half-copied, cut
/// short, replaced, duplicated as a conflict copy, written by a newer miga, or not a journal
/// at all. So each is read from where the last fold stopped (`sync_read`), only up to its last
/// whole line (the rest is a copy in progress), and every event goes in by the identity rule,
/// so reading anything twice counts nothing twice. Whatever cannot be read is kept in
/// `sync_read.problem`, said once (`unsaidSyncProblems`) and listed by `miga sync status`.
extension EventStore {
    /// Bytes one fold reads at most: another machine's long history comes in over a few
    /// launches rather than holding up one.
    public static let foldBudget = 4 << 20
    /// What a gate folds after its first frame (about 1,200 events): some milliseconds of the
    /// countdown, so a key pressed then is not kept waiting, and the gate stays within its
    /// memory target (at 512 KiB it went past 15 MiB).
    public static let gateFoldBudget = 256 << 10
    /// The last line read (up to this many bytes of it) is kept to recognise the file next
    /// time: a file rewritten rather than appended to is read again from its start. A whole
    /// line, since lines differ in their time and session and end alike.
    static let tailLength = 4096
    /// Changes when this miga learns events an older one skipped: files are then read again.
    static var readerGeneration: Int64 { Int64(EventType.allCases.count) }
    /// What one fold looks at, at most: machines, and journal files over all of them (a
    /// machine writes twelve a year).
    static let machineLimit = 100
    static let fileLimit = 2_000
    /// Folder entries one fold looks at, of any kind, whatever they are: a tenth in the
    /// folder itself, the rest in the machines' folders.
    static let entryLimit = 10_000
    /// The row in `sync_read` for problems of the folder itself.
    static let folderRow = "."

    /// What a fold did.
    public struct FoldResult: Equatable, Sendable {
        public var events = 0
        /// Journal bytes left for a later fold (over the budget, or a copy in progress).
        public var unread = 0
    }

    /// Folds what is new in the other machines' files, within `budget` bytes. Best effort:
    /// under another process's lock, or with the folder unreadable, it folds what it can and
    /// leaves the rest for the next process; the reasons are kept to be said once.
    @discardableResult
    public func foldJournals(budget: Int = foldBudget) -> FoldResult {
        guard let journal else { return FoldResult() }
        var result = FoldResult()
        guard let states = try? readStates(journal) else { return result }
        let folder = readOtherMachines(journal, states: states, budget: budget)
        result.unread = folder.reads.reduce(0) { $0 + $1.unread }
        // The record of files that are gone (conflict copies a person removed, a machine's
        // folder deleted) goes with them, so it never grows past what the folder holds.
        let gone = states.keys.filter { file in
            guard file != Self.folderRow, let device = file.split(separator: "/").first.map(String.init) else { return false }
            if let machinesListed = folder.machinesListed, !machinesListed.contains(device) { return true }
            return folder.listed[device].map { !$0.contains(file) } ?? false
        }
        // Nothing new anywhere (the usual case): no transaction, so no lock taken.
        let changed = folder.reads.filter { $0.state != states[$0.file] || !$0.events.isEmpty }
        guard !changed.isEmpty || !gone.isEmpty || folder.problem != states[Self.folderRow]?.problem else { return result }
        result.events = saveFold(changed, gone: gone, problem: folder.problem, states: states, in: journal)
        return result
    }

    /// What a fold found in the shared folder: the files it read, what it could not, and
    /// which files and machines it saw (listed whole, so a record of one not seen is gone).
    private struct FolderRead {
        var reads: [FileRead] = []
        var problem: String?
        /// Machines listed whole: their files seen.
        var listed: [String: Set<String>] = [:]
        /// Every machine, when the folder was listed whole.
        var machinesListed: Set<String>?
    }

    /// Reads what is new in the other machines' files, within `budget` bytes.
    private func readOtherMachines(_ journal: SyncJournal, states: [String: SyncReadState], budget: Int) -> FolderRead {
        var found = FolderRead()
        guard let folder = try? SharedFolder(opening: journal.folder) else {
            found.problem = FileStatus.at(journal.folder) == nil
                ? "the folder is not there or cannot be read (is the sync tool set up, the drive mounted?)"
                : "it is not a folder"
            return found
        }
        var looked = Self.entryLimit, left = budget, files = 0
        // Newest months first within each machine: what counts today arrives first. A folder
        // filled with more entries than people have machines and months is read in part
        // (the first the folder lists), and said so: entries *looked at* are bounded, not
        // the ones that match, so a million other files cost no more than a few thousand.
        let (devices, allListed, inFolder) = folder.names(lookingAt: Self.entryLimit / 10, where: SyncJournal.isDeviceID)
        looked -= inFolder
        if !allListed { found.problem = "it holds more than \(Self.entryLimit / 10) entries; only the first listed are read" }
        if allListed, devices.count <= Self.machineLimit { found.machinesListed = Set(devices) }
        machines: for device in devices.sorted().prefix(Self.machineLimit) where device != journal.device {
            // A link or a file in a machine's place is nobody's journal: nothing is followed.
            guard let machine = try? folder.subfolder(device) else { continue }
            let (names, whole, inMachine) = machine.names(lookingAt: max(0, min(looked, Self.fileLimit * 2)), where: SyncJournal.isJournalFileName)
            looked -= inMachine
            if whole { found.listed[device] = Set(names.map { device + "/" + $0 }) }
            for name in names.sorted(by: >) {
                files += 1
                guard files <= Self.fileLimit else {
                    found.problem = "it holds more than \(Self.fileLimit) journal files; only \(Self.fileLimit) are read"
                    found.listed[device] = nil
                    break machines
                }
                let file = device + "/" + name
                found.reads.append(readJournalFile(in: machine, name: name, file: file, device: device,
                                                   state: states[file] ?? SyncReadState(), budget: &left))
            }
            if !whole, found.problem == nil {
                found.problem = "it holds more than \(Self.fileLimit * 2) entries in \(device); only the first listed are read"
            }
        }
        return found
    }

    /// Saves a fold: the records of files gone, the folder's problem, then each changed file's
    /// events and place. Returns the events added. In short transactions (`foldTransaction`
    /// events each), each file's place saved with its last: a gate recording meanwhile waits
    /// for one of them at most, never for the whole fold. What a failed one left out is read
    /// again by the next fold (by the next process), and the identity rule drops what the
    /// ones before it kept.
    private func saveFold(_ changed: [FileRead], gone: [String], problem: String?, states: [String: SyncReadState],
                          in journal: SyncJournal) -> Int {
        var events = 0
        do {
            try db.transaction(immediate: true) {
                for file in gone {
                    try db.execute("DELETE FROM sync_read WHERE folder = ? AND file = ?", [.text(journal.folder), .text(file)])
                }
                try save(problem: problem, of: Self.folderRow, device: "", in: journal, previous: states[Self.folderRow])
            }
            for read in changed {
                let sorted = read.events.enumerated().sorted { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }.map(\.element)
                var added = 0, start = 0
                repeat {
                    let end = min(sorted.count, start + Self.foldTransaction)
                    try db.transaction(immediate: true) {
                        added += try insertUnlessStored(Array(sorted[start..<end]), device: read.device)
                        guard end == sorted.count else { return }
                        var state = read.state
                        state.events += Int64(added)
                        try save(state, of: read.file, device: read.device, in: journal, previous: states[read.file])
                    }
                    start = end
                } while start < sorted.count
                events += added
            }
        } catch {
            return events // the rest is left for the next process
        }
        return events
    }

    /// Events one fold transaction inserts at most (a few milliseconds of the write lock).
    static let foldTransaction = 200

    /// What one file gave this fold, and where its reading stands.
    private struct FileRead {
        var file: String
        var device: String
        var state: SyncReadState
        var events: [Event] = []
        var unread = 0
    }

    private func readJournalFile(in machine: SharedFolder, name: String, file: String, device: String, state previous: SyncReadState,
                                 budget: inout Int) -> FileRead {
        var state = previous
        var read = FileRead(file: file, device: device, state: state)
        // Unchanged since the last fold (the usual case): one lstat, nothing read.
        if previous.reader == Self.readerGeneration, previous.offset > 0, let status = machine.status(of: name),
           status.isRegularFile, status.size == previous.offset {
            return read
        }
        if state.reader != Self.readerGeneration { // an updated miga reads everything again
            state.offset = 0
            state.tail = Data()
            state.reader = Self.readerGeneration
            state.skipped = 0
        }
        let start = max(0, state.offset - state.tail.count)
        let chunk: (bytes: Data, size: Int)
        do {
            chunk = try machine.read(name, from: start, limit: max(0, budget) + (state.offset - start))
        } catch {
            state.problem = "cannot be read: \(error)"
            read.state = state
            return read
        }
        if chunk.size < state.offset || (state.offset > 0 && Data(chunk.bytes.prefix(state.offset - start)) != state.tail) {
            // Cut short or rewritten: read whole again (the identity rule drops what is known).
            state.problem = chunk.size < state.offset ? "was shorter than when last read; read again from its start"
                : "changed where it had been read; read again from its start"
            state.offset = 0
            state.tail = Data()
            return readJournalFile(in: machine, name: name, file: file, device: device, state: state, budget: &budget)
        }
        let lines = JournalLines(Data(chunk.bytes.dropFirst(state.offset - start)), atFileStart: state.offset == 0,
                                 maxLineLength: Self.maxLineLength)
        if let format = lines.newerFormat {
            state.problem = "was written by a newer miga (journal format \(format)); update miga on this machine to read it"
            read.state = state
            return read
        }
        if lines.overlong {
            // Passed over, so no later fold reads it again; lines appended after it are read.
            state.problem = "holds a line longer than \(BoundedFile.describe(Self.maxLineLength)) (not miga's); it is passed over"
            state.offset = start + chunk.bytes.count
            state.tail = Data(chunk.bytes.suffix(Self.tailLength))
            read.state = state
            return read
        }
        read.events = lines.events
        if let host = lines.host { state.host = host }
        state.skipped += lines.skipped
        let position = state.offset + lines.consumed
        budget -= lines.consumed
        if lines.consumed > 0 {
            // The last whole line taken, to recognise the file by next time.
            let taken = chunk.bytes.prefix(position - start)
            let lastLineStart = taken.dropLast().lastIndex(of: 0x0A).map { $0 + 1 } ?? taken.startIndex
            state.tail = Data(taken[lastLineStart...].suffix(Self.tailLength))
        }
        state.offset = position
        if state.skipped > 0 {
            state.problem = "\(state.skipped) line\(state.skipped == 1 ? "" : "s") could not be read (damaged, or events of a newer miga)"
        } else if state.problem?.hasPrefix("cannot be read") == true || state.problem?.hasPrefix("was written by a newer") == true {
            state.problem = nil
        }
        read.unread = chunk.size - position
        read.state = state
        return read
    }

    // MARK: the record of reading

    struct SyncReadState: Equatable {
        var host: String?
        var offset = 0
        var tail = Data()
        var reader: Int64 = 0
        var events: Int64 = 0
        var skipped = 0
        var problem: String?
    }

    private func readStates(_ journal: SyncJournal) throws -> [String: SyncReadState] {
        var states: [String: SyncReadState] = [:]
        try db.forEachRow("SELECT file, host, offset, tail, reader, events, skipped, problem FROM sync_read WHERE folder = ?", [.text(journal.folder)]) { row in
            guard let file = StoredValue.text(row.value(0)) else { return }
            var state = SyncReadState()
            state.host = StoredValue.text(row.value(1))
            state.offset = Int(clamping: max(0, StoredValue.integer(row.value(2)) ?? 0))
            if case .blob(let tail) = row.value(3) { state.tail = Data(tail) }
            state.reader = StoredValue.integer(row.value(4)) ?? 0
            state.events = StoredValue.integer(row.value(5)) ?? 0
            state.skipped = Int(clamping: StoredValue.integer(row.value(6)) ?? 0)
            state.problem = StoredValue.text(row.value(7))
            states[file] = state
        }
        return states
    }

    private func save(_ state: SyncReadState, of file: String, device: String, in journal: SyncJournal, previous: SyncReadState?) throws {
        // A problem is said once: a new one (or a changed one) is unsaid until a command says it.
        let said: Int64 = state.problem == nil || state.problem == previous?.problem ? 1 : 0
        try db.execute("""
            INSERT INTO sync_read (folder, file, device, host, offset, tail, reader, events, skipped, problem, said)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (folder, file) DO UPDATE SET host = excluded.host, offset = excluded.offset, tail = excluded.tail,
                reader = excluded.reader, events = excluded.events, skipped = excluded.skipped, problem = excluded.problem,
                said = CASE WHEN excluded.said = 1 THEN sync_read.said ELSE 0 END
            """, [.text(journal.folder), .text(file), .text(device), SQLiteValue(state.host), .integer(Int64(state.offset)),
                  .blob([UInt8](state.tail)), .integer(state.reader), .integer(state.events), .integer(Int64(state.skipped)),
                  SQLiteValue(state.problem), .integer(said)])
    }

    private func save(problem: String?, of file: String, device: String, in journal: SyncJournal, previous: SyncReadState?) throws {
        guard problem != previous?.problem else { return }
        var state = previous ?? SyncReadState()
        state.problem = problem
        try save(state, of: file, device: device, in: journal, previous: previous)
    }

    /// Problems of the sync folder not yet told to the person, each as one line; they are
    /// then marked told. For commands that speak (`stats`, `status`, `sync status`); a gate
    /// never interrupts a pause with them.
    public func unsaidSyncProblems() -> [String] {
        guard let journal else { return [] }
        var lines: [String] = []
        // Read first: the usual answer is none, and then no lock is taken.
        guard (try? db.value("SELECT EXISTS (SELECT 1 FROM sync_read WHERE folder = ? AND said = 0 AND problem IS NOT NULL)",
                             [.text(journal.folder)])) == .integer(1) else { return [] }
        do {
            try db.transaction(immediate: true) {
                try db.forEachRow("SELECT file, problem FROM sync_read WHERE folder = ? AND said = 0 AND problem IS NOT NULL ORDER BY file",
                                  [.text(journal.folder)]) { row in
                    guard let file = StoredValue.text(row.value(0)), let problem = StoredValue.text(row.value(1)) else { return }
                    lines.append(Self.describe(file: file, in: journal) + " " + problem)
                }
                try db.execute("UPDATE sync_read SET said = 1 WHERE folder = ? AND said = 0", [.text(journal.folder)])
            }
        } catch {
            return []
        }
        return lines
    }

    static func describe(file: String, in journal: SyncJournal) -> String {
        file == folderRow ? "sync folder \(journal.folder):" : "sync: \(journal.folder)/\(file)"
    }
}
