import FoundationEssentials

/// Close matches for a name that is neither a command nor a desktop entry: a typo
/// (`dicsord`), a different case (`Discord`) or a longer name (`discord-canary`).
public struct AppNameSuggestions {
    public var candidates: Set<String>

    public init(candidates: Set<String>) {
        self.candidates = candidates
    }

    /// The executables on `searchPath` (outside miga's shims) and the installed entries' IDs and
    /// programs.
    public init(searchPath: String, skipping: String, entries: [DesktopEntryLocator.Found], files: any FileService) {
        var names = Set<String>()
        let skipped = files.realPath(skipping)
        for folder in searchPath.split(separator: ":").map(String.init) where files.realPath(folder) != skipped {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] { names.insert(name) }
        }
        for found in entries {
            names.insert(String(found.id.dropLast(".desktop".count)))
            if let exec = found.entry.rawValue("Exec"), let line = try? ExecLine(rawValue: exec) {
                names.formUnion(LaunchedProgram(line).names)
            }
        }
        self.init(candidates: names)
    }

    public func suggestions(for name: String, limit: Int = 3) -> [String] {
        let wanted = name.lowercased()
        let scored: [(String, Int)] = candidates.compactMap { candidate in
            let lower = candidate.lowercased()
            if lower == wanted { return (candidate, 0) }
            let distance = EditDistance.between(wanted, lower)
            if distance <= max(1, wanted.count / 3) { return (candidate, distance) }
            if wanted.count >= 3, lower.hasPrefix(wanted) || lower.hasSuffix("." + wanted) { return (candidate, 3) }
            return nil
        }
        return scored.sorted { ($0.1, $0.0.count, $0.0) < ($1.1, $1.0.count, $1.0) }.prefix(limit).map(\.0)
    }
}
