#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
@testable import MigaSystem
import XCTest

/// The environment a launch reads, straight from `environ` (not ProcessInfo's copy).
final class ProcessEnvironmentTests: XCTestCase {
    /// What `environment(of:)` makes of these entries as a NULL-terminated array.
    private func read(_ entries: [String]) -> [String: String] {
        let strings = entries.map { strdup($0) } + [nil]
        defer { strings.forEach { free($0) } }
        return strings.withUnsafeBufferPointer { LinuxSystem.environment(of: $0.baseAddress) }
    }

    func testTheProcessOwnIsGetenvs() {
        let environment = LinuxSystem.processEnvironment()
        XCTAssertFalse(environment.isEmpty)
        for (name, value) in environment { XCTAssertEqual(getenv(name).map { String(cString: $0) }, value, name) }
    }

    func testEveryNameAndValueAsExecGaveThem() {
        XCTAssertEqual(read(["HOME=/home/a", "PATH=/usr/bin:/bin", "EQUALS=a=b=c", "EMPTY=", "TERM=xterm-256color"]), [
            "HOME": "/home/a", "PATH": "/usr/bin:/bin", "EQUALS": "a=b=c", "EMPTY": "", "TERM": "xterm-256color",
        ])
    }

    func testTheFirstOfANameGivenTwiceIsKeptAsGetenvFindsIt() {
        XCTAssertEqual(read(["HOME=/first", "X=1", "HOME=/second"])["HOME"], "/first")
    }

    func testEntriesWithoutANameAreSkippedAndBadUTF8IsRepaired() {
        let environment = read(["NOEQUALS", "=nameless", "OK=yes", "BYTES=caf\u{00E9}"])
        XCTAssertEqual(environment.keys.sorted(), ["BYTES", "OK"])
        XCTAssertEqual(environment["BYTES"], "café")
        // A lone continuation byte is not UTF-8: replaced, never a crash.
        let raw: [CChar] = Array("V=a".utf8CString.dropLast()).map { $0 } + [CChar(bitPattern: 0x80), 0]
        let copy = raw.withUnsafeBufferPointer { strdup($0.baseAddress!) }
        defer { free(copy) }
        let array: [UnsafeMutablePointer<CChar>?] = [copy, nil]
        XCTAssertEqual(array.withUnsafeBufferPointer { LinuxSystem.environment(of: $0.baseAddress) }["V"], "a\u{FFFD}")
    }

    func testNoEnvironmentAtAll() {
        // What clearenv() leaves.
        XCTAssertEqual(LinuxSystem.environment(of: nil), [:])
    }
}

final class StringIncludesTests: XCTestCase {
    func testIncludesAsContainsSays() {
        let cases: [(String, String)] = [
            ("xterm-256color", "256color"), ("screen-256color-bce", "256color"), ("xterm", "256color"),
            ("256colo", "256color"), ("", "a"), ("abc", ""), ("", ""), ("aaab", "aab"), ("café au lait", "é a"),
            ("naïve", "i"), ("日本語のテキスト", "テキ"), ("tail", "il"), ("head", "he"), ("x", "xx"),
        ]
        for (text, needle) in cases {
            XCTAssertEqual(text.includes(needle), scalarsContain(text, needle), "\(text) / \(needle)")
        }
    }

    /// The definition: some run of the text's scalars equals the needle's.
    private func scalarsContain(_ text: String, _ needle: String) -> Bool {
        let text = Array(text.unicodeScalars), needle = Array(needle.unicodeScalars)
        guard !needle.isEmpty else { return true }
        guard needle.count <= text.count else { return false }
        return (0...(text.count - needle.count)).contains { Array(text[$0..<$0 + needle.count]) == needle }
    }
}
