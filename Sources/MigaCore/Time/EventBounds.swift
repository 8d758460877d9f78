/// The bounds of any event a gate can record.
public enum EventBounds {
    /// From 1970 to the end of year 9999, in milliseconds.
    public static let timestamps: ClosedRange<Int64> = 0...253_402_300_799_999
    /// ISO 8601's widest offsets, ±18 h.
    public static let offsetMinutes: ClosedRange<Int64> = -1080...1080
    /// No choice takes longer than a day (the countdown is at most 45 s).
    public static let waitMilliseconds: ClosedRange<Int64> = 0...86_400_000
    /// The local days those timestamps can fall on.
    public static let days: ClosedRange<Int64> = -1...2_932_897
}
