import Foundation
import XCTest
import GateWindowProtocol
@testable import MigaCore
import MigaTestSupport

/// One rule for the size of an item's picture, the gate window's and the browser page's
/// (the host once inlined a picture without the window's pixel check).
final class PictureSizeTests: XCTestCase {
    /// The first bytes of 321×123 pictures ImageMagick wrote (up to a JPEG's SOF0), in each
    /// format the page takes.
    static let headers = [
        "png": "iVBORw0KGgoAAAANSUhEUgAAAUEAAAB7",
        "gif": "R0lGODlhQQF7AA==",
        "jpeg": "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgICAgMCAgIDAwMDBAYEBAQEBAgGBgUGCQgKCgkICQkKDA8MCgsOCwkJDRENDg8QEBEQCgwSExIQEw8QEBD/2wBDAQMDAwQDBAgEBAgQCwkLEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBD/wAARCAB7AUE=",
        "webp lossy": "UklGRqoAAABXRUJQVlA4IJ4AAABwDACdASpBAXsA",
        "webp lossless": "UklGRiYAAABXRUJQVlA4TBoAAAAvQIEeAAcQ/Y/+",
        "webp extended": "UklGRs4AAABXRUJQVlA4WAoAAAAQAAAAQAEAegAA",
    ]

    func testReadsTheSizeFromEachFormatsHeader() throws {
        for (format, base64) in Self.headers {
            let bytes = [UInt8](try XCTUnwrap(Data(base64Encoded: base64), format))
            let size = PictureSize.of(bytes)
            XCTAssertEqual(size?.width, 321, format)
            XCTAssertEqual(size?.height, 123, format)
            // Cut short anywhere: no size, never a trap.
            for length in 0..<bytes.count where format != "jpeg" || length < bytes.count - 1 {
                XCTAssertNil(PictureSize.of(Array(bytes.prefix(length))).flatMap { $0.width == 321 ? $0 : nil }, "\(format) cut at \(length)")
            }
        }
        XCTAssertNil(PictureSize.of(Array("not a picture at all, whatever its name".utf8)))
    }

    /// A PNG of a few dozen bytes claiming 100000×100000 pixels: neither the window nor the
    /// page decodes it.
    static func pngClaiming(width: UInt32, height: UInt32) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        for value in [width, height] { bytes += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        return Data(bytes + [8, 6, 0, 0, 0, 0, 0, 0, 0])
    }

    func testTheLimitIsThePixelsNotTheBytes() {
        XCTAssertTrue(PictureSize.allows(width: 6000, height: 6000), "a 36-megapixel photo")
        XCTAssertFalse(PictureSize.allows(width: 100_000, height: 100_000))
        XCTAssertFalse(PictureSize.allows(width: Int.max, height: 2), "no overflow")
        XCTAssertFalse(PictureSize.allows(width: 0, height: 10))
        XCTAssertFalse(PictureSize.allows(width: 10, height: -1))
    }

    func testTheBrowserPageIsSentOnlyAPictureTheWindowWouldShow() throws {
        let root = try TemporaryDirectory()
        let environment = ["HOME": root.path]
        try Self.pngClaiming(width: 100_000, height: 100_000).write(to: URL(fileURLWithPath: root.path + "/bomb.png"))
        let fine = Self.pngClaiming(width: 320, height: 200)
        try fine.write(to: URL(fileURLWithPath: root.path + "/fine.png"))
        func item(_ image: String) -> ContentItem { ContentItem(id: "a", kind: .quote, category: "c", text: "t", image: image) }
        XCTAssertNotNil(ContentImage.path(of: item("~/bomb.png"), environment: environment), "a small file: the window gets the path, and checks it")
        XCTAssertNil(ContentImage.dataURL(of: item("~/bomb.png"), environment: environment), "the page never gets it")
        XCTAssertEqual(ContentImage.dataURL(of: item("~/fine.png"), environment: environment), "data:image/png;base64," + fine.base64EncodedString())
    }
}
