import XCTest
@testable import MigaCore
import MigaTestSupport

/// The real readers of miga's state files (`Snooze`, `Loosening.State`, and `ConfigInForce`
/// over both), fed seeded mutations of real files: bytes changed, numbers swapped for the
/// extremes a hostile or broken disk gives (Int64.min and .max, 1e308, -0, far times).
/// Whatever they read must be usable without a trap: a snooze's span and end, a wait's
/// minutes left, the whole config load. `fuzz/StateFileFuzz.swift` fuzzes the number reader
/// they share; this runs the readers themselves, in every test run. Seeded: a failure
/// reproduces.
final class StateFileMutationTests: XCTestCase {
    static let extremes = ["9223372036854775807", "-9223372036854775808", "9223372036854775808", "1e308", "-1e308", "-0",
                           "0", "1", "-1", "253402300799999", "-62135596800000", "4.5", "null", "\"1\"", "[]", "{}"]

    var root: TemporaryDirectory!
    var clock: FakeClock!
    var context: MigaContext!

    override func setUpWithError() throws {
        (root, clock, context) = try TestContext.withFakeClock()
        try FileManager.default.createDirectory(atPath: context.paths.stateDirectory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: context.paths.configDirectory, withIntermediateDirectories: true)
        try "timer_seconds = 30\nloosen_delay_minutes = 60\n[[schedule]]\ndays = [\"sat\"]\nfrom = \"09:00\"\nto = \"12:00\"\ngate = false\n"
            .write(toFile: context.paths.configFile, atomically: true, encoding: .utf8)
    }

    /// Real files: what miga itself writes, waiting and running.
    func seeds() throws -> [String] {
        let now = clock.milliseconds(clock.now())
        try Snooze(until: now + 30 * 60_000, apps: ["discord"], from: now + 10 * 60_000, requested: now).save(paths: context.paths)
        let snooze = try String(contentsOfFile: Snooze.path(context.paths), encoding: .utf8)
        _ = try ConfigInForce.load(context: context) // settles timer 30
        try "timer_seconds = 15\nloosen_delay_minutes = 60\n".write(toFile: context.paths.configFile, atomically: true, encoding: .utf8)
        _ = try ConfigInForce.load(context: context) // a loosening waits, the schedule's removal applies
        let loosening = try String(contentsOfFile: ConfigInForce.statePath(context.paths), encoding: .utf8)
        XCTAssertTrue(loosening.contains("\"pending\":[{"), loosening)
        return [snooze, loosening]
    }

    func mutate(_ text: String, _ random: inout SplitMix64) -> String {
        var bytes = Array(text.utf8)
        switch random.next(below: 3) {
        case 0: // a number replaced by an extreme
            let digits = bytes.indices.filter { (0x30...0x39).contains(bytes[$0]) && ($0 == 0 || !(0x30...0x39).contains(bytes[$0 - 1])) }
            guard let start = digits.isEmpty ? nil : digits[random.next(below: digits.count)] else { break }
            var end = start
            while end < bytes.count, (0x30...0x39).contains(bytes[end]) || bytes[end] == UInt8(ascii: "-") { end += 1 }
            bytes.replaceSubrange(start..<end, with: Array(Self.extremes[random.next(below: Self.extremes.count)].utf8))
        case 1: // a byte changed
            guard !bytes.isEmpty else { break }
            let alphabet = Array("{}[]\",:0-9e.\\ ".utf8)
            bytes[random.next(below: bytes.count)] = alphabet[random.next(below: alphabet.count)]
        default: // cut short
            bytes = Array(bytes.prefix(random.next(below: bytes.count + 1)))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func testMutatedStateFilesAreReadOrRefusedNeverATrap() throws {
        let seeds = try seeds()
        var random = SplitMix64(seed: 0x57A7_EF11)
        let now = clock.milliseconds(clock.now())
        var snoozes = 0, states = 0
        for round in 0..<1_500 {
            var text = seeds[round % seeds.count]
            for _ in 0...random.next(below: 3) { text = mutate(text, &random) }
            if round % seeds.count == 0 {
                try text.write(toFile: Snooze.path(context.paths), atomically: true, encoding: .utf8)
                for moment in [now, now + 25 * 60_000, now + 300 * 60_000] {
                    if let snooze = Snooze.active(paths: context.paths, nowMilliseconds: moment) {
                        snoozes += 1
                        XCTAssertGreaterThan(snooze.until, moment)
                        XCTAssertLessThanOrEqual(snooze.until - moment, Int64(Snooze.minutes.upperBound) * 60_000 + 60_000 + 7 * 86_400_000, text)
                    }
                    if let waiting = Snooze.waiting(paths: context.paths, nowMilliseconds: moment) { _ = waiting.asPending }
                }
            } else if let state = Loosening.State(json: text) {
                states += 1
                let outcome = Loosening.resolve(wanted: MigaConfig(), settled: MigaConfig(), pending: state.pending, now: now, boot: nil)
                _ = outcome.pending.map { ($0.applies - now) / 60_000 }
                XCTAssertNotNil(Loosening.State(json: state.json), "what is read is written back readable")
            }
            // The whole load, as every gate does it, over both files as they now are.
            if round % 10 == 0 {
                try text.write(toFile: ConfigInForce.statePath(context.paths), atomically: true, encoding: .utf8)
                XCTAssertNoThrow(try ConfigInForce.load(context: context))
            }
        }
        XCTAssertGreaterThan(snoozes, 0, "some mutations still read as a snooze")
        XCTAssertGreaterThan(states, 0, "some still read as a state")
    }
}
