import Foundation
import XCTest
@testable import MigaCore
import MigaTestSupport

/// `events import` reads the export's own shape straight from the bytes; every other line
/// goes through the full JSON parser. The fast path must never accept a line the full parser
/// refuses, nor read one differently.
final class ImportFastPathTests: XCTestCase {
    func fast(_ line: String) -> Event? {
        var line = line
        return line.withUTF8 { bytes in
            EventLine.exportedFields(UnsafeRawBufferPointer(bytes)).map {
                Event(timestamp: $0.timestamp, utcOffsetMinutes: $0.offsetMinutes, session: String(decoding: $0.session, as: UTF8.self),
                      type: $0.type, app: String(decoding: $0.app, as: UTF8.self),
                      contentID: $0.contentID.map { String(decoding: $0, as: UTF8.self) }, waitMilliseconds: $0.waitMilliseconds,
                      detail: $0.detail.map { String(decoding: $0, as: UTF8.self) })
            }
        }
    }

    func testTheFastPathAgreesWithTheFullParser() throws {
        let base = #"{"ts":"2026-11-21T09:30:00.000+01:00","type":"exit_selected","app":"discord","session":"s1","content_id":null,"wait_ms":31000,"detail":null}"#
        var lines = [base]
        // Every exported event shape, and then every small change to one.
        for type in EventType.allCases { lines.append(base.replacingOccurrences(of: "exit_selected", with: type.rawValue)) }
        let variants: [(String, String)] = [
            ("\"content_id\":null", "\"content_id\":\"stoic-speck\""), ("\"content_id\":null", "\"content_id\":\"\""),
            ("31000", "0"), ("31000", "null"), ("31000", "007"), ("31000", "-1"), ("31000", "31000.0"), ("31000", "999999999999"),
            ("31000", "99999999999"), ("31000", "1e3"), ("31000", "true"), ("+01:00", "Z"), ("+01:00", "-14:00"), ("+01:00", "+15:00"),
            (".000", ""), ("2026-11-21", "2026-02-30"), ("09:30", "24:30"), ("\"app\":\"discord\"", "\"app\":\"\""),
            ("\"session\":\"s1\"", "\"session\":\"\""), ("discord", "dis\\u0063ord"), ("discord", "dïscord"), ("discord", "dis\tcord"),
            ("\"detail\":null", "\"detail\":{\"intention\":\"x\"}"), ("\"detail\":null", "\"detail\":[]"), ("exit_selected", "exit"),
            ("{\"ts\"", "{ \"ts\""), ("\"type\":", "\"type\" :"), ("}", "} "), ("}", "}\r"), ("}", "},"), ("}", "}}"),
            ("\"wait_ms\":31000,", ""), ("\"ts\":\"2026-11-21T09:30:00.000+01:00\",", ""), ("s1", "a\"b"),
        ]
        // Details: the recorded ones (focus, Open, timebox, loosened), and each way to be other than the parser writes them back.
        let details = [
            #"{"seconds":30}"#, #"{"intention":"reply to Sam","minutes":15}"#, #"{"budget":true,"minutes":30}"#, #"{}"#,
            #"{"choice":"extend"}"#, #"{"from":"5","setting":"wait_seconds","to":"3"}"#, #"{"a":null,"b":false}"#, #"{"seconds":0}"#,
            #"{"minutes":15,"intention":"x"}"#, #"{"a":1,"a":2}"#, #"{"seconds":030}"#, #"{"seconds":-3}"#, #"{"seconds":1.5}"#,
            #"{"seconds":1e2}"#, #"{ "seconds":30}"#, #"{"seconds": 30}"#, #"{"seconds":30 }"#, #"{"a":[1]}"#, #"{"a":{"b":1}}"#,
            #"{"a":"\u00e9"}"#, #"{"a":"é"}"#, #"{"a":"x\"y"}"#, #"{"a":"x\/y"}"#, #"{"a":1,}"#, #"{,}"#, #"{"a"}"#, #"{"a":}"#,
            #"{"a":tru}"#, #"{"a":1}}"#, #"{"a":1"#, #"{"B":1,"a":2}"#, #"{"a":2,"B":1}"#, #"{"":1}"#, #"{"seconds":1234567890123456}"#,
            #"{"seconds":123456789012345}"#, #"{"a":1} "#, "{\"a\":\"x\ty\"}",
        ]
        for detail in details { lines.append(base.replacingOccurrences(of: "\"detail\":null", with: "\"detail\":" + detail)) }
        for (from, to) in variants { lines.append(base.replacingOccurrences(of: from, with: to)) }
        var accepted = 0
        for line in lines {
            let full = try? EventLine.parse(Data(line.utf8))
            guard let quick = fast(line) else { continue }
            accepted += 1
            XCTAssertEqual(quick, full, "the fast path read differently (or accepted what the full parser refuses): \(line)")
        }
        XCTAssertGreaterThanOrEqual(accepted, 25, "the usual shapes take the fast path")
        for detail in details.prefix(8) {
            XCTAssertNotNil(fast(base.replacingOccurrences(of: "\"detail\":null", with: "\"detail\":" + detail)), "a recorded detail: \(detail)")
        }
        XCTAssertNotNil(fast(base))
    }

    /// A file mixing both paths imports exactly what the full parser alone would, and a
    /// duplicate across the two paths is still found.
    func testAMixedFileImportsAsTheFullParserReadsIt() throws {
        let folder = try TemporaryDirectory()
        let lines = [
            #"{"ts":"2026-11-21T09:30:00.000+01:00","type":"session_start","app":"discord","session":"s1","content_id":"a","wait_ms":null,"detail":null}"#,
            #"{"app":"discord","ts":"2026-11-21T09:30:00.000+01:00","type":"session_start","session":"s1","content_id":"a","wait_ms":null,"detail":null}"#,
            #"{"ts":"2026-11-21T09:31:00.000+01:00","type":"open_selected","app":"dïscord","session":"s1","content_id":null,"wait_ms":31000,"detail":{"intention":"say hi"}}"#,
            #"{"ts":"2026-11-21T09:32:00.000Z","type":"exit_selected","app":"x","session":"s2","content_id":"","wait_ms":0,"detail":null}"#,
        ]
        let store = try EventStore(path: folder.path + "/a.sqlite3")
        let result = try store.importLines(Data(lines.joined(separator: "\n").utf8), name: "mixed")
        XCTAssertEqual(result.imported, 3)
        XCTAssertEqual(result.alreadyPresent, 1, "the reordered copy of the first line is the same event")
        let expected = try [lines[0], lines[2], lines[3]].map { try EventLine.parse(Data($0.utf8)) }
        XCTAssertEqual(try store.allEvents().map { var event = $0; event.id = nil; return event }, expected)
        XCTAssertEqual(try store.allEvents()[2].contentID, "", "an empty content id stays empty, not NULL")
        // Into a database that has events: the duplicate check runs in SQLite.
        let again = try store.importLines(Data(lines.joined(separator: "\n").utf8), name: "mixed")
        XCTAssertEqual(again.imported, 0)
        XCTAssertEqual(again.alreadyPresent, 4)
    }

    /// An event's identity hash is the same read from its line's bytes and parsed, and tells
    /// apart what differs in any field, however the bytes fall between session and app and
    /// whatever their lengths against the hash's eight-byte steps.
    func testTheIdentityHashAgreesOnBothPathsAndTellsEventsApart() throws {
        var generator = SplitMix64(seed: 49)
        var seen: [UInt64: String] = [:]
        func text(_ length: Int) -> String {
            String((0..<length).map { _ in Character(Unicode.Scalar(UInt8.random(in: 0x61...0x66, using: &generator))) })
        }
        for index in 0..<20_000 {
            let event = Event(timestamp: 1_790_000_000_000 + Int64.random(in: 0...3, using: &generator), utcOffsetMinutes: 60,
                              session: text(Int.random(in: 1...19, using: &generator)), type: EventType.allCases.randomElement(using: &generator)!,
                              app: text(Int.random(in: 1...19, using: &generator)))
            var line = EventLine.jsonl(event)
            let fromBytes = try line.withUTF8 { bytes in
                let fields = try XCTUnwrap(EventLine.exportedFields(UnsafeRawBufferPointer(bytes)))
                return ImportRow.identity(fields.timestamp, fields.session, fields.type, fields.app)
            }
            XCTAssertEqual(fromBytes, ImportRow.identity(event), "line \(index)")
            let key = "\(event.timestamp) \(event.session) \(event.type.rawValue) \(event.app)"
            if let other = seen[fromBytes] { XCTAssertEqual(other, key, "two events, one identity") }
            seen[fromBytes] = key
        }
        let split = [("ab", "c"), ("a", "bc"), ("abcdefgh", "i"), ("abcdefghi", ""), ("abcdefg", "hi")].map {
            ImportRow.identity(Event(timestamp: 7, utcOffsetMinutes: 0, session: $0.0, type: .focus, app: $0.1))
        }
        XCTAssertEqual(Set(split).count, split.count, "the same bytes split differently between session and app")
    }

    /// The eight-bytes-a-step test of a string's bytes says what the byte-by-byte one says, for
    /// words made mostly of the bytes at the edges of each range.
    func testTheWordAtATimeStringScanAgreesWithTheByteByByteOne() {
        var generator = SplitMix64(seed: 8)
        let edges: [UInt8] = [0x00, 0x01, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F, 0x80, 0x81, 0xA2, 0xDC, 0xFE, 0xFF]
        for _ in 0..<300_000 {
            let bytes = (0..<8).map { _ in Bool.random(using: &generator) ? edges.randomElement(using: &generator)! : UInt8.random(in: 0x20...0x7E, using: &generator) }
            let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            let plain = bytes.allSatisfy { $0 >= 0x20 && $0 <= 0x7E && $0 != 0x22 && $0 != 0x5C }
            XCTAssertEqual(ExportedLineCursor.allPlain(word), plain, "\(bytes)")
        }
    }

    func testTheIdentitySetFindsEveryRepeatAndNothingElse() {
        var set = IdentitySet()
        var generator = SystemRandomNumberGenerator()
        let keys = (0..<100_000).map { _ in UInt64.random(in: 0...UInt64.max, using: &generator) } + [0, 1, 1 << 63]
        var reference = Set<UInt64>()
        for key in keys + keys.prefix(5_000) + [0] { XCTAssertEqual(set.insert(key), reference.insert(key).inserted, "\(key)") }
    }

    /// The duplicate watch of an import into an empty database, against a plain set: times
    /// mostly rising (as an export's), sometimes going back, sometimes many at one time; every
    /// repeat found, nothing else.
    func testTheImportsDuplicateWatchFindsEveryRepeatInAnyOrder() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<300 {
            var watch = ImportedIdentities()
            var inserted: [UInt64] = []
            var reference = Set<UInt64>()
            var asked = 0
            var time: Int64 = 1_000
            // An identity includes its time, as the import's does (a copy is at the same time).
            func identity(_ key: Int, at time: Int64) -> UInt64 { UInt64(bitPattern: time) << 8 | UInt64(key) }
            var events: [(identity: UInt64, time: Int64)] = []
            for _ in 0..<Int.random(in: 1...400, using: &generator) {
                if let earlier = events.randomElement(using: &generator), Int.random(in: 0..<100, using: &generator) < 3 {
                    events.append(earlier) // a copy, maybe far back
                    continue
                }
                switch Int.random(in: 0..<100, using: &generator) {
                case 0..<60: time += Int64.random(in: 1...5, using: &generator)
                case 60..<62 where round % 3 == 0: time -= Int64.random(in: 1...50, using: &generator) // out of order
                default: break // the same millisecond
                }
                events.append((identity(Int.random(in: 0...255, using: &generator), at: time), time))
            }
            if round % 5 == 0 { // crowded: 30 events in one millisecond, then a copy of the first of them
                time += 1
                events += (0..<30).map { (identity($0, at: time), time) } + [(identity(0, at: time), time)]
            }
            for event in events {
                // As the import does: the event is inserted, then asked about.
                inserted.append(event.identity)
                let unique = watch.insert(event.identity, at: event.time) { asked += 1; return inserted }
                let expected = reference.insert(event.identity).inserted
                XCTAssertEqual(unique, expected, "round \(round): \(event)")
                if !unique { break } // the import stops watching at the first repeat
            }
            XCTAssertLessThanOrEqual(asked, 1, "the inserted identities are read at most once")
        }
    }

    /// Through the import itself: a copy after the times went back, and a copy among many
    /// events of one millisecond, are each counted as already present.
    func testAnImportOutOfTimeOrderStillFindsACopy() throws {
        func line(_ time: String, _ session: String) -> String {
            #"{"ts":"2026-11-21T09:30:\#(time)Z","type":"exit_selected","app":"discord","session":"\#(session)","content_id":null,"wait_ms":1,"detail":null}"#
        }
        let folder = try TemporaryDirectory()
        let backwards = [line("03.000", "a"), line("01.000", "b"), line("02.000", "c"), line("03.000", "a")]
        let first = try EventStore(path: folder.path + "/a.sqlite3").importLines(Data(backwards.joined(separator: "\n").utf8), name: "x")
        XCTAssertEqual([first.imported, first.alreadyPresent], [3, 1])
        let crowded = (0..<40).map { line("05.000", "s\($0)") } + [line("05.000", "s0")]
        let second = try EventStore(path: folder.path + "/b.sqlite3").importLines(Data(crowded.joined(separator: "\n").utf8), name: "y")
        XCTAssertEqual([second.imported, second.alreadyPresent], [40, 1])
        XCTAssertEqual(try EventStore(path: folder.path + "/b.sqlite3").allEvents().count, 40)
    }

}
