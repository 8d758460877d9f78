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
    /// Refused lines said on stderr; after this many, no more are said.
    static let complaintLimit = 100

    let terminal: any TerminalService
    let messages: any MessageSink
    let input: FileDescriptor
    let output: FileDescriptor
    private var lines = ShellExtensionLines()
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

    /// Splits `bytes` into lines, each read as it ends (`ShellExtensionLines`).
    func take(_ bytes: ArraySlice<UInt8>) {
        let (events, refused) = lines.take(bytes)
        pending += events
        refused.forEach(refuse)
    }

    private func refuse(_ why: String) {
        complaints += 1
        guard complaints <= Self.complaintLimit else { return }
        messages.say("miga watch: ignored a line from the GNOME Shell extension: \(why)"
                     + (complaints == Self.complaintLimit ? " (no more of these are said)" : ""))
    }
}
