import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// `miga license` in-process: `miga-license` signs with the test key (trusted by debug builds
/// only) and `miga license activate` stores it (moved from MigaCLITests' LicenseCLITests,
/// which keeps what an ended trial does to a gate).
final class LicenseCommandTests: XCTestCase, LicenseCase {
    var home: CommandHome!

    override func setUpWithError() throws {
        home = try CommandHome()
        try requireTheSellersTool()
    }

    func testStatusActivateAndRefusal() throws {
        try home.startTheTrial()
        let first = try home.miga(["license"])
        XCTAssertEqual(first.status, 0)
        XCTAssertTrue(first.stdout.hasPrefix("trial — 2 days 23 hours left\n") || first.stdout.hasPrefix("trial — 3 days 0 hours left\n"), first.stdout)
        XCTAssertTrue(first.stdout.contains("(\(entitlement))"), "names the file it read")
        let trial = try Data(contentsOf: URL(fileURLWithPath: entitlement))

        let wrongProduct = try sign(["--product", "another-app"])
        let refused = try home.miga(["license", "activate", wrongProduct])
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stderr, "miga: this licence is for \"another-app\", not miga; your current entitlement is unchanged\n")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: entitlement)), trial)

        let activated = try home.miga(["license", "activate", try sign()])
        XCTAssertEqual(activated.status, 0, activated.stderr)
        XCTAssertTrue(activated.stdout.hasPrefix("Thank you, Ada Lovelace: licence L-42 is active."), activated.stdout)
        XCTAssertEqual(try home.miga(["license", "status"]).stdout, "purchased — licensed to Ada Lovelace, licence id L-42 (standard)\n(\(entitlement))\n")
        XCTAssertEqual(AtomicFile.mode(of: entitlement), 0o600)
    }

    /// `uninstall --purge` deletes everything, the licence too, and says how to get it back.
    func testPurgeSaysTheLicenceWentAndHowToRestoreIt() throws {
        let licence = try sign()
        XCTAssertEqual(try home.miga(["license", "activate", licence]).status, 0)
        let purge = try home.miga(["uninstall", "--purge", "--yes"])
        XCTAssertEqual(purge.status, 0, purge.stderr)
        XCTAssertTrue(purge.stdout.contains("deleted your licence L-42 with it: `miga license activate FILE`, with the licence file you received, restores it"), purge.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: entitlement))
        XCTAssertEqual(try home.miga(["license", "activate", licence]).status, 0, "the same file restores it")
        XCTAssertTrue(try home.miga(["license", "status"]).stdout.hasPrefix("purchased — licensed to Ada Lovelace"))
        // A trial is nothing to restore: not mentioned.
        try endTheTrial()
        let again = try home.miga(["uninstall", "--purge", "--yes"])
        XCTAssertFalse(again.stdout.contains("licence"))
        XCTAssertTrue(try home.miga(["license", "status"]).stdout.hasPrefix("trial ended"), "a purge starts no new trial")
    }
}
