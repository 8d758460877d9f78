import GateWindowProtocol

/// The other end of the gate window: what `WindowGate` needs of the child process, so
/// tests can play the window.
public protocol GateWindowChannel: AnyObject {
    /// Readable when the window has said something (or has gone).
    var readFD: Int32 { get }
    /// false once the window is gone.
    @discardableResult func send(_ message: GateToWindow) -> Bool
    /// What the window said since the last call; nil once it has gone (end of file).
    func receive() -> [WindowToGate]?
    /// Lets the window end by itself for up to `seconds`, then ends it.
    func finish(within seconds: Double)
}
