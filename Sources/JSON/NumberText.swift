#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Numbers as text, without Foundation's String(format:).
public enum NumberText {
    /// `value` with exactly `places` digits after the point, rounded as printf rounds.
    public static func fixed(_ value: Double, places: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        let places = max(0, min(places, 20))
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 352) { buffer in
            let count = withVaList([Int32(places), value]) { vsnprintf(buffer.baseAddress!, buffer.count, "%.*f", $0) }
            return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress!, count: min(Int(count), buffer.count - 1)), as: UTF8.self)
        }
    }

    /// Two lowercase hexadecimal digits per byte.
    public static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
