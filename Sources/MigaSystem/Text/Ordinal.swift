/// "1st", "2nd", "3rd", "11th", "22nd": how the gate counts a day's attempts and exits.
/// Here, below the gate and its plan, which both say them.
public enum Ordinal {
    public static func english(_ number: Int) -> String {
        let suffix: String
        switch (number % 10, number % 100) {
        case (_, 11...13): suffix = "th"
        case (1, _): suffix = "st"
        case (2, _): suffix = "nd"
        case (3, _): suffix = "rd"
        default: suffix = "th"
        }
        return String(number) + suffix
    }
}
