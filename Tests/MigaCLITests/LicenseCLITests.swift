import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// The trial and licence as a person meets them, on the built binaries: `miga-license` signs
/// with the test key (trusted by debug builds only), `miga license activate` stores it, and an
/// ended trial turns the pause off without ever keeping the app closed.
/// The cases that need no process of their own run in-process in MigaCommandTests' LicenseCommandTests.
final class LicenseCLITests: XCTestCase, LicenseCase {
    var home: MigaHome!

    override func setUpWithError() throws {
        home = try MigaHome()
        try requireTheSellersTool()
    }

    func testAfterTheTrialTheAppStillOpensTheEventIsRecordedAndTheNoticeComesOnceADay() throws {
        try endTheTrial()
        let first = try home.miga(["gate", "--app", "chat", "--", home.recorder, "hello"])
        XCTAssertEqual(first.status, 0)
        XCTAssertEqual(home.recordedArguments(), ["hello"], "the app opens")
        XCTAssertTrue(first.stderr.hasPrefix("miga: trial ended on "), first.stderr)
        XCTAssertEqual(first.stderr.split(separator: "\n").count, 1, "one line")
        let events = try home.events()
        XCTAssertEqual(events.map(\.type), [.gatewaySkipped])
        XCTAssertEqual(events.first?.detail, "{\"reason\":\"trial_expired\"}")

        let second = try home.miga(["gate", "--app", "chat", "--", home.recorder, "again"])
        XCTAssertEqual(home.recordedArguments(), ["again"])
        XCTAssertEqual(second.stderr, "", "at most once a day")
        XCTAssertEqual(try home.events().count, 2)

        let doctor = try home.miga(["doctor"])
        XCTAssertTrue(DoctorText.unwrapped(doctor.stdout).contains("problem  licence: trial ended on ") && DoctorText.unwrapped(doctor.stdout).contains("fix: miga license activate FILE"), doctor.stdout)

        // The person's data stays theirs.
        XCTAssertEqual(try home.miga(["stats", "--json"]).status, 0)
        XCTAssertEqual(try home.miga(["events", "export"]).stdout.split(separator: "\n").count, 2)
        XCTAssertEqual(try home.miga(["config", "set", "timer_seconds", "20"]).status, 0)

        // A licence brings the pause back (here: a grace pass, which only a working gate gives).
        XCTAssertEqual(try home.miga(["license", "activate", try sign()]).status, 0)
        try EventStore(path: home.database).record(Event(timestamp: Int64(Date().timeIntervalSince1970 * 1000), utcOffsetMinutes: 0,
                                                         session: "s", type: .openSelected, app: "chat"))
        _ = try home.miga(["gate", "--app", "chat", "--", home.recorder, "licensed"])
        XCTAssertEqual(try home.events().last?.type, .gracePass)
    }

    func testABrokenEntitlementIsReportedAndNeverBlocksTheApp() throws {
        try home.writeFile("home/.config/miga/entitlement.json", "{\"kind\":\"purchase\",\"license\":{\"payload\":\"e30=\",\"signature\":\"AAAA\"}}")
        let output = try home.miga(["gate", "--app", "chat", "--", home.recorder, "opens"])
        XCTAssertEqual(home.recordedArguments(), ["opens"])
        XCTAssertTrue(output.stderr.contains("is not valid") && output.stderr.contains("treated as an ended trial"), output.stderr)
        let status = try home.miga(["license"])
        XCTAssertEqual(status.status, 0)
        XCTAssertTrue(status.stdout.contains("treated as an ended trial"), status.stdout)
    }
}
