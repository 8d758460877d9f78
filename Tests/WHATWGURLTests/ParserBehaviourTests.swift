import XCTest
@testable import WHATWGURL

/// Schemes other than http(s), paths, queries, fragments, serialization and the API.
final class ParserBehaviourTests: XCTestCase {
    private func attributes(_ input: String, base: String? = nil) -> JSURLAttributes? {
        let baseURL = base.flatMap { WebURL.parse($0) }
        return WebURL.parse(input, base: baseURL).map(JSURLAttributes.init)
    }

    func testOtherSchemes() {
        let cases: [(String, href: String, host: WebURL.Host?, path: String)] = [
            ("ftp://H/x", "ftp://h/x", .domain("h"), "/x"),
            ("WS://h", "ws://h/", .domain("h"), "/"),
            ("wss://h/?q", "wss://h/?q", .domain("h"), "/"),
            ("file:///C:/x", "file:///C:/x", .empty, "/C:/x"),
            ("file://host/share", "file://host/share", .domain("host"), "/share"),
            ("file://localhost/etc", "file:///etc", .empty, "/etc"),
            ("file:c:\\foo\\bar", "file:///c:/foo/bar", .empty, "/c:/foo/bar"),
            ("file:///C|/x", "file:///C:/x", .empty, "/C:/x"),
            ("file://C:/x", "file:///C:/x", .empty, "/C:/x"),
            ("file:///C:/../..", "file:///C:/", .empty, "/C:/"),
            ("FILE://REDDIT.COM/x", "file://reddit.com/x", .domain("reddit.com"), "/x"),
            ("mailto:User@Reddit.com", "mailto:User@Reddit.com", nil, "User@Reddit.com"),
            ("javascript:alert(1)", "javascript:alert(1)", nil, "alert(1)"),
            ("data:text/html,<b>x</b>", "data:text/html,<b>x</b>", nil, "text/html,<b>x</b>"),
            ("blob:https://reddit.com/uuid", "blob:https://reddit.com/uuid", nil, "https://reddit.com/uuid"),
            ("about:blank", "about:blank", nil, "blank"),
            ("sc://h/p", "sc://h/p", .opaque("h"), "/p"),
            ("sc://Ü/", "sc://%C3%9C/", .opaque("%C3%9C"), "/"),
            ("sc://", "sc://", .empty, ""),
            ("sc:/p", "sc:/p", nil, "/p"),
            ("sc:", "sc:", nil, ""),
            ("web+demo:/.//not-a-host/", "web+demo:/.//not-a-host/", nil, "//not-a-host/"),
            ("sc:/..//x", "sc:/.//x", nil, "//x"),
            ("a1+-.:x", "a1+-.:x", nil, "x"),
        ]
        for (input, href, host, path) in cases {
            let url = WebURL.parse(input)
            XCTAssertEqual(url?.href, href, quoted(input))
            XCTAssertEqual(url?.host, host, quoted(input))
            XCTAssertEqual(url?.path, path, quoted(input))
        }
        XCTAssertEqual(WebURL.parse("mailto:x")?.hasOpaquePath, true)
        XCTAssertEqual(WebURL.parse("sc:/x")?.hasOpaquePath, false)
        for input in ["sc://a b/", "sc://a<b", "sc://a^b", "sc://a|b", "sc://[", "1http://x", "://x", "http://", "https://",
                      "https:", "http:/", "ws:", "file://[", "file://a b/"] {
            XCTAssertNil(WebURL.parse(input), quoted(input))
        }
    }

    func testPaths() {
        let cases: [(String, String)] = [
            ("http://h/a/./b/../c", "/a/c"), ("http://h/%2e%2E/x", "/x"), ("http://h/a/%2e", "/a/"),
            ("http://h/a/.%2E/b", "/b"), ("http://h/..", "/"), ("http://h/a\\b", "/a/b"), ("sc://h/a\\b", "/a\\b"),
            ("http://h/ä", "/%C3%A4"), ("http://h/a b", "/a%20b"), ("http://h/{}`\"<>", "/%7B%7D%60%22%3C%3E"),
            ("http://h/^|'", "/^|'"), ("http://h/%zz%", "/%zz%"), ("http://h//a//", "//a//"), ("http://h", "/"),
            ("http://h/\u{0}\u{7F}", "/%00%7F"), ("http://h/\u{FFFD}", "/%EF%BF%BD"), ("http://h/;a=b", "/;a=b"),
        ]
        for (input, path) in cases {
            XCTAssertEqual(WebURL.parse(input)?.path, path, quoted(input))
        }
        // The standard (and the reference implementation urlstd) keep an empty segment
        // here; Node 20 drops it (see NodeDifferentialTests).
        XCTAssertEqual(WebURL.parse("sc:/..")?.href, "sc:/")
        XCTAssertEqual(WebURL.parse("data:/..?q")?.href, "data:/?q")
        XCTAssertEqual(WebURL.parse("..", base: WebURL.parse("sc://h/p"))?.href, "sc://h/")
    }

    func testQueryAndFragment() {
        XCTAssertEqual(attributes("http://h/?a b'\"<>#f g`")?.search, "?a%20b%27%22%3C%3E")
        XCTAssertEqual(attributes("http://h/?a b'\"<>#f g`")?.hash, "#f%20g%60")
        XCTAssertEqual(WebURL.parse("sc://h/?'")?.query, "'")
        XCTAssertEqual(WebURL.parse("http://h/?")?.query, "")
        XCTAssertEqual(WebURL.parse("http://h/#")?.fragment, "")
        XCTAssertEqual(WebURL.parse("http://h/#")?.href, "http://h/#")
        XCTAssertNil(WebURL.parse("http://h/")?.query)
        XCTAssertEqual(WebURL.parse("http://h/?ü#ü")?.href, "http://h/?%C3%BC#%C3%BC")
        XCTAssertEqual(WebURL.parse("http://h/?a#b#c")?.fragment, "b#c")
        XCTAssertEqual(WebURL.parse("mailto:a?b#c")?.query, "b")
        XCTAssertEqual(WebURL.parse("sc:a b #f")?.href, "sc:a b #f")
    }

    func testHostSerializationAndAPI() {
        XCTAssertEqual(WebURL.Host.ipv4(0x7F00_0001).serialized, "127.0.0.1")
        XCTAssertEqual(WebURL.Host.ipv6([0x2001, 0xdb8, 0, 0, 1, 0, 0, 1]).serialized, "[2001:db8::1:0:0:1]")
        XCTAssertEqual(WebURL.Host.ipv6([0, 0, 0, 0, 0, 0, 0, 0]).serialized, "[::]")
        XCTAssertEqual(WebURL.Host.domain("a.b").serialized, "a.b")
        XCTAssertEqual(WebURL.Host.opaque("x%20").serialized, "x%20")
        XCTAssertEqual(WebURL.Host.empty.serialized, "")

        let url = WebURL.parse("HTTPS://u:p@Reddit.com:8443/a/b?q=1#frag")
        XCTAssertEqual(url?.scheme, "https")
        XCTAssertEqual(url?.username, "u")
        XCTAssertEqual(url?.password, "p")
        XCTAssertEqual(url?.host, .domain("reddit.com"))
        XCTAssertEqual(url?.port, 8443)
        XCTAssertEqual(url?.path, "/a/b")
        XCTAssertEqual(url?.query, "q=1")
        XCTAssertEqual(url?.fragment, "frag")
        XCTAssertEqual(url?.isSpecial, true)
        XCTAssertEqual(url?.description, "https://u:p@reddit.com:8443/a/b?q=1#frag")
        XCTAssertEqual(WebURL.parse("sc://x")?.isSpecial, false)
        XCTAssertEqual(WebURL.parse("https://reddit.com"), WebURL.parse("HTTPS://REDDIT.COM:443/"))
        XCTAssertNotEqual(WebURL.parse("https://reddit.com"), WebURL.parse("https://reddit.com/#"))
    }

    func testBaseRoundTripsThroughWebURL() {
        // A WebURL used as a base must behave as the record it was parsed from.
        let bases = ["file:///C:/a/b", "sc:/a//b", "sc://h", "web+demo:/.//x/y", "http://h/a/", "mailto:x?y", "file://h/C:/"]
        for baseString in bases {
            guard let base = WebURL.parse(baseString) else { XCTFail(baseString); continue }
            XCTAssertEqual(WebURL.parse(base.href), base, baseString)
            for relative in ["..", "x", "/y", "?q", "#f", "C|", "//h2/z", "./"] {
                let direct = URLParser.parse(relative, base: base.record).map(WebURL.init)
                XCTAssertEqual(WebURL.parse(relative, base: base), direct, "\(relative) against \(baseString)")
            }
        }
    }
}
