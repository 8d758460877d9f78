import XCTest
@testable import MigaCore
import MigaTestSupport

/// `miga gate` when miga has no home for its files: the app opens anyway, never through a shim.
final class GateWithoutHomeTests: XCTestCase {
    var root: TemporaryDirectory!
    var launcher: FakeLauncher!
    var messages: CollectingSink!
    var environment: [String: String] = [:]

    override func setUpWithError() throws {
        root = try TemporaryDirectory()
        launcher = FakeLauncher()
        messages = CollectingSink()
        _ = try root.write("#!/bin/sh\n", to: "data/miga/bin/chat", mode: 0o755) // a shim
        _ = try root.write("#!/bin/sh\n", to: "usr/bin/chat", mode: 0o755)
        environment = ["HOME": "relative", "PATH": "\(root.path)/data/miga/bin:\(root.path)/usr/bin", "LANG": "C.UTF-8"]
    }

    func run(_ request: GateRequest) -> Int32 {
        GateWithoutHome.run(request, problem: "no home", environment: environment, launcher: launcher, messages: messages)
    }

    func testOpensTheRealAppPastAnyShimFolderAndSaysWhyOnce() {
        XCTAssertEqual(run(GateRequest(app: "discord", command: ["chat", "--x", ""])), 126, "the fake exec returns")
        XCTAssertEqual(launcher.calls.map(\.command), [ResolvedCommand(executable: root.path + "/usr/bin/chat", arguments: ["chat", "--x", ""])])
        XCTAssertEqual(launcher.calls.first?.detached, false)
        var expected = environment
        expected["MIGA_GATED"] = "discord"
        XCTAssertEqual(launcher.calls.first?.environment, expected, "the app's environment as it was, plus MIGA_GATED")
        XCTAssertEqual(messages.lines.first, "miga: no home — opening discord without a pause")
    }

    func testDetachAndTheDefaultAppName() {
        XCTAssertEqual(run(GateRequest(command: [root.path + "/usr/bin/chat"], detach: true)), 0)
        XCTAssertEqual(launcher.calls.first?.detached, true)
        XCTAssertEqual(messages.lines, ["miga: no home — opening chat without a pause"])
    }

    func testWhatCannotBeRunIsAnErrorNotALoop() {
        XCTAssertEqual(run(GateRequest(command: ["no-such-program"])), 127)
        XCTAssertEqual(run(GateRequest(command: [])), 64)
        XCTAssertTrue(launcher.calls.isEmpty)
        XCTAssertEqual(messages.lines.count, 2)
        XCTAssertTrue(messages.lines[0].contains("no-such-program: command not found"), messages.lines[0])
        XCTAssertTrue(messages.lines[1].hasPrefix("miga gate: nothing to run"), messages.lines[1])
    }
}
