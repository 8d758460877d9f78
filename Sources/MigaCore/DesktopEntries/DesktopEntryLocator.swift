import FoundationEssentials

/// Finds installed desktop entries the way launchers do: `applications/` below
/// `$XDG_DATA_HOME` first, then each of `$XDG_DATA_DIRS`; the first file with a given
/// desktop-file ID wins. miga's own shims are looked through, to the entries they shadow.
public struct DesktopEntryLocator {
    public struct Found: Equatable {
        public var id: String
        public var path: String
        public var entry: DesktopEntry
    }

    public var dataDirectories: [String]

    public init(dataDirectories: [String]) {
        self.dataDirectories = dataDirectories
    }

    /// The XDG search order: `XDG_DATA_HOME` (default ~/.local/share), then `XDG_DATA_DIRS`
    /// (default /usr/local/share:/usr/share); relative entries are invalid and skipped.
    public init(environment: [String: String]) {
        let home = Self.dataHome(environment)
        let dirs = (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        self.init(dataDirectories: (home.map { [$0] } ?? []) + dirs)
    }

    /// The XDG search order, then the folders Flatpak and Snap export their apps' entries to
    /// (user Flatpak, system Flatpak, Snap) where `XDG_DATA_DIRS` leaves them out: their
    /// profile scripts add them to a session, but not to one started before they were installed.
    public init(includingPackagedApps environment: [String: String]) {
        self.init(environment: environment)
        let userFlatpak = Self.dataHome(environment).map { [$0 + "/flatpak/exports/share"] } ?? []
        for folder in userFlatpak + Self.systemPackagedAppDirectories where !dataDirectories.contains(folder) {
            dataDirectories.append(folder)
        }
    }

    /// `XDG_DATA_HOME`, or ~/.local/share; nil without either.
    public static func dataHome(_ environment: [String: String]) -> String? {
        environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? environment["HOME"].map { $0 + "/.local/share" }
    }

    /// System Flatpak's exports and Snap's entries.
    public static let systemPackagedAppDirectories = ["/var/lib/flatpak/exports/share", "/var/lib/snapd/desktop"]

    /// Every valid entry by ID, in precedence order. A file that cannot be used is reported
    /// through `warn` (one line naming it) and skipped.
    public func entries(warn: (String) -> Void) -> [Found] {
        entries(problem: { _, message in warn(message) })
    }

    /// Every valid entry; `problem` gets each unusable file's path and the line to say.
    public func entries(problem: (_ path: String, _ message: String) -> Void) -> [Found] {
        var seen = Set<String>()
        var found: [Found] = []
        for directory in dataDirectories {
            let applications = directory + "/applications"
            guard let subpaths = try? FileManager.default.subpathsOfDirectory(atPath: applications) else { continue }
            for relative in subpaths.filter({ $0.hasSuffix(".desktop") }).sorted() {
                let id = DesktopEntry.identifier(relativePath: relative)
                guard !seen.contains(id) else { continue }
                let path = applications + "/" + relative
                do {
                    let entry = try DesktopEntry.load(path: path)
                    if entry.boolean(DesktopShim.markerKey) == true { continue } // look through to the original
                    seen.insert(id)
                    found.append(Found(id: id, path: path, entry: entry))
                } catch {
                    problem(path, "miga: warning: \(applications)/\(error)")
                }
            }
        }
        return found
    }

    /// The entries whose main Exec runs `command` (by name, or the same absolute path).
    public func entries(running command: String, warn: (String) -> Void) -> [Found] {
        entries(warn: warn).filter { DesktopShim.runs(command, entry: $0.entry) }
    }
}
