#if canImport(Glibc)
import Glibc
#endif

/// How each signal was handled when miga started, so that the app it opens gets exactly that
/// back. An ignored signal stays ignored across exec: a gate run under `nohup` must hand its
/// app an ignored SIGHUP, and miga's own SIGPIPE ignore must not leak into an app that
/// expects to die quietly when its reader leaves.
public enum SignalDispositions {
    /// In the order miga first changed them. A list, not a dictionary keyed by signal: a
    /// dictionary of a new key type costs a search of every protocol conformance in the binary
    /// the first time (a tenth of a millisecond before every gate's first frame).
    nonisolated(unsafe) private static var originals: [(signal: Int32, action: sigaction)] = []

    /// Sets `signal`'s handling, remembering what it was the first time miga changes it.
    static func set(_ signal: Int32, _ action: sigaction) {
        var action = action
        var previous = sigaction()
        sigaction(signal, &action, &previous)
        if !originals.contains(where: { $0.signal == signal }) { originals.append((signal, previous)) }
    }

    static func set(_ signal: Int32, handler: __sighandler_t?) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        set(signal, action)
    }

    /// A write to a pipe whose reader has gone then fails with EPIPE instead of killing miga:
    /// a gate whose stderr is such a pipe must still open the app (DESIGN "Robustness").
    public static func ignoreBrokenPipes() {
        set(SIGPIPE, handler: SIG_IGN)
    }

    /// Back to how miga's parent left `signals` (all that miga changed, by default).
    public static func restoreOriginals(_ signals: [Int32]? = nil) {
        for (signal, original) in originals where signals?.contains(signal) ?? true {
            var original = original
            sigaction(signal, &original, nil)
        }
    }
}
