import WHATWGURL

/// Decides which URLs `open-url` gates: those whose host is a listed site or a subdomain of
/// one. Hosts are read by the WHATWG URL Standard's parser, as the browser that finally opens
/// the link reads them: `https://reddit.com@evil.example` is evil.example, `https:reddit.com`
/// and `https:\\reddit.com` are reddit.com, `HTTPS://WWW.REDDIT.COM./` is reddit.com, and
/// `https://bücher.example` is xn--bcher-kva.example (UTS #46, by libidn2).
public struct SiteMatcher: Equatable {
    /// The listed sites, normalised (`*.example.com` for subdomains only, `youtube.com/shorts`
    /// for a path within a site); entries that are not sites are left out, so a bad stored
    /// value never stops a link.
    public let sites: [String]

    /// `sites` in the order they are tried: the longest path first (a path entry before its
    /// host, so the longest matching entry wins), else as listed.
    public let orderedSites: [String]

    public init(sites: [String]) {
        self.sites = sites.compactMap(Self.normalizedSite)
        self.orderedSites = self.sites.enumerated()
            .sorted { ($0.element.count - Self.domainPart(of: $0.element).count, $1.offset)
                > ($1.element.count - Self.domainPart(of: $1.element).count, $0.offset) }
            .map(\.element)
    }

    /// The listed site `url` belongs to (without `*.`; with its path for a path site), or nil
    /// when it is not gated.
    public func site(for url: String) -> String? {
        listedSite(for: url).map(Self.bare)
    }

    /// The listed site `url` belongs to, as listed (normalised): the first of `orderedSites`
    /// whose host and path cover it.
    public func listedSite(for url: String) -> String? {
        guard let parsed = WebURL.parse(url), let host = Self.host(of: parsed) else { return nil }
        return orderedSites.first { site in
            let domain = Self.domain(of: site)
            let hostMatches = site.hasPrefix("*.") ? host.hasSuffix("." + domain) : host == domain || host.hasSuffix("." + domain)
            return hostMatches && SitePath.covers(Self.path(of: site), parsed.path)
        }
    }

    /// A site without its `*.`: the name `site(for:)` gives it.
    static func bare(_ site: String) -> String {
        site.hasPrefix("*.") ? String(site.dropFirst(2)) : site
    }

    /// The site up to its path (`*.x` of `*.x/p`).
    private static func domainPart(of site: String) -> Substring {
        site.firstIndex(of: "/").map { site[..<$0] } ?? Substring(site)
    }

    /// The domain a listed site names (`*.x` and `x/path` are x): what a browser's request
    /// rules match.
    public static func domain(of site: String) -> String {
        String(domainPart(of: bare(site)))
    }

    /// The path a listed site names (`/shorts` of `youtube.com/shorts`), "" for a whole host.
    public static func path(of site: String) -> String {
        site.firstIndex(of: "/").map { String(site[$0...]) } ?? ""
    }

    /// `site(for:)`'s rule for one listed site as a regular expression over the address a
    /// browser writes (`URL.href`: scheme and host in lower case, the host in ASCII, no default
    /// port, the path percent-encoded), for the extension's request rules and its own
    /// matching, which must decide without asking: the host is the site or ends in `.` + the
    /// site (for `*.x`, ends in `.x`), with any trailing dots, and for a path site the path
    /// starts with the site's path, segment by segment. It reads the same in RE2
    /// (declarativeNetRequest) and ECMAScript and uses no group but the first, which is the
    /// whole address. A whole host's is matched without case; a path site's with case
    /// (paths are case-sensitive; its letters of scheme and host are lower case, as in `href`).
    public static func addressPattern(of site: String) -> String {
        let domain = escapedForPattern(domain(of: site))
        let host = site.hasPrefix("*.") ? "[^/?#@]+\\.\(domain)" : "(?:[^/?#@]+\\.)?\(domain)"
        let path = SitePath.pattern(of: path(of: site))
        let rest = path.isEmpty ? "(?:[/?#].*)?" : path + "(?:[/?#].*)?"
        return "^(https?://(?:[^/?#@]*@)?\(host)\\.*(?::[0-9]+)?\(rest))$"
    }

    /// `text` with every character but letters, digits and `-` escaped for a pattern.
    private static func escapedForPattern(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character.isASCII, character.isLetter || character.isNumber || character == "-" {
                escaped.append(character)
            } else {
                escaped += "\\\(character)"
            }
        }
        return escaped
    }

    /// The name a site's events, grace and counts go by: the site (without `*.`), its host
    /// made a valid app name if it is not one (an address such as [::1]); a path site keeps
    /// its path (`youtube.com/shorts`), so it is a site of its own, apart from its host.
    public static func appName(site: String) -> String {
        let bare = bare(site)
        let host = String(domainPart(of: bare)), path = path(of: bare)
        return (MigaConfig.isValidAppName(host) ? host : MigaConfig.appName(derivedFrom: host)) + path
    }

    /// Whether `name` is the name of a path site (`appName(site:)` of one): a name events,
    /// grace and a snooze may carry beside app names.
    public static func isPathSiteName(_ name: String) -> Bool {
        name.contains("/") && normalizedSite(name).map(appName(site:)) == name
    }

    /// Whether `url` is a link `open-url` handles at all: an http or https URL that parses.
    public static func isWebLink(_ url: String) -> Bool {
        guard let parsed = WebURL.parse(url) else { return false }
        return parsed.scheme == "http" || parsed.scheme == "https"
    }

    /// The host of an http(s) URL as a browser would connect to it: ASCII (punycode), lower
    /// case, without trailing dots; an IP address in its standard form. nil for other
    /// schemes and for what does not parse.
    public static func host(of url: String) -> String? {
        WebURL.parse(url).flatMap(host(of:))
    }

    private static func host(of parsed: WebURL) -> String? {
        guard parsed.scheme == "http" || parsed.scheme == "https", let host = parsed.host else { return nil }
        switch host {
        case .domain(var name):
            while name.hasSuffix(".") { name.removeLast() }
            return name.isEmpty ? nil : name
        case .ipv4, .ipv6:
            return host.serialized
        case .opaque, .empty:
            return nil
        }
    }

    /// A site a person adds (`sites add`, `set sites`, the editor's `site add`): a host name
    /// with a dot, or an IP address, maybe with a path (`youtube.com/shorts`). A single label
    /// (`a`, a slip of the comma key) would gate no site anyone visits; one already in a
    /// hand-edited file is still read as written.
    public static func addableSite(_ site: String) -> String? {
        guard let normalized = normalizedSite(site) else { return nil }
        let host = domain(of: normalized)
        return host.contains(".") || host.hasPrefix("[") ? normalized : nil
    }

    /// Why `addableSite` refused `site`, for the message (quoted as typed).
    public static func problem(with site: String) -> String {
        if normalizedSite(site) != nil { return "\"\(site)\" is not a site's host name (it needs a dot)" }
        let trimmed = site.trimming(.whitespaces)
        if !trimmed.contains("://"), let slash = trimmed.firstIndex(of: "/"), normalizedSite(String(trimmed[..<slash])) != nil {
            return "\"\(site)\" is not a site's path (a path holds no ? or #, and % only before two hex digits)"
        }
        return "\"\(site)\" is not a host name"
    }

    /// The sites in `old` that `new` no longer gates, as written in `old`.
    public static func dropped(from old: [String], in new: [String]) -> [String] {
        let kept = Set(SiteMatcher(sites: new).sites)
        return old.filter { normalizedSite($0).map { !kept.contains($0) } ?? false }
    }

    /// A site as written in config (`Reddit.com.`, `bücher.example`, `*.example.com`,
    /// `youtube.com/shorts/`, even a pasted URL, which names its host) in the form
    /// `site(for:)` reads: the host as `host(of:)` returns it, or nil if it is not a host
    /// name (labels of letters, digits and hyphens, what DNS can resolve, or an IP address);
    /// then the path, if any, as the WHATWG parser leaves it (`SitePath.normalized`).
    public static func normalizedSite(_ site: String) -> String? {
        var text = Substring(site)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        if text.hasPrefix("*.") {
            return normalizedSite(String(text.dropFirst(2))).flatMap { $0.hasPrefix("*.") || $0.hasPrefix("[") ? nil : "*." + $0 }
        }
        guard !text.isEmpty else { return nil }
        if !text.contains("://"), let slash = text.firstIndex(of: "/") {
            guard let host = normalizedHost(text[..<slash]), let path = SitePath.normalized(host: host, path: text[slash...]) else { return nil }
            return host + path
        }
        return normalizedHost(text)
    }

    private static func normalizedHost(_ text: Substring) -> String? {
        guard !text.isEmpty else { return nil }
        let host: String?
        if text.contains("://") {
            host = Self.host(of: String(text))
        } else {
            guard !text.contains(where: { "/\\@?#:[]% ".contains($0) }) else { return nil }
            host = Self.host(of: "https://\(text)/")
        }
        guard let host else { return nil }
        if host.hasPrefix("[") { return host } // IPv6
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.allSatisfy({ label in
            !label.isEmpty && label.utf8.allSatisfy { ("a"..."z").contains(Character(UnicodeScalar($0))) || ("0"..."9").contains(Character(UnicodeScalar($0))) || $0 == UInt8(ascii: "-") }
        }) else { return nil }
        return host
    }
}
