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
    public private(set) var notes: [String]
    /// Open first asks "What are you here to do?" (`intention = true`).
    public let asksIntention: Bool
    /// Today's `opens_per_day` is used: Open says so and is recorded so.
    public let overAllowance: Bool
    /// Today's `minutes_per_day` is used: the same, recorded as `over_minutes`.
    public let overMinutes: Bool
    /// A gate on coming back to an app or tab already open: its `session_start` says so.
    public let reentry: Bool
    /// Open asks "For how long?" after the countdown (and any intention), Enter giving
    /// `defaultMinutes` (`ask_minutes`).
    public let asksMinutes: Bool
    public let defaultMinutes: Int
    /// The labels of the "Do this instead" choices, in the order of their keys (`1`…).
    public let alternatives: [String]
    /// The sentence Open asks to be typed exactly first (`challenge = "type"`), or nil.
    public let challenge: String?
    /// Which alternative the Exit was, 1-based, once chosen.
    public private(set) var chosenAlternative: Int?
    /// Open was chosen after the countdown and the sentence is asked for: the typed text (or
    /// going back) comes next; the intention and "For how long?" follow it.
    public private(set) var askingChallenge = false
    private var challengeTyped = false
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
                alternatives: [String] = [], challenge: String? = nil, earlyMilliseconds: Int = 0, completionRecorded: Bool = false,
                overMinutes: Bool = false, reentry: Bool = false) {
        self.app = app
        self.timerSeconds = timerSeconds
        self.item = item
        self.startedAt = startedAt
        self.notes = notes
        self.asksIntention = asksIntention
        self.overAllowance = overAllowance
        self.overMinutes = overMinutes
        self.reentry = reentry
        self.asksMinutes = asksMinutes
        self.defaultMinutes = Timebox.minutesRange.contains(defaultMinutes) ? defaultMinutes : 10
        self.alternatives = Array(alternatives.prefix(Alternative.shownLimit))
        self.challenge = challenge.flatMap { $0.isEmpty ? nil : $0 }
        self.earlyMilliseconds = earlyMilliseconds
        self.completionRecorded = completionRecorded
    }

    /// A gate of `plan`'s: its timer, notes, questions and allowance.
    public init(app: String, plan: GatePlan, item: ContentItem, startedAt: UInt64, earlyMilliseconds: Int = 0,
                completionRecorded: Bool = false) {
        self.init(app: app, timerSeconds: plan.timerSeconds, item: item, startedAt: startedAt, notes: plan.notes,
                  asksIntention: plan.asksIntention, overAllowance: plan.overAllowance, asksMinutes: plan.asksMinutes,
                  defaultMinutes: plan.defaultMinutes, alternatives: plan.alternatives.map(\.label), challenge: plan.challenge,
                  earlyMilliseconds: earlyMilliseconds,
                  completionRecorded: completionRecorded, overMinutes: plan.overMinutes, reentry: plan.reentry)
    }

    /// What the Open choice is called on every surface (each adds its own key hint).
    public var openLabel: String { overAllowance || overMinutes ? "Open anyway" : "Open" }

    /// The events the session begins with.
    public var startEffects: [GateEffect] {
        [.record(.sessionStart, contentID: item.id, waitMilliseconds: nil, detail: reentry ? "{\"reentry\":true}" : nil)]
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
            if isAsking { return tick(at: now) } // already asked: the answer comes next
            return tick(at: now) + askNext(after: nil, at: now)
        }
    }

    /// After Open, and after each answer: the next question (the sentence, the intention,
    /// "For how long?", in that order), or the Open itself.
    private mutating func askNext(after answered: Question?, at now: UInt64) -> [GateEffect] {
        let order: [Question] = [.challenge, .intention, .minutes]
        let rest = answered.flatMap { order.firstIndex(of: $0) }.map { order.dropFirst($0 + 1) } ?? order[...]
        for question in rest {
            switch question {
            case .challenge where challenge != nil:
                askingChallenge = true
                return []
            case .intention where asksIntention:
                askingIntention = true
                return []
            case .minutes where asksMinutes:
                askingMinutes = true
                return []
            default: continue
            }
        }
        return finish(.open, type: .openSelected, at: now, detail: openDetail(intention: givenIntention, minutes: chosenMinutes))
    }

    private enum Question { case challenge, intention, minutes }

    /// A "Do this instead" choice (1-based): an Exit, always free, its label kept in the
    /// `exit_selected` detail; the front end then opens it (`GateService.openAlternative`).
    public mutating func chooseAlternative(_ number: Int, at now: UInt64) -> [GateEffect] {
        // The number comes from a keyboard, a window or a browser page: checked before arithmetic.
        guard outcome == nil, number >= 1, number <= alternatives.count else { return [] }
        chosenAlternative = number
        let detail = OrderedJSON.object([("alternative", .string(alternatives[number - 1]))]).text
        return finish(.exit, type: .exitSelected, at: now, detail: detail)
    }

    /// The sentence as typed: exactly the one asked goes on (to the next question, or Open);
    /// anything else leaves it asked, false. Only while it is asked.
    public mutating func answerChallenge(_ typed: String, at now: UInt64) -> (accepted: Bool, effects: [GateEffect]) {
        guard outcome == nil, askingChallenge, let challenge else { return (false, []) }
        guard typed == challenge else { return (false, []) }
        askingChallenge = false
        challengeTyped = true
        return (true, askNext(after: .challenge, at: now))
    }

    /// The answer to "What are you here to do?" (empty is allowed): opens, keeping it in the
    /// `open_selected` detail, or asks "For how long?" next. Only after the question was asked.
    public mutating func answer(_ intention: String, at now: UInt64) -> [GateEffect] {
        guard outcome == nil, askingIntention else { return [] }
        askingIntention = false
        givenIntention = intention
        return askNext(after: .intention, at: now)
    }

    /// The answer to "For how long?": any minutes `TimeboxQuestion` takes (a keyed choice or
    /// typed, in range), or nil (Enter) for the default; a number out of range is taken as
    /// the default too. Opens, the minutes kept in the `open_selected` detail. Only after
    /// the question was asked.
    public mutating func answerMinutes(_ minutes: Int?, at now: UInt64) -> [GateEffect] {
        guard outcome == nil, askingMinutes else { return [] }
        let chosen = minutes.flatMap { TimeboxQuestion.isAnswer($0) ? $0 : nil } ?? defaultMinutes
        chosenMinutes = chosen
        return finish(.open, type: .openSelected, at: now, detail: openDetail(intention: givenIntention, minutes: chosen))
    }

    /// `open_selected`'s detail: the intention when one was given, the minutes declared,
    /// `over_allowance` past today's opens, `over_minutes` past today's minutes, and
    /// `challenge` when the sentence was typed; nil when none.
    func openDetail(intention: String, minutes: Int?) -> String? {
        var members: [(String, OrderedJSON)] = []
        let answer = Intention.clean(intention)
        if !answer.isEmpty { members.append(("intention", .string(answer))) }
        if let minutes { members.append(("minutes", .int(minutes))) }
        if overAllowance { members.append(("over_allowance", .bool(true))) }
        if overMinutes { members.append(("over_minutes", .bool(true))) }
        if challengeTyped { members.append(("challenge", .bool(true))) }
        return members.isEmpty ? nil : OrderedJSON.object(members).text
    }

    /// Back from a question to the gate, nothing opened.
    mutating func replaceNotes(_ notes: [String]) { self.notes = notes }

    public mutating func withdrawQuestion() {
        askingChallenge = false
        challengeTyped = false
        askingIntention = false
        askingMinutes = false
        givenIntention = ""
    }

    /// A question is on screen in place of the choices.
    public var isAsking: Bool { askingChallenge || askingIntention || askingMinutes }

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
        askingChallenge = false
        askingIntention = false
        askingMinutes = false
        return [.record(type, contentID: nil, waitMilliseconds: elapsedMilliseconds(at: now), detail: detail), .finish(result)]
    }
}
