/// What `miga gate` and `miga-gate-window` say to each other over the window's stdin and
/// stdout: one message per line, fields separated by tabs, `\`, tab and newline escaped.
/// The gate owns the session (countdown, rotation, events, the app's launch); the window only
/// draws what it is told and reports keys, so exactly one process writes events and starts
/// the app. Pure Swift without Foundation, so the window stays small and quick to start.
public enum GateToWindow: Equatable, Sendable {
    /// The app's name (the header says "miga · APP"; the window's title stays "miga", the
    /// desktop's name for it) and how to draw.
    case setUp(app: String, animations: Bool, breathing: Bool)
    /// The item to show: kind is `quote`, `affirmation` or `article`; `image` is the absolute
    /// path of a picture to show beside the text, checked by the gate (a regular file of a
    /// readable size), or empty for none. The window still skips one it cannot load.
    case item(kind: String, text: String, author: String, title: String, image: String = "")
    /// The person's own "Do this instead" choices, shown beside Exit as buttons with keys
    /// `1`… (at most 3); a choice comes back as `alternative`. Empty: none.
    case alternatives([String])
    /// Open was chosen after the countdown and `challenge = "type"`: show the sentence and a
    /// field typed key by key (a paste never counts; a key that is not the sentence's next
    /// character clears it, see `ChallengeTyping`). The whole sentence comes back as
    /// `challenge`, Esc as `back`. Sent again after a wrong answer.
    case askChallenge(sentence: String)
    /// The countdown: whole seconds left (0 = Open unlocked), progress in thousandths, the cue.
    case tick(secondsLeft: Int, permille: Int, breath: String)
    /// A line under the buttons ("Open unlocks in 12 s. …"); empty clears it.
    case notice(String)
    /// Lines under the title ("3rd time today", "Last time: …", why the wait is longer),
    /// separated by newlines; empty for none.
    case notes(String)
    /// What the Open button says when not "Open" ("Open anyway": today's allowance is used).
    case openLabel(String)
    /// Open was chosen after the countdown and `intention = true`: ask "What are you here to
    /// do?" in a text field; the answer comes back as `intention`, Esc as `back`.
    case askIntention
    /// Open was chosen and `ask_minutes = true`: ask "For how long?" with one button per
    /// choice (keys 1…), Enter taking `defaultMinutes`; the answer comes back as `minutes`,
    /// Esc as `back`.
    case askMinutes(choices: [Int], defaultMinutes: Int)
    /// Not a gate: a timebox's soft end ("Your 10 minutes in discord are up"), with the
    /// Close button's label ("Close discord"), and whether "5 more minutes" is offered. The
    /// answer comes back as `softEndChoice`.
    case softEnd(text: String, closeLabel: String, canExtend: Bool)
    /// Exit was chosen: show the celebration with this line, then end.
    case celebrate(String)
    /// Open was chosen: ask the desktop for a new activation token for the app (`app`, its
    /// program `executable`), answer `activationToken`, then end. A window without this
    /// message ends at the `close` that follows it.
    case launch(app: String, executable: String)
    /// End now (Open, or the gate going away).
    case close
}

public enum WindowToGate: Equatable, Sendable {
    /// The first frame is on screen.
    case shown
    case exit, readNext, open
    /// The window's close button: an explicit Exit.
    case closeButton
    /// The answer to the question (may be empty): Open.
    case intention(String)
    /// Esc in the answer field: back to the gate.
    case back
    /// The answer to "For how long?": Open.
    case minutes(Int)
    /// The soft end's answer: `close`, `extend` or `keep` (the window's close button too).
    case softEndChoice(String)
    /// A "Do this instead" choice, 1-based: an Exit that opens it.
    case alternative(Int)
    /// The sentence as typed: Open, when it is exactly the one asked.
    case challenge(String)
    /// The answer to `launch`: the token the desktop gave for the app's window to come to the
    /// front focused (xdg-activation on Wayland, a startup-notification id on X11).
    case activationToken(String)
}

/// What an activation token may be before it goes into an app's environment: 1–512 visible
/// ASCII characters (xdg-activation tokens and X11 startup ids are), nothing that could end an
/// environment entry or a line.
public enum ActivationToken {
    public static let maximumLength = 512

    public static func isPlausible(_ token: String) -> Bool {
        !token.isEmpty && token.utf8.count <= maximumLength && token.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }
}

/// How a typed challenge takes one key, in the terminal and the window alike: the sentence
/// must be typed exactly, so a character that is not its next one clears what was typed.
public enum ChallengeTyping {
    /// What is typed after `character` is added to `typed`.
    public static func adding(_ character: Character, to typed: String, sentence: String) -> String {
        kept(typed + String(character), sentence: sentence)
    }

    /// What stays of `typed` (several keys at once, as a terminal may deliver them): all of it
    /// while it is the start of the sentence, else nothing.
    public static func kept(_ typed: String, sentence: String) -> String {
        sentence.hasPrefix(typed) ? typed : ""
    }

    /// After Backspace.
    public static func erasing(_ typed: String) -> String { String(typed.dropLast()) }
}

public enum WindowLine {
    public static func encode(_ message: GateToWindow) -> String {
        switch message {
        case .setUp(let app, let animations, let breathing):
            return line(["setup", app, animations ? "1" : "0", breathing ? "1" : "0"])
        case .item(let kind, let text, let author, let title, let image):
            return line(image.isEmpty ? ["item", kind, text, author, title] : ["item", kind, text, author, title, image])
        case .alternatives(let labels): return line(["alternatives"] + labels)
        case .askChallenge(let sentence): return line(["ask-challenge", sentence])
        case .tick(let secondsLeft, let permille, let breath):
            return line(["tick", String(secondsLeft), String(permille), breath])
        case .notice(let text): return line(["notice", text])
        case .notes(let text): return line(["notes", text])
        case .openLabel(let text): return line(["open-label", text])
        case .askIntention: return line(["ask-intention"])
        case .askMinutes(let choices, let defaultMinutes):
            return line(["ask-minutes", choices.map(String.init).joined(separator: ","), String(defaultMinutes)])
        case .softEnd(let text, let closeLabel, let canExtend): return line(["soft-end", text, closeLabel, canExtend ? "1" : "0"])
        case .celebrate(let text): return line(["celebrate", text])
        case .launch(let app, let executable): return line(["launch", app, executable])
        case .close: return line(["close"])
        }
    }

    public static func encode(_ message: WindowToGate) -> String {
        switch message {
        case .shown: return "shown\n"
        case .exit: return "exit\n"
        case .readNext: return "next\n"
        case .open: return "open\n"
        case .closeButton: return "close-button\n"
        case .intention(let text): return line(["intention", text])
        case .back: return "back\n"
        case .minutes(let minutes): return line(["minutes", String(minutes)])
        case .softEndChoice(let choice): return line(["soft-end-choice", choice])
        case .alternative(let index): return line(["alternative", String(index)])
        case .challenge(let text): return line(["challenge", text])
        case .activationToken(let token): return line(["activation-token", token])
        }
    }

    /// nil for a line that is not a message (ignored: the other side may be newer).
    public static func gateMessage(_ line: Substring) -> GateToWindow? {
        let fields = split(line)
        switch (fields.first, fields.count) {
        case ("setup", 4): return .setUp(app: fields[1], animations: fields[2] == "1", breathing: fields[3] == "1")
        case ("item", 5): return .item(kind: fields[1], text: fields[2], author: fields[3], title: fields[4])
        case ("item", 6):
            // Only an absolute path: the window opens nothing relative to where it runs.
            let image = fields[5].hasPrefix("/") ? fields[5] : ""
            return .item(kind: fields[1], text: fields[2], author: fields[3], title: fields[4], image: image)
        case ("alternatives", _): return .alternatives(Array(fields.dropFirst().prefix(3)))
        case ("ask-challenge", 2): return fields[1].isEmpty ? nil : .askChallenge(sentence: fields[1])
        case ("tick", 4):
            guard let left = Int(fields[1]), let permille = Int(fields[2]) else { return nil }
            return .tick(secondsLeft: max(0, left), permille: min(1000, max(0, permille)), breath: fields[3])
        case ("notice", 2): return .notice(fields[1])
        case ("notes", 2): return .notes(fields[1])
        case ("open-label", 2): return .openLabel(fields[1])
        case ("ask-intention", 1): return .askIntention
        case ("ask-minutes", 3):
            let choices = fields[1].split(separator: ",").compactMap { Int($0) }.filter { (1...240).contains($0) }
            guard !choices.isEmpty, choices.count <= 9, let fallback = Int(fields[2]), (1...240).contains(fallback) else { return nil }
            return .askMinutes(choices: choices, defaultMinutes: fallback)
        case ("soft-end", 4): return .softEnd(text: fields[1], closeLabel: fields[2], canExtend: fields[3] == "1")
        case ("celebrate", 2): return .celebrate(fields[1])
        case ("launch", 3): return .launch(app: fields[1], executable: fields[2])
        case ("close", 1): return .close
        default: return nil
        }
    }

    public static func windowMessage(_ line: Substring) -> WindowToGate? {
        if line.hasPrefix("intention\t") {
            let fields = split(line)
            return fields.count == 2 ? .intention(fields[1]) : nil
        }
        if line.hasPrefix("soft-end-choice\t") {
            let fields = split(line)
            guard fields.count == 2, ["close", "extend", "keep"].contains(fields[1]) else { return nil }
            return .softEndChoice(fields[1])
        }
        if line.hasPrefix("alternative\t") {
            let fields = split(line)
            guard fields.count == 2, let index = Int(fields[1]), (1...3).contains(index) else { return nil }
            return .alternative(index)
        }
        if line.hasPrefix("challenge\t") {
            let fields = split(line)
            return fields.count == 2 ? .challenge(fields[1]) : nil
        }
        if line.hasPrefix("activation-token\t") {
            let fields = split(line)
            guard fields.count == 2, ActivationToken.isPlausible(fields[1]) else { return nil }
            return .activationToken(fields[1])
        }
        if line.hasPrefix("minutes\t") {
            let fields = split(line)
            guard fields.count == 2, let minutes = Int(fields[1]), (1...240).contains(minutes) else { return nil }
            return .minutes(minutes)
        }
        switch line {
        case "shown": return .shown
        case "exit": return .exit
        case "next": return .readNext
        case "open": return .open
        case "close-button": return .closeButton
        case "back": return .back
        default: return nil
        }
    }

    static func line(_ fields: [String]) -> String {
        fields.map(escape).joined(separator: "\t") + "\n"
    }

    static func escape(_ field: String) -> String {
        var out = ""
        out.reserveCapacity(field.utf8.count)
        for character in field.unicodeScalars {
            switch character {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    static func split(_ line: Substring) -> [String] {
        var fields: [String] = []
        var current = ""
        var escaped = false
        for character in line.unicodeScalars {
            if escaped {
                switch character {
                case "t": current += "\t"
                case "n": current += "\n"
                case "r": current += "\r"
                default: current.unicodeScalars.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\t" {
                fields.append(current)
                current = ""
            } else {
                current.unicodeScalars.append(character)
            }
        }
        fields.append(current)
        return fields
    }
}

/// Splits a byte stream into lines, whatever pieces it arrives in; a line longer than
/// `limit` bytes is dropped whole (nothing either side sends comes near it).
public struct LineSplitter {
    public static let limit = 1 << 20
    private var pending: [UInt8] = []
    private var overlong = false

    public init() {}

    public mutating func append(_ bytes: some Sequence<UInt8>) -> [Substring] {
        var lines: [Substring] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if !overlong { lines.append(Substring(String(decoding: pending, as: UTF8.self))) }
                pending.removeAll(keepingCapacity: true)
                overlong = false
            } else if !overlong {
                pending.append(byte)
                if pending.count > Self.limit {
                    pending.removeAll()
                    overlong = true
                }
            }
        }
        return lines
    }
}
