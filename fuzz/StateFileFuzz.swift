import Foundation

// libFuzzer target: miga's own state files read back (`snooze.json`, `loosening.json`), which
// anyone with the person's files (or a broken disk) may have written. Built by fuzz/run.sh
// from the JSON reader and the checked reader of stored numbers alone. Every number a state
// file gives is read through `unixMilliseconds` / `integer(in:)`; whatever they let through
// must take the arithmetic the readers do (spans, waits, deadlines) without a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStateFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let value = try? JSONValue.parse(Data(UnsafeBufferPointer(start: data, count: size))) else { return 0 }
    let now: Int64 = 1_795_000_000_000
    // snooze.json: until, from, requested.
    if let until = value["until"]?.unixMilliseconds {
        let from = value["from"]?.unixMilliseconds ?? now
        _ = (until - from, now + 7 * 86_400_000 + 60_000, (until - from) / 60_000)
        precondition(EventBounds.timestamps.contains(until))
    }
    // loosening.json: each pending entry's since and applies, its witness, the settled offset.
    if case .array(let entries)? = value["pending"] {
        for entry in entries {
            guard let since = entry["since"]?.unixMilliseconds, let applies = entry["applies"]?.unixMilliseconds else { continue }
            _ = (applies - since, applies - now, (applies - now + 59_999) / 60_000, since + 10_080 * 60_000)
            if case .array(let parts)? = entry["boot"], parts.count == 2, let uptime = parts[1].integer(in: 0...3_162_240_000_000) {
                _ = uptime - 3_600_000
            }
        }
    }
    if let offset = value["offset"]?.integer(in: EventBounds.offsetMinutes) {
        _ = Int(offset) * 60 + 1440
    }
    // Any number at all: the range is honoured exactly.
    for key in ["until", "from", "requested", "alternative"] {
        if let number = value[key]?.integer(in: 1...3) { precondition((1...3).contains(number)) }
    }
    return 0
}
