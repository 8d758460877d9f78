#if canImport(WHATWGURL) // fuzz/run.sh builds this file into its URL target, as one module
import WHATWGURL
#endif

/// The path of a path site (`/shorts` of `youtube.com/shorts`): how it is written, how it
/// covers an address's path, and the extension's pattern for the same. Paths are compared as
/// the WHATWG parser writes them (what a browser's `href` holds): case-sensitive, segment by
/// segment, so `/shorts` covers `/shorts` and `/shorts/abc`, never `/shortsx`; a `%XX` escape
/// is the same escape whatever the case of its hex digits.
enum SitePath {
    /// The longest path a site may name: its pattern must stay small enough for the browser's
    /// request rules (Chromium compiles them with a few kilobytes at most).
    static let maximumLength = 200

    /// One character of a path: a byte, and whether it was written as a `%XX` escape.
    struct Unit: Equatable {
        var byte: UInt8
        var encoded: Bool
    }

    /// `path` (what follows a site's host, `/` first) as a site names it: the path the WHATWG
    /// parser makes of it (`..` resolved, `é` as `%C3%A9`), escapes of letters, digits and
    /// `-._~` written plainly and the others with upper-case hex, trailing `/` dropped ("" for
    /// the whole host). nil when it is not a path: a query or fragment (`?`, `#`), a `%` not
    /// before two hex digits, or longer than `maximumLength`.
    static func normalized(host: String, path: Substring) -> String? {
        guard !path.contains(where: { $0 == "?" || $0 == "#" }),
              let parsed = WebURL.parse("https://" + host + path), parsed.query == nil, parsed.fragment == nil,
              let units = units(of: parsed.path) else { return nil }
        var written = units.map { unit in
            unit.encoded && !isUnreserved(unit.byte) ? unit : Unit(byte: unit.byte, encoded: false)
        }
        while written.last == Unit(byte: UInt8(ascii: "/"), encoded: false) { written.removeLast() }
        let text = String(decoding: written.flatMap(bytes(of:)), as: UTF8.self)
        return text.utf8.count <= maximumLength ? text : nil
    }

    /// Whether a site's path `prefix` (normalised) covers an address's `path`: its units
    /// are the path's first ones, and the path ends there or goes on with `/`.
    static func covers(_ prefix: String, _ path: String) -> Bool {
        guard !prefix.isEmpty else { return true }
        let wanted = units(of: prefix) ?? [], have = lenientUnits(of: path)
        guard have.count >= wanted.count, zip(wanted, have).allSatisfy(==) else { return false }
        return have.count == wanted.count || have[wanted.count] == Unit(byte: UInt8(ascii: "/"), encoded: false)
    }

    /// `covers` as a pattern (after the host and port), for `SiteMatcher.addressPattern`:
    /// plain characters as they are (the pattern's own characters escaped), escapes with
    /// their hex digits in either case.
    static func pattern(of prefix: String) -> String {
        var pattern = ""
        for unit in units(of: prefix) ?? [] {
            if unit.encoded {
                pattern += "%" + hexPattern(unit.byte >> 4) + hexPattern(unit.byte & 0x0F)
            } else {
                let character = Character(Unicode.Scalar(unit.byte))
                if "\\^$.|?*+()[]{}".contains(character) { pattern.append("\\") }
                pattern.append(character)
            }
        }
        return pattern
    }

    private static func hexPattern(_ nibble: UInt8) -> String {
        let digit = Character(Unicode.Scalar(nibble < 10 ? 0x30 + nibble : 0x41 + nibble - 10))
        return nibble < 10 ? String(digit) : "[\(digit)\(Character(digit.lowercased()))]"
    }

    /// The units of a path as a site writes it: nil when a `%` is not before two hex digits
    /// or a byte is not printable ASCII (the parser escapes all others).
    static func units(of path: String) -> [Unit]? {
        let bytes = Array(path.utf8)
        var units: [Unit] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard (0x21...0x7E).contains(byte) else { return nil }
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else { return nil }
                units.append(Unit(byte: high << 4 | low, encoded: true))
                index += 3
            } else {
                units.append(Unit(byte: byte, encoded: false))
                index += 1
            }
        }
        return units
    }

    /// The units of an address's path: a `%` not before two hex digits is a plain `%`.
    private static func lenientUnits(of path: String) -> [Unit] {
        let bytes = Array(path.utf8)
        var units: [Unit] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                units.append(Unit(byte: high << 4 | low, encoded: true))
                index += 3
            } else {
                units.append(Unit(byte: bytes[index], encoded: false))
                index += 1
            }
        }
        return units
    }

    private static func bytes(of unit: Unit) -> [UInt8] {
        guard unit.encoded else { return [unit.byte] }
        let hex = Array("0123456789ABCDEF".utf8)
        return [UInt8(ascii: "%"), hex[Int(unit.byte >> 4)], hex[Int(unit.byte & 0x0F)]]
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// RFC 3986's unreserved characters: an escape of one is the character itself.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "-._~".utf8.contains(byte)
    }
}
