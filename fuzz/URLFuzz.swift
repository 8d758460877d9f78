// libFuzzer target: the WHATWG URL parser (with libidn2) on any text, absolute and against a
// base, the host serialisation open-url matches sites with, and a path site's path (SitePath):
// as config gives it, written once for good, and matched against an address's path.
// Built by fuzz/run.sh.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzURL(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let url = WebURL.parse(text) {
        _ = url.href
        _ = url.host?.serialized
        _ = WebURL.parse(url.href) // a serialisation is input too
    }
    if let slash = text.firstIndex(of: "/"), let path = SitePath.normalized(host: "example.com", path: text[slash...]) {
        _ = SitePath.pattern(of: path)
        _ = SitePath.covers(path, WebURL.parse(text)?.path ?? text)
        precondition(SitePath.covers(path, path), "a path covers itself")
        precondition(SitePath.normalized(host: "example.com", path: Substring(path.isEmpty ? "/" : path)) == path, "written once for good")
    }
    if let base = WebURL.parse("https://user:pw@example.org:8080/a/b?q#f") {
        _ = WebURL.parse(text, base: base)?.href
    }
    return 0
}
