#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The signals miga decides about, by what they mean to a gate. Plain signal numbers (what
/// `SignalPipe.drain` gives and `LinuxSystem.dieBySignal` takes), so they match in a switch.
public enum Signal {
    /// SIGHUP: the terminal went away.
    public static let hangUp: Int32 = SIGHUP
    /// SIGINT: Ctrl-C.
    public static let interrupt: Int32 = SIGINT
    /// SIGTERM: asked to stop.
    public static let terminate: Int32 = SIGTERM
    /// SIGQUIT: Ctrl-\.
    public static let quit: Int32 = SIGQUIT
    /// SIGTSTP: Ctrl-Z.
    public static let suspend: Int32 = SIGTSTP
    /// SIGCONT: going on after a stop.
    public static let resume: Int32 = SIGCONT

    /// "SIGTERM" for the signals above, "signal N" for any other.
    public static func name(_ signal: Int32) -> String {
        switch signal {
        case SIGHUP: return "SIGHUP"
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        case SIGQUIT: return "SIGQUIT"
        case SIGTSTP: return "SIGTSTP"
        case SIGCONT: return "SIGCONT"
        default: return "signal \(signal)"
        }
    }
}
