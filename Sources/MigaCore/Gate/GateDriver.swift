/// Applies a session's effects: records events, draws the next item. Shared by the full-screen
/// and plain front ends so both follow exactly the same rules.
public final class GateDriver {
    public private(set) var session: GateSession
    private let record: (EventType, String?, Int?, String?) -> Void
    private let nextItem: () -> ContentItem?

    public init(session: GateSession,
                record: @escaping (EventType, _ contentID: String?, _ waitMilliseconds: Int?, _ detail: String?) -> Void,
                nextItem: @escaping () -> ContentItem?) {
        self.session = session
        self.record = record
        self.nextItem = nextItem
    }

    public var outcome: GateOutcome? { session.outcome }

    /// Records the start; the front end calls it once the gateway can actually be shown.
    public func start() { apply(session.startEffects, at: session.startedAt) }

    public func tick(at now: UInt64) {
        apply(session.tick(at: now), at: now)
        afterTick?()
    }

    /// Called after every tick, on every front end: for work the gate looks in on while it
    /// runs (the other machines' events arriving, `GateService.shareInBackground`).
    public var afterTick: (() -> Void)?

    public func choose(_ choice: GateChoice, at now: UInt64) { apply(session.choose(choice, at: now), at: now) }

    public func abandon(at now: UInt64) { apply(session.abandon(at: now), at: now) }

    public func answer(_ intention: String, at now: UInt64) { apply(session.answer(intention, at: now), at: now) }

    public func answerMinutes(_ minutes: Int?, at now: UInt64) { apply(session.answerMinutes(minutes, at: now), at: now) }

    public func chooseAlternative(_ number: Int, at now: UInt64) { apply(session.chooseAlternative(number, at: now), at: now) }

    /// The typed sentence; false (still asked) when it is not exactly the one asked.
    @discardableResult
    public func answerChallenge(_ typed: String, at now: UInt64) -> Bool {
        let (accepted, effects) = session.answerChallenge(typed, at: now)
        apply(effects, at: now)
        return accepted
    }

    public func withdrawQuestion() { session.withdrawQuestion() }

    /// New lines under the app's name (the other machines' gates came in after the first frame).
    public func replaceNotes(_ notes: [String]) { session.replaceNotes(notes) }

    public func resume(afterSuspending nanoseconds: UInt64) { session.resume(afterSuspending: nanoseconds) }

    private func apply(_ effects: [GateEffect], at now: UInt64) {
        for effect in effects {
            switch effect {
            case .record(let type, let contentID, let wait, let detail):
                record(type, contentID, wait, detail)
            case .fetchNextItem:
                if let item = nextItem() { apply(session.show(item, at: now), at: now) }
            case .finish:
                break // The outcome is on the session; the front end ends its loop.
            }
        }
    }
}

/// How a front end ended: the outcome, and the signal that caused an abandon (to die by it).
public struct GateEnding: Equatable {
    public var outcome: GateOutcome
    public var signal: Int32?
    /// Ended before any choice because the gate that started this one gave up on it.
    public var withdrawn = false
    /// The Exit was this "Do this instead" choice (1-based): it is opened next.
    public var alternative: Int?
    /// After an Open in the window: the token the desktop gave it for the app, so the app's
    /// window comes to the front focused (`Launch.handingOn`).
    public var activationToken: String?
}
