// fuzz/run.sh compiles this file and the JSON target's files as one module.
#if canImport(JSON)
import JSON
#endif

/// Numbers read back from miga's own state files (`snooze.json`, `loosening.json`) and from
/// messages (the browser's host, the gate window): input like any other (DESIGN "State files
/// are input too"). Each is checked against the range it can honestly hold before any
/// arithmetic; one outside it is absent, never a trap.
extension JSONValue {
    /// A whole number within `range`, else nil.
    public func integer(in range: ClosedRange<Int64>) -> Int64? {
        guard let value = integer, range.contains(value) else { return nil }
        return value
    }

    /// An instant in Unix milliseconds that an event could hold (1970 to the end of 9999).
    public var unixMilliseconds: Int64? { integer(in: EventBounds.timestamps) }
}
