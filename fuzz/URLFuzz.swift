// libFuzzer target: the WHATWG URL parser (with libidn2) on any text, absolute and against a
// base, and the host serialisation open-url matches sites with. Built by fuzz/run.sh.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzURL(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let url = WebURL.parse(text) {
        _ = url.href
        _ = url.host?.serialized
        _ = WebURL.parse(url.href) // a serialisation is input too
    }
    if let base = WebURL.parse("https://user:pw@example.org:8080/a/b?q#f") {
        _ = WebURL.parse(text, base: base)?.href
    }
    return 0
}
