import XCTest
@testable import MigaCore

final class SiteMatcherTests: XCTestCase {
    let matcher = SiteMatcher(sites: MigaConfig.formerDefaultSites + ["Bücher.example.", "https://News.Example.org/path"])

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

    /// `*.example.com` gates the subdomains only; values that are not sites (a list typed
    /// with a comma, a path with a query) are refused on input and passed over when stored.
    func testWildcardsAndBadStoredValues() {
        XCTAssertEqual(SiteMatcher.normalizedSite("*.Example.COM"), "*.example.com")
        let wild = SiteMatcher(sites: ["*.example.com", "a,b.example", "x.com/path?q", "*.*.example.org", ""])
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
        XCTAssertEqual(SiteMatcher.normalizedSite("reddit.com/r/x"), "reddit.com/r/x", "a path site")
        for bad in ["", "a b", "reddit.com/r/x#top", "me@reddit.com"] {
            XCTAssertNil(SiteMatcher.normalizedSite(bad), bad)
        }
    }
}

/// Path sites (`youtube.com/shorts`): matched by path segment, the longest entry first, a site
/// apart from its host.
final class SitePathMatcherTests: XCTestCase {
    func testAPathIsWrittenAsTheParserLeavesIt() {
        let cases: [(String, String?)] = [
            ("youtube.com/shorts", "youtube.com/shorts"), ("YouTube.COM/shorts/", "youtube.com/shorts"),
            ("youtube.com/shorts//", "youtube.com/shorts"), ("youtube.com/", "youtube.com"), ("youtube.com/Shorts", "youtube.com/Shorts"),
            ("reddit.com/r/all", "reddit.com/r/all"), ("reddit.com/r/x/../all", "reddit.com/r/all"), ("reddit.com/r/%2e%2e/u", "reddit.com/u"),
            ("example.com/café", "example.com/caf%C3%A9"), ("example.com/caf%c3%a9", "example.com/caf%C3%A9"),
            ("example.com/%73horts", "example.com/shorts"), ("example.com/a%2fb", "example.com/a%2Fb"), ("example.com/a b", "example.com/a%20b"),
            ("example.com/a\\b", "example.com/a/b"), ("*.Example.com/x/", "*.example.com/x"), ("bücher.example/x", "xn--bcher-kva.example/x"),
            ("  youtube.com/shorts\t", "youtube.com/shorts"), ("192.168.1.10/admin", "192.168.1.10/admin"), ("[::1]/x", nil),
            ("youtube.com/watch?v=1", nil), ("youtube.com/shorts#x", nil), ("example.com/100%", nil), ("example.com/%zz", nil),
            ("me@youtube.com/x", nil), ("youtube.com:443/x", nil), ("*.*.example.org/x", nil), ("*.x.org/a*b", "*.x.org/a*b"), ("/shorts", nil), ("youtube .com/x", nil),
            ("example.com/" + String(repeating: "a", count: SitePath.maximumLength), nil),
            ("https://www.youtube.com/shorts/abc", "www.youtube.com"),
        ]
        for (written, normalised) in cases {
            XCTAssertEqual(SiteMatcher.normalizedSite(written), normalised, written)
        }
        XCTAssertEqual(SiteMatcher.addableSite("youtube.com/shorts"), "youtube.com/shorts")
        XCTAssertNil(SiteMatcher.addableSite("localhost/x"), "a single label still needs a dot")
        XCTAssertEqual(SiteMatcher.problem(with: "youtube.com/watch?v=1"),
                       "\"youtube.com/watch?v=1\" is not a site's path (a path holds no ? or #, and % only before two hex digits)")
    }

    func testAPathCoversItsSegmentsOnly() {
        let matcher = SiteMatcher(sites: ["youtube.com/shorts", "reddit.com/r/all", "example.com/caf%C3%A9", "example.com/a%2Fb"])
        let cases: [(String, String?)] = [
            ("https://youtube.com/shorts", "youtube.com/shorts"), ("https://www.youtube.com/shorts/abc", "youtube.com/shorts"),
            ("https://m.youtube.com/shorts/", "youtube.com/shorts"), ("https://youtube.com/shorts?x=1", "youtube.com/shorts"),
            ("https://youtube.com/shorts#top", "youtube.com/shorts"), ("https://youtube.com:8443/shorts/x", "youtube.com/shorts"),
            ("https://user:pw@youtube.com/shorts/x", "youtube.com/shorts"), ("HTTPS://YOUTUBE.COM./shorts/x", "youtube.com/shorts"),
            ("https://youtube.com/watch/../shorts/x", "youtube.com/shorts"), ("https://youtube.com/shorts/x/../../watch", nil),
            ("https://youtube.com/shortsx", nil), ("https://youtube.com/Shorts/x", nil), ("https://youtube.com/watch?v=1", nil),
            ("https://youtube.com/watch?v=1&next=/shorts/x", nil), ("https://youtube.com//shorts/x", nil), ("https://youtube.com/", nil),
            ("https://youtube.com/shorts%2Fx", nil), ("https://evil.example/shorts/x", nil), ("https://youtube.com@evil.example/shorts", nil),
            ("https://youtube.com\\shorts\\x", "youtube.com/shorts"), ("https://reddit.com/r/all/top", "reddit.com/r/all"),
            ("https://reddit.com/r/allx", nil), ("https://reddit.com/r", nil), ("https://example.com/café/x", "example.com/caf%C3%A9"),
            ("https://example.com/caf%c3%a9", "example.com/caf%C3%A9"), ("https://example.com/a%2fb/c", "example.com/a%2Fb"),
            ("https://example.com/a/b", nil), ("ftp://youtube.com/shorts", nil),
        ]
        for (url, site) in cases {
            XCTAssertEqual(matcher.site(for: url), site, url)
        }
    }

    /// The longest matching entry wins, whatever the order they are listed in; among whole
    /// hosts the first listed, as before.
    func testTheLongestEntryWins() {
        for sites in [["youtube.com", "youtube.com/shorts", "youtube.com/shorts/live"], ["youtube.com/shorts/live", "youtube.com/shorts", "youtube.com"]] {
            let matcher = SiteMatcher(sites: sites)
            XCTAssertEqual(matcher.site(for: "https://youtube.com/shorts/live/x"), "youtube.com/shorts/live", "\(sites)")
            XCTAssertEqual(matcher.site(for: "https://youtube.com/shorts/x"), "youtube.com/shorts", "\(sites)")
            XCTAssertEqual(matcher.site(for: "https://youtube.com/watch"), "youtube.com", "\(sites)")
            XCTAssertEqual(matcher.orderedSites, ["youtube.com/shorts/live", "youtube.com/shorts", "youtube.com"])
        }
        let wild = SiteMatcher(sites: ["*.example.com/x", "example.com"])
        XCTAssertEqual(wild.site(for: "https://a.example.com/x/y"), "example.com/x")
        XCTAssertEqual(wild.listedSite(for: "https://a.example.com/x/y"), "*.example.com/x")
        XCTAssertEqual(wild.site(for: "https://example.com/x/y"), "example.com", "the wildcard is for subdomains")
        XCTAssertEqual(SiteMatcher(sites: ["old.reddit.com", "reddit.com"]).site(for: "https://old.reddit.com/"), "old.reddit.com")
    }

    /// A path site is a site of its own: its name keeps its path; its files never hold a `/`.
    func testAPathSitesNameAndFiles() {
        XCTAssertEqual(SiteMatcher.appName(site: "youtube.com/shorts"), "youtube.com/shorts")
        XCTAssertEqual(SiteMatcher.appName(site: "*.example.com/x"), "example.com/x")
        XCTAssertEqual(SiteMatcher.domain(of: "*.example.com/x"), "example.com")
        XCTAssertEqual(SiteMatcher.path(of: "youtube.com/shorts"), "/shorts")
        XCTAssertEqual(SiteMatcher.path(of: "youtube.com"), "")
        XCTAssertNotEqual(SiteMatcher.appName(site: "youtube.com/shorts"), SiteMatcher.appName(site: "youtube.com"))
        XCTAssertTrue(MigaConfig.isValidGateName("youtube.com/shorts"))
        XCTAssertTrue(MigaConfig.isValidGateName("discord"))
        for bad in ["youtube.com/shorts/", "/shorts", "youtube.com/../etc", "../x", "a/b\n", "youtube.com/x?y", "YouTube.com/x", "x/%2e%2e"] {
            XCTAssertFalse(MigaConfig.isValidGateName(bad), bad)
        }
        XCTAssertEqual(MigaConfig.fileName(of: "youtube.com/shorts"), "youtube.com%2Fshorts")
        XCTAssertEqual(MigaConfig.fileName(of: "example.com/caf%C3%A9"), "example.com%2Fcaf%25C3%25A9")
        XCTAssertEqual(MigaConfig.fileName(of: "discord"), "discord")
        for name in ["youtube.com/shorts", "example.com/a/../b", "example.com/a%2Fb"] {
            XCTAssertFalse(MigaConfig.fileName(of: name).contains("/"), name)
        }
    }
}
