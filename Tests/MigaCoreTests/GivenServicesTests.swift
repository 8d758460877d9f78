import XCTest
@testable import MigaCore
import MigaTestSupport

/// The store and the reports use the process service they are given, not the live one, so a
/// test (or a context) can replace it.
final class GivenServicesTests: XCTestCase {
    /// This process as a test sees it: another id and machine name, real waits.
    struct NamedProcess: ProcessService {
        var live = SystemProcesses()
        var id: Int32 { 4_242_424 }
        func hostName() -> String? { "given-host" }
        func currentExecutablePath() -> String? { live.currentExecutablePath() }
        func monotonicNanoseconds() -> UInt64 { live.monotonicNanoseconds() }
        func sleep(microseconds: UInt32) { live.sleep(microseconds: microseconds) }
        func sleepCountingSuspend(milliseconds: Int) { live.sleepCountingSuspend(milliseconds: milliseconds) }
        func hasEnded(_ pid: Int32) -> Bool { live.hasEnded(pid) }
        func yieldProcessor() {}
        func runInTerminal(_ command: ResolvedCommand, environment: [String: String]) throws -> Int32 {
            try live.runInTerminal(command, environment: environment)
        }
    }

    func testSpoolNamesFilesWithTheGivenProcessID() throws {
        let folder = try TemporaryDirectory()
        let store = try EventStore(path: folder.path + "/miga.sqlite3", processes: NamedProcess())
        try store.spool([Event(timestamp: 1_000, utcOffsetMinutes: 0, session: "s", type: .exitSelected, app: "x")])
        let names = try FileManager.default.contentsOfDirectory(atPath: store.spoolFolder)
        XCTAssertEqual(names.count, 1)
        XCTAssertTrue(names[0].hasPrefix(EventStore.eventsPrefix + "4242424-"), names[0])
    }

    func testStatsByMachineNamesThisMachineByTheGivenService() throws {
        var report = try StatsReport.build(store: nil, today: CivilDay("2026-11-21")!, days: 1)
        try report.addMachines(store: nil, device: nil, app: nil, processes: NamedProcess())
        XCTAssertEqual(report.machines?.first?.host, "given-host")
        XCTAssertEqual(report.machines?.first?.thisMachine, true)
    }
}
