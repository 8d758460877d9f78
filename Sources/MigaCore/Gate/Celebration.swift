/// The line after an Exit: something true from the person's own history, never a judgement,
/// and not the same sentence every time (people noticed nine of the same in nine Exits).
public enum Celebration {
    /// What the line may draw on, counted with the Exit just recorded.
    public struct Facts: Equatable, Sendable {
        /// Exits (any app) in the seven days up to now.
        public var exitsThisWeek: Int
        public var exitsToday: Int
        public var exitsInAll: Int
        /// Days in a row with an Exit, and the longest such run.
        public var streak: Streaks

        public init(exitsThisWeek: Int, exitsToday: Int = 1, exitsInAll: Int = 1, streak: Streaks = Streaks(current: 1, longest: 1)) {
            self.exitsThisWeek = exitsThisWeek
            self.exitsToday = exitsToday
            self.exitsInAll = exitsInAll
            self.streak = streak
        }
    }

    /// The kinds of line, in the order they take turns.
    public enum Kind: String, CaseIterable, Sendable {
        case week, streak, best, today, all
    }

    /// The next line that holds for `facts` after the kind said last time, so two Exits in a
    /// row never say the same thing while more than one line is true; the week's count first.
    public static func message(_ facts: Facts, after last: Kind? = nil) -> (kind: Kind, text: String) {
        let lines = trueLines(facts)
        let start = last.map { (Kind.allCases.firstIndex(of: $0)! + 1) % Kind.allCases.count } ?? 0
        let order = Kind.allCases[start...] + Kind.allCases[..<start]
        for kind in order { if let line = lines.first(where: { $0.kind == kind }) { return line } }
        return lines[0]
    }

    /// Every line that is true of `facts`; the week's always is.
    static func trueLines(_ facts: Facts) -> [(kind: Kind, text: String)] {
        let week = max(1, facts.exitsThisWeek), streak = facts.streak
        var lines: [(Kind, String)] = [(.week, "You chose not to open it. That's your \(week == 1 ? "first" : Ordinal.english(week)) exit in the last 7 days.")]
        if streak.current >= 2 {
            lines.append((.streak, "Not this time. That's \(streak.current) days in a row with an Exit."))
        }
        if streak.longest >= 3 {
            lines.append((.best, streak.current >= streak.longest
                ? "Your longest run yet: \(streak.longest) days in a row with an Exit."
                : "Your best run so far is \(streak.longest) days with an Exit; this one is at \(max(1, streak.current))."))
        }
        if facts.exitsToday >= 2 {
            // Said after any Exit (a key, Esc, Ctrl-C, Ctrl-D): what it was, an exit, not
            // "something else" (a "Do this instead" it may not have been).
            lines.append((.today, "Not opened, for the \(Ordinal.english(facts.exitsToday)) time today."))
        }
        if facts.exitsInAll >= 5 {
            lines.append((.all, "\(facts.exitsInAll) exits since you started. Each one was your choice."))
        }
        return lines
    }
}
