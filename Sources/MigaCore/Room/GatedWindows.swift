import FoundationEssentials

/// The one rule for which gated app a window belongs to (DESIGN "The room, not just the
/// door"), for every desktop watcher. Everything a window says of itself is untrusted text:
/// it is only compared, lower-cased, with what the person's config and miga's own shims say.
///
/// 1. A desktop id whose user copy (`$XDG_DATA_HOME/applications`) is a miga shim names its
///    app: the `--app NAME` in its Exec.
/// 2. Else each gated app's keys — its name, its command's file name, its shims'
///    `StartupWMClass` and desktop-id stems (`com.discordapp.Discord.desktop` gives
///    `com.discordapp.discord` and `discord`) — against the window's application id, both
///    `WM_CLASS` parts, its desktop-id stem and the file name of `/proc/PID/exe`.
///
/// miga's own windows (the gate, the app) are never an app's.
public struct GatedWindows {
    /// The application ids of miga's own windows, lower-cased.
    public static let ownApplicationIDs: Set<String> = ["app.miga.gate", "app.miga.app"]
    /// At most this many entries of the applications folder are looked at.
    static let entryLimit = 4096

    /// Shim desktop id → its app (gated apps only).
    private var shimApps: [String: String] = [:]
    /// Lower-cased key → app; a key two apps share is the first one's (names before commands
    /// before shims, then by name).
    private var keys: [String: String] = [:]
    private let files: any FileService

    public init(config: MigaConfig, paths: MigaPaths, files: any FileService) {
        self.files = files
        let names = config.apps.keys.sorted()
        for name in names { add(name, for: name) }
        for name in names {
            let command = config.apps[name]?.command ?? ""
            add(FilePath.lastComponent(of: String(command.split(separator: " ").first ?? "")), for: name)
        }
        let applications = Self.applicationsDirectory(paths)
        for id in files.directoryNames(in: applications, limit: Self.entryLimit, where: { $0.hasSuffix(".desktop") }).sorted() {
            guard let (app, entry) = Self.shim(at: applications + "/" + id), config.apps[app] != nil else { continue }
            shimApps[id] = app
            Self.stems(ofDesktopID: id).forEach { add($0, for: app) }
            if let wmClass = entry.string("StartupWMClass") { add(wmClass, for: app) }
        }
    }

    /// The gated app `window` belongs to, or nil.
    public func app(of window: WindowFacts) -> String? {
        let applicationID = window.applicationID?.lowercased()
        if let applicationID, Self.ownApplicationIDs.contains(applicationID) { return nil }
        if window.wmClass.contains(where: { Self.ownApplicationIDs.contains($0.lowercased()) }) { return nil }
        if let id = window.desktopID, let app = shimApps[id] { return app }
        var candidates = [applicationID] + window.wmClass.reversed().map { $0.lowercased() }
        candidates.append(window.desktopID.flatMap { Self.stems(ofDesktopID: $0).first })
        candidates.append(window.pid.flatMap(executableName))
        return candidates.lazy.compactMap { $0 }.compactMap { keys[$0] }.first
    }

    private mutating func add(_ key: String, for app: String) {
        let key = key.lowercased()
        guard !key.isEmpty, keys[key] == nil else { return }
        keys[key] = app
    }

    /// The file name of the program `pid` runs (`/proc/PID/exe`), lower-cased; " (deleted)"
    /// (an upgraded package's old binary) is dropped.
    private func executableName(_ pid: Int32) -> String? {
        guard pid > 0, var target = files.readLink("/proc/\(pid)/exe") else { return nil }
        if target.hasSuffix(" (deleted)") { target.removeLast(" (deleted)".count) }
        let name = FilePath.lastComponent(of: target).lowercased()
        return name.isEmpty ? nil : name
    }

    /// `$XDG_DATA_HOME/applications`: the data folder's parent (miga's is `…/miga`).
    static func applicationsDirectory(_ paths: MigaPaths) -> String {
        FilePath.parent(of: paths.dataDirectory) + "/applications"
    }

    /// `com.discordapp.Discord.desktop` → `com.discordapp.discord`, `discord`.
    static func stems(ofDesktopID id: String) -> [String] {
        let stem = (id.hasSuffix(".desktop") ? String(id.dropLast(".desktop".count)) : id).lowercased()
        guard !stem.isEmpty else { return [] }
        let last = String(stem.split(separator: ".").last ?? "")
        return last.isEmpty || last == stem ? [stem] : [stem, last]
    }

    /// The app a miga shim at `path` gates, with its entry; nil for anything else.
    static func shim(at path: String) -> (String, DesktopEntry)? {
        guard let entry = try? DesktopEntry.load(path: path), entry.boolean(DesktopShim.markerKey) == true,
              let exec = entry.rawValue("Exec"), let line = try? ExecLine(rawValue: exec),
              line.arguments.count > 2, case .literal(let script) = line.arguments[2],
              let app = shimApp(script: script) else { return nil }
        return (app, entry)
    }

    /// The NAME of `gate --app 'NAME'` in a shim's script (`DesktopShim.execPrefix`), the
    /// single-quoted word unquoted (`'\''` is a quote).
    static func shimApp(script: String) -> String? {
        let parts = script.pieces(separatedBy: " gate --app '")
        guard parts.count == 2 else { return nil }
        var name = "", rest = Substring(parts[1])
        while true {
            guard let close = rest.firstIndex(of: "'") else { return nil }
            name += rest[..<close]
            rest = rest[rest.index(after: close)...]
            guard rest.hasPrefix("\\''") else { break }
            name += "'"
            rest = rest.dropFirst(3)
        }
        return MigaConfig.isValidGateName(name) ? name : nil
    }
}
