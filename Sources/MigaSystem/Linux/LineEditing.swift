import CReadline
#if canImport(Glibc)
import Glibc
#endif

/// What readline adds to a `LineReader` when it could be loaded: a history kept in a file and
/// Tab completion. The interactive `miga config` uses both; a prompt without them still works.
public struct LineEditing {
    let readline: MigaReadline

    public func readHistory(from path: String) { _ = readline.read_history(path) }
    public func writeHistory(to path: String) { _ = readline.write_history(path) }
    public func addHistory(_ line: String) { readline.add_history(line) }
    public func limitHistory(to lines: Int32) { readline.stifle_history(lines) }

    /// Tab offers what `candidates` returns for the words before the cursor and the word being
    /// typed; never file names. nil turns completion off.
    public func complete(with candidates: ((_ before: [String], _ word: String) -> [String])?) {
        Completion.candidatesFor = candidates
        readline.attempted_completion_function.pointee = candidates == nil ? nil : Completion.attempt
    }
}

extension LineReader {
    /// History and completion, or nil when libreadline could not be loaded.
    public var editing: LineEditing? { readline.map(LineEditing.init) }
}

/// readline calls plain C functions: the state they need lives here.
private enum Completion {
    nonisolated(unsafe) static var candidatesFor: ((_ before: [String], _ word: String) -> [String])?
    nonisolated(unsafe) static var candidates: [String] = []
    nonisolated(unsafe) static var next = 0

    static let attempt: @convention(c) (UnsafePointer<CChar>?, Int32, Int32) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = { text, start, _ in
        // Only ever called by a loaded readline.
        guard let readline = miga_readline()?.pointee else { return nil }
        readline.attempted_completion_over.pointee = 1 // never fall back to file names
        guard let candidatesFor, let text, let buffer = readline.line_buffer.pointee else { return nil }
        let line = String(cString: buffer)
        let before = String(line.utf8.prefix(Int(start))) ?? ""
        candidates = candidatesFor(before.split(separator: " ").map(String.init), String(cString: text))
        next = 0
        return readline.completion_matches(text, generate)
    }

    static let generate: @convention(c) (UnsafePointer<CChar>?, Int32) -> UnsafeMutablePointer<CChar>? = { _, state in
        if state == 0 { next = 0 }
        guard next < candidates.count else { return nil }
        defer { next += 1 }
        return strdup(candidates[next])
    }
}
