/// The web browser links go to when miga does not gate them: the default recorded at install,
/// found the way the XDG MIME Applications spec finds one, and looked up by desktop-file ID.
public struct DefaultBrowser {
    public var layout: InstallLayout
    public var desktops: [String]

    public init(layout: InstallLayout, currentDesktop: String? = nil) {
        self.layout = layout
        desktops = (currentDesktop ?? "").split(separator: ":").map { $0.lowercased() }
    }

    /// `mimeapps.list` files in the spec's order: config folders, then `applications/` data
    /// folders, each with its desktop-specific file first.
    var mimeAppsFiles: [String] {
        let folders = layout.configDirectories + layout.dataDirectories.map { $0 + "/applications" }
        return folders.flatMap { folder in desktops.map { "\(folder)/\($0)-mimeapps.list" } + ["\(folder)/mimeapps.list"] }
    }

    /// The current default for https links other than miga itself, if one is installed;
    /// otherwise the first installed entry that says it handles them.
    public func current() -> String? {
        if let found = firstInstalledDefault(for: "x-scheme-handler/https", skippingMiga: true) { return found.id }
        for folder in layout.dataDirectories {
            guard let data = AtomicFile.read(folder + "/applications/mimeinfo.cache") else { continue }
            let cache = MimeAppsList(text: String(decoding: data, as: UTF8.self))
            for id in cache.applications(for: "x-scheme-handler/https", in: "MIME Cache")
                where id != URLHandler.desktopID && entry(id: id) != nil {
                return id
            }
        }
        return nil
    }

    /// The default for `type` that desktops use (the first installed entry, in the spec's order
    /// of files), with the file that names it; miga's own handler counts unless skipped.
    func firstInstalledDefault(for type: String, skippingMiga: Bool = false) -> (id: String, file: String)? {
        for file in mimeAppsFiles {
            guard let data = AtomicFile.read(file) else { continue }
            let list = MimeAppsList(text: String(decoding: data, as: UTF8.self))
            for id in list.applications(for: type, in: MimeAppsList.defaults) {
                let installed = id == URLHandler.desktopID ? !skippingMiga && AtomicFile.exists(layout.urlHandler) : entry(id: id) != nil
                if installed { return (id, file) }
            }
        }
        return nil
    }

    /// A desktop-specific list read before miga's `mimeapps.list` (`~/.config/gnome-mimeapps.list`
    /// under GNOME) whose default for web links is another program: desktops obey it, so
    /// links would skip miga however often `install` writes its own line.
    public func outranking() -> (id: String, file: String)? {
        let before = Set(mimeAppsFiles.prefix { $0 != layout.mimeApps })
        for type in URLHandler.mimeTypes {
            // A winner from a later file means miga's own line is gone: `doctor`'s other case.
            guard let winner = firstInstalledDefault(for: type), before.contains(winner.file) else { continue }
            if winner.id != URLHandler.desktopID { return winner }
        }
        return nil
    }

    /// What `install` and `doctor` say about `outranking()`.
    public func outrankingMessage(_ found: (id: String, file: String)) -> (problem: String, fix: String) {
        ("\(layout.display(found.file)) makes \(found.id) the default for web links and is read before \(layout.display(layout.mimeApps)), so listed sites open without a pause",
         "delete the x-scheme-handler/http and x-scheme-handler/https lines in \(layout.display(found.file))")
    }

    /// The installed entry with this ID, looking through miga's shims to the original; never
    /// miga's own URL handler (that would send links round in a circle).
    public func entry(id: String) -> (path: String, entry: DesktopEntry)? {
        guard id != URLHandler.desktopID, id.hasSuffix(".desktop"), !id.contains("/") else { return nil }
        for folder in layout.dataDirectories {
            for relative in Self.relativePaths(for: id) {
                let path = folder + "/applications/" + relative
                guard AtomicFile.exists(path), let entry = try? DesktopEntry.load(path: path) else { continue }
                if entry.boolean(DesktopShim.markerKey) == true || entry.boolean("Hidden") == true { continue }
                return (path, entry)
            }
        }
        return nil
    }

    /// An ID's `-` may stand for a `/` of a subfolder (`kde4-konqueror.desktop`).
    static func relativePaths(for id: String) -> [String] {
        var paths = [id]
        var index = id.startIndex
        while let dash = id[index...].firstIndex(of: "-") {
            var candidate = id
            candidate.replaceSubrange(dash...dash, with: "/")
            paths.append(candidate)
            index = id.index(after: dash)
        }
        return paths
    }
}
