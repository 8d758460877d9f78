// The URL serializer: the record back to the string a browser would show as href.

extension URLRecord {
    /// The URL serializer (fragment included).
    func serialize() -> [UInt8] {
        var output: [UInt8] = Array(scheme.utf8)
        output.append(UInt8(ascii: ":"))
        if let host = host {
            output.append(contentsOf: [UInt8(ascii: "/"), UInt8(ascii: "/")])
            if !username.isEmpty || !password.isEmpty {
                output.append(contentsOf: username)
                if !password.isEmpty {
                    output.append(UInt8(ascii: ":"))
                    output.append(contentsOf: password)
                }
                output.append(UInt8(ascii: "@"))
            }
            output.append(contentsOf: host.serialized.utf8)
            if let port = port {
                output.append(UInt8(ascii: ":"))
                output.append(contentsOf: String(port).utf8)
            }
        }
        // Without a host, a path starting with an empty segment would otherwise
        // serialize as "//..." and be re-read as an authority.
        if host == nil, opaquePath == nil, path.count > 1, path[0].isEmpty {
            output.append(contentsOf: [UInt8(ascii: "/"), UInt8(ascii: ".")])
        }
        output.append(contentsOf: serializedPath())
        if let query = query {
            output.append(UInt8(ascii: "?"))
            output.append(contentsOf: query)
        }
        if let fragment = fragment {
            output.append(UInt8(ascii: "#"))
            output.append(contentsOf: fragment)
        }
        return output
    }

    /// The URL path serializer.
    func serializedPath() -> [UInt8] {
        if let opaque = opaquePath { return opaque }
        var output: [UInt8] = []
        output.reserveCapacity(path.reduce(0) { $0 + $1.count + 1 })
        for segment in path {
            output.append(UInt8(ascii: "/"))
            output.append(contentsOf: segment)
        }
        return output
    }
}
