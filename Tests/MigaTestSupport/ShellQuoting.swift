import Foundation

/// Single quotes for sh, so any argument survives a generated script byte for byte.
public func shellQuote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
