#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension LinuxSystem {
    /// The process's environment, read from `environ` as exec gave it: the first `=` splits a
    /// name from its value, and of a name given twice the first is kept (what getenv finds).
    /// ProcessInfo's copy cost every launch 0.45M instructions (Foundation's set-up and its
    /// generic dictionary); this is a loop over C strings.
    public static func processEnvironment() -> [String: String] {
        // NULL after a clearenv(), though Swift imports it as never nil.
        environment(of: UnsafePointer(bitPattern: UInt(bitPattern: environ)))
    }

    /// The names and values of a NULL-terminated array of `NAME=value` strings.
    static func environment(of entries: UnsafePointer<UnsafeMutablePointer<CChar>?>?) -> [String: String] {
        var environment: [String: String] = [:]
        guard var entry = entries else { return environment }
        while let pointer = entry.pointee {
            let length = strlen(pointer)
            let text = UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: length)
            if let equals = text.firstIndex(of: UInt8(ascii: "=")), equals > 0 {
                let name = String(decoding: UnsafeBufferPointer(rebasing: text[..<equals]), as: UTF8.self)
                if environment[name] == nil {
                    environment[name] = String(decoding: UnsafeBufferPointer(rebasing: text[(equals + 1)...]), as: UTF8.self)
                }
            }
            entry += 1
        }
        return environment
    }

    /// `NAME=value` for exec, in no particular order (as a shell passes them): sorting them and
    /// string interpolation cost 0.15M instructions of every launch the first time.
    static func environmentStrings(_ environment: [String: String]) -> [String] {
        var strings: [String] = []
        strings.reserveCapacity(environment.count)
        for (name, value) in environment { strings.append(name + "=" + value) }
        return strings
    }
}
