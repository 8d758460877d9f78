import MigaTestSupport
import XCTest
@testable import WHATWGURL

/// Every input is hostile: none of these may crash, trap or hang. Large inputs only
/// have to finish (the parser is linear; these would take minutes if it were not).
final class HostileInputTests: XCTestCase {
    private let fourMB = 4 * 1024 * 1024
    /// For the slower paths (libidn2 per label, IPv4 parsing) 1 MB is enough to show
    /// linearity: a quadratic parser would need around 10^12 steps on it.
    private let oneMB = 1024 * 1024

    func testFourMegabyteURLs() {
        let longPath = "https://reddit.com/" + String(repeating: "a", count: fourMB)
        XCTAssertEqual(WebURL.parse(longPath)?.host, .domain("reddit.com"))
        XCTAssertEqual(WebURL.parse(longPath)?.path.utf8.count, fourMB + 1)

        XCTAssertEqual(WebURL.parse("https://" + String(repeating: "a", count: fourMB) + "/")?.host?.serialized.utf8.count, fourMB)
        XCTAssertEqual(WebURL.parse("https://" + String(repeating: "@", count: fourMB) + "x/")?.host, .domain("x"))
        XCTAssertNotNil(WebURL.parse("https://x/?" + String(repeating: "ü'", count: fourMB / 4)))
        XCTAssertEqual(WebURL.parse(String(repeating: " ", count: fourMB / 2) + "https://x/" + String(repeating: "\t", count: fourMB / 2))?.href, "https://x/")
    }

    func testMegabyteInputsOnEveryPath() {
        XCTAssertEqual(WebURL.parse("https://reddit.com/" + String(repeating: "../", count: oneMB / 3))?.path, "/")
        XCTAssertEqual(WebURL.parse("file:///C:/" + String(repeating: "%2e%2E/", count: oneMB / 7))?.path, "/C:/")
        XCTAssertEqual(WebURL.parse("https://" + String(repeating: ".", count: oneMB) + "/")?.host?.serialized.utf8.count, oneMB)
        XCTAssertNil(WebURL.parse("https://" + String(repeating: "ü", count: oneMB / 2) + "/"))
        XCTAssertNotNil(WebURL.parse("https://" + String(repeating: "ü.", count: oneMB / 6) + "/"))
        XCTAssertNil(WebURL.parse("https://[" + String(repeating: "1:", count: oneMB / 2) + "]/"))
        XCTAssertNil(WebURL.parse("https://0x" + String(repeating: "f", count: oneMB) + "/"))
        XCTAssertNil(WebURL.parse("https://" + String(repeating: "1.", count: oneMB / 2) + "/"))
        XCTAssertEqual(WebURL.parse("sc://" + String(repeating: "ü", count: oneMB / 2) + "/")?.host?.serialized.utf8.count, oneMB / 2 * 6)
        XCTAssertEqual(WebURL.parse("https://x:" + String(repeating: "0", count: oneMB) + "1/")?.port, 1)
    }

    func testControlAndOddCharacters() {
        let cases: [(String, String?)] = [
            ("https://reddit.com/\u{0}x", "https://reddit.com/%00x"), ("\u{0}https://x\u{0}", "https://x/"),
            ("https://red\u{0}dit.com", nil), ("https://reddit\u{7F}.com", nil), ("https://red dit.com", nil),
            ("https://\u{301}/", nil), ("https://a\u{301}/", "https://xn--1ca/"), ("https://\u{FFFD}/", nil),
            ("https://x/\u{FFFD}", "https://x/%EF%BF%BD"), ("https://x/\u{301}", "https://x/%CC%81"),
            ("https://[/", nil), ("https://[::1/", nil), ("https://]/", nil), ("https://a[b]/", nil), ("sc://[", nil),
            ("https://%00/", nil), ("https://\u{1}x/", nil), ("https://x\u{85}/", nil), ("https://\u{FEFF}x/", "https://x/"),
            ("\u{FEFF}https://x/", nil), ("https://x/\u{10FFFF}", "https://x/%F4%8F%BF%BF"), ("https://\u{10FFFF}/", nil),
            ("https://\u{E000}/", nil), ("https://\u{200B}x/", "https://x/"), ("https:\u{0}//x", nil),
        ]
        for (input, href) in cases {
            XCTAssertEqual(WebURL.parse(input)?.href, href, quoted(input))
        }
    }

    func testManyDotsAndAtSigns() {
        XCTAssertEqual(WebURL.parse("https://" + String(repeating: ".", count: 100_000) + "/")?.host?.serialized.count, 100_000)
        XCTAssertNil(WebURL.parse("https://" + String(repeating: "1.", count: 100_000) + "/"))
        XCTAssertEqual(WebURL.parse("https://" + String(repeating: ".", count: 1000) + "1/")?.host, nil)

        let ats = WebURL.parse("https://" + String(repeating: "@", count: 1000) + "reddit.com/")
        XCTAssertEqual(ats?.host, .domain("reddit.com"))
        XCTAssertEqual(ats?.username, String(repeating: "%40", count: 999))
        XCTAssertNil(WebURL.parse("https://reddit.com" + String(repeating: "@", count: 1000)))
        XCTAssertEqual(WebURL.parse("https://" + String(repeating: ":", count: 1000) + "@x/")?.password,
                       String(repeating: "%3A", count: 999))
    }

    func testLongLabelsAndPunycode() {
        XCTAssertNil(WebURL.parse("https://xn--" + String(repeating: "a", count: 100_000) + "/"))
        XCTAssertNil(WebURL.parse("https://xn--" + String(repeating: "9", count: 100_000) + "/"))
        XCTAssertNil(WebURL.parse("https://" + String(repeating: "aü", count: 100_000) + "/"))
        XCTAssertNotNil(WebURL.parse("https://" + String(repeating: "xn--zca.", count: 10_000) + "/"))
    }

    /// Random inputs over a mix of delimiters and arbitrary scalars: nothing may
    /// crash, and the serialization must be a fixed point (parsing the href gives
    /// the same URL back), as the standard intends.
    func testRandomInputsAreStable() {
        var rng = SplitMix64(seed: 0xBAD_5EED)
        let pieces = ["http:", "https:", "file:", "sc:", "/", "\\", "//", "@", ":", "[", "]", "?", "#", ".", "..", "%",
                      "%2e", "%41", "%ff", "0x", "1", "9", "ü", "xn--", "-", " ", "\t", "\u{0}", "\u{301}", "\u{FFFD}", "ß"]
        for _ in 0..<20_000 {
            var input = ""
            for _ in 0..<rng.next(below: 16) {
                if rng.next(below: 4) == 0 {
                    let value = UInt32(truncatingIfNeeded: rng.next() % 0x11_0000)
                    if let scalar = Unicode.Scalar(value) { input.unicodeScalars.append(scalar) }
                } else {
                    input += pieces[rng.next(below: pieces.count)]
                }
            }
            let base = rng.next(below: 3) == 0 ? WebURL.parse("https://example.com/a/b") : nil
            guard let url = WebURL.parse(input, base: base) else { continue }
            let reparsed = WebURL.parse(url.href)
            XCTAssertEqual(reparsed?.href, url.href, "not a fixed point: \(quoted(input)) → \(quoted(url.href))")
        }
    }

    /// Inputs kept in Tests/Fixtures/fuzz/url (crashes the fuzzer found, hand-made nasty
    /// ones) parse or fail, as fuzz/URLFuzz.swift calls them.
    func testEveryKeptFuzzInputParsesOrFails() throws {
        let folder = Fixtures.path("fuzz/url")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        XCTAssertFalse(names.isEmpty)
        for name in names {
            let text = String(decoding: try XCTUnwrap(FileManager.default.contents(atPath: folder + "/" + name)), as: UTF8.self)
            if let url = WebURL.parse(text) { _ = WebURL.parse(url.href) }
        }
    }
}
