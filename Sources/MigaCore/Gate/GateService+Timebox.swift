/// The soft end of "For how long?", one rule for every surface: the browser's overlay, the
/// gate window over a desktop app, the line after a terminal app. Each asks here what is
/// running and records its end here; "5 more minutes" is given once per Open.
extension GateService {
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

    /// The timebox of the Open in `session`, as the store has it now.
    public func timebox(session: String) -> Timebox? {
        try? store.timeboxes(since: context.clock.nowMilliseconds() - Timebox.lookback).last { $0.session == session }
    }

    /// Each app's or site's timebox that is running or over and not yet answered.
    public func openTimeboxes() -> [Timebox] {
        (try? store.openTimeboxes(at: context.clock.nowMilliseconds())) ?? []
    }

    /// Records how `box` ended (`close`, `keep`, `gone`) or that it got five more minutes
    /// (`extend`, once); the timebox as it is after that.
    public func endTimebox(_ box: Timebox, choice: String) throws -> Timebox {
        guard Timebox.choices.contains(choice) else { throw TimeboxProblem.badChoice(choice) }
        if let ending = box.ending { throw TimeboxProblem.alreadyEnded(ending) }
        if choice == "extend", box.extended { throw TimeboxProblem.extendedOnce }
        let now = context.clock.nowMilliseconds()
        let recorder = GateRecorder(app: box.app, session: box.session, store: store, clock: context.clock)
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
