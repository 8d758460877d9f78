// fuzz/run.sh compiles this file with DesktopSession.swift, StoredNumber's and the JSON
// target's files as one module.
#if canImport(JSON)
import JSON
#endif

/// The GNOME Shell extension's lines as they arrive on `miga watch --shell`'s stdin, split and
/// read (`ShellExtensionSession` has the protocol): at most `lineLimit` bytes a line, JSON
/// objects only, every field bounded. Pure, so it is fuzzed on its own.
public struct ShellExtensionLines {
    public static let lineLimit = 64 * 1024
    /// The longest window handle, desktop id, application id or `WM_CLASS` part taken.
    static let fieldLimit = 1024

    private var buffer: [UInt8] = []
    /// Inside a line already too long: its bytes are dropped up to its end.
    private var skipping = false

    public init() {}

    /// The events of the lines `bytes` completes, in order, and why each refused line was
    /// refused. An empty line and an unknown `type` are neither (either side may grow).
    public mutating func take(_ bytes: ArraySlice<UInt8>) -> (events: [DesktopEvent], refused: [String]) {
        var events: [DesktopEvent] = [], refused: [String] = []
        let tooLong = "a line longer than \(Self.lineLimit / 1024) KiB"
        var rest = bytes
        while let newline = rest.firstIndex(of: UInt8(ascii: "\n")) {
            if skipping {
                skipping = false
            } else if buffer.count + (newline - rest.startIndex) > Self.lineLimit {
                refused.append(tooLong)
            } else {
                buffer += rest[..<newline]
                switch Self.read(buffer) {
                case .event(let event): events.append(event)
                case .refused(let why): refused.append(why)
                case .ignored: break
                }
            }
            buffer.removeAll(keepingCapacity: true)
            rest = rest[(newline + 1)...]
        }
        guard !skipping else { return (events, refused) }
        if buffer.count + rest.count > Self.lineLimit {
            refused.append(tooLong)
            buffer.removeAll()
            skipping = true
        } else {
            buffer += rest
        }
        return (events, refused)
    }

    enum Reading: Equatable {
        case event(DesktopEvent)
        case refused(String)
        case ignored
    }

    /// One whole line.
    static func read(_ line: [UInt8]) -> Reading {
        guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\r") }) else { return .ignored }
        let message: JSONValue
        do {
            message = try JSONValue.parse(line)
        } catch {
            return .refused("\(error)")
        }
        guard let type = message["type"]?.string else { return .refused("no \"type\"") }
        switch type {
        case "focus":
            guard let window = message["window"] else { return .event(.focused(nil)) }
            if case .null = window { return .event(.focused(nil)) }
            guard let id = field(window) else { return .refused("a focus line whose \"window\" is not a short string") }
            return .event(.focused(facts(id: id, message)))
        case "idle":
            guard case .bool(let idle)? = message["idle"] else { return .refused("an idle line without true or false") }
            return .event(.idle(idle))
        default:
            return .ignored
        }
    }

    /// A focus line's window; a field of the wrong kind or size is absent.
    static func facts(id: String, _ message: JSONValue) -> WindowFacts {
        var wmClass: [String] = []
        if case .array(let parts)? = message["wm_class"] { wmClass = parts.prefix(2).compactMap(field) }
        let pid = message["pid"]?.integer(in: 1...Int64(Int32.max)).map { Int32($0) }
        return WindowFacts(id: id, desktopID: message["desktop_id"].flatMap(field), applicationID: message["app_id"].flatMap(field),
                           wmClass: wmClass, pid: pid)
    }

    /// A non-empty string of at most `fieldLimit` bytes, without control characters.
    static func field(_ value: JSONValue) -> String? {
        guard let text = value.string, !text.isEmpty, text.utf8.count <= fieldLimit,
              !text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7f...0x9f).contains($0.value) }) else { return nil }
        return text
    }
}
