/// How large a picture beside an item may be, for every surface that shows one: the gate
/// window (which reads the size from the header with gdk-pixbuf) and the browser page (to which
/// `miga native-host` sends it inline, reading the size with `of` below). A small file may
/// claim a huge picture (a PNG of 100000×100000 pixels compresses into a few hundred bytes),
/// and a picture is decoded whole before it is scaled down: past this size it is skipped, the
/// text shown alone, rather than risk a long decode or a buffer of gigabytes. One rule, here,
/// for both. Pure Swift, as the rest of this module.
public enum PictureSize {
    /// The most pixels a picture may have (a 36-megapixel camera's photo fits).
    public static let maxPixels = 40_000_000

    /// Whether a picture of `width`×`height` pixels (as its header says) may be shown.
    public static func allows(width: Int, height: Int) -> Bool {
        width > 0 && height > 0 && width <= maxPixels / height
    }

    /// The size a PNG, JPEG, GIF or WebP file's header gives, from its first bytes; nil for
    /// any other file, or a header cut short. Linear in the bytes looked at.
    public static func of(_ data: [UInt8]) -> (width: Int, height: Int)? {
        if starts(data, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            // The first chunk is IHDR: width and height, 4 bytes each, big-endian.
            guard data.count >= 24, Array(data[12..<16]) == Array("IHDR".utf8) else { return nil }
            return (bigEndian(data, 16, 4), bigEndian(data, 20, 4))
        }
        if starts(data, Array("GIF87a".utf8)) || starts(data, Array("GIF89a".utf8)) {
            guard data.count >= 10 else { return nil }
            return (littleEndian(data, 6, 2), littleEndian(data, 8, 2))
        }
        if starts(data, [0xFF, 0xD8]) { return jpeg(data) }
        if data.count >= 30, starts(data, Array("RIFF".utf8)), Array(data[8..<12]) == Array("WEBP".utf8) { return webp(data) }
        return nil
    }

    /// A JPEG's size is in its first start-of-frame segment (SOF0…SOF15 but DHT, JPG and DAC),
    /// after any number of others, each of which says its own length.
    private static func jpeg(_ data: [UInt8]) -> (width: Int, height: Int)? {
        var index = 2
        while index + 3 < data.count {
            guard data[index] == 0xFF else { return nil }
            let marker = data[index + 1]
            if marker == 0xFF { index += 1; continue } // fill byte
            if marker == 0x01 || (0xD0...0xD8).contains(marker) { index += 2; continue } // no length
            let length = bigEndian(data, index + 2, 2)
            guard length >= 2 else { return nil }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard index + 9 <= data.count else { return nil }
                return (bigEndian(data, index + 7, 2), bigEndian(data, index + 5, 2))
            }
            index += 2 + length
        }
        return nil
    }

    /// WebP's first chunk: lossy (VP8), lossless (VP8L) or extended (VP8X, the canvas).
    private static func webp(_ data: [UInt8]) -> (width: Int, height: Int)? {
        switch Array(data[12..<16]) {
        case Array("VP8 ".utf8):
            guard data[23] == 0x9D, data[24] == 0x01, data[25] == 0x2A else { return nil }
            return (littleEndian(data, 26, 2) & 0x3FFF, littleEndian(data, 28, 2) & 0x3FFF)
        case Array("VP8L".utf8):
            guard data[20] == 0x2F else { return nil }
            let bits = littleEndian(data, 21, 4)
            return (1 + bits & 0x3FFF, 1 + (bits >> 14) & 0x3FFF)
        case Array("VP8X".utf8):
            return (1 + littleEndian(data, 24, 3), 1 + littleEndian(data, 27, 3))
        default:
            return nil
        }
    }

    private static func starts(_ data: [UInt8], _ prefix: [UInt8]) -> Bool {
        data.count >= prefix.count && Array(data[0..<prefix.count]) == prefix
    }

    private static func bigEndian(_ data: [UInt8], _ at: Int, _ count: Int) -> Int {
        data[at..<(at + count)].reduce(0) { $0 << 8 | Int($1) }
    }

    private static func littleEndian(_ data: [UInt8], _ at: Int, _ count: Int) -> Int {
        data[at..<(at + count)].reversed().reduce(0) { $0 << 8 | Int($1) }
    }
}
