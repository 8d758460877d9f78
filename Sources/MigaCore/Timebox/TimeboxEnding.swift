/// The soft end of "For how long?", one rule for every surface: the browser's overlay, the
/// gate window over a desktop app, the line after a terminal app. Each asks `GateService`
/// (which forwards here) what is running and records its end here; "5 more minutes" is
/// given once per Open.
public enum TimeboxProblem: Error, Equatable, CustomStringConvertible {
    case notFound
    case alreadyEnded(String)
    case extendedOnce
    case badChoice(String)
    case couldNotRecord(String)

    public var description: String {
        switch self {
        case .notFound: return "no such timebox (its Open is not in the last day's events)"
        case .alreadyEnded(let choice): return "that timebox has ended already (\(choice))"
        case .extendedOnce: return "“5 more minutes” is offered once per open"
        case .badChoice(let choice):
            return "unknown choice \"\(TerminalText.visible(choice))\" (one of \(Timebox.choices.joined(separator: ", ")))"
        case .couldNotRecord(let problem): return "could not record the timebox's end: \(problem)"
        }
    }
}

extension EventStore {
    /// The timebox of the Open in `session`, as the store has it at `now`.
    public func timebox(session: String, now: Int64) -> Timebox? {
        try? timeboxes(since: now - Timebox.lookback).last { $0.session == session }
    }

    /// Records how `box` ended (`close`, `keep`, `gone`) or that it got five more minutes
    /// (`extend`, once); the timebox as it is after that.
    public func endTimebox(_ box: Timebox, choice: String, clock: MigaClock) throws -> Timebox {
        guard Timebox.choices.contains(choice) else { throw TimeboxProblem.badChoice(choice) }
        if let ending = box.ending { throw TimeboxProblem.alreadyEnded(ending) }
        if choice == "extend", box.extended { throw TimeboxProblem.extendedOnce }
        let now = clock.nowMilliseconds()
        let recorder = GateRecorder(app: box.app, session: box.session, store: self, clock: clock)
        if let problem = recorder.record(.timeboxEnded, detail: box.endingDetail(choice: choice, at: now)) {
            throw TimeboxProblem.couldNotRecord(problem)
        }
        var after = box
        if choice == "extend" {
            after.extended = true
            after.extendedAt = now
        } else {
            after.ending = choice
            after.endedAt = now
        }
        return after
    }
}
