#if canImport(Glibc)
import Glibc
#endif

/// A line for whoever reads the window's stderr (`miga gate` passes it on). write(2), not
/// fputs to `stderr`: the C library's FILE pointer is a global var Swift 6 cannot prove safe.
func sayOnStandardError(_ text: String) {
    var text = text
    _ = text.withUTF8 { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}
