// libFuzzer target: the Desktop Entry reader and the Exec grammar, on any bytes. Built by
// fuzz/run.sh with DesktopEntry.swift and ExecLine.swift alone.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDesktopEntry(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let entry = try? DesktopEntry(text: text, name: "fuzz.desktop") {
        for group in entry.groups {
            if let exec = entry.rawValue("Exec", in: group), let line = try? ExecLine(rawValue: exec) {
                _ = line.expand(urls: ["https://example.org/a b", "file:///tmp/x"], icon: "i", name: "n", location: "/l")
            }
        }
    }
    // Every line on its own as an Exec value too: the grammar sees far more shapes that way.
    for line in text.split(separator: "\n", omittingEmptySubsequences: true).prefix(64) {
        if let exec = try? ExecLine(rawValue: String(line)) {
            _ = exec.expand(urls: ["u"], icon: nil, name: nil, location: nil)
        }
    }
    return 0
}
