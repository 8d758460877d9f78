// The basic URL parser state machine (no state override: setters are not supported).
//
// The input is an array of Unicode scalars and `pointer` indexes it, exactly like
// the standard's pointer; nil stands for the EOF code point. Every state either
// consumes a code point or moves to a state that will, and the only backward
// jumps (authority → host, and "start over" after a missing scheme) happen at most
// once per code point, so the parser is linear in the input length.

enum URLParser {
    static func parse(_ input: String, base: URLRecord?) -> URLRecord? {
        var machine = Machine(input: preprocess(input), base: base)
        return machine.run()
    }

    /// Strips leading and trailing C0 controls and spaces, then removes every ASCII
    /// tab and newline, wherever it is.
    static func preprocess(_ input: String) -> [Unicode.Scalar] {
        let scalars = input.unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, scalars[start].isC0ControlOrSpace { start = scalars.index(after: start) }
        while start < end {
            let before = scalars.index(before: end)
            guard scalars[before].isC0ControlOrSpace else { break }
            end = before
        }
        var output: [Unicode.Scalar] = []
        output.reserveCapacity(input.utf8.count)
        for scalar in scalars[start..<end] where !scalar.isASCIITabOrNewline {
            output.append(scalar)
        }
        return output
    }
}

private enum State {
    case schemeStart, scheme, noScheme, specialRelativeOrAuthority, pathOrAuthority
    case relative, relativeSlash, specialAuthoritySlashes, specialAuthorityIgnoreSlashes
    case authority, host, port, file, fileSlash, fileHost
    case pathStart, path, opaquePath, query, fragment
}

private struct Machine {
    let input: [Unicode.Scalar]
    let base: URLRecord?
    var url = URLRecord()
    var state = State.schemeStart
    var pointer = 0
    /// The standard's buffer, for every state except the path state.
    var buffer: [Unicode.Scalar] = []
    /// The path state's buffer, which holds an already percent-encoded segment.
    var segment: [UInt8] = []
    var atSignSeen = false
    var insideBrackets = false
    var passwordTokenSeen = false

    init(input: [Unicode.Scalar], base: URLRecord?) {
        self.input = input
        self.base = base
    }

    mutating func run() -> URLRecord? {
        let count = input.count
        while true {
            let c: Unicode.Scalar? = pointer >= 0 && pointer < count ? input[pointer] : nil
            guard step(c) else { return nil }
            if pointer >= count { break }
            pointer += 1
        }
        return url
    }

    /// Whether the code points after the current one start with `scalar`.
    private func remainingStarts(with scalar: Unicode.Scalar) -> Bool {
        let next = pointer + 1
        return next >= 0 && next < input.count && input[next] == scalar
    }

    /// "/" always ends a segment or authority; "\" does too in special URLs.
    private func isSlash(_ c: Unicode.Scalar?) -> Bool {
        c == "/" || (url.isSpecial && c == "\\")
    }

    /// Runs one state for one code point; false means failure.
    private mutating func step(_ c: Unicode.Scalar?) -> Bool {
        switch state {
        case .schemeStart:
            if let c = c, c.isASCIIAlpha {
                buffer.append(c.asciiLowercased)
                state = .scheme
            } else {
                state = .noScheme
                pointer -= 1
            }

        case .scheme:
            if let c = c, c.isASCIIAlphanumeric || c == "+" || c == "-" || c == "." {
                buffer.append(c.asciiLowercased)
            } else if c == ":" {
                // Only ASCII letters, digits, `+`, `-` and `.` reach this buffer, so its bytes
                // are the scalars' values (a scalar view built from the array took a generic
                // initializer whose first use cost the runtime a conformance search per process).
                url.scheme = String(decoding: buffer.map { UInt8(truncatingIfNeeded: $0.value) }, as: UTF8.self)
                buffer.removeAll()
                if url.scheme == "file" {
                    state = .file
                } else if url.isSpecial, let base = base, base.scheme == url.scheme {
                    state = .specialRelativeOrAuthority
                } else if url.isSpecial {
                    state = .specialAuthoritySlashes
                } else if remainingStarts(with: "/") {
                    state = .pathOrAuthority
                    pointer += 1
                } else {
                    url.opaquePath = []
                    state = .opaquePath
                }
            } else {
                // Not a scheme after all ("a/b", "1:x"): start over without one.
                buffer.removeAll()
                state = .noScheme
                pointer = -1
            }

        case .noScheme:
            guard let base = base else { return false }
            if let opaque = base.opaquePath {
                // Only a fragment can be resolved against a base with an opaque path.
                guard c == "#" else { return false }
                url.scheme = base.scheme
                url.opaquePath = opaque
                url.query = base.query
                url.fragment = []
                state = .fragment
            } else if base.scheme != "file" {
                state = .relative
                pointer -= 1
            } else {
                state = .file
                pointer -= 1
            }

        case .specialRelativeOrAuthority:
            if c == "/" && remainingStarts(with: "/") {
                state = .specialAuthorityIgnoreSlashes
                pointer += 1
            } else {
                state = .relative
                pointer -= 1
            }

        case .pathOrAuthority:
            if c == "/" {
                state = .authority
            } else {
                state = .path
                pointer -= 1
            }

        case .relative:
            guard let base = base else { return false }
            url.scheme = base.scheme
            if isSlash(c) {
                state = .relativeSlash
            } else {
                url.username = base.username
                url.password = base.password
                url.host = base.host
                url.port = base.port
                url.path = base.path
                url.query = base.query
                if c == "?" {
                    url.query = []
                    state = .query
                } else if c == "#" {
                    url.fragment = []
                    state = .fragment
                } else if c != nil {
                    url.query = nil
                    url.shortenPath()
                    state = .path
                    pointer -= 1
                }
            }

        case .relativeSlash:
            if url.isSpecial && (c == "/" || c == "\\") {
                state = .specialAuthorityIgnoreSlashes
            } else if c == "/" {
                state = .authority
            } else {
                if let base = base {
                    url.username = base.username
                    url.password = base.password
                    url.host = base.host
                    url.port = base.port
                }
                state = .path
                pointer -= 1
            }

        case .specialAuthoritySlashes:
            // "https:reddit.com" and "https:/reddit.com" end up here too: special
            // URLs always get an authority, whatever number of slashes was written.
            if c == "/" && remainingStarts(with: "/") {
                state = .specialAuthorityIgnoreSlashes
                pointer += 1
            } else {
                state = .specialAuthorityIgnoreSlashes
                pointer -= 1
            }

        case .specialAuthorityIgnoreSlashes:
            if c != "/" && c != "\\" {
                state = .authority
                pointer -= 1
            }

        case .authority:
            if c == "@" {
                // Only the last "@" ends the userinfo; earlier ones become "%40".
                if atSignSeen {
                    let escapedAt: [UInt8] = Array("%40".utf8)
                    if passwordTokenSeen {
                        url.password.append(contentsOf: escapedAt)
                    } else {
                        url.username.append(contentsOf: escapedAt)
                    }
                }
                atSignSeen = true
                for codePoint in buffer {
                    if codePoint == ":" && !passwordTokenSeen {
                        passwordTokenSeen = true
                        continue
                    }
                    if passwordTokenSeen {
                        url.password.appendPercentEncoded(codePoint, .userinfo)
                    } else {
                        url.username.appendPercentEncoded(codePoint, .userinfo)
                    }
                }
                buffer.removeAll()
            } else if c == nil || c == "/" || c == "?" || c == "#" || (url.isSpecial && c == "\\") {
                if atSignSeen && buffer.isEmpty { return false }
                // Re-read what followed the last "@" as the host.
                pointer -= buffer.count + 1
                buffer.removeAll()
                state = .host
            } else if let c = c {
                buffer.append(c)
            }

        case .host:
            if c == ":" && !insideBrackets {
                if buffer.isEmpty { return false }
                guard let host = HostParser.parse(buffer[...], isOpaque: !url.isSpecial) else { return false }
                url.host = host
                buffer.removeAll()
                state = .port
            } else if c == nil || c == "/" || c == "?" || c == "#" || (url.isSpecial && c == "\\") {
                pointer -= 1
                if url.isSpecial && buffer.isEmpty { return false }
                guard let host = HostParser.parse(buffer[...], isOpaque: !url.isSpecial) else { return false }
                url.host = host
                buffer.removeAll()
                state = .pathStart
            } else if let c = c {
                if c == "[" { insideBrackets = true }
                if c == "]" { insideBrackets = false }
                buffer.append(c)
            }

        case .port:
            if let c = c, c.isASCIIDigit {
                buffer.append(c)
            } else if c == nil || c == "/" || c == "?" || c == "#" || (url.isSpecial && c == "\\") {
                if !buffer.isEmpty {
                    var port = 0
                    for digit in buffer {
                        // Leading zeros are fine ("00080"); anything above 65535 fails,
                        // so the value never grows past that and cannot overflow.
                        port = port * 10 + Int(digit.value - 0x30)
                        if port > 65535 { return false }
                    }
                    url.port = port == SpecialScheme.defaultPort(url.scheme) ? nil : port
                    buffer.removeAll()
                }
                state = .pathStart
                pointer -= 1
            } else {
                return false
            }

        case .file:
            url.scheme = "file"
            url.host = .empty
            if c == "/" || c == "\\" {
                state = .fileSlash
            } else if let base = base, base.scheme == "file" {
                url.host = base.host
                url.path = base.path
                url.query = base.query
                if c == "?" {
                    url.query = []
                    state = .query
                } else if c == "#" {
                    url.fragment = []
                    state = .fragment
                } else if c != nil {
                    url.query = nil
                    if !WindowsDriveLetter.startsWithDriveLetter(input, from: pointer) {
                        url.shortenPath()
                    } else {
                        url.path = []
                    }
                    state = .path
                    pointer -= 1
                }
            } else {
                state = .path
                pointer -= 1
            }

        case .fileSlash:
            if c == "/" || c == "\\" {
                state = .fileHost
            } else {
                if let base = base, base.scheme == "file" {
                    url.host = base.host
                    if !WindowsDriveLetter.startsWithDriveLetter(input, from: pointer),
                       let first = base.path.first,
                       WindowsDriveLetter.isDriveLetter(first, normalizedOnly: true) {
                        url.path.append(first)
                    }
                }
                state = .path
                pointer -= 1
            }

        case .fileHost:
            if c == nil || c == "/" || c == "\\" || c == "?" || c == "#" {
                pointer -= 1
                if isWindowsDriveLetter(buffer) {
                    // "file://C:/x": the drive letter is the first path segment, not a host.
                    segment = buffer.map { UInt8(truncatingIfNeeded: $0.value) }
                    buffer.removeAll()
                    state = .path
                } else if buffer.isEmpty {
                    url.host = .empty
                    state = .pathStart
                } else {
                    guard var host = HostParser.parse(buffer[...], isOpaque: false) else { return false }
                    if host == .domain("localhost") { host = .empty }
                    url.host = host
                    buffer.removeAll()
                    state = .pathStart
                }
            } else if let c = c {
                buffer.append(c)
            }

        case .pathStart:
            if url.isSpecial {
                state = .path
                if c != "/" && c != "\\" { pointer -= 1 }
            } else if c == "?" {
                url.query = []
                state = .query
            } else if c == "#" {
                url.fragment = []
                state = .fragment
            } else if c != nil {
                state = .path
                if c != "/" { pointer -= 1 }
            }

        case .path:
            if c == nil || isSlash(c) || c == "?" || c == "#" {
                let endsWithSlash = isSlash(c)
                if PathSegment.isDoubleDot(segment) {
                    url.shortenPath()
                    if !endsWithSlash { url.path.append([]) }
                } else if PathSegment.isSingleDot(segment) {
                    if !endsWithSlash { url.path.append([]) }
                } else {
                    if url.scheme == "file", url.path.isEmpty, WindowsDriveLetter.isDriveLetter(segment) {
                        segment[1] = UInt8(ascii: ":")  // "C|" is normalized to "C:"
                    }
                    url.path.append(segment)
                }
                segment.removeAll()
                if c == "?" {
                    url.query = []
                    state = .query
                } else if c == "#" {
                    url.fragment = []
                    state = .fragment
                }
            } else if let c = c {
                segment.appendPercentEncoded(c, .path)
            }

        case .opaquePath:
            if c == "?" {
                url.query = []
                state = .query
            } else if c == "#" {
                url.fragment = []
                state = .fragment
            } else if let c = c {
                url.opaquePath?.appendPercentEncoded(c, .c0Control)
            }

        case .query:
            if c == "#" {
                url.fragment = []
                state = .fragment
            } else if let c = c {
                // UTF-8 percent-encoding is per code point, so encoding as we go gives
                // the same result as the standard's encode-the-buffer-at-the-end.
                url.query?.appendPercentEncoded(c, url.isSpecial ? .specialQuery : .query)
            }

        case .fragment:
            if let c = c {
                url.fragment?.appendPercentEncoded(c, .fragment)
            }
        }
        return true
    }

    private func isWindowsDriveLetter(_ scalars: [Unicode.Scalar]) -> Bool {
        scalars.count == 2 && scalars[0].isASCIIAlpha && (scalars[1] == ":" || scalars[1] == "|")
    }
}

/// Single- and double-dot path segments, including their percent-encoded spellings.
enum PathSegment {
    static func isSingleDot(_ s: [UInt8]) -> Bool {
        switch s.count {
        case 1: return s[0] == UInt8(ascii: ".")
        case 3: return isEncodedDot(s[0...2])
        default: return false
        }
    }

    static func isDoubleDot(_ s: [UInt8]) -> Bool {
        switch s.count {
        case 2: return s[0] == UInt8(ascii: ".") && s[1] == UInt8(ascii: ".")
        case 4:
            return (s[0] == UInt8(ascii: ".") && isEncodedDot(s[1...3]))
                || (isEncodedDot(s[0...2]) && s[3] == UInt8(ascii: "."))
        case 6: return isEncodedDot(s[0...2]) && isEncodedDot(s[3...5])
        default: return false
        }
    }

    /// "%2e", ASCII case-insensitively.
    private static func isEncodedDot(_ s: ArraySlice<UInt8>) -> Bool {
        let i = s.startIndex
        return s.count == 3 && s[i] == UInt8(ascii: "%") && s[i + 1] == UInt8(ascii: "2")
            && s[i + 2].asciiLowercased == UInt8(ascii: "e")
    }
}
