import FoundationEssentials

/// The welcome in a terminal (`miga setup` on a TTY): what miga does, what pulls you in, the
/// pause. It asks; `WelcomeSetup` does what was chosen. Full screen in a terminal that can
/// draw one; plain numbered lines and a readline prompt (as `PlainGate`) for `TERM=dumb`,
/// screen readers, or output that is not a terminal.
public struct TerminalWelcome {
    public let context: MigaContext

    public init(context: MigaContext) {
        self.context = context
    }

    /// Asks through the three screens; the choice, or nil when the person left without one.
    public func run(offer: WelcomeOffer) throws -> WelcomeChoice? {
        try run(offer: offer, plain: prefersPlain)
    }

    /// As `run(offer:)`, plain mode when `plain` (a `--plain` flag).
    public func run(offer: WelcomeOffer, plain: Bool) throws -> WelcomeChoice? {
        let form = WelcomeForm(offer: offer, timerSeconds: timerInForce, extras: ContentLibrary.extraCategories)
        let signals = try SignalPipe()
        if plain {
            let reader = LineReader(signals: signals)
            return PlainWelcome(form: form, read: { reader.read(prompt: $0) },
                                write: { context.terminal.say($0, to: .standardOutput) }).run()
        }
        return try FullScreenWelcome(form: form, screen: WelcomeScreen(environment: context.environment),
                                     terminal: LinuxTerminal(), signals: signals).run()
    }

    /// Plain mode as the gate chooses it: no TERM, `TERM=dumb`, or a screen that is not a terminal.
    var prefersPlain: Bool {
        let term = context.environment["TERM"] ?? ""
        return term.isEmpty || term == "dumb" || !context.terminal.isTerminal(.standardOutput)
    }

    /// The timer the config holds now (the default when it cannot be read): left as it is
    /// unless the person moves it.
    private var timerInForce: Int {
        (try? ConfigLoader().load(path: context.paths.configFile).config.timerSeconds) ?? MigaConfig().timerSeconds
    }
}

/// The full-screen welcome: raw terminal and the alternate screen, like the gate; every way
/// out (a choice, q, Ctrl-C, a hang-up) gives the terminal back as it was.
final class FullScreenWelcome {
    private var form: WelcomeForm
    private let screen: WelcomeScreen
    private let terminal: LinuxTerminal
    private let signals: SignalPipe
    private var scroll = 0
    /// The app name being typed after `+`, nil when not typing.
    private var field: IntentionField?
    private var message: String?
    private var outcome: Outcome?

    enum Outcome { case chose, left }

    init(form: WelcomeForm, screen: WelcomeScreen, terminal: LinuxTerminal, signals: SignalPipe) {
        self.form = form
        self.screen = screen
        self.terminal = terminal
        self.signals = signals
    }

    func run() throws -> WelcomeChoice? {
        try terminal.enter()
        defer { terminal.restore() }
        draw()
        while outcome == nil {
            let wakeup = terminal.wait(signalFD: signals.readFD, timeoutMilliseconds: -1)
            if wakeup.signalReady { handleSignals() }
            if wakeup.hungUp { outcome = outcome ?? .left }
            if outcome == nil { handle(wakeup.bytes[...]) }
            if outcome == nil { draw() }
        }
        return outcome == .chose ? form.choice : nil
    }

    private func handleSignals() {
        for signal in signals.drain() where outcome == nil {
            switch signal {
            case Signal.interrupt, Signal.hangUp, Signal.terminate, Signal.quit: outcome = .left
            case Signal.suspend: suspend()
            case Signal.resume:
                // Stopped by someone else, and the shell may have reset the terminal.
                if !terminal.isRaw, (try? terminal.enter()) == nil { outcome = .left }
            default: break // SIGWINCH: the next draw lays out for the new size.
            }
        }
    }

    private func suspend() {
        terminal.restore()
        SignalPipe.suspendSelf()
        if (try? terminal.enter()) == nil { outcome = .left }
    }

    enum Key: Equatable { case character(Character), enter, escape, interrupt, suspend, redraw, up, down, pageUp, pageDown, top, bottom }

    /// Raw bytes as keys: arrows, PgUp/PgDn and Home/End scroll, other escape sequences are
    /// passed over whole, a lone Esc is back. Ctrl-C and Ctrl-Z arrive as bytes (ISIG is off).
    static func keys(from bytes: ArraySlice<UInt8>) -> [(key: Key, end: Int)] {
        var keys: [(key: Key, end: Int)] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            index += 1
            switch byte {
            case 0x1B:
                guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "[") || bytes[index] == UInt8(ascii: "O") else {
                    keys.append((.escape, index))
                    continue
                }
                index += 1
                let parameters = index
                while index < bytes.endIndex, !(0x40...0x7E).contains(bytes[index]) { index += 1 }
                if index < bytes.endIndex, let key = scrollKey(final: bytes[index], parameters: String(decoding: bytes[parameters..<index], as: UTF8.self)) {
                    keys.append((key, index + 1))
                }
                index += 1
            case 0x0D, 0x0A: keys.append((.enter, index))
            case 0x03: keys.append((.interrupt, index))
            case 0x1A: keys.append((.suspend, index))
            case 0x0C: keys.append((.redraw, index))
            case 0x20...0x7E: keys.append((.character(Character(Unicode.Scalar(byte))), index))
            default: break
            }
        }
        return keys
    }

    private static func scrollKey(final: UInt8, parameters: String) -> Key? {
        switch (final, parameters) {
        case (UInt8(ascii: "A"), _): return .up
        case (UInt8(ascii: "B"), _): return .down
        case (UInt8(ascii: "H"), _), (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): return .top
        case (UInt8(ascii: "F"), _), (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): return .bottom
        case (UInt8(ascii: "~"), "5"): return .pageUp
        case (UInt8(ascii: "~"), "6"): return .pageDown
        default: return nil
        }
    }

    private func handle(_ bytes: ArraySlice<UInt8>) {
        var bytes = bytes
        while !bytes.isEmpty, outcome == nil {
            if field != nil {
                type(Array(bytes))
                return
            }
            bytes = press(bytes)
        }
    }

    /// The screen's keys; what is left of `bytes` once `+` starts a name (its first letters).
    private func press(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        for (key, end) in Self.keys(from: bytes) where outcome == nil {
            if key != .redraw { message = nil }
            switch key {
            case .interrupt, .character("q"), .character("Q"): outcome = .left
            case .suspend: suspend()
            case .enter:
                if form.next() { outcome = .chose } else { scroll = 0 }
            case .escape, .character("b"), .character("B"):
                form.back()
                scroll = 0
            case .up, .character("k"): scrollBy(-1)
            case .down, .character("j"): scrollBy(1)
            case .pageUp: scrollBy(-page)
            case .pageDown: scrollBy(page)
            case .top: scroll = 0
            case .bottom: scrollBy(Int.max / 2)
            case .redraw: break
            case .character(let character): choose(character)
            }
            if field != nil { return bytes[end...] }
        }
        return []
    }

    /// A key on the choose or pause screen: tick an item, move the timer, start typing a name.
    private func choose(_ character: Character) {
        switch form.step {
        case .about: break
        case .choose:
            if character == "+" {
                field = IntentionField()
            } else if let index = WelcomeForm.itemIndex(forKey: character), index < form.items.count {
                form.toggle(item: index)
                reveal(item: index)
            }
        case .pause:
            switch character {
            case "-", "_": form.adjustTimer(by: -1)
            case "+", "=": form.adjustTimer(by: 1)
            case "1": form.comesBack.toggle()
            case "2"..."9": form.toggle(extra: Int(String(character))! - 2)
            default: break
            }
        }
    }

    /// Typing an app's name: Enter adds it, Esc goes back to the list, Ctrl-C leaves.
    private func type(_ bytes: [UInt8]) {
        guard var typing = field else { return }
        let actions = typing.feed(bytes)
        field = typing
        for action in actions {
            switch action {
            case .submit:
                switch form.add(appName: typing.text) {
                case .success(let index):
                    field = nil
                    reveal(item: index)
                case .failure(let problem):
                    message = problem.message
                    field = IntentionField()
                }
                return
            case .back:
                field = nil
                return
            case .exit:
                outcome = .left
                return
            case .suspend: suspend()
            }
        }
    }

    private var page: Int {
        let size = terminal.size
        return max(1, screen.layout(form, columns: size.columns, rows: size.rows, extras: extras).room - 1)
    }

    private func scrollBy(_ lines: Int) {
        let size = terminal.size
        let limit = screen.layout(form, columns: size.columns, rows: size.rows, extras: extras).scrollLimit
        scroll = min(max(0, scroll + lines), limit)
    }

    private func reveal(item index: Int) {
        let size = terminal.size
        let layout = screen.layout(form, columns: size.columns, rows: size.rows, extras: extras)
        guard let line = layout.itemLines[index] else { return }
        scroll = screen.reveal(line: line, scroll: scroll, layout: layout)
    }

    private var extras: WelcomeScreen.Extras {
        WelcomeScreen.Extras(typing: field?.text, message: message)
    }

    private func draw() {
        let size = terminal.size
        let layout = screen.layout(form, columns: size.columns, rows: size.rows, extras: extras)
        scroll = min(scroll, layout.scrollLimit) // a resize may leave less to scroll
        terminal.write(screen.frame(form, columns: size.columns, rows: size.rows, scroll: scroll, extras: extras))
    }
}
