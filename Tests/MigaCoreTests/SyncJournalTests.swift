import XCTest
@testable import MigaCore
import MigaTestSupport

/// The journal and the fold (`SyncJournal`, `EventStore+Journal`, `EventStore+JournalFold`):
/// two machines as two databases beside one shared folder, and files as a sync tool, a
/// crash or a person can leave them.
final class SyncJournalTests: XCTestCase {
    private var folder: TemporaryDirectory!
    private var shared: String { folder.path + "/Sync/miga" }
    private let laptop = "aaaaaaaaaaaaaaaa", desktop = "bbbbbbbbbbbbbbbb"
    private let day: Int64 = 1_795_000_000_000 // 2026-11-18, a weekday

    override func setUpWithError() throws {
        folder = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
    }

    private func machine(_ device: String) throws -> EventStore {
        let store = try EventStore(path: folder.path + "/\(device)/miga.sqlite3")
        store.journal = SyncJournal(folder: shared, device: device, stateDirectory: folder.path + "/\(device)/state")
        return store
    }

    /// A write as a gate makes it: committed, then pushed to the journal (which a gate has
    /// `miga sync push` do after the commit).
    private func write(_ store: EventStore, _ events: [Event]) throws {
        try store.record(events)
        XCTAssertTrue(store.journal == nil || store.journalBehind, "a write marks the journal behind")
        if store.journal != nil { _ = try? store.catchUpJournal() }
    }

    private func write(_ store: EventStore, _ event: Event) throws { try write(store, [event]) }

    private func event(_ type: EventType = .exitSelected, at timestamp: Int64, session: String = UUID().uuidString,
                       app: String = "discord", offset: Int = 60) -> Event {
        Event(timestamp: timestamp, utcOffsetMinutes: offset, session: session, type: type, app: app, waitMilliseconds: 15_000)
    }

    private func journal(of device: String, month: String = "2026-11") -> String { shared + "/\(device)/events-\(month).jsonl" }

    private func lines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    private func identities(_ store: EventStore) throws -> [String] {
        try store.allEvents().map { "\($0.timestamp) \($0.session) \($0.type.rawValue) \($0.app)" }.sorted()
    }

    private func append(_ text: String, to path: String) throws {
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(text.utf8))
        handle.closeFile()
    }

    func testTwoMachinesFoldEachOthersEventsOnceAndWriteOnlyTheirOwn() throws {
        let a = try machine(laptop), b = try machine(desktop)
        try write(a, [event(.sessionStart, at: day, session: "s1"), event(at: day + 20_000, session: "s1")])
        try write(b, event(.openSelected, at: day + 60_000))
        XCTAssertEqual(a.foldJournals().events, 1)
        XCTAssertEqual(b.foldJournals().events, 2)
        XCTAssertEqual(try identities(a), try identities(b), "one history on both")
        XCTAssertEqual(a.foldJournals(), EventStore.FoldResult(), "nothing new: nothing read")
        // A write after the fold appends only the machine's own events: never what it folded.
        try write(a, event(at: day + 120_000))
        XCTAssertEqual(try lines(journal(of: laptop)).filter { $0.contains("\"ts\"") }.count, 3)
        XCTAssertEqual(try lines(journal(of: desktop)).filter { $0.contains("\"ts\"") }.count, 1)
        XCTAssertEqual(b.foldJournals().events, 1)
        XCTAssertEqual(try identities(a), try identities(b))
        XCTAssertEqual(try b.machineHistories().map(\.device), [nil, laptop])
        XCTAssertEqual(try b.machineHistories().map(\.events), [1, 3])
        XCTAssertEqual(try b.machineHistories().last?.host, LinuxSystem.hostName(), "the journal's header names its machine")
        // The journal begins with its header, then lines `events import` reads.
        let first = try XCTUnwrap(try lines(journal(of: laptop)).first)
        XCTAssertTrue(first.hasPrefix("{\"miga_journal\":1,\"device\":\"\(laptop)\""), first)
        XCTAssertNoThrow(try EventLine.parse(Data(try lines(journal(of: laptop))[1].utf8)))
    }

    func testGraceAndTimeboxesStayWithTheMachineThatOpened() throws {
        let a = try machine(laptop), b = try machine(desktop)
        try write(b, Event(timestamp: day, utcOffsetMinutes: 0, session: "o", type: .openSelected, app: "discord",
                           waitMilliseconds: 30_000, detail: "{\"minutes\":20}"))
        a.foldJournals()
        XCTAssertNil(try a.lastOpen(app: "discord"), "an Open on the desktop is no grace on the laptop")
        XCTAssertEqual(try a.timeboxes(since: day - 1), [])
        XCTAssertEqual(try a.timeboxes(since: day - 1, everyMachine: true).map(\.session), ["o"], "the week counts it")
        XCTAssertEqual(try a.history(app: "discord", on: CivilDay(unixMilliseconds: day, offsetMinutes: 0)).opensToday, 1,
                       "but \"Nth time today\" counts every machine")
    }

    /// Another machine's journal may name any session, this machine's included: a "5 more
    /// minutes", a Close or the steps of a gate from there never change a grace, a timebox
    /// or a gate the browser's host resumes here.
    func testAnotherMachinesEventsNamingThisMachinesSessionDecideNothingHere() throws {
        let a = try machine(laptop), b = try machine(desktop)
        try write(a, Event(timestamp: day, utcOffsetMinutes: 0, session: "mine", type: .openSelected, app: "discord",
                           waitMilliseconds: 30_000, detail: "{\"minutes\":20}"))
        try write(a, Event(timestamp: day + 60_000, utcOffsetMinutes: 0, session: "gate", type: .sessionStart, app: "reddit"))
        try write(b, Event(timestamp: day + 600_000, utcOffsetMinutes: 0, session: "mine", type: .timeboxEnded, app: "discord",
                           detail: "{\"minutes\":20,\"choice\":\"extend\",\"used\":10}"))
        try write(b, Event(timestamp: day + 120_000, utcOffsetMinutes: 0, session: "theirs", type: .sessionStart, app: "reddit"))
        try write(b, Event(timestamp: day + 130_000, utcOffsetMinutes: 0, session: "gate", type: .exitSelected, app: "reddit"))
        a.foldJournals()
        XCTAssertNil(try a.extensionTime(session: "mine", openedAt: day), "another machine's extension extends nothing here")
        XCTAssertEqual(try a.timeboxes(since: day - 1).map(\.extended), [false])
        XCTAssertEqual(try a.timeboxes(since: day - 1, everyMachine: true).map(\.extended), [true], "the week still sees it")
        let steps = try a.sessionSteps("gate", app: "reddit", from: day, to: day + 200_000)
        XCTAssertEqual(steps.map(\.type), [.sessionStart], "another machine's Exit does not end a gate of this one")
        XCTAssertEqual(try a.sessionSteps("theirs", app: "reddit", from: day, to: day + 200_000).count, 0,
                       "nor is a gate begun there one to resume here")
    }

    func testATornLastLineWaitsForTheRestOfIt() throws {
        let a = try machine(laptop), b = try machine(desktop)
        try write(b, event(at: day, session: "whole"))
        let line = EventLine.jsonl(event(at: day + 1_000, session: "torn")) + "\n"
        let cut = line.index(line.startIndex, offsetBy: 40)
        try append(String(line[..<cut]), to: journal(of: desktop)) // a sync in progress
        let first = a.foldJournals()
        XCTAssertEqual(first.events, 1)
        XCTAssertEqual(first.unread, 40, "the torn line is left for later")
        XCTAssertEqual(a.unsaidSyncProblems(), [], "a copy in progress is not a problem")
        try append(String(line[cut...]), to: journal(of: desktop))
        XCTAssertEqual(a.foldJournals().events, 1)
        XCTAssertEqual(try a.allEvents().map(\.session).sorted(), ["torn", "whole"])
    }

    func testAWriterThatStoppedMidLineSpoilsOnlyThatLine() throws {
        let a = try machine(laptop), b = try machine(desktop)
        try write(b, event(at: day, session: "before"))
        try append("{\"ts\":\"2026-11-18T", to: journal(of: desktop)) // then the disk filled
        try write(b, event(at: day + 5_000, session: "after"))
        XCTAssertTrue(try lines(journal(of: desktop))[2].hasSuffix("T"), "the torn line was ended, not joined")
        XCTAssertEqual(a.foldJournals().events, 2)
        XCTAssertEqual(a.unsaidSyncProblems(), ["sync: \(shared)/\(desktop)/events-2026-11.jsonl 1 line could not be read (damaged, or events of a newer miga)"])
        XCTAssertEqual(a.unsaidSyncProblems(), [], "said once")
        XCTAssertEqual(try a.syncProblems().count, 1, "and still listed by sync status")
    }

    func testAFileThatShrankOrChangedIsReadAgainWithoutCountingTwice() throws {
        let a = try machine(laptop), b = try machine(desktop)
        try write(b, (0..<5).map { event(at: day + Int64($0) * 1_000, session: "s\($0)") })
        XCTAssertEqual(a.foldJournals().events, 5)
        // Cut back to the header and two events (a restore from an older copy).
        let kept = try lines(journal(of: desktop)).prefix(3).joined(separator: "\n") + "\n"
        try kept.write(toFile: journal(of: desktop), atomically: true, encoding: .utf8)
        XCTAssertEqual(a.foldJournals().events, 0)
        XCTAssertEqual(a.unsaidSyncProblems(), ["sync: \(shared)/\(desktop)/events-2026-11.jsonl was shorter than when last read; read again from its start"])
        // Replaced by a longer file that differs where it was read: read again, new events only.
        let other = try lines(journal(of: desktop)).prefix(1).joined() + "\n"
            + (0..<8).map { EventLine.jsonl(event(at: day + Int64($0) * 1_000, session: "s\($0)", offset: 0)) + "\n" }.joined()
        try other.write(toFile: journal(of: desktop), atomically: true, encoding: .utf8)
        XCTAssertEqual(a.foldJournals().events, 3, "s0–s4 are known by their identity (time, session, type, app)")
        XCTAssertEqual(a.unsaidSyncProblems().count, 1, "\((try? a.syncProblems()).map { "\($0)" } ?? "")")
        let before = try a.allEvents().count
        XCTAssertEqual(a.foldJournals().events, 0)
        XCTAssertEqual(try a.allEvents().count, before)
    }

    func testAConflictCopyIsReadAndNothingInItCountsTwice() throws {
        let a = try machine(laptop), b = try machine(desktop)
        try write(b, [event(at: day, session: "one"), event(at: day + 1_000, session: "two")])
        let copy = shared + "/\(desktop)/events-2026-11.sync-conflict-20261127-101010-ABCDEFG.jsonl"
        try (try String(contentsOfFile: journal(of: desktop), encoding: .utf8) + EventLine.jsonl(event(at: day + 2_000, session: "three")) + "\n")
            .write(toFile: copy, atomically: true, encoding: .utf8)
        try "not a journal".write(toFile: shared + "/\(desktop)/notes.txt", atomically: true, encoding: .utf8)
        XCTAssertEqual(a.foldJournals().events, 3)
        XCTAssertEqual(try a.allEvents().map(\.session).sorted(), ["one", "three", "two"])
    }

    func testAJournalOfANewerMigaWaitsForAnUpdateAndIsSaidOnce() throws {
        let a = try machine(laptop)
        try FileManager.default.createDirectory(atPath: shared + "/\(desktop)", withIntermediateDirectories: true)
        try ("{\"miga_journal\":2,\"device\":\"\(desktop)\"}\n" + EventLine.jsonl(event(at: day)) + "\n")
            .write(toFile: journal(of: desktop), atomically: true, encoding: .utf8)
        XCTAssertEqual(a.foldJournals().events, 0)
        XCTAssertEqual(a.unsaidSyncProblems(), ["sync: \(shared)/\(desktop)/events-2026-11.jsonl was written by a newer miga (journal format 2); update miga on this machine to read it"])
        XCTAssertEqual(a.foldJournals().events, 0)
        XCTAssertEqual(a.unsaidSyncProblems(), [])
        XCTAssertEqual(try a.allEvents(), [])
    }

    func testMachinesWhoseClocksDifferStillShareOneDay() throws {
        let a = try machine(laptop), b = try machine(desktop)
        let today = CivilDay(unixMilliseconds: day, offsetMinutes: 60)
        // The desktop's clock runs 2 h ahead, in another zone; one of its events is dated in 9999.
        try write(b, [event(at: day + 2 * 3_600_000, offset: -300), event(at: EventBounds.timestamps.upperBound - 1, session: "far", offset: -60)])
        try write(a, event(at: day))
        a.foldJournals()
        XCTAssertEqual(try a.allEvents().count, 3)
        XCTAssertTrue(FileManager.default.fileExists(atPath: journal(of: desktop, month: "9999-12")), "a far date gets its month's file")
        let report = try StatsReport.build(store: a, today: today, days: 1)
        XCTAssertEqual(report.exits, 1 + (CivilDay(unixMilliseconds: day + 2 * 3_600_000, offsetMinutes: -300) == today ? 1 : 0))
        XCTAssertEqual(try a.exitCountInWeek(endingAt: Date(timeIntervalSince1970: Double(day) / 1000)), 1,
                       "an Exit dated ahead of this machine's clock is not yet this week's")
    }

    func testTurningSyncOnWritesTheHistoryOnceAndOffStopsWriting() throws {
        let store = try EventStore(path: folder.path + "/solo/miga.sqlite3")
        try write(store, (0..<1_200).map { event(at: day + Int64($0) * 1_000, session: "old\($0)") })
        store.journal = SyncJournal(folder: shared, device: laptop, stateDirectory: folder.path + "/solo/state")
        XCTAssertEqual(try store.unjournaledCount(), 1_200)
        try store.record(event(at: day + 2_000_000, session: "new"))
        XCTAssertEqual(try store.unjournaledCount(), 1_201, "a write appends nothing itself: the push after it does")
        XCTAssertTrue(store.journalBehind)
        XCTAssertEqual(try store.catchUpJournal(), 1_201)
        XCTAssertFalse(store.journalBehind)
        XCTAssertEqual(try lines(journal(of: laptop)).count, 1 + 1_201 + 1, "header, every event once, the last newline")
        store.journal = nil // sync_folder = ""
        try write(store, event(at: day + 3_000_000, session: "while off"))
        XCTAssertEqual(try lines(journal(of: laptop)).count, 1_203, "off: nothing written, the folder left as it is")
        store.journal = SyncJournal(folder: shared, device: laptop, stateDirectory: folder.path + "/solo/state")
        try write(store, event(at: day + 4_000_000, session: "back on"))
        let sessions = try lines(journal(of: laptop)).dropFirst().compactMap { try? EventLine.parse(Data($0.utf8)).session }
        XCTAssertEqual(sessions.count, 1_203)
        XCTAssertEqual(Set(sessions).count, 1_203, "none twice")
        XCTAssertEqual(sessions.suffix(2), ["while off", "back on"], "the database's order")
    }

    func testAFolderThatIsNotThereLosesNothingAndIsSaidOnce() throws {
        let store = try EventStore(path: folder.path + "/solo/miga.sqlite3")
        let stick = folder.path + "/media/stick/miga"
        store.journal = SyncJournal(folder: stick, device: laptop, stateDirectory: folder.path + "/solo/state")
        try write(store, event(at: day, session: "unplugged"))
        XCTAssertEqual(try store.allEvents().count, 1, "the event is kept")
        XCTAssertFalse(FileManager.default.fileExists(atPath: stick), "the folder is never made by a write")
        store.foldJournals()
        XCTAssertEqual(store.unsaidSyncProblems(), ["sync folder \(stick): the folder is not there or cannot be read (is the sync tool set up, the drive mounted?)"])
        XCTAssertEqual(store.unsaidSyncProblems(), [])
        try FileManager.default.createDirectory(atPath: stick, withIntermediateDirectories: true)
        try write(store, event(at: day + 1_000, session: "plugged"))
        let sessions = try lines(stick + "/\(laptop)/events-2026-11.jsonl").dropFirst().compactMap { try? EventLine.parse(Data($0.utf8)).session }
        XCTAssertEqual(sessions, ["unplugged", "plugged"])
        store.foldJournals()
        XCTAssertEqual(try store.syncProblems().count, 0, "the folder's problem is gone once it is there")
    }

    func testHostileFilesInTheFolderNeitherBlockNorBreakTheFold() throws {
        let a = try machine(laptop), b = try machine(desktop)
        try write(b, event(at: day, session: "real"))
        let evil = shared + "/cccccccccccccccc"
        try FileManager.default.createDirectory(atPath: evil, withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(evil + "/events-2026-11.jsonl", 0o600), 0)
        try FileManager.default.createSymbolicLink(atPath: evil + "/events-2026-10.jsonl", withDestinationPath: "/etc/passwd")
        try String(repeating: "x", count: 100_000).write(toFile: evil + "/events-2026-09.jsonl", atomically: true, encoding: .utf8)
        try "{\"ts\":1e400}\n[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\n\u{0}\u{1}\n".write(toFile: evil + "/events-2026-08.jsonl", atomically: true, encoding: .utf8)
        let result = a.foldJournals()
        XCTAssertEqual(result.events, 1)
        XCTAssertEqual(try a.allEvents().map(\.session), ["real"])
        let problems = a.unsaidSyncProblems()
        XCTAssertEqual(problems.count, 3, "\(problems)") // the FIFO, the link, the unparseable lines; the line without an end waits
        XCTAssertTrue(problems.contains { $0.contains("events-2026-11.jsonl cannot be read") }, "\(problems)")
        XCTAssertTrue(problems.contains { $0.contains("events-2026-10.jsonl cannot be read") }, "\(problems)")
        XCTAssertEqual(result.unread, 100_000)
    }

    func testAFoldReadsWithinItsBudgetAndCatchesUpOverSeveral() throws {
        let a = try machine(laptop), b = try machine(desktop)
        try write(b, (0..<3_000).map { event(at: day + Int64($0), session: "e\($0)") })
        try b.catchUpJournal()
        let first = a.foldJournals(budget: EventStore.gateFoldBudget / 4)
        XCTAssertGreaterThan(first.events, 0)
        XCTAssertGreaterThan(first.unread, 0)
        XCTAssertLessThan(first.events, 3_000)
        a.foldEverything()
        XCTAssertEqual(try a.allEvents().count, 3_000)
    }

    func testTheDeviceIDIsMadeOnceAndAgreedOnByRacingProcesses() throws {
        let state = folder.path + "/state"
        let ids = (0..<8).map { _ in try? SyncJournal.deviceID(stateDirectory: state) }
        XCTAssertEqual(Set(ids.compactMap { $0 }).count, 1)
        XCTAssertTrue(SyncJournal.isDeviceID(ids[0]!))
        try "not an id\n".write(toFile: state + "/device", atomically: true, encoding: .utf8)
        let replaced = try SyncJournal.deviceID(stateDirectory: state)
        XCTAssertTrue(SyncJournal.isDeviceID(replaced))
        XCTAssertEqual(try SyncJournal.deviceID(stateDirectory: state), replaced)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: state), ["device"], "no temporary file left")
    }

    /// The fuzz target's rule, over a real file cut at every byte: a read that stops at the last
    /// whole line, then one from there, takes exactly what one read takes.
    func testAFileReadInTwoPiecesAnywhereGivesWhatOneReadGives() throws {
        let text = "{\"miga_journal\":1,\"device\":\"\(desktop)\",\"host\":\"den\"}\n"
            + EventLine.jsonl(event(at: day, session: "a")) + "\n" + "{\"ts\": damaged\n\n"
            + EventLine.jsonl(event(.openSelected, at: day + 1, session: "b")) + "\n" + "{\"ts\":\"2026-11-18T"
        let file = Data(text.utf8)
        let whole = JournalLines(file, atFileStart: true, maxLineLength: 1 << 20)
        XCTAssertEqual(whole.events.map(\.session), ["a", "b"])
        XCTAssertEqual(whole.skipped, 1)
        XCTAssertEqual(whole.host, "den")
        XCTAssertEqual(whole.consumed, file.count - "{\"ts\":\"2026-11-18T".utf8.count, "the torn line waits")
        for cut in 0...file.count {
            let early = JournalLines(file.prefix(cut), atFileStart: true, maxLineLength: 1 << 20)
            let late = JournalLines(file.dropFirst(early.consumed), atFileStart: early.consumed == 0, maxLineLength: 1 << 20)
            XCTAssertEqual(early.events + late.events, whole.events, "cut at \(cut)")
            XCTAssertEqual(early.skipped + late.skipped, whole.skipped, "cut at \(cut)")
            XCTAssertEqual(early.consumed + late.consumed, whole.consumed, "cut at \(cut)")
        }
        XCTAssertTrue(JournalLines(Data(repeating: 0x41, count: 100), atFileStart: false, maxLineLength: 100).overlong)
        XCTAssertEqual(JournalLines(Data("{\"miga_journal\":\"two\"}\n".utf8), atFileStart: true, maxLineLength: 100).newerFormat, Int.max,
                       "a format that is no number is no layout this miga knows")
    }

    func testALineLongerThanAnyEventIsGivenUpOnNotWaitedFor() throws {
        let a = try machine(laptop)
        try FileManager.default.createDirectory(atPath: shared + "/\(desktop)", withIntermediateDirectories: true)
        try Data(repeating: 0x78, count: EventStore.maxLineLength + 10).write(to: URL(fileURLWithPath: journal(of: desktop)))
        a.foldEverything()
        XCTAssertEqual(a.foldJournals().unread, 0, "not counted as a copy in progress for ever")
        XCTAssertEqual(a.unsaidSyncProblems(), ["sync: \(shared)/\(desktop)/events-2026-11.jsonl holds a line longer than 1 MiB (not miga's); it is passed over"])
        // What is appended after it is still read.
        try append("\n" + EventLine.jsonl(event(at: day, session: "after")) + "\n", to: journal(of: desktop))
        a.foldEverything()
        XCTAssertEqual(try a.allEvents().map(\.session), ["after"])
    }

    /// A folder flooded with files costs a fold a bounded number of looks, and says so.
    func testAFloodedFolderIsReadInPartAndSaidSo() throws {
        let a = try machine(laptop)
        let flood = shared + "/\(desktop)"
        try FileManager.default.createDirectory(atPath: flood, withIntermediateDirectories: true)
        for month in 0..<(EventStore.fileLimit + 5) {
            let name = String(format: "events-%04d-%02d.jsonl", 1000 + month / 12, month % 12 + 1)
            XCTAssertTrue(FileManager.default.createFile(atPath: flood + "/" + name, contents: Data()))
        }
        try EventLine.jsonl(event(at: day, session: "newest")).appending("\n")
            .write(toFile: flood + "/events-9999-12.jsonl", atomically: true, encoding: .utf8)
        a.foldJournals()
        XCTAssertLessThanOrEqual(try a.allEvents().count, 1)
        XCTAssertEqual(a.unsaidSyncProblems(), ["sync folder \(shared): it holds more than \(EventStore.fileLimit) journal files; only \(EventStore.fileLimit) are read"])
    }

    func testFileNamesAndFolderSettings() {
        XCTAssertEqual(SyncJournal.fileName(forTimestamp: day), "events-2026-11.jsonl")
        XCTAssertEqual(SyncJournal.fileName(forTimestamp: 0), "events-1970-01.jsonl")
        XCTAssertEqual(SyncJournal.fileName(forTimestamp: EventBounds.timestamps.upperBound), "events-9999-12.jsonl")
        XCTAssertTrue(SyncJournal.isJournalFileName("events-2026-11.sync-conflict-20261127-101010-ABCDEFG.jsonl"))
        for bad in ["events-2026-1.jsonl", "events-2026-11.jsonl.tmp", ".syncthing.events-2026-11.jsonl.tmp", "events-2026-11.old.jsonl"] {
            XCTAssertFalse(SyncJournal.isJournalFileName(bad), bad)
        }
        XCTAssertEqual(SyncFolderSetting.expanded("~/Sync/miga/", home: "/home/me"), "/home/me/Sync/miga")
        XCTAssertEqual(SyncFolderSetting.expanded("/srv/sync", home: nil), "/srv/sync")
        XCTAssertNil(SyncFolderSetting.expanded("Sync/miga", home: "/home/me"))
        XCTAssertNil(SyncFolderSetting.expanded("~/Sync", home: nil))
        XCTAssertNotNil(SyncFolderSetting.problem("/a\nb"))
    }
}
