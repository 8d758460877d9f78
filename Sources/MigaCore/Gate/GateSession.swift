import JSON

/// What the person chose, or what happened to them.
public enum GateOutcome: Equatable, Sendable {
    case exit
    case open
    /// The window was closed or the process told to stop: never opens the app.
    case abandoned
}

public enum GateChoice: Equatable, Sendable {
    case exit, readNext, open
}

/// What the state machine asks its runner to do.
public enum GateEffect: Equatable, Sendable {
    case record(EventType, contentID: String?, waitMilliseconds: Int?, detail: String? = nil)
    /// Draw another item and pass it to `show(_:at:)`.
    case fetchNextItem
    case finish(GateOutcome)
}

/// The gateway's rules, free of terminals and clocks: every method takes the monotonic time,
/// so tests drive a 45-second countdown instantly.
///
/// - The countdown starts once and is never restarted (Read Next keeps it running).
/// - Open is locked until it ends; pressing it early sets a notice saying how long is left.
/// - `gateway_completed` is recorded once, when the countdown first reaches zero.
public struct GateSession: Sendable {
    public let app: String
    public let timerSeconds: Int
    /// When the countdown started, moved later by the time spent suspended (Ctrl-Z).
    public private(set) var startedAt: UInt64
    public private(set) var item: ContentItem
    /// Open was pressed early: until the countdown ends, the gate says how long is left.
    public private(set) var showsLockedNotice = false
    public private(set) var outcome: GateOutcome?
    public private(set) var completionRecorded = false
    /// Lines under the app's name ("3rd time today", "Last time: …"), from the `GatePlan`.
    public let notes: [String]
    /// Open first asks "What are you here to do?" (`intention = true`).
    public let asksIntention: Bool
    /// Today's `opens_per_day` is used: Open says so and is recorded so.
    public let overAllowance: Bool
    /// Open asks "For how long?" after the countdown (and any intention), Enter giving
    /// `defaultMinutes` (`ask_minutes`).
    public let asksMinutes: Bool
    public let defaultMinutes: Int
    /// Open was chosen after the countdown and the question is on screen: the answer (or
    /// going back) comes next.
    public private(set) var askingIntention = false
    /// The same for "For how long?"; the intention given before it waits here.
    public private(set) var askingMinutes = false
    private var givenIntention = ""
    /// What the Open declared, once it has opened.
    public private(set) var chosenMinutes: Int?
    /// How much before this countdown's end a countdown shown elsewhere may end and still be
    /// taken as done: the browser's page starts its own after the host's reply.
    public let earlyMilliseconds: Int

    public init(app: String, timerSeconds: Int, item: ContentItem, startedAt: UInt64, notes: [String] = [],
                asksIntention: Bool = false, overAllowance: Bool = false, asksMinutes: Bool = false, defaultMinutes: Int = 10,
                earlyMilliseconds: Int = 0, completionRecorded: Bool = false) {
        self.app = app
        self.timerSeconds = timerSeconds
        self.item = item
        self.startedAt = startedAt
        self.notes = notes
        self.asksIntention = asksIntention
        self.overAllowance = overAllowance
        self.asksMinutes = asksMinutes
        self.defaultMinutes = Timebox.minutesRange.contains(defaultMinutes) ? defaultMinutes : 10
        self.earlyMilliseconds = earlyMilliseconds
        self.completionRecorded = completionRecorded
    }

    /// A gate of `plan`'s: its timer, notes, questions and allowance.
    public init(app: String, plan: GatePlan, item: ContentItem, startedAt: UInt64, earlyMilliseconds: Int = 0,
                completionRecorded: Bool = false) {
        self.init(app: app, timerSeconds: plan.timerSeconds, item: item, startedAt: startedAt, notes: plan.notes,
                  asksIntention: plan.asksIntention, overAllowance: plan.overAllowance, asksMinutes: plan.asksMinutes,
                  defaultMinutes: plan.defaultMinutes, earlyMilliseconds: earlyMilliseconds,
                  completionRecorded: completionRecorded)
    }

    /// What the Open choice is called on every surface (each adds its own key hint).
    public var openLabel: String { overAllowance ? "Open anyway" : "Open" }

    /// The events the session begins with.
    public var startEffects: [GateEffect] {
        [.record(.sessionStart, contentID: item.id, waitMilliseconds: nil)]
    }

    public func elapsedMilliseconds(at now: UInt64) -> Int {
        Int((now &- startedAt) / 1_000_000)
    }

    /// Whole seconds left, rounded up (so "1 s" shows until the very end).
    public func secondsLeft(at now: UInt64) -> Int {
        let remainingMs = timerSeconds * 1000 - elapsedMilliseconds(at: now)
        return remainingMs <= 0 ? 0 : (remainingMs + 999) / 1000
    }

    public func isUnlocked(at now: UInt64) -> Bool { elapsedMilliseconds(at: now) + earlyMilliseconds >= timerSeconds * 1000 }

    /// The line under the choices: after an early Open, how long is left, counting down with
    /// the bar (a number frozen at the moment of pressing would soon be untrue); then nothing.
    public func notice(at now: UInt64) -> String? {
        guard showsLockedNotice, outcome == nil else { return nil }
        let left = secondsLeft(at: now)
        return left > 0 ? "Open unlocks in \(left) s. Take this moment; Exit is always free." : nil
    }

    /// Fraction of the countdown done, 0...1, for the progress bar.
    public func progress(at now: UInt64) -> Double {
        min(1, Double(elapsedMilliseconds(at: now)) / Double(timerSeconds * 1000))
    }

    /// Called on every loop iteration: records completion once the countdown ends.
    public mutating func tick(at now: UInt64) -> [GateEffect] {
        guard outcome == nil, !completionRecorded, isUnlocked(at: now) else { return [] }
        completionRecorded = true
        showsLockedNotice = false // "Open unlocks in …" is no longer true
        return [.record(.gatewayCompleted, contentID: nil, waitMilliseconds: nil)]
    }

    public mutating func choose(_ choice: GateChoice, at now: UInt64) -> [GateEffect] {
        guard outcome == nil else { return [] }
        switch choice {
        case .exit:
            return finish(.exit, type: .exitSelected, at: now)
        case .readNext:
            showsLockedNotice = false
            withdrawQuestion()
            return [.fetchNextItem]
        case .open:
            guard isUnlocked(at: now) else {
                showsLockedNotice = true
                return []
            }
            if asksIntention {
                askingIntention = true
                return tick(at: now)
            }
            if asksMinutes {
                askingMinutes = true
                return tick(at: now)
            }
            return tick(at: now) + finish(.open, type: .openSelected, at: now, detail: openDetail(intention: "", minutes: nil))
        }
    }

    /// The answer to "What are you here to do?" (empty is allowed): opens, keeping it in the
    /// `open_selected` detail, or asks "For how long?" next. Only after the question was asked.
    public mutating func answer(_ intention: String, at now: UInt64) -> [GateEffect] {
        guard outcome == nil, askingIntention else { return [] }
        askingIntention = false
        if asksMinutes {
            givenIntention = intention
            askingMinutes = true
            return []
        }
        return finish(.open, type: .openSelected, at: now, detail: openDetail(intention: intention, minutes: nil))
    }

    /// The answer to "For how long?": one of `TimeboxQuestion.choices`, or nil (Enter) for
    /// the default; any other number is taken as the default too. Opens, the minutes kept in
    /// the `open_selected` detail. Only after the question was asked.
    public mutating func answerMinutes(_ minutes: Int?, at now: UInt64) -> [GateEffect] {
        guard outcome == nil, askingMinutes else { return [] }
        let chosen = minutes.flatMap { TimeboxQuestion.choices.contains($0) || $0 == defaultMinutes ? $0 : nil } ?? defaultMinutes
        chosenMinutes = chosen
        return finish(.open, type: .openSelected, at: now, detail: openDetail(intention: givenIntention, minutes: chosen))
    }

    /// `open_selected`'s detail: the intention when one was given, the minutes declared, and
    /// `over_allowance` past today's opens; nil when none.
    func openDetail(intention: String, minutes: Int?) -> String? {
        var members: [(String, OrderedJSON)] = []
        let answer = Intention.clean(intention)
        if !answer.isEmpty { members.append(("intention", .string(answer))) }
        if let minutes { members.append(("minutes", .int(minutes))) }
        if overAllowance { members.append(("over_allowance", .bool(true))) }
        return members.isEmpty ? nil : OrderedJSON.object(members).text
    }

    /// Back from a question to the gate, nothing opened.
    public mutating func withdrawQuestion() {
        askingIntention = false
        askingMinutes = false
        givenIntention = ""
    }

    /// A question is on screen in place of the choices.
    public var isAsking: Bool { askingIntention || askingMinutes }

    /// The next item drawn after Read Next.
    public mutating func show(_ next: ContentItem, at now: UInt64) -> [GateEffect] {
        guard outcome == nil else { return [] }
        item = next
        return [.record(.contentRead, contentID: next.id, waitMilliseconds: nil)]
    }

    /// Back from Ctrl-Z: the time spent stopped does not count toward the countdown, or a
    /// suspend would be a way round the pause.
    public mutating func resume(afterSuspending nanoseconds: UInt64) {
        guard outcome == nil else { return }
        startedAt &+= nanoseconds
    }

    /// SIGHUP or SIGTERM: the window went away.
    public mutating func abandon(at now: UInt64) -> [GateEffect] {
        guard outcome == nil else { return [] }
        return finish(.abandoned, type: .abandoned, at: now)
    }

    private mutating func finish(_ result: GateOutcome, type: EventType, at now: UInt64,
                                 detail: String? = nil) -> [GateEffect] {
        outcome = result
        showsLockedNotice = false
        askingIntention = false
        askingMinutes = false
        return [.record(type, contentID: nil, waitMilliseconds: elapsedMilliseconds(at: now), detail: detail), .finish(result)]
    }
}
