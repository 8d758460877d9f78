#if canImport(Glibc)
import Glibc
#endif
import CGtk
import GateWindowProtocol

/// The window's end of the line to `miga gate`: stdin carries `GateToWindow` lines, stdout
/// takes `WindowToGate` lines. Reading happens inside GTK's main loop (a GLib fd source), so
/// the window never blocks on the gate; writing is write(2) straight away, unbuffered, so a
/// key press reaches the gate the moment it happens.
final class GateLink {
    private var splitter = LineSplitter()
    private let received: (GateToWindow) -> Void
    private let batchDone: () -> Void
    private let gone: () -> Void
    private var ended = false
    private var buffer = [UInt8](repeating: 0, count: 65536)

    /// `received` runs for each message, `batchDone` after each read's worth of them (so the
    /// window can lay out once), `gone` once when the gate has gone (end of file, or a
    /// failed read or write).
    init(received: @escaping (GateToWindow) -> Void, batchDone: @escaping () -> Void, gone: @escaping () -> Void) {
        self.received = received
        self.batchDone = batchDone
        self.gone = gone
        // A gate that died must not kill us with SIGPIPE: the failed write ends us quietly.
        signal(SIGPIPE, SIG_IGN)
    }

    func start() {
        let condition = GIOCondition(rawValue: G_IO_IN.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue)
        g_unix_fd_add(STDIN_FILENO, condition, { _, _, context in
            Unmanaged<GateLink>.fromOpaque(context!).takeUnretainedValue().readable() ? 1 : 0
        }, Unmanaged.passRetained(self).toOpaque())
    }

    /// false once stdin is finished with (the source is then removed).
    private func readable() -> Bool {
        guard !ended else { return false }
        let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        if count < 0 && (errno == EINTR || errno == EAGAIN) { return true }
        guard count > 0 else {
            end()
            return false
        }
        for line in splitter.append(buffer[0..<count]) {
            guard !ended else { return false }
            if let message = WindowLine.gateMessage(line) { received(message) }
        }
        guard !ended else { return false }
        batchDone()
        return true
    }

    func send(_ message: WindowToGate) {
        guard !ended else { return }
        var bytes = Array(WindowLine.encode(message).utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                end()
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Stops reading and writing for good (after `close`, or once the gate is gone).
    func end() {
        guard !ended else { return }
        ended = true
        gone()
    }
}
