import Foundation
import XCTest
@testable import MigaCore
import MigaSystem
import MigaTestSupport

/// The host's loop on pipes, in-process: a config edit made while the host works out its answer
/// to the extension is pushed after that answer, not lost until the next edit.
final class NativeHostPushTests: XCTestCase {
    func testAnEditSavedWhileTheStateIsWorkedOutIsPushedAfterIt() throws {
        let (root, clock, context) = try TestContext.withFakeClock()
        let config = try root.write("sites = [\"reddit.com\"]\n", to: "home/.config/miga/config.toml")
        var toHost: [Int32] = [-1, -1], fromHost: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&toHost), 0)
        XCTAssertEqual(pipe(&fromHost), 0)
        defer { [toHost[1], fromHost[0]].forEach { close($0) } }
        var host = NativeHost(context: context)
        host.input = FileDescriptor(rawValue: toHost[0])
        host.output = FileDescriptor(rawValue: fromHost[1])

        // The person saves (an editor's rename over the file) at the host's first look at the
        // clock while it answers "state": after it read config.toml for that answer.
        let saved = NSLock()
        var edits = 0
        clock.onNow = {
            saved.lock()
            defer { saved.unlock() }
            guard edits == 0 else { return }
            edits += 1
            try? Data("sites = [\"reddit.com\", \"late.test\"]\n".utf8).write(to: URL(fileURLWithPath: config), options: .atomic)
        }
        let finished = DispatchSemaphore(value: 0)
        // The host runs on its own thread as it runs in its own process; the test only reads pipes.
        nonisolated(unsafe) let running = host
        let thread = Thread { [toHost, fromHost] in
            _ = running.run()
            close(toHost[0])
            close(fromHost[1])
            finished.signal()
        }
        thread.start()

        let frame = NativeMessageFraming.frame(Data(#"{"type":"state","id":1}"#.utf8))
        XCTAssertEqual(frame.withUnsafeBytes { write(toHost[1], $0.baseAddress, $0.count) }, frame.count)
        let reader = NativeMessageReader(descriptor: fromHost[0])
        let answer = try XCTUnwrap(reader.receive(timeout: 10), "no answer to state")
        XCTAssertEqual(answer["id"] as? Int, 1)
        XCTAssertEqual(answer["sites"] as? [String], ["reddit.com"], "the answer was worked out from the file before the edit")
        let pushed = try XCTUnwrap(reader.receive(timeout: 10), "the edit made during the answer was never pushed")
        XCTAssertEqual(pushed["type"] as? String, "state")
        XCTAssertTrue(pushed["id"] is NSNull)
        XCTAssertEqual(pushed["sites"] as? [String], ["reddit.com", "late.test"])
        XCTAssertNil(reader.receive(timeout: 1), "one push for one edit")

        close(toHost[1])
        toHost[1] = -1
        XCTAssertEqual(finished.wait(timeout: .now() + 10), .success, "the host ends when the browser closes the pipe")
    }
}
