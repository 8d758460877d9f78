/// Plain mode, for `TERM=dumb`, `--plain` and screen readers: no cursor movement, no redraws.
/// The item once, a few countdown lines, then a readline prompt for the choice.
public final class PlainGate {
    private let driver: GateDriver
    private let clock: any MigaClock
    private let signals: SignalPipe
    /// Waits on and reads standard input.
    private let terminal: any TerminalService
    private let input = FileDescriptor.standardInput
    private let write: (String) -> Void

    public init(driver: GateDriver, clock: any MigaClock, signals: SignalPipe, terminal: any TerminalService, write: @escaping (String) -> Void) {
        self.driver = driver
        self.clock = clock
        self.signals = signals
        self.terminal = terminal
        self.write = write
    }

    static func prompt(openLabel: String, alternatives: [String] = []) -> String {
        let instead = alternatives.enumerated().map { ", \($0.offset + 1) = \(TerminalText.forScreen($0.element))" }.joined()
        return "Choose: e = Exit\(instead), n = Read Next, o = \(openLabel) > "
    }

    /// `shown` as for `TerminalGate.run`.
    /// The signal that ended the gate as abandoned, if one did.
    private var abandonSignal: Int32?

    public func run(shown: () -> Bool = { true }) -> GateEnding {
        driver.start()
        show(driver.session.item, heading: "miga · \(driver.session.app)", notes: driver.session.notes)
        write("Open unlocks in \(driver.session.timerSeconds) s. Type e and Enter to exit now, n for another.\n")
        if !driver.session.alternatives.isEmpty {
            let items = driver.session.alternatives.enumerated().map { "\($0.offset + 1) = \(TerminalText.forScreen($0.element))" }
            write("Or do this instead: \(items.joined(separator: ", ")).\n")
        }
        guard shown() else { return GateEnding(outcome: .exit, signal: nil, withdrawn: true) }
        var announced = driver.session.timerSeconds
        var prompt: LineReader?

        while driver.outcome == nil {
            let now = clock.monotonicNanoseconds()
            let left = driver.session.secondsLeft(at: now)
            driver.tick(at: now)
            if left == 0, prompt == nil {
                write("Ready.\n")
                prompt = LineReader(signals: signals)
            } else if left > 0, left < announced, left % 10 == 0 || left == 5 {
                announced = left
                write("\(left) s…\n")
            }
            if let prompt {
                let reply = prompt.read(prompt: Self.prompt(openLabel: driver.session.openLabel, alternatives: driver.session.alternatives))
                let at = clock.monotonicNanoseconds()
                switch reply {
                case .line(let answer):
                    handle(answer.trimming(.whitespaces).lowercased(), at: at)
                case .endOfInput, .interrupted: // Ctrl-D, Ctrl-C: leaving without opening is an Exit
                    driver.choose(.exit, at: at)
                case .hungUp(let signal):
                    abandonSignal = abandonSignal ?? signal ?? Signal.hangUp
                    driver.abandon(at: at)
                }
                continue
            }
            // The countdown: typed lines in canonical mode, and a wake-up every second.
            let intoSecond = driver.session.elapsedMilliseconds(at: now) % 1000
            let events = terminal.waitForInput([input, signals.readDescriptor], milliseconds: Int32(max(10, 1000 - intoSecond)))
            let at = clock.monotonicNanoseconds()
            if events[1].contains(.input) {
                for signal in signals.drain() {
                    switch signal {
                    case Signal.interrupt: driver.choose(.exit, at: at)
                    case Signal.hangUp, Signal.terminate, Signal.quit:
                        abandonSignal = abandonSignal ?? signal
                        driver.abandon(at: at)
                    case Signal.suspend: SignalPipe.suspendSelf()
                    default: break
                    }
                }
            }
            if driver.outcome == nil, !events[0].isDisjoint(with: .gone) {
                // The terminal went away (Ctrl-D never raises POLLHUP): an abandon, not an Exit.
                abandonSignal = abandonSignal ?? Signal.hangUp
                driver.abandon(at: at)
            }
            guard driver.outcome == nil, events[0].contains(.input) else { continue }
            guard let answer = readTypedLine() else {
                // End of input (Ctrl-D): leaving without opening is an Exit.
                driver.choose(.exit, at: at)
                break
            }
            handle(answer.trimming(.whitespaces).lowercased(), at: at)
        }
        return GateEnding(outcome: driver.outcome ?? .abandoned, signal: abandonSignal)
    }

    /// In canonical mode one read(2) returns one typed line; read directly rather than through
    /// stdio so nothing sits in a buffer that poll(2) cannot see. nil means end of input.
    private func readTypedLine() -> String? {
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { (try? terminal.read(from: input, into: $0, name: "standard input")) ?? 0 }
        guard count > 0 else { return nil }
        let bytes = buffer[0..<count].prefix { $0 != UInt8(ascii: "\n") }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func handle(_ answer: String, at now: UInt64) {
        switch answer {
        case "e", "exit", "q", "quit":
            driver.choose(.exit, at: now)
        case "n", "next", "read next":
            let before = driver.session.item.id
            driver.choose(.readNext, at: now)
            if driver.session.item.id != before { show(driver.session.item, heading: nil) }
        case let digit where ["1", "2", "3"].contains(digit) && Int(digit)! <= driver.session.alternatives.count:
            driver.chooseAlternative(Int(answer)!, at: now)
        case "o", "open":
            driver.choose(.open, at: now)
            if let notice = driver.session.notice(at: now) { write(notice + "\n") }
            if driver.session.askingChallenge { askChallenge() }
            if driver.session.askingIntention { askIntention() }
            if driver.session.askingMinutes { askMinutes() }
        case "":
            break
        default:
            let instead = driver.session.alternatives.isEmpty ? "" : ", 1–\(driver.session.alternatives.count) (instead)"
            write("Please type e (Exit)\(instead), n (Read Next) or o (Open).\n")
        }
    }

    /// "What are you here to do?" on its own readline prompt; Enter (even on an empty line)
    /// opens, Ctrl-C or Ctrl-D leaves as an Exit.
    private func askIntention() {
        let reply = LineReader(signals: signals).read(prompt: Intention.question + " > ")
        let at = clock.monotonicNanoseconds()
        switch reply {
        case .line(let answer): driver.answer(answer, at: at)
        case .endOfInput, .interrupted: driver.choose(.exit, at: at)
        case .hungUp(let signal):
            abandonSignal = abandonSignal ?? signal ?? Signal.hangUp
            driver.abandon(at: at)
        }
    }

    /// The challenge's sentence, typed as a line (a screen reader's user types it as anyone
    /// would); anything else asks again. An empty line goes back to the choices; Ctrl-C or
    /// Ctrl-D leaves as an Exit.
    private func askChallenge() {
        guard let sentence = driver.session.challenge else { return }
        write("\(GateScreen.challengePrompt) \(TerminalText.forScreen(sentence))\n")
        let reader = LineReader(signals: signals)
        while driver.session.askingChallenge, driver.outcome == nil {
            let reply = reader.read(prompt: "> ")
            let at = clock.monotonicNanoseconds()
            switch reply {
            case .line(let typed):
                if typed.isEmpty {
                    driver.withdrawQuestion()
                } else if !driver.answerChallenge(typed, at: at) {
                    write("Not quite: type it exactly, \"\(TerminalText.forScreen(sentence))\", or an empty line to go back.\n")
                }
            case .endOfInput, .interrupted: driver.choose(.exit, at: at)
            case .hungUp(let signal):
                abandonSignal = abandonSignal ?? signal ?? Signal.hangUp
                driver.abandon(at: at)
            }
        }
    }

    /// "For how long?": the keyed choices on a line of their own (each key apart from its
    /// minutes), then a prompt: 1…4, any minutes as `15m`, Enter for the default; anything
    /// else asks again, saying what to type. Ctrl-C or Ctrl-D leaves as an Exit.
    static func minutesQuestion(defaultMinutes: Int) -> (line: String, prompt: String) {
        ("\(TimeboxQuestion.text) \(TimeboxQuestion.keyedChoices).",
         "A key, minutes such as 15m, or Enter for \(defaultMinutes) min > ")
    }

    private func askMinutes() {
        let question = Self.minutesQuestion(defaultMinutes: driver.session.defaultMinutes)
        write(question.line + "\n")
        let prompt = question.prompt
        let reader = LineReader(signals: signals)
        while driver.session.askingMinutes, driver.outcome == nil {
            let reply = reader.read(prompt: prompt)
            let at = clock.monotonicNanoseconds()
            switch reply {
            case .line(let answer):
                if answer.trimming(.whitespaces).isEmpty {
                    driver.answerMinutes(nil, at: at)
                } else if let minutes = TimeboxQuestion.minutes(answer: answer) {
                    driver.answerMinutes(minutes, at: at)
                } else {
                    write(TimeboxQuestion.help(defaultMinutes: driver.session.defaultMinutes) + "\n")
                }
            case .endOfInput, .interrupted: driver.choose(.exit, at: at)
            case .hungUp(let signal):
                abandonSignal = abandonSignal ?? signal ?? Signal.hangUp
                driver.abandon(at: at)
            }
        }
    }

    private func show(_ item: ContentItem, heading: String?, notes: [String] = []) {
        var text = heading.map { "\(TerminalText.forScreen($0))\n" + notes.map { TerminalText.forScreen($0) + "\n" }.joined() + "\n" } ?? "\n"
        if let title = item.title { text += TerminalText.forScreen(title) + "\n\n" }
        text += TextLayout.wrap(TerminalText.forScreen(item.text), width: GateScreen.maxTextWidth).joined(separator: "\n") + "\n"
        if let author = item.author { text += "— \(TerminalText.forScreen(author))\n" }
        write(text + "\n")
    }
}
