import FoundationEssentials

/// The native messaging wire format that Chrome and Firefox share: each message is a 4-byte
/// length in the machine's own byte order, then that many bytes of UTF-8 JSON.
public enum NativeMessageFraming {
    /// The longest message miga accepts from a browser. Its own requests are a few hundred
    /// bytes; anything near this is not from the extension, and reading it would only cost memory.
    public static let incomingLimit = 1 << 20
    /// Browsers drop a host that sends more than 1 MB in one message.
    public static let outgoingLimit = 1_000_000

    public static func frame(_ body: Data) -> Data {
        var length = UInt32(body.count) // native byte order, as the protocol says
        var framed = Data(bytes: &length, count: 4)
        framed.append(body)
        return framed
    }
}

/// Splits bytes, arriving in pieces of any size, into messages.
public struct NativeMessageDecoder {
    public enum Next: Equatable {
        case message(Data)
        /// A whole message is not there yet.
        case needMore
        /// The length prefix asks for more than `NativeMessageFraming.incomingLimit`: the
        /// stream cannot be trusted past this point.
        case oversized(UInt32)
    }

    private var buffer: [UInt8] = []
    private var start = 0

    public init() {}

    /// Bytes received but not yet handed out as messages.
    public var pendingByteCount: Int { buffer.count - start }

    public mutating func append<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if start > 0, start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    public mutating func next() -> Next {
        guard pendingByteCount >= 4 else { return .needMore }
        var length: UInt32 = 0
        withUnsafeMutableBytes(of: &length) { raw in
            for index in 0..<4 { raw[index] = buffer[start + index] }
        }
        guard Int(length) <= NativeMessageFraming.incomingLimit else { return .oversized(length) }
        guard pendingByteCount >= 4 + Int(length) else { return .needMore }
        let body = Data(buffer[(start + 4)..<(start + 4 + Int(length))])
        start += 4 + Int(length)
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 1 << 16 {
            buffer.removeFirst(start) // keep memory bounded on a long stream of messages
            start = 0
        }
        return .message(body)
    }
}
