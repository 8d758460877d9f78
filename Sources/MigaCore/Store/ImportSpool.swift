/// The events an import has read and checked, kept until the whole file has proved good and
/// then read back, in order, to be inserted (see `EventStore.importLines`). They go to a
/// temporary file beside the database, removed as soon as it is open, so memory stays flat
/// however long the file and a killed import leaves nothing behind; each as
/// a few fixed fields and its texts' bytes (about 40 bytes an event, against 150 a line).
/// Staging them in an SQLite table instead cost as much as parsing them three times over.
final class ImportSpool {
    /// One event as read back; the texts point into the spool's buffer, valid during the call.
    struct Record {
        var timestamp: Int64
        var offsetMinutes: Int
        var type: EventType
        /// The type's name, bytes that live as long as the process.
        var typeName: UnsafeRawBufferPointer
        var waitMilliseconds: Int?
        var session: UnsafeRawBufferPointer
        var app: UnsafeRawBufferPointer
        var contentID: UnsafeRawBufferPointer?
        var detail: UnsafeRawBufferPointer?
    }

    private let file: ScratchFile
    /// What is not yet in the file: a chunk, and room for a record after it (grown for a longer one).
    private var pending: UnsafeMutableRawBufferPointer
    private var pendingCount = 0
    /// Bytes already in the file.
    private var flushed = 0
    /// The span of the events' times (ImportOverlap asks).
    private(set) var earliest = Int64.max
    private(set) var latest = Int64.min

    init(beside path: String) throws {
        file = try ScratchFile(in: FilePath.parent(of: path), prefix: ".import-", name: "the import's temporary file")
        pending = .allocate(byteCount: Self.chunk + (64 << 10), alignment: 8)
    }

    deinit {
        pending.deallocate()
    }

    /// Writes out what is pending once it fills a chunk.
    static let chunk = 1 << 20

    // Layout: time (8 bytes), offset (4), type (1), which optional fields follow (1), then the
    // wait (8) if any, the lengths (4 each) of session, app, content id and detail (the last two
    // if any), and the texts' bytes in that order. Integers in the machine's order: the file
    // is this process's alone.
    private static let hasWait: UInt8 = 1, hasContent: UInt8 = 2, hasDetail: UInt8 = 4

    func append(_ fields: EventLine.ExportedFields) throws {
        try append(timestamp: fields.timestamp, offsetMinutes: fields.offsetMinutes, type: fields.type, wait: fields.waitMilliseconds,
                   session: fields.session, app: fields.app, contentID: fields.contentID, detail: fields.detail)
    }

    func append(_ event: Event) throws {
        var session = event.session, app = event.app, content = event.contentID ?? "", detail = event.detail ?? ""
        try session.withUTF8 { session in
            try app.withUTF8 { app in
                try content.withUTF8 { content in
                    try detail.withUTF8 { detail in
                        try append(timestamp: event.timestamp, offsetMinutes: event.utcOffsetMinutes, type: event.type,
                                   wait: event.waitMilliseconds, session: UnsafeRawBufferPointer(session), app: UnsafeRawBufferPointer(app),
                                   contentID: event.contentID == nil ? nil : UnsafeRawBufferPointer(content),
                                   detail: event.detail == nil ? nil : UnsafeRawBufferPointer(detail))
                    }
                }
            }
        }
    }

    private func append(timestamp: Int64, offsetMinutes: Int, type: EventType, wait: Int?, session: UnsafeRawBufferPointer,
                        app: UnsafeRawBufferPointer, contentID: UnsafeRawBufferPointer?, detail: UnsafeRawBufferPointer?) throws {
        earliest = min(earliest, timestamp)
        latest = max(latest, timestamp)
        let size = 14 + 8 + 16 + session.count + app.count + (contentID?.count ?? 0) + (detail?.count ?? 0)
        if pending.count - pendingCount < size {
            try flush()
            if pending.count < size {
                pending.deallocate()
                pending = .allocate(byteCount: size, alignment: 8)
            }
        }
        // Stored straight into the buffer: appending to an array, field by field, was an
        // eighth of reading the file.
        pendingCount = Self.encode(timestamp: timestamp, offsetMinutes: offsetMinutes, type: type, wait: wait, session: session,
                                   app: app, contentID: contentID, detail: detail, into: pending, at: pendingCount)
        if pendingCount >= Self.chunk { try flush() }
    }

    /// Writes the record at `start` of `buffer`, which has room for it; returns where it ends.
    private static func encode(timestamp: Int64, offsetMinutes: Int, type: EventType, wait: Int?, session: UnsafeRawBufferPointer,
                               app: UnsafeRawBufferPointer, contentID: UnsafeRawBufferPointer?, detail: UnsafeRawBufferPointer?,
                               into buffer: UnsafeMutableRawBufferPointer, at start: Int) -> Int {
        var end = start
        func put<Number: FixedWidthInteger>(_ number: Number) {
            buffer.storeBytes(of: number, toByteOffset: end, as: Number.self)
            end += MemoryLayout<Number>.size
        }
        func copy(_ bytes: UnsafeRawBufferPointer) {
            if let base = bytes.baseAddress, bytes.count > 0 { (buffer.baseAddress! + end).copyMemory(from: base, byteCount: bytes.count) }
            end += bytes.count
        }
        put(timestamp)
        put(Int32(truncatingIfNeeded: offsetMinutes))
        put(code(of: type))
        put((wait == nil ? 0 : hasWait) | (contentID == nil ? 0 : hasContent) | (detail == nil ? 0 : hasDetail))
        if let wait { put(Int64(wait)) }
        put(UInt32(session.count))
        put(UInt32(app.count))
        if let contentID { put(UInt32(contentID.count)) }
        if let detail { put(UInt32(detail.count)) }
        copy(session)
        copy(app)
        if let contentID { copy(contentID) }
        if let detail { copy(detail) }
        return end
    }

    /// The types by their code in the file (built once: `allCases` makes a new array each time).
    private static let types = EventType.allCases

    /// A type's code: its place among the types, a byte in the file and in `ImportRow.identity`.
    static func code(of type: EventType) -> UInt8 { UInt8(types.firstIndex(of: type)!) }
    /// Their names, made once and never freed, so that every row binds them without a copy.
    /// `nonisolated(unsafe)`: the buffers are written only here, inside the static's one-time
    /// (thread-safe) initialiser, and are read-only and live for the rest of the process, so
    /// sharing them between threads cannot race (the pointer type is all that is not Sendable).
    nonisolated(unsafe) private static let typeNames: [UnsafeRawBufferPointer] = types.map { type in
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: type.rawValue.utf8.count, alignment: 1)
        _ = bytes.initializeMemory(as: UInt8.self, from: type.rawValue.utf8)
        return UnsafeRawBufferPointer(bytes)
    }

    func flush() throws {
        try file.write(UnsafeRawBufferPointer(rebasing: pending[0..<pendingCount]), at: flushed)
        flushed += pendingCount
        pendingCount = 0
    }

    /// Every event appended so far, in order, in groups of up to `size` (fewer where the
    /// file is read in pieces): a group's texts stay valid together, for one multi-row INSERT.
    func forEach(groupsOf size: Int, _ body: ([Record]) throws -> Void) throws {
        try flush()
        // Room for a long record (its texts come from one line of at most `maxLineLength`
        // bytes; it grows for a longer one) and the next chunk.
        var buffer = [UInt8](repeating: 0, count: EventStore.maxLineLength + 64 + Self.chunk)
        var group: [Record] = []
        group.reserveCapacity(size)
        var filled = 0, offset = 0
        while offset < flushed {
            if filled == buffer.count { buffer += [UInt8](repeating: 0, count: buffer.count) }
            let count = try buffer.withUnsafeMutableBytes { try file.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...]), at: offset) }
            offset += count
            filled += count
            let used = try buffer.withUnsafeBytes { bytes in
                try Self.records(in: UnsafeRawBufferPointer(rebasing: bytes[0..<filled]), groupsOf: size, into: &group, body)
            }
            buffer.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[used..<filled])) }
            filled -= used
        }
        guard filled == 0 else { throw file.damaged() }
    }

    /// Calls `body` with every whole record at the start of `bytes`, in groups; returns the
    /// bytes they took.
    private static func records(in bytes: UnsafeRawBufferPointer, groupsOf size: Int, into group: inout [Record],
                                _ body: ([Record]) throws -> Void) throws -> Int {
        var start = 0
        while let (record, end) = record(in: bytes, at: start) {
            group.append(record)
            start = end
            if group.count == size {
                try body(group)
                group.removeAll(keepingCapacity: true)
            }
        }
        if !group.isEmpty {
            try body(group)
            group.removeAll(keepingCapacity: true)
        }
        return start
    }

    /// The record at `start`, and where it ends; nil when `bytes` holds only part of it.
    private static func record(in bytes: UnsafeRawBufferPointer, at start: Int) -> (Record, Int)? {
        guard bytes.count - start >= 14 else { return nil }
        let flags = bytes[start + 13]
        var index = start + 14
        let fixed = (flags & hasWait != 0 ? 8 : 0) + 8 + (flags & hasContent != 0 ? 4 : 0) + (flags & hasDetail != 0 ? 4 : 0)
        guard bytes.count - index >= fixed else { return nil }
        func number<Number: FixedWidthInteger>(_: Number.Type) -> Number {
            defer { index += MemoryLayout<Number>.size }
            return bytes.loadUnaligned(fromByteOffset: index, as: Number.self)
        }
        let wait = flags & hasWait != 0 ? Int(number(Int64.self)) : nil
        let sessionLength = Int(number(UInt32.self)), appLength = Int(number(UInt32.self))
        let contentLength = flags & hasContent != 0 ? Int(number(UInt32.self)) : nil
        let detailLength = flags & hasDetail != 0 ? Int(number(UInt32.self)) : nil
        guard bytes.count - index >= sessionLength + appLength + (contentLength ?? 0) + (detailLength ?? 0) else { return nil }
        func text(_ length: Int) -> UnsafeRawBufferPointer {
            defer { index += length }
            return UnsafeRawBufferPointer(rebasing: bytes[index..<index + length])
        }
        let record = Record(timestamp: bytes.loadUnaligned(fromByteOffset: start, as: Int64.self),
                            offsetMinutes: Int(bytes.loadUnaligned(fromByteOffset: start + 8, as: Int32.self)),
                            type: types[Int(bytes[start + 12])], typeName: typeNames[Int(bytes[start + 12])], waitMilliseconds: wait,
                            session: text(sessionLength), app: text(appLength),
                            contentID: contentLength.map(text), detail: detailLength.map(text))
        return (record, index)
    }
}
