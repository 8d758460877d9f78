import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// Nothing is paused or counted that the person did not choose: no sites by default, an old
/// config keeps its seven sites (written in once, said once), the trial waits for the first
/// pause of a chosen app or site, and clinical content stays off until turned on.
final class NothingUnaskedCommandTests: XCTestCase {
    var home: CommandHome!

    override func setUpWithError() throws {
        home = try CommandHome()
    }

    func miga(_ arguments: String...) throws -> TestHome.Output { try home.miga(arguments) }
    var configText: String? { try? String(contentsOfFile: home.configFile, encoding: .utf8) }
    var entitlement: String { home.home + "/.config/miga/entitlement.json" }

    func testAFreshHomeGatesNoSiteAndEveryFileMigaWritesHoldsASitesLine() throws {
        XCTAssertEqual(try miga("config", "sites", "list").stdout, "")
        XCTAssertEqual(try miga("config", "get", "sites").stdout, "\n")
        let set = try miga("config", "set", "timer_seconds", "20")
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertEqual(set.stderr, "")
        XCTAssertEqual(configText, "sites = []\ntimer_seconds = 20\n")
        XCTAssertEqual(try miga("config", "sites", "list").stdout, "", "the new file reads as none, not as an old one")
    }

    func testAnOldConfigKeepsTheSevenSitesWrittenInOnceAndSaidOnce() throws {
        let old = "# mine\ntimer_seconds = 25\n\n[apps.chat]\ncommand = \"chat\"\n"
        try home.writeConfig(old)
        let first = try miga("config", "get", "timer_seconds")
        XCTAssertEqual(first.stdout, "25\n")
        XCTAssertEqual(first.stderr, ConfigFile.formerSitesNote + "\n")
        let seven = "sites = [" + MigaConfig.formerDefaultSites.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        XCTAssertEqual(configText, "# mine\ntimer_seconds = 25\n\n" + seven + "\n\n[apps.chat]\ncommand = \"chat\"\n", "only the line added")
        let second = try miga("config", "sites", "list")
        XCTAssertEqual(second.stderr, "", "said once")
        XCTAssertEqual(second.stdout, MigaConfig.formerDefaultSites.joined(separator: "\n") + "\n")
    }

    func testAConfigWithSitesOrOneThatIsBrokenIsNeverRewritten() throws {
        for text in ["sites = []\ntimer_seconds = 25\n", "timer_seconds = \n"] {
            try home.writeConfig(text)
            let output = try miga("config", "get", "grace_minutes")
            XCTAssertFalse(output.stderr.contains("sites"), output.stderr)
            XCTAssertEqual(configText, text)
        }
    }

    func testNoCommandButAChosenGateStartsTheTrial() throws {
        try home.writeConfig("sites = [\"reddit.com\"]\n")
        for arguments in [["license"], ["license", "status"], ["doctor"], ["status"], ["stats"], ["config", "show"], ["install"]] {
            _ = try home.miga(arguments)
            XCTAssertFalse(FileManager.default.fileExists(atPath: entitlement), "\(arguments) started the trial")
        }
        let license = try miga("license")
        XCTAssertEqual(license.status, 0)
        XCTAssertTrue(license.stdout.hasPrefix("trial not started. The 3-day trial starts at the first pause of an app or site you chose.\n"
                                               + "A licence is a one-time purchase: the licence file arrives by email; then run `miga license activate FILE`.\n"
                                               + "When the trial ends without one, apps and sites open without a pause;"), license.stdout)
        let doctor = try miga("doctor")
        XCTAssertTrue(DoctorText.unwrapped(doctor.stdout).contains("licence: trial not started"), doctor.stdout)
    }

    func testContentListMarksTheExtraCategoriesOffUntilTurnedOn() throws {
        let off = try miga("content", "list", "--category", "dpdr")
        XCTAssertFalse(off.stdout.isEmpty)
        for line in off.stdout.split(separator: "\n") { XCTAssertTrue(line.contains("\tdpdr (off)\t"), String(line)) }
        XCTAssertTrue(off.stderr.contains("miga config set extra_categories dpdr,anxiety"), off.stderr)
        XCTAssertEqual(try miga("config", "set", "extra_categories", "dpdr").status, 0)
        let on = try miga("content", "list", "--category", "dpdr")
        XCTAssertFalse(on.stdout.contains("(off)"), on.stdout)
        XCTAssertEqual(on.stderr, "")
        XCTAssertTrue(try miga("content", "list", "--category", "anxiety").stdout.contains("\tanxiety (off)\t"))
        let refused = try miga("config", "set", "extra_categories", "gore")
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("must be one of \"dpdr\", \"anxiety\""), refused.stderr)
    }
}
