import XCTest
@testable import MigaCore

final class SiteMatcherTests: XCTestCase {
    let matcher = SiteMatcher(sites: MigaConfig.defaultSites + ["Bücher.example.", "https://News.Example.org/path"])

    func testDesignCases() {
        XCTAssertEqual(matcher.site(for: "https://old.reddit.com/r/x"), "reddit.com")
        XCTAssertNil(matcher.site(for: "https://reddit.com@evil.example/"), "userinfo is not the host")
        XCTAssertNil(matcher.site(for: "https://notreddit.com"), "a suffix is not a subdomain")
        XCTAssertEqual(matcher.site(for: "HTTPS://WWW.REDDIT.COM./"), "reddit.com", "case and trailing dot")
    }

    func testWhatABrowserWouldOpen() {
        XCTAssertEqual(matcher.site(for: "https://reddit.com:8443/x"), "reddit.com", "ports")
        XCTAssertEqual(matcher.site(for: "https://user:pw@www.reddit.com/"), "reddit.com")
        XCTAssertEqual(matcher.site(for: "https://reddit.com\\@evil.example"), "reddit.com", "browsers read \\ as /")
        XCTAssertEqual(matcher.site(for: " https://x.com/home\n"), "x.com")
        XCTAssertEqual(matcher.site(for: "https://reddit\t.com/"), "reddit.com", "tabs are removed")
        XCTAssertNil(matcher.site(for: "https://evil.example#@reddit.com"))
        XCTAssertNil(matcher.site(for: "https://evil.example?x=@reddit.com"))
        XCTAssertNil(matcher.site(for: "https://x.com.evil.example/"))
        XCTAssertNil(matcher.site(for: "https://REDDIT.com%2eevil.example/"), "an encoded dot makes another host")
        XCTAssertEqual(matcher.site(for: "https://reddit。com/"), "reddit.com", "IDNA maps the ideographic full stop")
    }

    /// DESIGN's spellings that browsers open as reddit.com (checked against Node's WHATWG URL).
    func testBrokenSpellingsAreReadAsABrowserReadsThem() {
        for url in ["https:reddit.com", "https:/reddit.com", "https:///reddit.com", "https:\\\\reddit.com", "https://reddit%2Ecom/",
                    "HTTPS:REDDIT.COM.", "https:\\/reddit.com"] {
            XCTAssertEqual(matcher.site(for: url), "reddit.com", url)
        }
        let local = SiteMatcher(sites: ["127.0.0.1"])
        XCTAssertEqual(local.site(for: "https://0x7f.1/"), "127.0.0.1", "the IPv4 parser's short hex form")
        XCTAssertEqual(local.site(for: "http://2130706433/"), "127.0.0.1")
    }

    /// `*.example.com` gates the subdomains only; values that are not host names (a list
    /// typed with a comma, a path) are refused on input and passed over when stored.
    func testWildcardsAndBadStoredValues() {
        XCTAssertEqual(SiteMatcher.normalizedSite("*.Example.COM"), "*.example.com")
        let wild = SiteMatcher(sites: ["*.example.com", "a,b.example", "x.com/path", "*.*.example.org", ""])
        XCTAssertEqual(wild.sites, ["*.example.com"])
        XCTAssertEqual(wild.site(for: "https://news.example.com/"), "example.com")
        XCTAssertNil(wild.site(for: "https://example.com/"), "the wildcard is for subdomains")
        XCTAssertNil(wild.site(for: "https://notexample.com/"))
        for bad in ["a,b.example", "*.", "*", "exa mple.com", "https://", "reddit.com:443"] {
            XCTAssertNil(SiteMatcher.normalizedSite(bad), bad)
        }
    }

    func testInternationalisedNames() {
        XCTAssertEqual(matcher.site(for: "https://bücher.example/"), "xn--bcher-kva.example")
        XCTAssertEqual(matcher.site(for: "https://www.xn--bcher-kva.example/"), "xn--bcher-kva.example")
        XCTAssertEqual(matcher.site(for: "https://BÜCHER.example/"), "xn--bcher-kva.example")
    }

    func testOtherSchemesAndGarbageAreNotGated() {
        for url in ["mailto:someone@reddit.com", "file:///home/u/reddit.com", "reddit.com", "", "https://", "ftp://reddit.com/", "http://[::1]/"] {
            XCTAssertNil(matcher.site(for: url), url)
        }
    }

    func testSiteNormalisation() {
        XCTAssertEqual(SiteMatcher.normalizedSite("Reddit.COM."), "reddit.com")
        XCTAssertEqual(SiteMatcher.normalizedSite("https://News.Example.org/path"), "news.example.org")
        XCTAssertEqual(matcher.site(for: "http://a.news.example.org/"), "news.example.org")
        for bad in ["", "a b", "reddit.com/r/x", "me@reddit.com"] {
            XCTAssertNil(SiteMatcher.normalizedSite(bad), bad)
        }
    }
}
