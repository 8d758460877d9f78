import FoundationEssentials
import GateWindowProtocol

/// The picture an item names (`image = "~/Pictures/kids.jpg"`), as the window and the browser
/// page may show it: a file of the person's own, so never trusted. Missing, not a regular file
/// (a FIFO would block a read for ever), too large, or not a picture: skipped, the text shown
/// alone. The terminal shows the text alone always.
public enum ContentImage {
    /// A larger file is not a photo a pause should wait for.
    public static let fileLimit = 16 << 20
    /// What the browser page is sent inline: native messages are at most 1 MB, and base64
    /// grows a file by a third.
    public static let pageLimit = 700 << 10

    /// The absolute path of `item`'s picture when it is a regular file within `fileLimit`;
    /// `~/` is the home in `environment`.
    public static func path(of item: ContentItem, environment: [String: String]) -> String? {
        guard let written = item.image else { return nil }
        let path: String
        if written.hasPrefix("~/") {
            guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
            path = home + written.dropFirst()
        } else {
            path = written
        }
        guard path.hasPrefix("/"), let status = FileStatus.at(path), status.isRegularFile, status.size <= fileLimit else { return nil }
        return path
    }

    /// The picture as a `data:` URL for the browser page: only PNG, JPEG, GIF or WebP (by
    /// their first bytes, whatever the name says), within `pageLimit`, and of a size the gate
    /// window would show too (`PictureSize`: the page decodes it whole, as the window would).
    public static func dataURL(of item: ContentItem, environment: [String: String]) -> String? {
        guard let path = path(of: item, environment: environment),
              let data = try? BoundedFile.read(path, limit: pageLimit) else { return nil }
        return dataURL(of: data)
    }

    /// `data` as the page may be sent it, or nil.
    static func dataURL(of data: Data) -> String? {
        guard let type = mediaType(of: data), let size = PictureSize.of([UInt8](data)),
              PictureSize.allows(width: size.width, height: size.height) else { return nil }
        return "data:\(type);base64," + data.base64EncodedString()
    }

    static func mediaType(of data: Data) -> String? {
        let head = [UInt8](data.prefix(12))
        func starts(_ bytes: [UInt8]) -> Bool { head.count >= bytes.count && Array(head.prefix(bytes.count)) == bytes }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "image/gif" }
        if head.count == 12, starts(Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) { return "image/webp" }
        return nil
    }
}
