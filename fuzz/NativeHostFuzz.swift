import Foundation

// libFuzzer target: what a browser (or anything that starts `miga native-host`) can send:
// the framing decoder fed the bytes in pieces of every size the input itself chooses, and
// each whole message through the protocol's decoder. Built by fuzz/run.sh from the framing, the
// request parser and the JSON reader and writer alone. A reply's id must stay valid JSON; the
// reader must accept its own writing and read it back as the same value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNativeHost(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let first = bytes.first else { return 0 }
    let piece = Int(first % 17) + 1
    var decoder = NativeMessageDecoder()
    var offset = 1
    while offset < bytes.count {
        let end = min(bytes.count, offset + piece)
        decoder.append(bytes[offset..<end])
        offset = end
        loop: while true {
            switch decoder.next() {
            case .message(let body):
                precondition(body.count <= NativeMessageFraming.incomingLimit)
                if let value = try? JSONValue.parse(body) {
                    precondition((try? JSONValue.parse(value.text)) == value, "a value read back differently: \(value.text)")
                }
                // The body as a request, and (for ids: `abs(Int64.min)` once trapped here) as the
                // id of one, however it parses; an id echoed must be JSON a browser keeps exactly.
                for candidate in [body, Data("{\"type\":\"hello\",\"id\":".utf8) + body + Data("}".utf8)] {
                    if let (message, id) = try? ExtensionToHost.decode(candidate) {
                        checkID(id)
                        // `exit`'s alternative (Int64.min once trapped the host): a number the
                        // gate showed, or none.
                        if case .exit(_, let number?) = message {
                            precondition((1...3).contains(number))
                            _ = number - 1
                        }
                        // What decodes encodes, and reads back as the same message.
                        let again = try? ExtensionToHost.decode(Data(message.json(id: id).text.utf8))
                        precondition(again?.message == message && again?.id == id, "a message read back differently: \(message)")
                    }
                    checkID(ExtensionToHost.id((try? JSONValue.parse(candidate))?["id"]))
                }
            case .needMore: break loop
            case .oversized: return 0
            }
        }
    }
    return 0
}

func checkID(_ id: OrderedJSON) {
    let text = OrderedJSON.object([("id", id)]).text
    precondition((try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil, "an id that is not JSON: \(text)")
    if case .int(let value) = id { precondition(value.magnitude < 1 << 53, "an id a browser cannot keep exactly: \(value)") }
}
