import Foundation

/// Decides which URLs `open-url` gates: those whose host is a listed site or a subdomain of
/// one. Hosts come from a real URL parser (Foundation's, which applies IDNA), read the way a
/// browser reads them, so `https://reddit.com@evil.example` is evil.example and
/// `HTTPS://WWW.REDDIT.COM./` is reddit.com.
public struct SiteMatcher: Equatable {
    /// The listed sites, normalised; entries that are not host names are left out.
    public let sites: [String]

    public init(sites: [String]) {
        self.sites = sites.compactMap(Self.normalizedSite)
    }

    /// The listed site `url` belongs to, or nil when it is not gated.
    public func site(for url: String) -> String? {
        guard let host = Self.host(of: url) else { return nil }
        return sites.first { host == $0 || host.hasSuffix("." + $0) }
    }

    /// The host of an http(s) URL as a browser would connect to it: ASCII (punycode),
    /// lower case, without a trailing dot. nil for other schemes and for garbage.
    public static func host(of url: String) -> String? {
        // WHATWG URL parsing, which browsers follow: tabs and newlines are removed, outer
        // spaces trimmed, and in http(s) URLs a backslash is a slash.
        var text = url.trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters))
        text.removeAll { $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        text = text.replacingOccurrences(of: "\\", with: "/")
        guard let host = URL(string: text)?.host, !host.isEmpty else { return nil }
        return normalized(host)
    }

    /// A site as written in config (`Reddit.com.`, `bücher.example`, even a pasted URL)
    /// in the form `host(of:)` returns, or nil if it is not a host name.
    public static func normalizedSite(_ site: String) -> String? {
        let trimmed = site.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, !trimmed.contains(" ") else { return nil }
        if trimmed.contains("://") { return host(of: trimmed) }
        guard !trimmed.contains("/"), !trimmed.contains("@") else { return nil }
        return host(of: "https://\(trimmed)/")
    }

    private static func normalized(_ host: String) -> String {
        var host = host.lowercased()
        while host.hasSuffix(".") { host.removeLast() }
        return host
    }
}
