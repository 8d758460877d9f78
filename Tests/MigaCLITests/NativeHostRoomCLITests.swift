import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// The room's messages through the built `miga native-host` on pipes, as a browser (or an
/// extension gone wrong) sends them: hostile numbers are refused or taken as absent, a return
/// records nothing, and the host lives on.
extension NativeHostTests {
    func testTheRoomsMessagesThroughTheBinaryWithHostileValues() throws {
        try home.writeConfig("timer_seconds = 15\nsites = [\"reddit.com\"]\nreentry_minutes = 10\n")
        let host = try Host(home.binary, ["native-host", "chrome-extension://\(BrowserExtension.chromiumID)/"],
                            environment: home.environment(["MIGA_IDLE_SECONDS": "20"]), stderrPath: home.root + "/host-room.err")
        host.send(#"{"type":"hello","id":1}"#)
        XCTAssertEqual(host.receive()?["idle_seconds"] as? Int, 20)
        for (away, action) in [("599", "go"), ("600", "gate"), ("-5", "gate"), ("-9223372036854775808", "gate"), ("1e400", nil),
                               ("\"x\"", "gate")] {
            host.send(#"{"type":"reentry","id":2,"url":"https://old.reddit.com/r/x","away_seconds":\#(away)}"#)
            let reply = host.receive()
            XCTAssertNotNil(reply, "the host died on \(away): \(host.stderr)")
            XCTAssertEqual(reply?["action"] as? String, action, "\(away): \(reply ?? [:])")
        }
        host.send(#"{"type":"reentry","id":3,"url":"https://example.org/"}"#)
        XCTAssertTrue(host.receive()?["site"] is NSNull)
        for seconds in ["0", "61", "-1", "9223372036854775807", "\"60\""] {
            host.send(#"{"type":"focus","id":4,"url":"https://reddit.com/","seconds":\#(seconds)}"#)
            XCTAssertEqual(host.receive()?["error"] as? String, #""seconds" is missing or not valid"#, seconds)
        }
        host.send(#"{"type":"focus","id":5,"url":"https://reddit.com/","seconds":60}"#)
        XCTAssertEqual(host.receive()?["minutes_today"] as? Double, 1.0)
        host.send(#"{"type":"budget_end","id":6,"url":"https://reddit.com/","choice":"rm -rf\u001b[2J"}"#)
        XCTAssertEqual(host.receive()?["error"] as? String, "unknown choice \"rm -rf\u{FFFD}[2J\" (one of close, keep, gone)")
        host.send(#"{"type":"budget_end","id":7,"url":"https://reddit.com/","choice":"keep"}"#)
        XCTAssertEqual(host.receive()?["recorded"] as? Bool, false, "reddit.com has no budget")
        host.closeInput()
        XCTAssertEqual(host.exitStatus(), 0, host.stderr)
        XCTAssertEqual(try home.events().map(\.type), [.focus], "a return records nothing; one focus event")
    }
}
