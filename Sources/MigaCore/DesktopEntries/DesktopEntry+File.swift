import FoundationEssentials

// Reading an entry from disk, apart from the parser so that the parser builds on its own (the
// fuzz target compiles DesktopEntry.swift and ExecLine.swift alone: fuzz/run.sh).
extension DesktopEntry {
    /// Real entries are a few KiB; anything this large is not one (and is not read whole).
    public static let maxSize = BoundedFile.desktopEntryLimit

    /// Reads a file, refusing what cannot be a desktop entry (too large, not UTF-8) before
    /// parsing it.
    public static func load(path: String) throws -> DesktopEntry {
        let name = FilePath.lastComponent(of: path)
        let data: Data
        do {
            data = try BoundedFile.read(path, limit: maxSize)
        } catch FileReadError.tooLarge {
            throw DesktopEntryError(file: name, line: nil, problem: "larger than \(maxSize / 1024) KiB, not a desktop entry")
        } catch {
            throw DesktopEntryError(file: name, line: nil, problem: "cannot be read: \(error)")
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw DesktopEntryError(file: name, line: nil, problem: "not valid UTF-8")
        }
        return try DesktopEntry(text: text, name: name)
    }
}
