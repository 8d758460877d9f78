import MigaTestSupport
import TOML
import XCTest

/// Random byte mutations of valid documents: every result must be a table or a `TOMLError`,
/// never a crash or a hang. Seeded, so failures reproduce.
final class MutationFuzzTests: XCTestCase {
    static let seeds: [String] = [
        SpecExampleTests.migaConfig,
        """
        title = "x" # c
        [owner]
        dob = 1979-05-27T07:32:00-08:00
        t = 07:32:00.5
        d = 1979-05-27
        [database]
        ports = [ 8000, 0x1F, 0o7, 0b1, -1_000, +inf, nan, 6.02e+23 ]
        data = [ ["delta", 'phi'], [3.14], [] ]
        temp = { cpu = 79.5, case.x = 72.0, nested = { a = [1, {b = 2}] } }
        [[products]]
        name = \"\"\"multi
        line \\
           string\"\"\"
        raw = '''raw
        text'''
        [[products]]
        "quoted key".'lit' = "\\u00e9\\t\\U0001F600"
        [a.b.c]
        x.y = true
        """,
        "a = [\n  1,\n  # c\n  2,\n]\n[t]\n\"k\" = { x = 1 }\n[t.u]\n[[t.v]]\nw = 'x'\n",
    ]

    static let alphabet: [UInt8] = Array("[]{}=\".,'\n#\\ ".utf8) + [0x0D, 0x09, 0x00, 0x7F, 0xC3, 0xFF, 0x75, 0x30, 0x5F, 0x2D, 0x3A]

    func testRandomMutationsNeverCrash() {
        var random = SplitMix64(seed: 0x5EED_70F1)
        var accepted = 0, rejected = 0
        for seed in Self.seeds {
            let original = Array(seed.utf8)
            for _ in 0..<5_000 {
                var bytes = original
                for _ in 0..<(1 + random.next(below: 4)) {
                    let at = random.next(below: bytes.count + 1)
                    let byte = Self.alphabet[random.next(below: Self.alphabet.count)]
                    switch random.next(below: 3) {
                    case 0: bytes.insert(byte, at: at)
                    case 1: if at < bytes.count { bytes.remove(at: at) }
                    default: if at < bytes.count { bytes[at] = byte }
                    }
                }
                if random.next(below: 8) == 0 { bytes = Array(bytes.prefix(random.next(below: bytes.count + 1))) }  // truncation
                do {
                    _ = try TOML.parse(bytes: bytes)
                    accepted += 1
                } catch let error as TOMLError {
                    rejected += 1
                    let lines = bytes.filter { $0 == 0x0A }.count + 1
                    XCTAssert(error.line >= 1 && error.line <= lines, "\(error) for \(bytes)")
                    XCTAssert(error.column >= 1, "\(error)")
                    XCTAssertFalse(error.message.isEmpty)
                } catch {
                    XCTFail("not a TOMLError: \(error) for \(bytes)")
                }
            }
        }
        XCTAssertGreaterThan(accepted, 0)
        XCTAssertGreaterThan(rejected, 0)
    }

    func testResultsAreDeterministic() {
        var random = SplitMix64(seed: 42)
        for _ in 0..<300 {
            var bytes = Array(Self.seeds[1].utf8)
            bytes[random.next(below: bytes.count)] = Self.alphabet[random.next(below: Self.alphabet.count)]
            XCTAssertEqual(outcome(bytes), outcome(bytes))
        }
    }

    private func outcome(_ bytes: [UInt8]) -> String {
        do {
            return "ok \(try TOML.parse(bytes: bytes).keys)"
        } catch {
            return "\(error)"
        }
    }
}
