/// "For how long?" after Open (`ask_minutes`), the same on every surface: four one-key
/// answers, and Enter for the app's `default_minutes`.
public enum TimeboxQuestion {
    public static let text = "For how long?"
    /// The answers keyed `1`…`4`.
    public static let choices = [5, 10, 20, 30]

    /// The minutes keyed by `key` ("1"…"4"), or given as one of the choices' numbers ("10",
    /// "10m", "10 min"); nil for anything else.
    public static func minutes(answer: String) -> Int? {
        var text = Substring(answer.trimming(.whitespaces).lowercased())
        for unit in [" minutes", " min", "min", "m"] where text.hasSuffix(unit) {
            text = text.dropLast(unit.count)
            break
        }
        guard let number = Int(text) else { return nil }
        if (1...choices.count).contains(number), number == Int(answer.trimming(.whitespaces)) { return choices[number - 1] }
        return choices.contains(number) ? number : nil
    }

    /// "1 5 min · 2 10 min · 3 20 min · 4 30 min".
    public static var keyedChoices: String {
        choices.enumerated().map { "\($0.offset + 1) \($0.element) min" }.joined(separator: " · ")
    }
}
