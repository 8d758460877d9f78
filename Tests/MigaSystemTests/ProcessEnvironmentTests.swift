#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import MigaSystem
import XCTest

/// The environment a launch reads, straight from `environ` (not ProcessInfo's copy).
final class ProcessEnvironmentTests: XCTestCase {
    /// Runs `body` with `environ` set to these entries (NULL-terminated), then puts it back.
    private func with(_ entries: [String], _ body: () -> Void) {
        let strings = entries.map { strdup($0) } + [nil]
        defer { strings.forEach { free($0) } }
        var array = strings
        let saved = environ
        array.withUnsafeMutableBufferPointer { buffer in
            environ = buffer.baseAddress
            body()
            environ = saved
        }
    }

    func testEveryNameAndValueAsExecGaveThem() {
        with(["HOME=/home/a", "PATH=/usr/bin:/bin", "EQUALS=a=b=c", "EMPTY=", "TERM=xterm-256color"]) {
            XCTAssertEqual(LinuxSystem.processEnvironment(), [
                "HOME": "/home/a", "PATH": "/usr/bin:/bin", "EQUALS": "a=b=c", "EMPTY": "", "TERM": "xterm-256color",
            ])
        }
    }

    func testTheFirstOfANameGivenTwiceIsKeptAsGetenvFindsIt() {
        with(["HOME=/first", "X=1", "HOME=/second"]) {
            XCTAssertEqual(LinuxSystem.processEnvironment()["HOME"], "/first")
            XCTAssertEqual(String(cString: getenv("HOME")), "/first")
        }
    }

    func testEntriesWithoutANameAreSkippedAndBadUTF8IsRepaired() {
        with(["NOEQUALS", "=nameless", "OK=yes", "BYTES=caf\u{00E9}"]) {
            let environment = LinuxSystem.processEnvironment()
            XCTAssertEqual(environment.keys.sorted(), ["BYTES", "OK"])
            XCTAssertEqual(environment["BYTES"], "café")
        }
        // A lone continuation byte is not UTF-8: replaced, never a crash.
        let raw: [CChar] = Array("V=a".utf8CString.dropLast()).map { $0 } + [CChar(bitPattern: 0x80), 0]
        let copy = raw.withUnsafeBufferPointer { strdup($0.baseAddress!) }
        defer { free(copy) }
        var array: [UnsafeMutablePointer<CChar>?] = [copy, nil]
        let saved = environ
        array.withUnsafeMutableBufferPointer { buffer in
            environ = buffer.baseAddress
            XCTAssertEqual(LinuxSystem.processEnvironment()["V"], "a\u{FFFD}")
            environ = saved
        }
    }

    func testNoEnvironmentAtAll() {
        // What clearenv() leaves (not called here: it would free the array other tests set).
        let saved = environ
        environ = nil
        XCTAssertEqual(LinuxSystem.processEnvironment(), [:])
        environ = saved
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
