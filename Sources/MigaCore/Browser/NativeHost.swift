import FoundationEssentials

/// `miga native-host`: started by the browser, one process per profile, talking over stdin
/// and stdout until the browser closes stdin. Garbage gets an error reply; a length no
/// message of the extension's could have ends the conversation (nothing after it can be
/// trusted to be framed), with a last error reply; neither is ever a crash or a hang.
public struct NativeHost {
    public var context: MigaContext
    public var input: FileDescriptor = .standardInput
    public var output: FileDescriptor = .standardOutput
    /// How often config.toml is looked at when inotify cannot watch it, so an edit still
    /// reaches the extension within a second.
    public var pollMilliseconds: Int32 = 1000

    public init(context: MigaContext) {
        self.context = context
    }

    /// The exit status: 0 when the browser closed the pipe, 1 after a broken stream.
    public func run() -> Int32 {
        let service = NativeHostService(context: context)
        defer { service.finish() }
        var decoder = NativeMessageDecoder()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        // config.toml, and the snooze (started or ended in a terminal): either changes what
        // the browser lets through, so the extension hears of it within a moment.
        let files = [context.paths.configFile, Snooze.path(context.paths)]
        var stamps = SentStateStamps(files: files)
        let watches = files.map(FileWatch.init(file:))
        let watching = watches.allSatisfy { $0.descriptor >= 0 }
        while true {
            let ready = context.terminal.waitForInput(watching ? [input] + watches.map { FileDescriptor(rawValue: $0.descriptor) } : [input],
                                                 milliseconds: watching ? -1 : pollMilliseconds)
            if !ready[0].isEmpty, !ready[0].isDisjoint(with: .invalid) { return 1 }
            if ready[0].isEmpty {
                // Woken by a watch, by a signal or by the poll timer: has either file changed?
                if watching, !watches.map({ $0.drain() }).contains(true) { continue }
                if stamps.pushDue() {
                    guard send(Data(service.state().text.utf8)) else { return 0 }
                }
                continue
            }
            let count: Int
            do {
                count = try buffer.withUnsafeMutableBytes { try context.terminal.read(from: input, into: $0, name: "the browser") }
            } catch let error as LinuxError where error.wouldBlock {
                continue
            } catch {
                return 1
            }
            if count == 0 {
                if decoder.pendingByteCount > 0 {
                    context.messages.say("miga native-host: the browser closed the pipe in the middle of a message")
                }
                return 0
            }
            decoder.append(buffer[0..<count])
            while true {
                switch decoder.next() {
                case .needMore:
                    break
                case .oversized(let length):
                    let reply = HostToExtension.error("message of \(length) bytes is longer than \(NativeMessageFraming.incomingLimit); closing").json(id: .null)
                    context.messages.say("miga native-host: a message of \(length) bytes is too long; closing")
                    _ = send(Data(reply.text.utf8))
                    return 1
                case .message(let body):
                    let before = stamps.now()
                    let reply = service.reply(to: body)
                    guard send(reply) else { return 0 }
                    if reply.starts(with: Data(#"{"type":"state""#.utf8)) { stamps.stateSent(from: before) }
                    // A config edit is pushed at once (waiting for a quiet second could wait for
                    // ever on a busy page), and so is one made while this reply was worked out.
                    if stamps.pushDue() {
                        guard send(Data(service.state().text.utf8)) else { return 0 }
                    }
                    continue
                }
                break
            }
        }
    }

    /// False once the browser is gone (the pipe closed).
    private func send(_ body: Data) -> Bool {
        do {
            try context.terminal.write(NativeMessageFraming.frame(body), to: output, name: "the browser")
            return true
        } catch {
            return false
        }
    }
}
