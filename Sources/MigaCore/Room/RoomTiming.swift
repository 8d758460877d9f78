/// The room's two clocks, one rule for the browser's host and the desktop's watchers: when a
/// person counts as idle (away from the front), and how often focused time is written.
public enum RoomTiming {
    /// Seconds without input before a person counts as idle (DESIGN: 5 minutes); tests may
    /// set another through `MIGA_IDLE_SECONDS` (15–3600: the browser's `idle` API allows 15
    /// at least).
    public static let idleSeconds = 300
    public static let idleSecondsRange = 15...3600
    /// Focused time is written once a full minute (so a crash loses at most one);
    /// `MIGA_FOCUS_TICK_SECONDS` (1–60, for tests) shortens the tick, each tick writing that
    /// many seconds.
    public static let tickSeconds = 60
    public static let tickSecondsRange = 1...60

    public static func idleSeconds(environment: [String: String]) -> Int {
        number(environment["MIGA_IDLE_SECONDS"], in: idleSecondsRange) ?? idleSeconds
    }

    public static func tickSeconds(environment: [String: String]) -> Int {
        number(environment["MIGA_FOCUS_TICK_SECONDS"], in: tickSecondsRange) ?? tickSeconds
    }

    /// A setting out of range, or not a number, is absent.
    private static func number(_ text: String?, in range: ClosedRange<Int>) -> Int? {
        guard let text, text.utf8.count <= 8, let value = Int(text), range.contains(value) else { return nil }
        return value
    }
}
