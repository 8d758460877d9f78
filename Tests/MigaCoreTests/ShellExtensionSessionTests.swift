import Foundation
import XCTest
@testable import MigaCore
import MigaTestSupport

/// `miga watch --shell`'s end of the GNOME Shell extension's line protocol, over real pipes:
/// what it reports, what it says, and what it does with lines nobody should send.
final class ShellExtensionSessionTests: XCTestCase {
    var root: TemporaryDirectory!
    var messages: CollectingSink!
    var toWatcher: Pipe!, fromWatcher: Pipe!
    var session: ShellExtensionSession!

    override func setUpWithError() throws {
        root = try TemporaryDirectory()
        messages = CollectingSink()
        toWatcher = Pipe()
        fromWatcher = Pipe()
        let context = try TestContext.make(root: root, messages: messages)
        session = ShellExtensionSession(context: context, input: FileDescriptor(rawValue: toWatcher.fileHandleForReading.fileDescriptor),
                                        output: FileDescriptor(rawValue: fromWatcher.fileHandleForWriting.fileDescriptor))
    }

    func send(_ text: String) {
        toWatcher.fileHandleForWriting.write(Data(text.utf8))
    }

    /// Every event until the pipe has nothing more for 200 ms.
    func received() throws -> [DesktopEvent] {
        var events: [DesktopEvent] = []
        var quiet = 0
        while quiet < 4 {
            if let event = try session.next(milliseconds: 50) { events.append(event); quiet = 0 } else { quiet += 1 }
        }
        return events
    }

    func said() -> [String] {
        try? fromWatcher.fileHandleForWriting.close()
        return String(decoding: fromWatcher.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: "\n").map(String.init)
    }

    func testItSaysHelloReportsFocusAndIdleAndAsksInItsOwnWords() throws {
        send(#"{"type":"focus","window":"17","desktop_id":"discord.desktop","app_id":"discord","wm_class":["discord","Discord"],"pid":4242}"#
             + "\n" + #"{"type":"focus","window":"18","desktop_id":null}"# + "\n" + #"{"type":"focus"}"# + "\n"
             + #"{"type":"idle","idle":true}"# + "\n" + #"{"type":"idle","idle":false}"# + "\n" + #"{"type":"later","x":1}"# + "\n")
        XCTAssertEqual(try received(), [
            .focused(WindowFacts(id: "17", desktopID: "discord.desktop", applicationID: "discord", wmClass: ["discord", "Discord"], pid: 4242)),
            .focused(WindowFacts(id: "18")), .focused(nil), .idle(true), .idle(false),
        ])
        XCTAssertEqual(messages.lines, [], "an unknown type is for a later version: ignored, not refused")
        session.watchIdle(true, idleSeconds: 300)
        session.raise("17")
        session.minimise("17")
        session.close("18")
        session.watchIdle(false, idleSeconds: 300)
        XCTAssertEqual(said(), [#"{"type":"hello","version":1}"#, #"{"type":"watch_idle","on":true,"idle_seconds":300}"#,
                                #"{"type":"raise","window":"17"}"#, #"{"type":"minimise","window":"17"}"#,
                                #"{"type":"close","window":"18"}"#, #"{"type":"watch_idle","on":false}"#])
        XCTAssertEqual(session.activationEnvironment(), [:])
    }

    /// A 10 MB line, a NUL, bad JSON, numbers out of range, wrong kinds: each refused line is
    /// one line on stderr and nothing else; what follows is read as ever.
    func testHostileLinesAreIgnoredWithOneLineEach() throws {
        let good = #"{"type":"focus","window":"2"}"# + "\n"
        let fd = toWatcher.fileHandleForWriting.fileDescriptor
        let writer = Thread {
            Self.writeAll(Array(repeating: UInt8(ascii: "a"), count: 10_000_000) + Array(("\n" + good).utf8), to: fd)
        }
        writer.start()
        var events: [DesktopEvent] = []
        let deadline = Date().addingTimeInterval(30)
        while events.isEmpty, Date() < deadline {
            if let event = try session.next(milliseconds: 100) { events.append(event) }
        }
        XCTAssertEqual(events, [.focused(WindowFacts(id: "2"))])
        XCTAssertEqual(messages.lines, ["miga watch: ignored a line from the GNOME Shell extension: a line longer than 64 KiB"])

        messages.lines = []
        send("{\"type\":\"focus\",\"window\":\"1\u{0}\"}\n" + #"{"type":"focus","window":"a\u0000b"}"# + "\n" + "{\"type\":\n"
             + #"{"type":"focus","window":17}"# + "\n" + #"{"type":"idle","idle":"yes"}"# + "\n" + #"[1,2]"# + "\n"
             + #"{"type":"focus","window":"3","pid":1e400}"# + "\n"
             + #"{"type":"focus","window":"4","pid":99999999999999999999,"wm_class":"x","app_id":7,"desktop_id":""}"# + "\n"
             + #"{"type":"focus","window":"5","pid":-1,"wm_class":["a",1,"b","c"]}"# + "\n" + "\n" + good)
        XCTAssertEqual(try received(), [.focused(WindowFacts(id: "4")), .focused(WindowFacts(id: "5", wmClass: ["a"])),
                                        .focused(WindowFacts(id: "2"))])
        XCTAssertEqual(messages.lines.count, 7, "\(messages.lines)")
        XCTAssertTrue(messages.lines.allSatisfy { $0.hasPrefix("miga watch: ignored a line from the GNOME Shell extension: ") })
    }

    static func writeAll(_ bytes: [UInt8], to fd: Int32) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written > 0 else { return }
            offset += written
        }
    }

    func testTheEndOfThePipeEndsTheSession() throws {
        send(#"{"type":"focus","window":"1"}"# + "\n" + #"{"type":"focus","window":"2"}"#) // the last without its newline
        try toWatcher.fileHandleForWriting.close()
        XCTAssertEqual(try session.next(milliseconds: 1000), .focused(WindowFacts(id: "1")))
        XCTAssertThrowsError(try session.next(milliseconds: 1000)) { error in
            XCTAssertTrue(error is DesktopSessionEnded, "\(error)")
        }
    }

    func testAFloodOfBadLinesIsSaidAHundredTimesAtMost() throws {
        session.take(ArraySlice(Array(String(repeating: "nope\n", count: 500).utf8)))
        XCTAssertEqual(messages.lines.count, ShellExtensionSession.complaintLimit)
        XCTAssertTrue(messages.lines.last?.hasSuffix("(no more of these are said)") == true)
    }
}
