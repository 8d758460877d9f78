import FoundationEssentials
import JSON

/// The GNOME Shell extension (`miga@miga.app`) as a `DesktopSession`: `miga watch --shell`,
/// started by the extension, reads what it reports on stdin and answers on stdout. JSON, one
/// object a line, at most 64 KiB a line; a longer or malformed line is ignored with one line
/// on stderr, an unknown `type` silently (either side may grow).
///
/// Extension → watcher:
///   `{"type":"focus","window":"17","desktop_id":"discord.desktop","app_id":"discord","wm_class":["discord","discord"],"pid":4242}`
///   (fields other than `type` and `window` may be absent or null; no `window`: nothing focused);
///   `{"type":"idle","idle":true}` / `{"type":"idle","idle":false}`.
/// Watcher → extension: `{"type":"hello","version":1}` once at start;
///   `{"type":"watch_idle","on":true,"idle_seconds":300}` / `{"type":"watch_idle","on":false}`;
///   `{"type":"raise","window":"17"}`, `{"type":"minimise",…}`, `{"type":"close",…}`.
/// Every field is the extension's to say and so untrusted: bounded, matched, never run.
public final class ShellExtensionSession: DesktopSession {
    public static let protocolVersion = 1
    public static let lineLimit = 64 * 1024
    /// The longest window handle, desktop id, application id or `WM_CLASS` part taken.
    static let fieldLimit = 1024
    /// Refused lines said on stderr; after this many, no more are said.
    static let complaintLimit = 100

    let terminal: any TerminalService
    let messages: any MessageSink
    let input: FileDescriptor
    let output: FileDescriptor
    private var buffer: [UInt8] = []
    /// Inside a line already too long: its bytes are dropped up to its end.
    private var skipping = false
    private var pending: [DesktopEvent] = []
    private var complaints = 0

    /// Says `hello` at once.
    public init(context: MigaContext, input: FileDescriptor = .standardInput, output: FileDescriptor = .standardOutput) {
        terminal = context.terminal
        messages = context.messages
        self.input = input
        self.output = output
        send([("type", .string("hello")), ("version", .int(Self.protocolVersion))])
    }

    public func next(milliseconds: Int32?) throws -> DesktopEvent? {
        if !pending.isEmpty { return pending.removeFirst() }
        let ready = terminal.waitForInput([input], milliseconds: milliseconds ?? -1)
        guard !(ready.first ?? []).isEmpty else { return nil }
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let count: Int
        do {
            count = try chunk.withUnsafeMutableBytes { try terminal.read(from: input, into: $0, name: "the GNOME Shell extension's pipe") }
        } catch {
            throw DesktopSessionEnded("the GNOME Shell extension's pipe failed: \(error)")
        }
        guard count > 0 else { throw DesktopSessionEnded("the GNOME Shell extension closed its pipe") }
        take(chunk[0..<count])
        return pending.isEmpty ? nil : pending.removeFirst()
    }

    public func raise(_ window: String) { act("raise", window) }
    public func minimise(_ window: String) { act("minimise", window) }
    public func close(_ window: String) { act("close", window) }

    public func watchIdle(_ on: Bool, idleSeconds: Int) {
        send([("type", .string("watch_idle")), ("on", .bool(on))] + (on ? [("idle_seconds", .int(idleSeconds))] : []))
    }

    /// The shell brings miga's gate window to the front itself (the extension activates it).
    public func activationEnvironment() -> [String: String] { [:] }

    private func act(_ type: String, _ window: String) {
        send([("type", .string(type)), ("window", .string(window))])
    }

    /// One line to the extension; a pipe it closed shows as end of file on the next read.
    private func send(_ members: [(String, OrderedJSON)]) {
        try? terminal.write(Data((OrderedJSON.object(members).text + "\n").utf8), to: output, name: "the GNOME Shell extension's pipe")
    }

    /// Splits `bytes` into lines, each parsed as it ends.
    func take(_ bytes: ArraySlice<UInt8>) {
        var rest = bytes
        while let newline = rest.firstIndex(of: UInt8(ascii: "\n")) {
            if skipping {
                skipping = false
            } else if buffer.count + (newline - rest.startIndex) > Self.lineLimit {
                refuse("a line longer than \(Self.lineLimit / 1024) KiB")
            } else {
                buffer += rest[..<newline]
                if let event = parse(buffer) { pending.append(event) }
            }
            buffer.removeAll(keepingCapacity: true)
            rest = rest[(newline + 1)...]
        }
        guard !skipping else { return }
        if buffer.count + rest.count > Self.lineLimit {
            refuse("a line longer than \(Self.lineLimit / 1024) KiB")
            buffer.removeAll()
            skipping = true
        } else {
            buffer += rest
        }
    }

    /// The event a line reports; nil for an empty line, an unknown type, or a refused line.
    func parse(_ line: [UInt8]) -> DesktopEvent? {
        guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\r") }) else { return nil }
        let message: JSONValue
        do {
            message = try JSONValue.parse(line)
        } catch {
            refuse("\(error)")
            return nil
        }
        guard let type = message["type"]?.string else {
            refuse("no \"type\"")
            return nil
        }
        switch type {
        case "focus":
            guard let window = message["window"] else { return .focused(nil) }
            if case .null = window { return .focused(nil) }
            guard let id = Self.field(window) else {
                refuse("a focus line whose \"window\" is not a short string")
                return nil
            }
            return .focused(Self.facts(id: id, message))
        case "idle":
            guard case .bool(let idle)? = message["idle"] else {
                refuse("an idle line without true or false")
                return nil
            }
            return .idle(idle)
        default:
            return nil
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

    private func refuse(_ why: String) {
        complaints += 1
        guard complaints <= Self.complaintLimit else { return }
        messages.say("miga watch: ignored a line from the GNOME Shell extension: \(why)"
                     + (complaints == Self.complaintLimit ? " (no more of these are said)" : ""))
    }
}
