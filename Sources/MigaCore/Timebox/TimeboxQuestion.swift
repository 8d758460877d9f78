/// "For how long?" after Open (`ask_minutes`), the same on every surface: four one-key
/// answers, Enter for the app's `default_minutes`, and where a line is typed any minutes in
/// `Timebox.minutesRange` written with their unit (`15m`).
public enum TimeboxQuestion {
    public static let text = "For how long?"
    /// The answers keyed `1`…`4`.
    public static let choices = [5, 10, 20, 30]

    /// The minutes keyed by `key` ("1"…"4"), one of the choices' numbers alone ("10"), or
    /// any minutes in range with a unit ("15m", "45 min", "2h"); nil for anything else. A bare
    /// number that is no choice ("15") is refused: it could be a slip of the keys.
    public static func minutes(answer: String) -> Int? {
        let typed = answer.trimming(.whitespaces).lowercased()
        var text = Substring(typed), perUnit = 1
        for (unit, minutes) in [("minutes", 1), ("minute", 1), ("mins", 1), ("min", 1), ("m", 1), ("hours", 60), ("hour", 60), ("h", 60)]
            where text.hasSuffix(unit) {
            text = text.dropLast(unit.count)
            perUnit = minutes
            break
        }
        guard let number = Int(text.trimming(.whitespaces)), number >= 0 else { return nil }
        let hasUnit = text.count != typed.count
        if !hasUnit, (1...choices.count).contains(number) { return choices[number - 1] }
        if hasUnit { return number <= Timebox.minutesRange.upperBound && Timebox.minutesRange.contains(number * perUnit) ? number * perUnit : nil }
        return choices.contains(number) ? number : nil
    }

    /// Whether `minutes` may be declared: a keyed choice, the default, or any in range.
    public static func isAnswer(_ minutes: Int) -> Bool { Timebox.minutesRange.contains(minutes) }

    /// "1 = 5 min, 2 = 10 min, 3 = 20 min, 4 = 30 min": each key apart from its minutes,
    /// for plain mode's line (a screen reader reads "1 = 5 min", never "15 min").
    public static var keyedChoices: String {
        choices.enumerated().map { "\($0.offset + 1) = \($0.element) min" }.joined(separator: ", ")
    }

    /// What to type, said when an answer is not one: the keys, the minutes, Enter.
    public static func help(defaultMinutes: Int) -> String {
        "Please type 1, 2, 3 or 4, minutes such as 15m (\(Timebox.minutesRange.lowerBound)–\(Timebox.minutesRange.upperBound)), "
            + "or Enter for \(defaultMinutes) min."
    }
}
