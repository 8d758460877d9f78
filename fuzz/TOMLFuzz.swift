// libFuzzer target: the TOML 1.0 parser on any bytes (invalid UTF-8 included). Built by
// fuzz/run.sh from Sources/TOML alone.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTOML(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if let table = try? TOML.parse(bytes: UnsafeBufferPointer(start: data, count: size)) {
        for key in table.keys {
            _ = table.position(of: key)
            _ = table[key]?.kindName
        }
    }
    return 0
}
