import MigaTestSupport
import XCTest
@testable import MigaCore

final class GateSessionTests: XCTestCase {
    let second: UInt64 = 1_000_000_000
    let start: UInt64 = 5_000_000_000

    func session(timer: Int = 30) -> GateSession {
        GateSession(app: "discord", timerSeconds: timer, item: .sample("a"), startedAt: start)
    }

    func testStartRecordsSessionStartWithTheFirstItem() {
        XCTAssertEqual(session().startEffects, [.record(.sessionStart, contentID: "a", waitMilliseconds: nil)])
    }

    func testCountdownRoundsUpAndUnlocksAtZero() {
        let gate = session(timer: 30)
        XCTAssertEqual(gate.secondsLeft(at: start), 30)
        XCTAssertEqual(gate.secondsLeft(at: start + second / 2), 30)
        XCTAssertEqual(gate.secondsLeft(at: start + 29 * second + 1), 1)
        XCTAssertFalse(gate.isUnlocked(at: start + 30 * second - 1))
        XCTAssertTrue(gate.isUnlocked(at: start + 30 * second))
        XCTAssertEqual(gate.progress(at: start + 15 * second), 0.5, accuracy: 0.0001)
    }

    func testOpenIsLockedUntilTheCountdownEndsAndSaysHowLongIsLeft() {
        var gate = session(timer: 20)
        XCTAssertEqual(gate.choose(.open, at: start + 8 * second), [])
        XCTAssertNil(gate.outcome)
        XCTAssertEqual(gate.notice(at: start + 8 * second), "Open unlocks in 12 s. Take this moment; Exit is always free.")
        XCTAssertEqual(gate.notice(at: start + 15 * second + 1)?.hasPrefix("Open unlocks in 5 s."), true, "it counts down")
        XCTAssertNil(gate.notice(at: start + 20 * second), "and goes when Open unlocks")
        var other = session(timer: 20)
        _ = other.choose(.open, at: start)
        _ = other.choose(.readNext, at: start + second)
        XCTAssertNil(other.notice(at: start + 2 * second), "Read Next clears it")
    }

    func testOpenAfterCountdownRecordsCompletionOnceThenOpen() {
        var gate = session(timer: 15)
        XCTAssertEqual(gate.tick(at: start + 14 * second), [])
        XCTAssertEqual(gate.tick(at: start + 15 * second), [.record(.gatewayCompleted, contentID: nil, waitMilliseconds: nil)])
        XCTAssertEqual(gate.tick(at: start + 16 * second), [], "completion is recorded once")
        XCTAssertEqual(gate.choose(.open, at: start + 17 * second),
                       [.record(.openSelected, contentID: nil, waitMilliseconds: 17_000), .finish(.open)])
        XCTAssertEqual(gate.outcome, .open)
        XCTAssertEqual(gate.choose(.exit, at: start + 18 * second), [], "nothing happens after the outcome")
    }

    func testOpenWithoutAPriorTickStillRecordsCompletionFirst() {
        var gate = session(timer: 15)
        XCTAssertEqual(gate.choose(.open, at: start + 20 * second), [
            .record(.gatewayCompleted, contentID: nil, waitMilliseconds: nil),
            .record(.openSelected, contentID: nil, waitMilliseconds: 20_000),
            .finish(.open),
        ])
    }

    func testReadNextKeepsTheCountdownRunning() {
        var gate = session(timer: 30)
        XCTAssertEqual(gate.choose(.readNext, at: start + 10 * second), [.fetchNextItem])
        XCTAssertEqual(gate.show(.sample("b"), at: start + 10 * second),
                       [.record(.contentRead, contentID: "b", waitMilliseconds: nil)])
        XCTAssertEqual(gate.item.id, "b")
        XCTAssertEqual(gate.secondsLeft(at: start + 10 * second), 20, "Read Next must not restart the countdown")
    }

    func testExitIsAvailableImmediatelyWithItsWait() {
        var gate = session()
        XCTAssertEqual(gate.choose(.exit, at: start + 3_250_000_000),
                       [.record(.exitSelected, contentID: nil, waitMilliseconds: 3_250), .finish(.exit)])
        XCTAssertEqual(gate.outcome, .exit)
    }

    func testAbandonRecordsAbandonedAndNeverOpens() {
        var gate = session()
        XCTAssertEqual(gate.abandon(at: start + 40 * second),
                       [.record(.abandoned, contentID: nil, waitMilliseconds: 40_000), .finish(.abandoned)])
        XCTAssertEqual(gate.outcome, .abandoned)
    }

    func testDriverAppliesEffectsWithAFakeClock() {
        let clock = FakeClock()
        var recorded: [(EventType, String?, Int?)] = []
        var pool = ["b", "c"]
        let driver = GateDriver(
            session: GateSession(app: "x", timerSeconds: 15, item: .sample("a"), startedAt: clock.monotonic),
            record: { recorded.append(($0, $1, $2)); _ = $3 },
            nextItem: { pool.isEmpty ? nil : .sample(pool.removeFirst()) })
        driver.start()
        clock.advance(seconds: 2)
        driver.choose(.readNext, at: clock.monotonic)
        clock.advance(seconds: 13)
        driver.tick(at: clock.monotonic)
        driver.choose(.open, at: clock.monotonic)
        XCTAssertEqual(recorded.map(\.0), [.sessionStart, .contentRead, .gatewayCompleted, .openSelected])
        XCTAssertEqual(recorded.map(\.1), ["a", "b", nil, nil])
        XCTAssertEqual(recorded.last?.2, 15_000)
        XCTAssertEqual(driver.outcome, .open)
    }
}
