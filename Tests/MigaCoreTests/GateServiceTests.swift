import Foundation
import XCTest
@testable import MigaCore
import MigaTestSupport

/// The one place a gate's rules live (`GateService`), and proof that both kinds of front end
/// use it: the terminal's `Gatekeeper` and the browser's `NativeHostService` answer the same
/// launch the same way, because neither decides it.
final class GateServiceTests: XCTestCase {
    var root: TemporaryDirectory!
    var clock: FakeClock!
    var context: MigaContext!
    var launcher: FakeLauncher!

    override func setUpWithError() throws {
        launcher = FakeLauncher()
        (root, clock, context) = try TestContext.withFakeClock(environment: ["TERM": "dumb"], launcher: launcher)
    }

    func service(_ config: MigaConfig = MigaConfig()) throws -> GateService {
        GateService(config: config, store: try EventStore(paths: context.paths), context: context)
    }

    func recordOpen(_ app: String, secondsAgo: Double, store: EventStore) throws {
        try store.record(GateRecorder.event(.openSelected, app: app, session: "before", clock: clock,
                                            at: clock.now().addingTimeInterval(-secondsAgo)))
    }

    /// Grace is the last Open's time plus `grace_minutes`: running until its last moment, and
    /// for an Open stamped up to a second ahead of this clock (another process rounded it).
    func testGraceRunsFromTheLastOpenForGraceMinutes() throws {
        var config = MigaConfig()
        config.graceMinutes = 5
        let service = try service(config)
        XCTAssertNil(service.graceUntil("chat"), "never opened")
        try recordOpen("chat", secondsAgo: 300, store: service.store)
        XCTAssertNil(service.graceUntil("chat"), "exactly five minutes ago: over")
        try recordOpen("chat", secondsAgo: 299, store: service.store)
        XCTAssertEqual(service.graceUntil("chat"), clock.now().addingTimeInterval(1))
        try recordOpen("mail", secondsAgo: -1, store: service.store)
        XCTAssertEqual(service.graceUntil("mail"), clock.now().addingTimeInterval(301))
        try recordOpen("news", secondsAgo: -2, store: service.store)
        XCTAssertNil(service.graceUntil("news"), "an Open in the future is a clock that moved back, not a grace")
        config.graceMinutes = 0
        XCTAssertNil(try self.service(config).graceUntil("chat"), "grace off")
    }

    /// The hours without a gate come before grace, and each pass is recorded by the service
    /// with the recorder's session, app and time.
    func testAdmissionIsScheduleThenGraceThenAGateAndRecordsEachPass() throws {
        var config = MigaConfig()
        config.graceMinutes = 5
        var service = try service(config)
        let recorder = GateRecorder(app: "chat", session: "s1", store: service.store, clock: clock)
        guard case .gate(let plan) = service.admit("chat", recorder: recorder) else { return XCTFail("a gate") }
        XCTAssertEqual(plan.timerSeconds, config.timerSeconds)
        XCTAssertEqual(try service.store.allEvents(), [], "a gate records nothing until it is shown")

        try recordOpen("chat", secondsAgo: 60, store: service.store)
        XCTAssertEqual(service.admit("chat", recorder: recorder), .grace(until: clock.now().addingTimeInterval(240)))
        let pass = try XCTUnwrap(service.store.allEvents().last)
        XCTAssertEqual([pass.type.rawValue, pass.app, pass.session], ["grace_pass", "chat", "s1"])
        XCTAssertEqual(pass.timestamp, Int64(clock.now().timeIntervalSince1970 * 1000))

        let loaded = try ConfigLoader().parse("""
            grace_minutes = 5
            [[schedule]]
            days = "daily"
            from = "00:00"
            to = "23:59"
            gate = false
            """, path: "config.toml")
        service = GateService(config: loaded.config, store: service.store, context: context)
        XCTAssertEqual(service.admit("chat", recorder: recorder), .schedule, "the schedule first, grace or not")
        let skipped = try XCTUnwrap(service.store.allEvents().last)
        XCTAssertEqual([skipped.type.rawValue, skipped.detail], ["gateway_skipped", Event.reasonDetail("schedule")])
    }

    /// The same grace decides both surfaces: an Open in the browser lets the terminal's gate
    /// pass for that site's app name, and the terminal's Open for an app does the same for the
    /// browser's state. (Both used to have a rule of their own, with different edges.)
    func testTheTerminalAndTheBrowserShareOneGrace() throws {
        _ = try root.write("grace_minutes = 5\nsites = [\"reddit.com\"]\n", to: "home/.config/miga/config.toml")
        let store = try EventStore(paths: context.paths)
        try recordOpen(SiteMatcher.appName(site: "reddit.com"), secondsAgo: -1, store: store)
        let host = NativeHostService(context: context)
        let reply = try XCTUnwrap(JSONSerialization.jsonObject(with: host.reply(to: Data(#"{"type":"gate","id":1,"url":"https://reddit.com/"}"#.utf8))) as? [String: Any])
        XCTAssertEqual(reply["reason"] as? String, "grace", "\(reply)")
        XCTAssertEqual(Gatekeeper(context: context).run(GateRequest(app: SiteMatcher.appName(site: "reddit.com"), command: ["/bin/true"])),
                       126, "FakeLauncher's exec throws")
        XCTAssertEqual(launcher.calls.map(\.command.arguments), [["/bin/true"]], "the terminal's gate let it through as well")
        XCTAssertEqual(try store.allEvents().filter { $0.type == .gracePass }.count, 2)
    }
}
