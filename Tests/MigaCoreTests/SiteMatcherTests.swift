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
