// The URL record the parser builds. Components are kept as UTF-8 bytes while
// parsing so that appending stays cheap; WebURL turns them into Strings once.

struct URLRecord {
    var scheme: String = "" {
        didSet { isSpecial = SpecialScheme.isSpecial(scheme) }
    }
    private(set) var isSpecial = false
    var username: [UInt8] = []
    var password: [UInt8] = []
    var host: WebURL.Host? = nil
    var port: Int? = nil
    /// The path as a list of segments; ignored when `opaquePath` is set.
    var path: [[UInt8]] = []
    /// Non-nil when the URL has an opaque path ("mailto:x", "data:,y").
    var opaquePath: [UInt8]? = nil
    var query: [UInt8]? = nil
    var fragment: [UInt8]? = nil

    /// "Shorten a URL's path": drop the last segment, except that a lone normalized
    /// Windows drive letter in a file: URL stays, so "file:///C:/.." is "file:///C:/".
    mutating func shortenPath() {
        if scheme == "file", path.count == 1, WindowsDriveLetter.isDriveLetter(path[0], normalizedOnly: true) {
            return
        }
        if !path.isEmpty { path.removeLast() }
    }
}

extension Array where Element == UInt8 {
    @inline(__always)
    mutating func appendPercentEncoded(_ scalar: Unicode.Scalar, _ set: PercentEncodeSet) {
        PercentEncoding.append(scalar, encodedWith: set, to: &self)
    }
}
