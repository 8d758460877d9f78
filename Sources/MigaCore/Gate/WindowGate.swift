import GateWindowProtocol

public struct WindowUnavailable: Error, CustomStringConvertible {
    public var description: String
}

/// The gateway in a small GTK window for desktop launches (DESIGN "The gate window"). The
/// session stays here — countdown, rotation, events, the app's launch — so one process owns
/// them whatever the front end; the window only draws what it is sent and reports keys.
public final class WindowGate {
    /// How long the window may take to show its first frame before the terminal emulator is
    /// tried instead.
    public static let showSeconds = 3.0
    /// Ticks this often move the bar smoothly; the seconds change once a second anyway.
    static let tickMilliseconds: Int32 = 100

    private let driver: GateDriver
    private let channel: GateWindowChannel
    private let signals: SignalPipe
    private let clock: any MigaClock
    /// Waits on the window's channel and the signal pipe.
    private let terminal: any TerminalService
    private let style: GateStyle
    /// The picture of an item as the window may open it (`ContentImage.path`), or nil.
    private let imagePath: (ContentItem) -> String?
    /// The program an Open starts, named to the desktop when the window asks for its token.
    private let executable: String
    private var sentItem: String?
    private var sentNotice: String?
    private var sentTick: GateToWindow?

    public init(driver: GateDriver, channel: GateWindowChannel, signals: SignalPipe, clock: any MigaClock, style: GateStyle,
                terminal: any TerminalService = SystemTerminal(),
                imagePath: @escaping (ContentItem) -> String? = { _ in nil }, executable: String = "") {
        self.imagePath = imagePath
        self.executable = executable
        self.driver = driver
        self.channel = channel
        self.signals = signals
        self.clock = clock
        self.style = style
        self.terminal = terminal
    }

    /// Runs the gate in the window until a choice is made. Throws `WindowUnavailable` when the
    /// window never showed (nothing is recorded then, so the caller can try a terminal).
    public func run(celebration: () -> String, shown: () -> Bool = { true }) throws -> GateEnding {
        channel.send(.setUp(app: driver.session.app, animations: style.animations, breathing: style.breathing))
        if driver.session.openLabel != "Open" { channel.send(.openLabel(driver.session.openLabel)) }
        if !driver.session.notes.isEmpty { channel.send(.notes(driver.session.notes.joined(separator: "\n"))) }
        if !driver.session.alternatives.isEmpty { channel.send(.alternatives(driver.session.alternatives)) }
        sendState()
        if let signal = try awaitShown() {
            channel.finish(within: 0.5)
            return GateEnding(outcome: .abandoned, signal: signal)
        }
        let notesShown = driver.session.notes
        guard shown() else {
            channel.finish(within: 0.5)
            return GateEnding(outcome: .exit, signal: nil, withdrawn: true)
        }
        // The other machines' gates, folded in once the window was up.
        if driver.session.notes != notesShown { channel.send(.notes(driver.session.notes.joined(separator: "\n"))) }
        driver.start()
        var abandonSignal: Int32?
        func abandon(_ signal: Int32?) {
            abandonSignal = abandonSignal ?? signal
            driver.abandon(at: clock.monotonicNanoseconds())
        }
        while driver.outcome == nil {
            driver.tick(at: clock.monotonicNanoseconds())
            sendState()
            let ready = wait(milliseconds: Self.tickMilliseconds)
            let at = clock.monotonicNanoseconds()
            if ready.signal {
                for signal in signals.drain() where driver.outcome == nil {
                    switch signal {
                    case Signal.interrupt: driver.choose(.exit, at: at)
                    case Signal.hangUp, Signal.terminate, Signal.quit: abandon(signal)
                    default: break
                    }
                }
            }
            guard ready.window, driver.outcome == nil else { continue }
            guard let messages = channel.receive() else {
                abandon(nil) // the window went away: its display, or someone killed it
                break
            }
            let now = clock.monotonicNanoseconds()
            for message in messages where driver.outcome == nil {
                switch message {
                case .exit, .closeButton: driver.choose(.exit, at: now)
                case .readNext: driver.choose(.readNext, at: now)
                case .open:
                    driver.choose(.open, at: now)
                    askIfAsked()
                case .challenge(let text):
                    // A sentence the window let through that is not the one asked: asked again.
                    guard driver.session.askingChallenge else { break }
                    driver.answerChallenge(text, at: now)
                    askIfAsked()
                case .intention(let text):
                    driver.answer(text, at: now)
                    askIfAsked()
                case .minutes(let minutes): driver.answerMinutes(minutes, at: now)
                case .alternative(let number): driver.chooseAlternative(number, at: now)
                case .back: driver.withdrawQuestion()
                case .shown, .softEndChoice, .activationToken: break
                }
            }
        }
        var token: String?
        switch driver.outcome {
        case .exit?:
            channel.send(.celebrate(celebration()))
            channel.finish(within: 3)
        case .open?:
            token = launchToken()
        default:
            channel.send(.close)
            channel.finish(within: 1)
        }
        return GateEnding(outcome: driver.outcome ?? .abandoned, signal: abandonSignal, activationToken: token)
    }

    /// After Open: the window asks the desktop for the app's activation token, says it and
    /// ends (what it said stays in the pipe after it has gone); nil when it had none.
    private func launchToken() -> String? {
        channel.send(.launch(app: driver.session.app, executable: executable))
        channel.send(.close)
        channel.finish(within: 1)
        let said = channel.receive() ?? []
        return said.compactMap { message -> String? in
            if case .activationToken(let token) = message { return token }
            return nil
        }.last
    }

    /// The question the session now asks, if any, sent to the window.
    private func askIfAsked() {
        let session = driver.session
        if session.askingChallenge, let sentence = session.challenge { channel.send(.askChallenge(sentence: sentence)) }
        if session.askingIntention { channel.send(.askIntention) }
        if session.askingMinutes { channel.send(.askMinutes(choices: TimeboxQuestion.choices, defaultMinutes: session.defaultMinutes)) }
    }

    /// nil once the window reports its first frame; a signal that ended the wait. Throws
    /// when the window is gone or too slow.
    private func awaitShown() throws -> Int32? {
        let deadline = clock.monotonicNanoseconds() + UInt64(Self.showSeconds * 1_000_000_000)
        while true {
            let now = clock.monotonicNanoseconds()
            guard now < deadline else {
                channel.finish(within: 0)
                throw WindowUnavailable(description: "the gate window did not show within \(Int(Self.showSeconds)) s")
            }
            let ready = wait(milliseconds: Int32(min(1000, (deadline - now) / 1_000_000 + 1)))
            if ready.signal, let signal = signals.drain().first(where: { [Signal.hangUp, Signal.terminate, Signal.quit, Signal.interrupt].contains($0) }) {
                return signal
            }
            guard ready.window else { continue }
            guard let messages = channel.receive() else {
                channel.finish(within: 0)
                throw WindowUnavailable(description: "the gate window ended before it showed (no display?)")
            }
            if messages.contains(.shown) { return nil }
        }
    }

    /// Sends what changed: the item, the notice, the countdown.
    private func sendState() {
        let session = driver.session
        let now = clock.monotonicNanoseconds()
        if sentItem != session.item.id {
            sentItem = session.item.id
            let item = session.item
            channel.send(.item(kind: item.kind.rawValue, text: item.text, author: item.author ?? "", title: item.title ?? "",
                               image: imagePath(item) ?? ""))
        }
        let notice = session.notice(at: now) ?? ""
        if sentNotice != notice {
            sentNotice = notice
            channel.send(.notice(notice))
        }
        let breath = style.breathing
            ? GateScreen.breathingCue(elapsedMilliseconds: session.elapsedMilliseconds(at: now), dots: true) : ""
        let tick = GateToWindow.tick(secondsLeft: session.secondsLeft(at: now),
                                     permille: Int(session.progress(at: now) * 1000), breath: breath)
        if sentTick != tick {
            sentTick = tick
            channel.send(tick)
        }
    }

    private func wait(milliseconds: Int32) -> (window: Bool, signal: Bool) {
        let events = terminal.waitForInput([channel.readDescriptor, signals.readDescriptor], milliseconds: milliseconds)
        // Anything on the window's pipe, its end included, is for `receive` to read.
        return (!events[0].isEmpty, events[1].contains(.input))
    }
}
