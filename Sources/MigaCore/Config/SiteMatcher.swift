import WHATWGURL

/// Decides which URLs `open-url` gates: those whose host is a listed site or a subdomain of
/// one. Hosts are read by the WHATWG URL Standard's parser, as the browser that finally opens
/// the link reads them: `https://reddit.com@evil.example` is evil.example, `https:reddit.com`
/// and `https:\\reddit.com` are reddit.com, `HTTPS://WWW.REDDIT.COM./` is reddit.com, and
/// `https://bücher.example` is xn--bcher-kva.example (UTS #46, by libidn2).
public struct SiteMatcher: Equatable {
    /// The listed sites, normalised (`*.example.com` for subdomains only); entries that are
    /// not host names are left out, so a bad stored value never stops a link.
    public let sites: [String]

    public init(sites: [String]) {
        self.sites = sites.compactMap(Self.normalizedSite)
    }

    /// The listed site `url` belongs to, or nil when it is not gated.
    public func site(for url: String) -> String? {
        guard let host = Self.host(of: url) else { return nil }
        for site in sites {
            if site.hasPrefix("*.") {
                if host.hasSuffix(site.dropFirst()) { return String(site.dropFirst(2)) }
            } else if host == site || host.hasSuffix("." + site) {
                return site
            }
        }
        return nil
    }

    /// The domain a listed site names (`*.x` is x): what a browser's request rules match.
    public static func domain(of site: String) -> String {
        site.hasPrefix("*.") ? String(site.dropFirst(2)) : site
    }

    /// `site(for:)`'s rule for one listed site as a regular expression over the address a
    /// browser writes (`URL.href`: scheme and host in lower case, the host in ASCII, no default
    /// port), for the extension's request rules and its own matching, which must decide without
    /// asking: the host is the site or ends in `.` + the site (for `*.x`, ends in `.x`), with
    /// any trailing dots. It reads the same in RE2 (declarativeNetRequest) and ECMAScript, uses
    /// no group but the first, which is the whole address, and is matched without case.
    public static func addressPattern(of site: String) -> String {
        let domain = escapedForPattern(domain(of: site))
        let host = site.hasPrefix("*.") ? "[^/?#@]+\\.\(domain)" : "(?:[^/?#@]+\\.)?\(domain)"
        return "^(https?://(?:[^/?#@]*@)?\(host)\\.*(?::[0-9]+)?(?:[/?#].*)?)$"
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

    /// The name a site's events and grace go by: the site (without `*.`), made a valid app
    /// name if it is not one (an address such as [::1]).
    public static func appName(site: String) -> String {
        let bare = site.hasPrefix("*.") ? String(site.dropFirst(2)) : site
        return MigaConfig.isValidAppName(bare) ? bare : MigaConfig.appName(derivedFrom: bare)
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
        guard let parsed = WebURL.parse(url), parsed.scheme == "http" || parsed.scheme == "https", let host = parsed.host else {
            return nil
        }
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
    /// with a dot, or an IP address. A single label (`a`, a slip of the comma key) would gate
    /// no site anyone visits; one already in a hand-edited file is still read as written.
    public static func addableSite(_ site: String) -> String? {
        guard let host = normalizedSite(site) else { return nil }
        return host.contains(".") || host.hasPrefix("[") ? host : nil
    }

    /// Why `addableSite` refused `site`, for the message (quoted as typed).
    public static func problem(with site: String) -> String {
        normalizedSite(site) == nil ? "\"\(site)\" is not a host name" : "\"\(site)\" is not a site's host name (it needs a dot)"
    }

    /// The sites in `old` that `new` no longer gates, as written in `old`.
    public static func dropped(from old: [String], in new: [String]) -> [String] {
        let kept = Set(SiteMatcher(sites: new).sites)
        return old.filter { normalizedSite($0).map { !kept.contains($0) } ?? false }
    }

    /// A site as written in config (`Reddit.com.`, `bücher.example`, `*.example.com`, even a
    /// pasted URL) in the form `host(of:)` returns, or nil if it is not a host name: labels
    /// of letters, digits and hyphens (what DNS can resolve), or an IP address.
    public static func normalizedSite(_ site: String) -> String? {
        var text = Substring(site)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        if text.hasPrefix("*.") {
            return normalizedSite(String(text.dropFirst(2))).flatMap { $0.contains("*") || $0.hasPrefix("[") ? nil : "*." + $0 }
        }
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
