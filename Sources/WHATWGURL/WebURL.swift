// The public face of the parser: a parsed URL, read the way a browser reads it.

/// A URL parsed by the WHATWG URL Standard's basic URL parser.
///
/// Components are read-only: they are what the parser produced, and `href` is
/// always their serialization. Build a different URL by parsing a different string.
public struct WebURL: Equatable, Sendable {
    /// Lower case, without the trailing ":".
    public internal(set) var scheme: String
    /// Percent-encoded with the userinfo set, as in `href`.
    public internal(set) var username: String
    public internal(set) var password: String
    /// nil for URLs without a host ("mailto:x", "sc:/p").
    public internal(set) var host: Host?
    /// nil when absent or equal to the scheme's default port.
    public internal(set) var port: Int?
    /// The serialized path: "/a/b", "" or an opaque path such as "x@example.com".
    public internal(set) var path: String
    /// Without the leading "?"; nil when there is no "?" at all.
    public internal(set) var query: String?
    /// Without the leading "#"; nil when there is no "#" at all.
    public internal(set) var fragment: String?
    /// True for URLs whose path is a single opaque string rather than segments.
    public internal(set) var hasOpaquePath: Bool

    /// The full serialization, as the standard's URL serializer gives it.
    public var href: String {
        String(decoding: record.serialize(), as: UTF8.self)
    }

    /// ftp, file, http, https, ws and wss.
    public var isSpecial: Bool { SpecialScheme.isSpecial(scheme) }

    /// Parses `input`, resolving it against `base` if given. nil means failure.
    public static func parse(_ input: String, base: WebURL? = nil) -> WebURL? {
        guard let record = URLParser.parse(input, base: base?.record) else { return nil }
        return WebURL(record)
    }

    init(_ record: URLRecord) {
        scheme = record.scheme
        username = String(decoding: record.username, as: UTF8.self)
        password = String(decoding: record.password, as: UTF8.self)
        host = record.host
        port = record.port
        path = String(decoding: record.serializedPath(), as: UTF8.self)
        query = record.query.map { String(decoding: $0, as: UTF8.self) }
        fragment = record.fragment.map { String(decoding: $0, as: UTF8.self) }
        hasOpaquePath = record.opaquePath != nil
    }

    /// The record form, for use as a base. Path segments never contain "/", so
    /// splitting the serialized path gives the segments back.
    var record: URLRecord {
        var record = URLRecord()
        record.scheme = scheme
        record.username = Array(username.utf8)
        record.password = Array(password.utf8)
        record.host = host
        record.port = port
        if hasOpaquePath {
            record.opaquePath = Array(path.utf8)
        } else if !path.isEmpty {
            record.path = path.utf8.dropFirst()
                .split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
                .map(Array.init)
        }
        record.query = query.map { Array($0.utf8) }
        record.fragment = fragment.map { Array($0.utf8) }
        return record
    }
}

extension WebURL: CustomStringConvertible {
    public var description: String { href }
}
