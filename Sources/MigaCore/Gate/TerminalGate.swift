import GateWindowProtocol

/// The full-screen gateway: raw terminal, alternate screen, a poll loop over keys, signals
/// and the next second of the countdown.
public final class TerminalGate {
    private let driver: GateDriver
    private var screen: GateScreen
    private let terminal: LinuxTerminal
    private let signals: SignalPipe
    private let clock: any MigaClock
    /// The first line of the item's text on screen; back to 0 for each new item.
    private var scrollOffset = 0
    /// The answer being typed while the intention question is on screen.
    private var field = IntentionField()

    public init(driver: GateDriver, screen: GateScreen, terminal: LinuxTerminal,
                signals: SignalPipe, clock: any MigaClock) {
        self.driver = driver
        self.screen = screen
        self.terminal = terminal
        self.signals = signals
        self.clock = clock
    }

    enum Scroll: Equatable { case lineUp, lineDown, pageUp, pageDown, top, bottom }

    enum Key: Equatable { case choice(GateChoice), alternative(Int), scroll(Scroll), suspend, redraw }

    /// Maps raw input bytes to keys. Arrows, PgUp/PgDn, Home/End (and j/k) scroll a long
    /// article; other escape sequences are ignored; a lone Esc is Exit. Ctrl-C arrives as a
    /// byte because ISIG is off.
    static func keys(from bytes: [UInt8]) -> [Key] {
        keysWithEnds(from: bytes).map(\.key)
    }

    /// The keys, each with the index just after its bytes (where an answer field takes over).
    static func keysWithEnds(from bytes: [UInt8]) -> [(key: Key, end: Int)] {
        var keys: [(key: Key, end: Int)] = []
        func append(_ key: Key, _ end: Int) { keys.append((key, end)) }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case 0x1B:
                if index < bytes.count, bytes[index] == UInt8(ascii: "[") || bytes[index] == UInt8(ascii: "O") {
                    index += 1
                    let parameters = index
                    while index < bytes.count, !(0x40...0x7E).contains(bytes[index]) { index += 1 }
                    if index < bytes.count,
                       let scroll = scroll(final: bytes[index], parameters: Array(bytes[parameters..<index])) {
                        append(.scroll(scroll), index + 1)
                    }
                    index += 1
                } else {
                    append(.choice(.exit), index)
                }
            case UInt8(ascii: "j"):
                append(.scroll(.lineDown), index)
            case UInt8(ascii: "k"):
                append(.scroll(.lineUp), index)
            case UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x03:
                append(.choice(.exit), index)
            case UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: " "):
                append(.choice(.readNext), index)
            case UInt8(ascii: "o"), UInt8(ascii: "O"), 0x0D, 0x0A:
                append(.choice(.open), index)
            case UInt8(ascii: "1")...UInt8(ascii: "3"):
                append(.alternative(Int(byte - UInt8(ascii: "0"))), index)
            case 0x1A:
                append(.suspend, index)
            case 0x0C:
                append(.redraw, index)
            default:
                break
            }
        }
        return keys
    }

    /// CSI/SS3 sequences xterm, VTE, tmux and the Linux console send for the scrolling keys.
    private static func scroll(final: UInt8, parameters: [UInt8]) -> Scroll? {
        switch (final, String(decoding: parameters, as: UTF8.self)) {
        case (UInt8(ascii: "A"), _): return .lineUp
        case (UInt8(ascii: "B"), _): return .lineDown
        case (UInt8(ascii: "H"), _), (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): return .top
        case (UInt8(ascii: "F"), _), (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): return .bottom
        case (UInt8(ascii: "~"), "5"): return .pageUp
        case (UInt8(ascii: "~"), "6"): return .pageDown
        default: return nil
        }
    }

    /// Runs the gateway until a choice is made. On Exit, `celebration` (when given) supplies the
    /// message for the short celebration, shown before the terminal is handed back.
    /// `shown` is called once the first frame is drawn; false ends the gate at once, opening
    /// nothing (a hand-off that was given up).
    public func run(celebration: (() -> String)? = nil, shown: () -> Bool = { true }) throws -> GateEnding {
        // Only this first step may throw (and so fail open): nothing has been shown yet.
        // Once the gate is on screen, losing the terminal means the window went away, which
        // is an abandon: it never opens the app.
        try terminal.enter()
        defer { terminal.restore() }
        driver.start()
        var abandonSignal: Int32?
        func abandon(_ signal: Int32) {
            abandonSignal = abandonSignal ?? signal
            driver.abandon(at: clock.monotonicNanoseconds())
        }
        draw()
        guard shown() else { return GateEnding(outcome: .exit, signal: nil, withdrawn: true) }
        while driver.outcome == nil {
            let now = clock.monotonicNanoseconds()
            driver.tick(at: now)
            // Wake at the next whole second of the countdown, when the frame changes.
            let intoSecond = driver.session.elapsedMilliseconds(at: now) % 1000
            let wakeup = terminal.wait(signalFD: signals.readFD, timeoutMilliseconds: Int32(max(10, 1000 - intoSecond)))
            let at = clock.monotonicNanoseconds()
            if wakeup.signalReady { handleSignals(at: at, abandon: abandon) }
            if wakeup.hungUp, driver.outcome == nil { abandon(Signal.hangUp) }
            handleKeys(wakeup.bytes[...], at: at, abandon: abandon)
            if driver.outcome == nil { draw() }
        }
        if driver.outcome == .exit, let message = celebration?() {
            celebrate(message: message)
        }
        return GateEnding(outcome: driver.outcome ?? .abandoned, signal: abandonSignal)
    }

    /// The signals that arrived: Ctrl-C is an Exit, a hang-up or kill an abandon, Ctrl-Z a
    /// suspend, and a resume takes the terminal back.
    private func handleSignals(at now: UInt64, abandon: (Int32) -> Void) {
        for signal in signals.drain() where driver.outcome == nil {
            switch signal {
            case Signal.interrupt:
                driver.choose(.exit, at: now)
            case Signal.hangUp, Signal.terminate, Signal.quit:
                abandon(signal)
            case Signal.suspend:
                if !suspend() { abandon(Signal.hangUp) }
            case Signal.resume:
                // Stopped and continued by someone else: the shell may have reset the
                // tty. On a hang-up the kernel sends SIGCONT too, and this fails. After
                // our own Ctrl-Z, `suspend` has already taken the terminal back.
                if !terminal.isRaw, (try? terminal.enter()) == nil { abandon(Signal.hangUp) }
            default:
                break // SIGWINCH: the redraw after re-lays out for the new size.
            }
        }
    }

    /// The bytes read from the terminal: the gate's keys, or typing into whichever question
    /// is asked (a read may hold both: Open, then the first letters of the answer).
    private func handleKeys(_ bytes: ArraySlice<UInt8>, at: UInt64, abandon: (Int32) -> Void) {
        var bytes = bytes
        while !bytes.isEmpty, driver.outcome == nil {
            if driver.session.askingChallenge {
                bytes = typeChallenge(bytes, at: at, abandon: abandon)
            } else if driver.session.askingIntention {
                bytes = answer(bytes, at: at, abandon: abandon)
            } else if driver.session.askingMinutes {
                bytes = answerMinutes(bytes, at: at, abandon: abandon)
            } else {
                bytes = chooseByKeys(bytes, at: at, abandon: abandon)
            }
        }
    }

    /// The countdown's keys; what is left of `bytes` once a question starts (its answer), or
    /// nothing.
    private func chooseByKeys(_ bytes: ArraySlice<UInt8>, at: UInt64, abandon: (Int32) -> Void) -> ArraySlice<UInt8> {
        for (key, end) in Self.keysWithEnds(from: Array(bytes)) where driver.outcome == nil {
            switch key {
            case .choice(let choice):
                let shown = driver.session.item.id
                driver.choose(choice, at: at)
                if driver.session.item.id != shown { scrollOffset = 0 }
            case .alternative(let number): driver.chooseAlternative(number, at: at)
            case .scroll(let step): scroll(step, at: at)
            case .suspend: if !suspend() { abandon(Signal.hangUp) }
            case .redraw: break
            }
            if driver.session.isAsking {
                // What was typed after Open in the same read belongs to the answer.
                field = IntentionField()
                return bytes.dropFirst(end)
            }
        }
        return []
    }

    /// Typing the answer to "What are you here to do?"; what is left of `bytes` once the
    /// field is done with (after Esc, the gate's keys again).
    private func answer(_ bytes: ArraySlice<UInt8>, at now: UInt64, abandon: (Int32) -> Void) -> ArraySlice<UInt8> {
        for action in field.feed(Array(bytes)) where driver.outcome == nil {
            switch action {
            case .submit: driver.answer(field.text, at: now)
            case .exit: driver.choose(.exit, at: now)
            case .back:
                driver.withdrawQuestion()
                field = IntentionField()
            case .suspend: if !suspend() { abandon(Signal.hangUp) }
            }
        }
        return []
    }

    /// Typing the challenge's sentence: as the intention's field, but a key that is not the
    /// sentence's next character clears it (`ChallengeTyping`), and Enter goes on only with
    /// the whole sentence.
    private func typeChallenge(_ bytes: ArraySlice<UInt8>, at now: UInt64, abandon: (Int32) -> Void) -> ArraySlice<UInt8> {
        let sentence = driver.session.challenge ?? ""
        for action in field.feed(Array(bytes)) where driver.outcome == nil {
            switch action {
            case .submit:
                // Before the sentence's end Enter does nothing: what is typed stays.
                if driver.answerChallenge(field.text, at: now) { field = IntentionField() }
            case .exit: driver.choose(.exit, at: now)
            case .back:
                driver.withdrawQuestion()
                field = IntentionField()
            case .suspend: if !suspend() { abandon(Signal.hangUp) }
            }
        }
        guard driver.session.askingChallenge else {
            screen.challengeCleared = false
            return []
        }
        if ChallengeTyping.kept(field.text, sentence: sentence).isEmpty, !field.text.isEmpty {
            field = IntentionField()
            screen.challengeCleared = true
        } else if !field.text.isEmpty {
            screen.challengeCleared = false
        }
        return []
    }

    /// Answering "For how long?": `1`…`4`, Enter for the default, Esc back to the gate,
    /// Ctrl-C Exit; other keys (and escape sequences) do nothing. What follows the answer is
    /// left for the gate's keys (after Esc) or dropped (after an Open).
    private func answerMinutes(_ bytes: ArraySlice<UInt8>, at now: UInt64, abandon: (Int32) -> Void) -> ArraySlice<UInt8> {
        var index = bytes.startIndex
        while index < bytes.endIndex, driver.outcome == nil, driver.session.askingMinutes {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "1")...UInt8(ascii: "4"):
                driver.answerMinutes(TimeboxQuestion.choices[Int(byte - UInt8(ascii: "1"))], at: now)
            case 0x0D, 0x0A: driver.answerMinutes(nil, at: now)
            case 0x03: driver.choose(.exit, at: now)
            case 0x1A: if !suspend() { abandon(Signal.hangUp) }
            case 0x1B:
                if index < bytes.endIndex, bytes[index] == UInt8(ascii: "[") || bytes[index] == UInt8(ascii: "O") {
                    // An arrow or function key: passed over whole.
                    index += 1
                    while index < bytes.endIndex, !(0x40...0x7E).contains(bytes[index]) { index += 1 }
                    index += 1
                } else {
                    driver.withdrawQuestion()
                    return bytes[min(index, bytes.endIndex)...]
                }
            default: break
            }
        }
        return []
    }

    /// Ctrl-Z: give the shell a sane terminal, stop, and take the screen back on resume.
    /// false when the terminal is gone on resume.
    private func suspend() -> Bool {
        let stoppedAt = clock.monotonicNanoseconds()
        terminal.restore()
        SignalPipe.suspendSelf()
        driver.resume(afterSuspending: clock.monotonicNanoseconds() &- stoppedAt)
        guard (try? terminal.enter()) != nil else { return false }
        draw()
        return true
    }

    private func draw() {
        let size = terminal.size
        terminal.write(screen.frame(for: driver.session, at: clock.monotonicNanoseconds(),
                                    columns: size.columns, rows: size.rows, scroll: scrollOffset,
                                    answer: driver.session.askingIntention || driver.session.askingChallenge ? field.text : nil))
    }

    /// Moves through an article longer than the screen, within what the current size allows
    /// (so after a resize the first key press lands somewhere sensible).
    private func scroll(_ step: Scroll, at now: UInt64) {
        let size = terminal.size
        let range = screen.scroll(for: driver.session, at: now, columns: size.columns, rows: size.rows)
        let target: Int
        switch step {
        case .lineUp: target = scrollOffset - 1
        case .lineDown: target = scrollOffset + 1
        case .pageUp: target = scrollOffset - range.page
        case .pageDown: target = scrollOffset + range.page
        case .top: target = 0
        case .bottom: target = range.limit
        }
        scrollOffset = min(max(0, target), range.limit)
    }

    /// The short celebration after Exit (≤ 1.5 s), still on the alternate screen. A signal
    /// ends it early.
    private func celebrate(message: String) {
        let steps = 5
        for step in 0...steps {
            let size = terminal.size
            terminal.write(screen.celebrationFrame(step: step, steps: steps, message: message,
                                                   columns: size.columns, rows: size.rows))
            let wakeup = terminal.wait(signalFD: signals.readFD, timeoutMilliseconds: step == steps ? 500 : 180)
            if wakeup.signalReady || wakeup.hungUp { _ = signals.drain(); return }
        }
    }
}
