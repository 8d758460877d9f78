/// The line after an Exit: something true from the person's own history, never a judgement.
public enum Celebration {
    public static func message(exitsInLastSevenDays count: Int) -> String {
        switch count {
        case ...1: return "You chose not to open it. That's your first exit in the last 7 days."
        default: return "You chose not to open it. That's your \(ordinal(count)) exit in the last 7 days."
        }
    }

    public static func ordinal(_ number: Int) -> String {
        let suffix: String
        switch (number % 10, number % 100) {
        case (_, 11...13): suffix = "th"
        case (1, _): suffix = "st"
        case (2, _): suffix = "nd"
        case (3, _): suffix = "rd"
        default: suffix = "th"
        }
        return "\(number)\(suffix)"
    }
}
