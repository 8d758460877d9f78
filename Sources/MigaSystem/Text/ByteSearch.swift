#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The C library's byte search and comparison, for parsers that read a million lines:
/// walking a buffer byte by byte in Swift took seconds where memchr takes milliseconds.
/// Inlinable, so the hot loops that use them pay no call across modules.
public enum ByteSearch {
    /// The offset of the first `byte` in `bytes` at or after `start`; nil when there is none.
    @inlinable
    public static func firstIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int = 0) -> Int? {
        guard let base = bytes.baseAddress, start < bytes.count else { return nil }
        return memchr(base + start, Int32(byte), bytes.count - start).map { UnsafeRawPointer($0) - base }
    }

    /// Whether `bytes` and `other` hold the same bytes.
    @inlinable
    public static func equal(_ bytes: UnsafeRawBufferPointer, _ other: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count == other.count else { return false }
        guard bytes.count > 0 else { return true }
        return memcmp(bytes.baseAddress!, other.baseAddress!, bytes.count) == 0
    }

    /// Whether `bytes` holds `text` at `offset` (and is long enough to).
    @inlinable
    public static func has(_ text: StaticString, in bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        let count = text.utf8CodeUnitCount
        guard offset + count <= bytes.count else { return false }
        return memcmp(bytes.baseAddress! + offset, text.utf8Start, count) == 0
    }
}
