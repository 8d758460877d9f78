import Crypto
import Foundation
import XCTest
@testable import MigaCore
import MigaTestSupport

/// DESIGN "Entitlement": the trial's exact 72 h, licences checked by signature against this
/// build's keys, and every refusal leaving the current entitlement as it was.
final class EntitlementTests: XCTestCase {
    var folder: TemporaryDirectory!
    var clock: FakeClock!
    var path: String { folder.path + "/miga/entitlement.json" }
    var store: EntitlementStore { EntitlementStore(path: path, clock: clock) }

    static let testKey: Curve25519.Signing.PrivateKey = {
        let file = Fixtures.url("license/test-signing-key")
        let text = try! String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        return try! Curve25519.Signing.PrivateKey(rawRepresentation: Data(base64Encoded: text)!)
    }()

    override func setUpWithError() throws {
        folder = try TemporaryDirectory()
        clock = FakeClock(wall: Date(timeIntervalSince1970: 1_795_000_000))
    }

    func licence(product: String = "miga", licensee: String = "Ada", key: Curve25519.Signing.PrivateKey = testKey) throws -> LicenseFile {
        let payload = Data("{\"product\":\"\(product)\",\"license_id\":\"L-1\",\"licensee\":\"\(licensee)\",\"issued_at\":\"2026-11-21T09:00:00Z\",\"edition\":\"standard\"}".utf8)
        return LicenseFile(payload: payload.base64EncodedString(), signature: try key.signature(for: payload).base64EncodedString())
    }

    func testTheTrialStartsOnFirstUseAndEndsExactlyAfter72Hours() throws {
        XCTAssertEqual(store.status(startingTrial: true).state, .trial(endsAt: clock.now().addingTimeInterval(72 * 3600), remaining: 72 * 3600))
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "{\"kind\":\"trial\",\"trial_started\":\"2026-11-18T11:06:40.000Z\"}\n")
        XCTAssertEqual(AtomicFile.mode(of: path), 0o600)
        clock.advance(seconds: 72 * 3600 - 0.001)
        XCTAssertTrue(store.status().gateEnabled, "a millisecond before the end")
        XCTAssertEqual(store.status().summary, "trial — 0 minutes left")
        clock.advance(seconds: 0.001)
        XCTAssertEqual(store.status().state, .trialEnded(endedAt: Date(timeIntervalSince1970: 1_795_000_000 + 72 * 3600)))
        XCTAssertFalse(store.status().gateEnabled, "exactly 72 h later")
        XCTAssertTrue(store.status().summary.hasPrefix("trial ended on 2026-11-21 11:06 UTC"), store.status().summary)
    }

    /// Reading the entitlement (doctor, license, the browser's setup) never starts the trial.
    func testReadingStartsNoTrialAndSaysWhenItWill() throws {
        let status = store.status()
        XCTAssertEqual(status.state, .trialNotStarted)
        XCTAssertTrue(status.gateEnabled, "gates run before the trial starts")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        XCTAssertEqual(status.explanation, [
            "trial not started. The 3-day trial starts at the first pause of an app or site you chose.",
            "A licence is a one-time purchase: the licence file arrives by email; then run `miga license activate FILE`.",
            "When the trial ends without one, apps and sites open without a pause; stats, config and export keep working (your data is yours).",
        ])
        clock.advance(seconds: 30 * 86_400)
        XCTAssertEqual(store.status().state, .trialNotStarted, "however long miga sits unused")
    }

    func testRemainingTimeReads() {
        XCTAssertEqual(EntitlementStatus.duration((2 * 24 + 5) * 3600 + 59), "2 days 5 hours")
        XCTAssertEqual(EntitlementStatus.duration(3600 + 60), "1 hour 1 minute")
        XCTAssertEqual(EntitlementStatus.duration(12 * 60 + 30), "12 minutes")
    }

    func testAStartInTheFutureCountsAsNowAndIsWrittenDown() throws {
        _ = try folder.write("{\"kind\":\"trial\",\"trial_started\":\"2030-01-01T00:00:00Z\"}\n", to: "miga/entitlement.json")
        XCTAssertEqual(store.status().state, .trial(endsAt: clock.now().addingTimeInterval(72 * 3600), remaining: 72 * 3600))
        clock.advance(seconds: 72 * 3600)
        XCTAssertFalse(store.status().gateEnabled, "the moved clock did not make the trial endless")
    }

    /// A future start counts from when the file was last written (at the latest now), read
    /// from the file itself: even where it cannot be rewritten, the trial still ends.
    func testAFutureStartCountsFromWhenTheFileWasWritten() throws {
        let file = try folder.write("{\"kind\":\"trial\",\"trial_started\":\"2030-01-01T00:00:00Z\"}\n", to: "miga/entitlement.json")
        let written = clock.now().addingTimeInterval(-80 * 3600)
        var times = [timeval(tv_sec: Int(written.timeIntervalSince1970), tv_usec: 0), timeval(tv_sec: Int(written.timeIntervalSince1970), tv_usec: 0)]
        XCTAssertEqual(utimes(file, &times), 0)
        XCTAssertEqual(store.status().state, .trialEnded(endedAt: written.addingTimeInterval(72 * 3600)),
                       "edited 80 h ago: the trial ended 8 h ago")
    }

    func testABrokenFileIsReportedAndTreatedAsAnEndedTrial() throws {
        let valid = try licence()
        let tampered = LicenseFile(payload: try licence(licensee: "Mallory").payload, signature: valid.signature)
        for text in ["", "not json", "[]", "{\"kind\":\"gift\"}", "{\"kind\":\"trial\"}", "{\"kind\":\"trial\",\"trial_started\":\"yesterday\"}",
                     "{\"kind\":\"purchase\"}", "{\"kind\":\"purchase\",\"license\":\(tampered.json)}"] {
            _ = try folder.write(text, to: "miga/entitlement.json")
            let status = store.status()
            guard case .broken(let problem) = status.state else { return XCTFail("\(text): \(status.state)") }
            XCTAssertFalse(status.gateEnabled, text)
            XCTAssertTrue(problem.contains(path), problem)
            XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), text, "never rewritten")
        }
    }

    func testAValidLicenceIsStoredAndEveryBadOneRefusedKeepingTheTrial() throws {
        _ = store.status(startingTrial: true) // the trial
        let trial = try Data(contentsOf: URL(fileURLWithPath: path))
        let valid = try licence()
        let otherKey = Curve25519.Signing.PrivateKey()
        let editedPayload = Data(base64Encoded: valid.payload)!.replacingOccurrences("Ada", "Eve")
        var huge = Data(count: 50 << 20)
        huge.replaceSubrange(0..<1, with: Data("{".utf8))
        let cases: [(String, Data, LicenseError)] = [
            ("wrong signature", Data(try licence(key: otherKey).json.utf8), .badSignature),
            ("payload edited after signing", Data(LicenseFile(payload: editedPayload.base64EncodedString(), signature: valid.signature).json.utf8), .badSignature),
            ("wrong product", Data(try licence(product: "other-app").json.utf8), .wrongProduct("other-app")),
            ("not base64", Data(LicenseFile(payload: "%%%", signature: valid.signature).json.utf8), .notBase64("payload")),
            ("not JSON", Data("hello there".utf8), .notALicense),
            ("empty", Data(), .empty),
            ("50 MB", huge, .tooLarge(folder.path + "/50 MB")),
        ]
        for (name, data, expected) in cases {
            let file = folder.path + "/" + name
            try data.write(to: URL(fileURLWithPath: file))
            XCTAssertThrowsError(try store.activate(licensePath: file), name) { error in
                XCTAssertEqual(error as? LicenseError, expected, name)
                XCTAssertTrue("\(error)".hasSuffix("your current entitlement is unchanged"), "\(error)")
            }
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), trial, "\(name): the trial is kept")
        }
        XCTAssertThrowsError(try store.activate(licensePath: folder.path)) { XCTAssertEqual($0 as? LicenseError, .directory(folder.path)) }

        let good = try folder.write(valid.json, to: "good.miga-license")
        XCTAssertEqual(try store.activate(licensePath: good).licensee, "Ada")
        clock.advance(seconds: 400 * 86_400)
        XCTAssertEqual(store.status().summary, "purchased — licensed to Ada, licence id L-1 (standard)")
        XCTAssertTrue(store.status().gateEnabled)
        XCTAssertEqual(AtomicFile.mode(of: path), 0o600)
    }

    func testOnlyCompiledInKeysAreTrusted() throws {
        let verifier = LicenseVerifier(trustedKeys: [Curve25519.Signing.PrivateKey().publicKey])
        XCTAssertThrowsError(try verifier.verify(try licence())) { XCTAssertEqual($0 as? LicenseError, .badSignature) }
        #if DEBUG
        XCTAssertNoThrow(try LicenseVerifier().verify(try licence()), "debug builds trust the test key")
        #endif
    }
}

private extension Data {
    func replacingOccurrences(_ target: String, _ replacement: String) -> Data {
        Data(String(decoding: self, as: UTF8.self).replacingOccurrences(of: target, with: replacement).utf8)
    }
}
