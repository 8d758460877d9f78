import XCTest
@testable import WHATWGURL

/// The cases open-url exists for: every one is a way to write a host that a
/// browser reads differently from a naive parser. Expected values are what
/// browsers (and Node's WHATWG URL) produce.
final class HostReadingTests: XCTestCase {
    func testSchemeSlashVariantsAllReachTheSameHost() {
        for input in [
            "https:reddit.com", "https:/reddit.com", "https://reddit.com", "https:///reddit.com",
            "https:\\\\reddit.com", "https:\\reddit.com", "https:/\\/\\reddit.com", "https://reddit%2Ecom",
            "https://reddit%2ecom/", "https://%72eddit.com", "HTTPS://REDDIT.COM", "https://ReDdIt.CoM/",
            "  https://reddit.com  ", "\u{0}\u{1F}https://reddit.com/\u{1F} ", "ht\ttps://red\ndit.co\rm/",
        ] {
            let url = WebURL.parse(input)
            XCTAssertEqual(url?.host, .domain("reddit.com"), quoted(input))
            XCTAssertEqual(url?.href, "https://reddit.com/", quoted(input))
        }
    }

    func testIPv4Forms() {
        let expectations: [(String, String)] = [
            ("https://0x7f.1/", "127.0.0.1"), ("http://127.0.0.1", "127.0.0.1"), ("http://2130706433", "127.0.0.1"),
            ("http://0177.0.0.1", "127.0.0.1"), ("http://0x7f.0.0.1", "127.0.0.1"), ("http://127.1", "127.0.0.1"),
            ("http://127.0.1", "127.0.0.1"), ("http://1.2.3.4.", "1.2.3.4"), ("http://0x", "0.0.0.0"),
            ("http://4294967295", "255.255.255.255"), ("http://0XfF.0Xff.0xFF.0xfF", "255.255.255.255"),
            ("http://%30x7f.1", "127.0.0.1"), ("http://0x7f%2e1", "127.0.0.1"), ("http://０x7f.1", "127.0.0.1"),
            ("http://1.2.3.0x", "1.2.3.0"), ("http://00000000000000000001.2", "1.0.0.2"),
        ]
        for (input, address) in expectations {
            let url = WebURL.parse(input)
            XCTAssertEqual(url?.host?.serialized, address, quoted(input))
            if case .ipv4? = url?.host {} else { XCTFail("\(quoted(input)) should be an IPv4 host") }
        }
        // A last label that looks numeric must be a valid address, whatever precedes it.
        for input in [
            "http://256.0.0.1", "http://1.2.3.4.5", "http://4294967296", "http://0x100000000", "http://foo.0x7f",
            "http://foo.09", "http://1.2.3.09", "http://08", "http://1.256.1", "http://reddit.com.1",
            "http://0x" + String(repeating: "f", count: 1000), "http://" + String(repeating: "9", count: 1000),
            "http://1.2.3.4..",
        ] {
            if input == "http://1.2.3.4.." {
                // Two trailing dots: the last label is empty, so this is a domain.
                XCTAssertEqual(WebURL.parse(input)?.host, .domain("1.2.3.4.."))
            } else {
                XCTAssertNil(WebURL.parse(input), quoted(input))
            }
        }
        XCTAssertEqual(WebURL.parse("http://a.b.c.0x1g")?.host, .domain("a.b.c.0x1g"))
        XCTAssertEqual(WebURL.parse("http://0x7f.1.reddit.com")?.host, .domain("0x7f.1.reddit.com"))
    }

    func testIPv6() {
        let expectations: [(String, String)] = [
            ("http://[::1]", "[::1]"), ("http://[0:0:0:0:0:0:0:1]", "[::1]"), ("http://[::]", "[::]"),
            ("http://[1:0:0:2::3:0]", "[1::2:0:0:3:0]"), ("http://[::ffff:192.168.0.1]", "[::ffff:c0a8:1]"),
            ("http://[0:0::0:0:8]", "[::8]"), ("http://[1:0::]", "[1::]"), ("http://[::127.0.0.1]", "[::7f00:1]"),
            ("http://[ABCD:EF01:2345:6789:abcd:ef01:2345:6789]", "[abcd:ef01:2345:6789:abcd:ef01:2345:6789]"),
            ("http://[1:0:0:0:1:0:0:0]", "[1::1:0:0:0]"), ("http://[0:1:0:1:0:1:0:1]", "[0:1:0:1:0:1:0:1]"),
            ("sc://[::1]/", "[::1]"),
        ]
        for (input, host) in expectations {
            XCTAssertEqual(WebURL.parse(input)?.host?.serialized, host, quoted(input))
        }
        XCTAssertEqual(WebURL.parse("http://[::1]:8080/")?.port, 8080)
        XCTAssertEqual(WebURL.parse("http://[::1]")?.host, .ipv6([0, 0, 0, 0, 0, 0, 0, 1]))
        for input in [
            "http://[::1", "http://[:1]", "http://[1:2:3:4:5:6:7:8:9]", "http://[1::2::3]", "http://[::1.2.3]",
            "http://[::1.2.3.04]", "http://[ffff::ffff:255.255.255.256]", "http://[::1]x", "http://[12345::]",
            "http://[::%31]", "http://[g::]", "http://[1:2:3:4:5:6:7]", "http://[]", "sc://[::1",
        ] {
            XCTAssertNil(WebURL.parse(input), quoted(input))
        }
    }

    func testUserinfoNeverHidesTheRealHost() {
        let url = WebURL.parse("https://reddit.com@evil.example")
        XCTAssertEqual(url?.host, .domain("evil.example"))
        XCTAssertEqual(url?.username, "reddit.com")
        XCTAssertEqual(url?.href, "https://reddit.com@evil.example/")

        let cases: [(String, user: String, password: String, host: String)] = [
            ("https://user:pass@reddit.com/", "user", "pass", "reddit.com"),
            ("https://a@b@c/", "a%40b", "", "c"),
            ("https://user:pa:ss@h", "user", "pa%3Ass", "h"),
            ("https://:@reddit.com", "", "", "reddit.com"),
            ("https://@reddit.com", "", "", "reddit.com"),
            ("https://reddit.com:443@evil.example", "reddit.com", "443", "evil.example"),
            ("https://reddit.com%40evil.example@x.example", "reddit.com%40evil.example", "", "x.example"),
            ("https://ü ^:`@h", "%C3%BC%20%5E", "%60", "h"),
            ("https://a\\@b", "", "", "a"),
            ("sc://a\\@b", "a%5C", "", "b"),
            ("https://reddit.com\\@evil.example", "", "", "reddit.com"),
            ("https://reddit.com#@evil.example", "", "", "reddit.com"),
            ("https://reddit.com?@evil.example", "", "", "reddit.com"),
            ("https://reddit.com/@evil.example", "", "", "reddit.com"),
        ]
        for (input, user, password, host) in cases {
            let url = WebURL.parse(input)
            XCTAssertEqual(url?.username, user, quoted(input))
            XCTAssertEqual(url?.password, password, quoted(input))
            XCTAssertEqual(url?.host?.serialized, host, quoted(input))
        }
        XCTAssertEqual(WebURL.parse("https://:@reddit.com")?.href, "https://reddit.com/")
        for input in ["https://user@/", "https://user:pass@", "https://@", "https://a@b@/"] {
            XCTAssertNil(WebURL.parse(input), quoted(input))
        }
    }

    func testPorts() {
        let cases: [(String, Int?, String)] = [
            ("https://reddit.com:443/", nil, "https://reddit.com/"), ("https://reddit.com:8443", 8443, "https://reddit.com:8443/"),
            ("http://reddit.com:80", nil, "http://reddit.com/"), ("http://h:00080", nil, "http://h/"),
            ("http://h:443", 443, "http://h:443/"), ("http://h:0", 0, "http://h:0/"), ("http://h:65535", 65535, "http://h:65535/"),
            ("http://h:/", nil, "http://h/"), ("ws://h:80", nil, "ws://h/"), ("wss://h:443", nil, "wss://h/"),
            ("ftp://h:21", nil, "ftp://h/"), ("foo://h:80", 80, "foo://h:80"), ("https://h:\t4\n43", nil, "https://h/"),
            ("http://h:" + String(repeating: "0", count: 10_000) + "8080", 8080, "http://h:8080/"),
        ]
        for (input, port, href) in cases {
            let url = WebURL.parse(input)
            XCTAssertEqual(url?.port, port, quoted(input))
            XCTAssertEqual(url?.href, href, quoted(input))
        }
        for input in [
            "http://h:65536", "http://h:8a", "http://h:-1", "http://h: 80", "http://h:99999999999999999999999",
            "http://h:1:2", "https://reddit.com:443:evil.example", "file://h:80/",
        ] {
            XCTAssertNil(WebURL.parse(input), quoted(input))
        }
    }

    func testCaseAndTrailingDots() {
        // The trailing dot stays: browsers read "reddit.com." as its own host string,
        // so a caller comparing hosts has to decide how to treat it.
        XCTAssertEqual(WebURL.parse("https://REDDIT.COM./")?.host, .domain("reddit.com."))
        XCTAssertEqual(WebURL.parse("https://reddit.com..")?.host, .domain("reddit.com.."))
        XCTAssertEqual(WebURL.parse("https://.reddit.com")?.host, .domain(".reddit.com"))
        XCTAssertEqual(WebURL.parse("https://reddit。com")?.host, .domain("reddit.com"))
        XCTAssertEqual(WebURL.parse("https://ｒｅｄｄｉｔ．ｃｏｍ")?.host, .domain("reddit.com"))
        XCTAssertEqual(WebURL.parse("https://reddit｡com｡")?.host, .domain("reddit.com."))
        XCTAssertEqual(WebURL.parse("https://ⓡⓔⓓⓓⓘⓣ.com")?.host, .domain("reddit.com"))
    }

    func testPercentEncodedHosts() {
        let cases: [(String, String?)] = [
            ("https://re%64dit.com", "reddit.com"), ("http://%C3%BC.example", "xn--tda.example"),
            ("https://reddit.com%00", nil), ("http://%zz", nil), ("http://%ff", nil), ("http://a%2Fb", nil),
            ("http://a%20b", nil), ("http://a%", nil), ("http://%25", nil), ("http://a%3Ab", nil),
            ("http://reddit%E3%80%82com", "reddit.com"), ("sc://re%64dit.com", "re%64dit.com"), ("sc://%zz", "%zz"),
        ]
        for (input, host) in cases {
            XCTAssertEqual(WebURL.parse(input)?.host?.serialized, host, quoted(input))
        }
    }

    func testInternationalizedDomainNames() {
        let cases: [(String, String?)] = [
            ("https://bücher.example", "xn--bcher-kva.example"), ("https://BÜCHER.example", "xn--bcher-kva.example"),
            ("https://bu\u{308}cher.example", "xn--bcher-kva.example"), ("https://xn--bcher-kva.example", "xn--bcher-kva.example"),
            ("https://XN--BCHER-KVA.example", "xn--bcher-kva.example"), ("http://faß.de", "xn--fa-hia.de"),
            ("http://ς.com", "xn--3xa.com"), ("http://☃.net", "xn--n3h.net"), ("http://xn--n3h.net", "xn--n3h.net"),
            ("http://ü-.com", "xn----dha.com"), ("http://-ü.com", "xn----eha.com"), ("http://ab--ü.com", "xn--ab---3ra.com"),
            ("http://ü!.com", "xn--!-dha.com"), ("http://ü_.com", "xn--_-dha.com"), ("http://a\u{AD}b.com", "ab.com"),
            ("http://אב.com", "xn--4dbc.com"), ("http://日本語.jp", "xn--wgv71a119e.jp"), ("http://faß☃.de", "xn--fa-hia6419a.de"),
            ("http://xn--a-.com", "xn--a-.com"), ("http://xn--zca.xn--zca", "xn--zca.xn--zca"),
            ("http://ｘｎ－－zca.com", "xn--zca.com"),
            // Failures: invalid Punycode, empty after mapping, leading combining mark,
            // unassigned or disallowed code points, ContextJ, bidi, U+FFFD.
            ("http://xn--a.com", nil), ("http://xn--.com", nil), ("http://xn--ls8h=", nil), ("http://\u{AD}/", nil),
            ("http://\u{301}a.com", nil), ("http://a.\u{301}", nil), ("http://a\u{200D}b.com", nil), ("http://\u{FFFD}.com", nil),
            ("http://שלום-", nil), ("http://\u{E0001}.com", nil), ("http://ｘｎ－－ü.com", nil), ("http://xn--tešla", nil),
            ("http://a\u{2060}b.com", "ab.com"),
        ]
        for (input, host) in cases {
            XCTAssertEqual(WebURL.parse(input)?.host?.serialized, host, quoted(input))
        }
        // Labels longer than 63 bytes are valid in the URL Standard (VerifyDnsLength=false).
        let long = String(repeating: "a", count: 70) + "ü"
        XCTAssertEqual(WebURL.parse("http://\(long).com")?.host?.serialized.hasPrefix("xn--" + String(repeating: "a", count: 70)), true)
        let longDomain = Array(repeating: "bücher", count: 60).joined(separator: ".")
        XCTAssertEqual(WebURL.parse("http://\(longDomain)/")?.host?.serialized,
                       Array(repeating: "xn--bcher-kva", count: 60).joined(separator: "."))
    }

    func testRelativeReferencesCanStillChangeTheHost() {
        let base = WebURL.parse("https://reddit.com/r/x?q#f")
        XCTAssertNotNil(base)
        let cases: [(String, String?)] = [
            ("//evil.example/", "https://evil.example/"), ("/\\evil.example", "https://evil.example/"),
            ("\\\\evil.example", "https://evil.example/"), ("\\/evil.example/x", "https://evil.example/x"),
            ("///evil.example", "https://evil.example/"), ("http:evil.example", "http://evil.example/"),
            // Same scheme as the base: a relative reference, not a host.
            ("https:evil.example", "https://reddit.com/r/evil.example"), ("https:/evil.example", "https://reddit.com/evil.example"),
            ("../y", "https://reddit.com/y"), ("?z", "https://reddit.com/r/x?z"), ("#g", "https://reddit.com/r/x?q#g"),
            ("", "https://reddit.com/r/x?q"), ("  ", "https://reddit.com/r/x?q"), (".", "https://reddit.com/r/"),
            ("/..", "https://reddit.com/"), ("//", nil), ("//@/", nil), ("//evil.example:99999", nil),
        ]
        for (input, href) in cases {
            XCTAssertEqual(WebURL.parse(input, base: base)?.href, href, quoted(input))
        }
        XCTAssertNil(WebURL.parse("x", base: WebURL.parse("about:blank")))
        XCTAssertNil(WebURL.parse("a#b", base: WebURL.parse("mailto:x")))
        XCTAssertEqual(WebURL.parse("#b", base: WebURL.parse("mailto:x"))?.href, "mailto:x#b")
        XCTAssertNil(WebURL.parse("reddit.com"))
    }
}
