/// The one-line answer field of the full-screen gate ("What are you here to do?"), fed the raw
/// bytes the terminal sends: UTF-8 split across reads, Backspace, Ctrl-U, Ctrl-W; escape
/// sequences (arrows, function keys) are passed over rather than typed.
public struct IntentionField: Equatable, Sendable {
    public enum Action: Equatable, Sendable {
        case submit
        /// Esc: back to the gate, nothing opened.
        case back
        /// Ctrl-C: Exit, as everywhere in the gate.
        case exit
        case suspend
    }

    public private(set) var text = ""
    private var pending: [UInt8] = []
    private var inEscape = false
    private var escapeHasBody = false

    public init() {}

    /// Applies `bytes`; the actions they hold, in order. Bytes after a submit are ignored.
    public mutating func feed(_ bytes: [UInt8]) -> [Action] {
        var actions: [Action] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if inEscape {
                // ESC [ … final, or ESC O x: swallow the whole sequence.
                if !escapeHasBody, byte == UInt8(ascii: "[") || byte == UInt8(ascii: "O") { escapeHasBody = true; continue }
                if escapeHasBody, !(0x40...0x7E).contains(byte) { continue }
                inEscape = false
                if escapeHasBody { continue }
                // ESC then an ordinary byte: Alt-key; treat the ESC as nothing and type the byte.
            }
            switch byte {
            case 0x1B:
                if index == bytes.count {
                    actions.append(.back) // a lone Esc
                    return actions
                }
                inEscape = true
                escapeHasBody = false
            case 0x0D, 0x0A:
                flushPending()
                actions.append(.submit)
                return actions
            case 0x03:
                actions.append(.exit)
                return actions
            case 0x1A:
                actions.append(.suspend)
            case 0x7F, 0x08:
                pending.removeAll()
                if !text.isEmpty { text.removeLast() }
            case 0x15:
                pending.removeAll()
                text = ""
            case 0x17:
                pending.removeAll()
                while text.last == " " { text.removeLast() }
                while let last = text.last, last != " " { text.removeLast() }
            case 0x00..<0x20:
                break
            default:
                pending.append(byte)
                flushPending()
            }
        }
        return actions
    }

    /// Types what `pending` holds once it is whole UTF-8 (an invalid sequence is dropped).
    private mutating func flushPending() {
        guard let first = pending.first else { return }
        let needed = first < 0x80 ? 1 : first >> 5 == 0b110 ? 2 : first >> 4 == 0b1110 ? 3 : first >> 3 == 0b11110 ? 4 : 0
        guard needed > 0 else { pending.removeAll(); return }
        guard pending.count >= needed else { return }
        let bytes = Array(pending.prefix(needed))
        pending.removeFirst(needed)
        if let character = String(validating: bytes, as: UTF8.self), text.count < Intention.limit {
            text += Intention.clean(character).isEmpty && character != " " ? "" : character
        }
        flushPending()
    }
}
