import Foundation

/// Reads the native-messaging frames a host writes (a 4-byte length, then JSON) from a pipe, as
/// a browser would: the host in-process (MigaCoreTests) and the built binary (MigaCLITests).
public final class NativeMessageReader {
    public var descriptor: Int32
    private var buffer: [UInt8] = []

    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The next message, or nil at end of file or after `timeout` seconds.
    public func receive(timeout: Double = 30) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if buffer.count >= 4 {
                let length = buffer.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
                if buffer.count >= 4 + Int(length) {
                    let body = Data(buffer[4..<(4 + Int(length))])
                    buffer.removeFirst(4 + Int(length))
                    return (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? ["unparsable": String(decoding: body, as: UTF8.self)]
                }
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 1, Int32(left * 1000)) > 0 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = read(descriptor, &chunk, chunk.count)
            guard count > 0 else { return nil }
            buffer += chunk[0..<count]
        }
    }
}
