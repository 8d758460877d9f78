// libFuzzer target: what the GNOME Shell extension (or anything on `miga watch --shell`'s
// stdin) can send: the bytes fed to the line reader in pieces of every size the input itself
// chooses. Built by fuzz/run.sh from the reader, the desktop's types and the JSON reader alone.
// Every field a window brings must be bounded and free of control characters.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzShellExtension(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = bytes.first else { return 0 }
    let piece = Int(first % 23) + 1
    var lines = ShellExtensionLines()
    var offset = 1
    while offset < bytes.count {
        let end = min(bytes.count, offset + piece)
        for event in lines.take(bytes[offset..<end]).events {
            guard case .focused(let window?) = event else { continue }
            for text in [window.id, window.desktopID ?? "x", window.applicationID ?? "x"] + window.wmClass {
                precondition(!text.isEmpty && text.utf8.count <= 1024 && !text.unicodeScalars.contains { $0.value < 0x20 })
            }
            precondition(window.wmClass.count <= 2 && (window.pid ?? 1) > 0)
        }
        offset = end
    }
    return 0
}
