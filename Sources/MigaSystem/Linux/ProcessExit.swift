#if canImport(Glibc)
import Glibc
#endif

extension LinuxSystem {
    /// Ends the process with `status`, running the handlers registered with atexit (the check
    /// that standard output was written, `checkStandardOutputAtExit`).
    public static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }
}
