import Foundation
import XCTest
@testable import MigaCore
import MigaTestSupport
import JSON

/// What miga wrote itself when it stopped loading Foundation (docs/PERFORMANCE.md): each piece
/// held to what Foundation does, which the tests may still load as a reference.
final class FoundationlessTests: XCTestCase {
    // MARK: JSON

    /// Documents JSONSerialization reads; JSONValue must read each to the same value.
    static let validJSON = [
        #"{}"#, #"[]"#, #"0"#, #"-0"#, #"1.5e3"#, #"-12.25E-2"#, #"true"#, #"false"#, #"null"#, #""""#,
        #"{"a":1,"b":[true,false,null],"c":{"d":"e"}}"#, " \t\r\n{ \"a\" : [ 1 , 2 ] } \n",
        #""\u00e9\ud83d\ude00\n\t\"\\\/""#, #"{"a":1,"a":2}"#, "\"caf\u{e9} \u{1F600}\"", #"[1e2, 100, 1E+2, 0.5]"#,
        #"{"intention":"check the football thread \/ 5 min"}"#, #"[[[[[]]]]]"#, #""\u0000""#,
    ]

    /// Documents JSONSerialization refuses; so must JSONValue.
    static let invalidJSON = [
        "", " ", "{", "}", "01", "1.", ".5", "+1", "1e", "--1", "0x10", "NaN", "Infinity",
        "tru", "nul", "'a'", "\"a", "\"\\x\"", "\"\\u12\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"",
        "\"a\u{1}b\"", "{\"a\" 1}", "{a:1}", "[1 2]", "1 2", "{\"a\":1}}", "[\"\\\"]", "1e400", "-2e308",
    ]

    func testJSONReadsWhatJSONSerializationReads() throws {
        for text in Self.validJSON {
            let value = try JSONValue.parse(text)
            let reference = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
            XCTAssertTrue(Self.same(value, reference), "\(text): \(value) against \(reference)")
            XCTAssertEqual(try JSONValue.parse(value.text), value, "written and read back: \(value.text)")
        }
        for text in Self.invalidJSON {
            XCTAssertThrowsError(try JSONValue.parse(text), text)
            XCTAssertNil(try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]), "reference for \(text)")
        }
        // Where JSONSerialization is lenient and RFC 8259 is not: trailing commas.
        for text in ["[1,]", "{\"a\":1,}", "[1,,2]"] { XCTAssertThrowsError(try JSONValue.parse(text), text) }
        XCTAssertEqual(try JSONValue.parse("\u{FEFF}{}"), .object([:]), "a byte order mark is passed over, as JSONSerialization does")
        XCTAssertThrowsError(try JSONValue.parse([0x22, 0xC3, 0x28, 0x22]), "invalid UTF-8 inside a string")
        XCTAssertThrowsError(try JSONValue.parse([0x22, 0xED, 0xA0, 0x80, 0x22]), "an encoded surrogate")
    }

    func testJSONNestingIsBounded() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        XCTAssertThrowsError(try JSONValue.parse(deep), "refused, not a stack overflow")
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        XCTAssertNoThrow(try JSONValue.parse(fine))
    }

    /// Random documents built from JSON's pieces (so many are valid), and random bytes: both
    /// readers accept the same ones, read them alike, and JSONValue reads its own writing back.
    func testJSONAgainstJSONSerializationOnRandomInput() throws {
        var generator = SplitMix64(seed: 0x6D69_6761)
        let pieces = ["{", "}", "[", "]", ",", ":", "\"a\"", "\"\\u00e9\"", "\"\\ud83d\\ude00\"", "1", "-0.5e3", "true", "null",
                      " ", "\"", "\\", "0", "e", ".", "\u{e9}", "x"]
        var accepted = 0
        for round in 0..<20_000 {
            let bytes: [UInt8]
            if round % 4 == 0 {
                bytes = (0..<Int.random(in: 0...12, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            } else {
                bytes = Array((0..<Int.random(in: 1...14, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined().utf8)
            }
            let value = try? JSONValue.parse(bytes)
            var reference = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
            if reference != nil, value == nil, Self.hasTrailingComma(bytes) { reference = nil } // see above
            XCTAssertEqual(value != nil, reference != nil, "accepted alike: \(String(decoding: bytes, as: UTF8.self)) \(bytes)")
            if let value, let reference {
                accepted += 1
                XCTAssertTrue(Self.same(value, reference), "\(String(decoding: bytes, as: UTF8.self)): \(value) against \(reference)")
                XCTAssertEqual(try JSONValue.parse(value.text), value)
            }
        }
        XCTAssertGreaterThan(accepted, 300, "the generator makes enough valid documents to compare")
    }

    func testJSONNumbersKeepTheirTextAndReadExactly() throws {
        XCTAssertEqual(try JSONValue.parse("31000").integer, 31_000)
        XCTAssertEqual(try JSONValue.parse("3.1e4").integer, 31_000)
        XCTAssertNil(try JSONValue.parse("1.5").integer)
        XCTAssertNil(try JSONValue.parse("true").integer, "a boolean is not a number")
        XCTAssertEqual(try JSONValue.parse("9223372036854775807").integer, Int64.max)
        XCTAssertNil(try JSONValue.parse("1e300").integer)
        XCTAssertThrowsError(try JSONValue.parse("1e400"), "beyond Double's range")
        XCTAssertEqual(try JSONValue.parse(#"{"b":1.50,"a":[-0]}"#).text, #"{"a":[-0],"b":1.50}"#, "keys sorted, numbers as written")
    }

    /// A comma followed (past white space) by a closing bracket or brace.
    static func hasTrailingComma(_ bytes: [UInt8]) -> Bool {
        let significant = bytes.filter { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return zip(significant, significant.dropFirst()).contains { $0 == UInt8(ascii: ",") && ($1 == UInt8(ascii: "]") || $1 == UInt8(ascii: "}") || $1 == UInt8(ascii: ",")) }
    }

    /// Whether a JSONValue is what JSONSerialization made of the same text.
    static func same(_ value: JSONValue, _ reference: Any) -> Bool {
        switch value {
        case .null: return reference is NSNull
        case .bool(let flag):
            guard let number = reference as? NSNumber, String(cString: number.objCType) == "c" else { return false }
            return number.boolValue == flag
        case .number:
            guard let number = reference as? NSNumber, String(cString: number.objCType) != "c" else { return false }
            return value.double == number.doubleValue || (value.double?.isNaN == true && number.doubleValue.isNaN)
        case .string(let text): return (reference as? String) == text
        case .array(let values):
            guard let array = reference as? [Any], array.count == values.count else { return false }
            return zip(values, array).allSatisfy { same($0, $1) }
        case .object(let members):
            guard let object = reference as? [String: Any], Set(object.keys) == Set(members.keys) else { return false }
            return members.allSatisfy { same($0.value, object[$0.key]!) }
        }
    }

    // MARK: Paths and strings

    func testFilePathAsNSStringDidIt() {
        for path in ["/a/b", "/a/b/", "/a", "/", "a/b", "", "/a/b.c", "~/x", "/home/ann/.local/share/miga/miga.sqlite3"] {
            XCTAssertEqual(FilePath.parent(of: path), (path as NSString).deletingLastPathComponent, "parent of \(path)")
            XCTAssertEqual(FilePath.lastComponent(of: path), (path as NSString).lastPathComponent, "last component of \(path)")
        }
        // Where Foundation (6.3.1 on Linux) stops the process ("a", "a/") or reads a root as
        // nothing ("///").
        XCTAssertEqual(FilePath.parent(of: "a"), "")
        XCTAssertEqual(FilePath.lastComponent(of: "a"), "a")
        XCTAssertEqual(FilePath.parent(of: "a/"), "")
        XCTAssertEqual(FilePath.lastComponent(of: "a/"), "a")
        XCTAssertEqual(FilePath.parent(of: "///"), "/")
        XCTAssertEqual(FilePath.lastComponent(of: "///"), "/")
    }

    func testTrimmingAndReplacingAsFoundationDidIt() {
        let samples = ["  a b \n", "\r\n x \r\n", "\u{3000}wide\u{00A0}", "\t\u{2028}y\u{85}", "", "   ", "e\u{301} ", " \u{1F600}\u{200B}",
                       "a,b\"c\"\r\nd", "\"\"\"", "x\u{0B}\u{0C}", "one\n\ntwo\n\n\nthree\n\n", "abab"]
        XCTAssertEqual("a\r\n\nb".pieces(separatedBy: "\n\n"), ["a\r", "b"], "a CRLF then LF is a paragraph break")
        XCTAssertEqual("".pieces(separatedBy: ","), [""])
        let sets: [(TrimmedCharacters, CharacterSet)] = [(.whitespaces, .whitespaces), (.newlines, .newlines),
                                                        (.whitespacesAndNewlines, .whitespacesAndNewlines)]
        for sample in samples {
            for (mine, reference) in sets {
                XCTAssertEqual(sample.trimming(mine), sample.trimmingCharacters(in: reference), "\(sample.debugDescription) \(mine)")
            }
            // Foundation compares Characters here, pieces(separatedBy:) scalars (as the other
            // helpers do): they differ only where a separator is part of a longer Character.
            for separator in ["\n\n", ",", "\"", "ab"] where !sample.contains("\r\n") {
                XCTAssertEqual(sample.pieces(separatedBy: separator), sample.components(separatedBy: separator),
                               "\(sample.debugDescription) split by \(separator.debugDescription)")
            }
            for (target, replacement) in [("\"", "\"\""), ("\n", " "), ("\r\n", "|"), ("b", ""), ("\u{301}", "!"), ("", "x")] {
                XCTAssertEqual(sample.replacingEvery(target, with: replacement),
                               sample.replacingOccurrences(of: target, with: replacement),
                               "\(sample.debugDescription): \(target.debugDescription) → \(replacement.debugDescription)")
            }
        }
    }

    func testNumberTextAsPrintfWrites() {
        for value in [0.0, 0.05, 0.125, 2.5, -3.14159, 1e20, 123.456, -0.0] {
            for places in [0, 1, 2, 3] {
                XCTAssertEqual(NumberText.fixed(value, places: places), String(format: "%.\(places)f", value), "\(value) to \(places)")
            }
        }
        XCTAssertEqual(NumberText.hex([0x00, 0x0F, 0xA0, 0xFF]), "000fa0ff")
    }

    // MARK: SQLite

    /// A database GRDB made (miga before it dropped GRDB: `events import` of five events by the
    /// 0.1.0 package): opened as it is, nothing migrated twice (only the identity index and
    /// the sync tables are new to it), every event read back, each as this machine's.
    func testOpensADatabaseMadeWithGRDB() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path + "/miga.sqlite3"
        try FileManager.default.copyItem(atPath: StatsTests.fixtures + "/../db/grdb-era.sqlite3", toPath: path)
        let store = try EventStore(path: path)
        XCTAssertEqual(try store.db.column("SELECT identifier FROM grdb_migrations ORDER BY rowid"),
                       [.text("v1"), .text("v2-exit-days"), .text("v3-application-id"), .text("v4-identity-index"), .text("v5-sync")])
        XCTAssertEqual(try store.db.value("SELECT count(*) FROM events WHERE device IS NULL"), .integer(5))
        XCTAssertEqual(try store.db.column("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events' ORDER BY name"),
                       [.text("events_by_identity"), .text("events_by_type_app_ts"), .text("events_exit_days")])
        let events = try store.allEvents()
        XCTAssertEqual(events.map(\.app), ["discord", "discord", "reddit.com", "reddit.com", "signal"])
        XCTAssertEqual(events[3].waitMilliseconds, 40_000)
        XCTAssertEqual(events[3].utcOffsetMinutes, -300)
        XCTAssertEqual(Intention.from(detail: events[3].detail), "check the football thread / 5 min", "GRDB's escaped slash read as a slash")
        try store.record(Event(timestamp: 1_795_000_000_000, utcOffsetMinutes: 0, session: "new", type: .exitSelected, app: "discord"))
        XCTAssertEqual(try store.eventCount(), 6)
        XCTAssertEqual(try store.db.value("PRAGMA journal_mode"), .text("wal"))
        XCTAssertEqual(try store.integrityCheck(), "ok")
    }

    /// A file made before the application id (migrations v1 and v2 only) gets just v3, v4 and v5.
    func testRunsOnlyTheMissingMigration() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path + "/miga.sqlite3"
        try FileManager.default.copyItem(atPath: StatsTests.fixtures + "/../db/grdb-era.sqlite3", toPath: path)
        do {
            let db = try SQLiteConnection(path: path, busyTimeout: 1)
            try db.execute("DELETE FROM grdb_migrations WHERE identifier = 'v3-application-id'; PRAGMA application_id = 0")
        }
        let store = try EventStore(path: path)
        XCTAssertEqual(try store.db.value("PRAGMA application_id"), .integer(Int64(EventStore.applicationID)))
        XCTAssertEqual(try store.db.value("SELECT count(*) FROM grdb_migrations"), .integer(5))
        XCTAssertEqual(try store.eventCount(), 5, "v1 not run again over the events")
    }

    func testSQLiteValuesErrorsAndRollback() throws {
        let folder = try TemporaryDirectory()
        let db = try SQLiteConnection(path: folder.path + "/t.sqlite3", busyTimeout: 1)
        try db.execute("CREATE TABLE t (v)")
        let values: [SQLiteValue] = [.null, .integer(Int64.min), .integer(Int64.max), .real(-0.5), .text(""), .text("é\u{0}x"),
                                     .blob([]), .blob([0, 255])]
        for value in values { try db.execute("INSERT INTO t VALUES (?)", [value]) }
        XCTAssertEqual(try db.column("SELECT v FROM t ORDER BY rowid"), values, "every kind of value, NUL inside text included")
        XCTAssertThrowsError(try db.execute("INSERT INTO nowhere VALUES (1)")) { error in
            XCTAssertTrue("\(error)".contains("no such table: nowhere"), "\(error)")
        }
        struct Stop: Error {}
        XCTAssertThrowsError(try db.transaction(immediate: true) {
            try db.execute("DELETE FROM t")
            throw Stop()
        })
        XCTAssertEqual(try db.value("SELECT count(*) FROM t"), .integer(Int64(values.count)), "rolled back")
        XCTAssertEqual(try db.transaction(immediate: false) { try db.value("SELECT count(*) FROM t") }, .integer(8))
        db.close()
        XCTAssertThrowsError(try db.value("SELECT 1"), "used after close: an error, not a crash")
    }

    // MARK: locale

    /// Whether the gate draws in UTF-8: LC_ALL, else LC_CTYPE, else LANG names a UTF-8
    /// codeset, in any case, held to Foundation's lower-casing and search on every input.
    func testLocaleIsUTF8AsFoundationWouldSearchIt() {
        var inputs = ["C.UTF-8", "en_US.utf8", "de_DE.UTF8@euro", "C", "POSIX", "", "en_US.ISO-8859-1", "UTF-", "utf",
                      "xx.uTf-8", "\u{0}utf8", "utf\r8", "ÜTF-8", "en_GB.UTF-16", "utf-8utf8"]
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("uUtTfF-8.@_ \r\u{c4}x")
        for _ in 0..<2_000 { inputs.append(String((0..<Int.random(in: 0...9, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })) }
        for value in inputs {
            let lowered = value.lowercased()
            XCTAssertEqual(TerminalText.localeIsUTF8(["LANG": value]), lowered.contains("utf-8") || lowered.contains("utf8"), value.debugDescription)
        }
        XCTAssertTrue(TerminalText.localeIsUTF8(["LC_ALL": "", "LC_CTYPE": "C.UTF-8", "LANG": "C"]), "an empty LC_ALL is not set")
        XCTAssertFalse(TerminalText.localeIsUTF8(["LC_ALL": "C", "LANG": "C.UTF-8"]), "LC_ALL wins")
    }


    // MARK: install manifest

    /// `open-url` reads only the browser it replaced from `installed.json`, without Codable:
    /// held to what the full decode (`load`) reads from what `save` writes, and to nil where
    /// `load` fails.
    func testOpenURLReadsThePreviousBrowserAsTheManifestLoadDoes() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path + "/installed.json"
        XCTAssertNil(InstallManifest.previousBrowser(recordedAt: path), "no manifest")
        for browser in [nil, "firefox-esr.desktop", "org.example.Wëb \"Browser\"/\\x.desktop", ""] as [String?] {
            var manifest = InstallManifest()
            manifest.previousBrowser = browser
            manifest.createdDirectories = ["/tmp/a"]
            manifest.record(.init(kind: .urlHandler, path: "/tmp/a/miga-url.desktop", sha256: "00"))
            try manifest.save(path: path)
            XCTAssertEqual(InstallManifest.previousBrowser(recordedAt: path), try InstallManifest.load(path: path).previousBrowser)
            XCTAssertEqual(InstallManifest.previousBrowser(recordedAt: path), browser)
        }
        for text in ["", "{", "[]", #"{"version":2,"files":[],"previousBrowser":"x.desktop"}"#, #"{"files":[],"previousBrowser":"x.desktop"}"#,
                     #"{"version":1,"previousBrowser":"x.desktop"}"#] {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            XCTAssertNil(InstallManifest.previousBrowser(recordedAt: path), text)
            XCTAssertNil(try? InstallManifest.load(path: path), "load refuses it too: \(text)")
        }
    }

}
