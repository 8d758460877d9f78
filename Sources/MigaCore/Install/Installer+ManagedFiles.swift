import FoundationEssentials

/// Files miga owns (written, recorded in the manifest, removed or put back) and lines it adds
/// to files it does not own.
extension Installer {
    // MARK: - Files miga owns

    func writeManaged(_ kind: InstallManifest.Kind, path: String, app: String? = nil, text: String, mode: FileMode,
                              source: String? = nil, sourceSHA256: String? = nil, what: String, detail: String? = nil) throws {
        let data = Data(text.utf8)
        let sha = AtomicFile.sha256(data)
        let onDisk = AtomicFile.sha256(ofFile: path)
        let known = manifest.file(at: path)
        var backup = known?.backup
        let changedSince = known != nil && onDisk != nil && onDisk != known?.sha256 && onDisk != sha
        // A file elsewhere may be the person's now, and is left to them. A PATH shim is not: it
        // lives in miga's own folder and runs at every launch, so whatever changed it (a hand
        // edit, or code planted there) is undone, never kept.
        if changedSince, kind != .pathShim {
            say("miga: \(layout.display(path)) was changed since miga wrote it; left as it is (remove it, then run `miga install`, to let miga manage it again)")
            return
        }
        let record = InstallManifest.File(kind: kind, path: path, app: app, sha256: sha, source: source,
                                          sourceSHA256: sourceSHA256, backup: backup)
        // Already there: miga's own (or, if the manifest was lost, identical to it; adopted).
        if onDisk == sha {
            if known != record {
                manifest.record(record)
                try saveManifest()
            }
            return
        }
        if known == nil, let original = AtomicFile.read(path) {
            // The person's own file: kept, and put back when miga's goes.
            let saved = layout.backupsDirectory + "/" + FilePath.lastComponent(of: path)
            try ensureDirectory(layout.backupsDirectory)
            try write(original, to: saved, mode: AtomicFile.mode(of: path) ?? 0o644)
            backup = saved
        }
        try ensureDirectory(FilePath.parent(of: path))
        manifest.record(InstallManifest.File(kind: kind, path: path, app: app, sha256: sha, source: source,
                                             sourceSHA256: sourceSHA256, backup: backup))
        try saveManifest()
        try write(data, to: path, mode: mode)
        if kind == .desktopShim || kind == .urlHandler { desktopFilesChanged = true }
        if kind == .shellSnippet || kind == .environment { shellStartupChanged = true }
        let verb = known == nil ? "created" : changedSince ? "replaced the changed" : "refreshed"
        changes.append("\(verb) \(what) \(layout.display(path))\(detail.map { " (\($0))" } ?? "")\(backup != nil && known == nil ? "; your own copy is kept and comes back on removal" : "")")
    }

    func removeManaged(_ file: InstallManifest.File, what: String) throws {
        if file.kind == .hostLink { return try removeLink(file) }
        let onDisk = AtomicFile.read(file.path)
        let backupData = file.backup.flatMap(AtomicFile.read)
        if let onDisk, AtomicFile.sha256(onDisk) != file.sha256, onDisk != backupData {
            let kept = file.backup.map { "; your earlier copy is in \(layout.display($0))" } ?? ""
            say("miga: \(layout.display(file.path)) was changed since miga wrote it; left as it is\(kept)")
        } else {
            if let backup = file.backup, let backupData {
                try write(backupData, to: file.path, mode: AtomicFile.mode(of: backup) ?? 0o644)
                try AtomicFile.remove(backup)
                changes.append("put back your own \(layout.display(file.path))")
            } else if onDisk != nil {
                try AtomicFile.remove(file.path)
                changes.append("removed \(what) \(layout.display(file.path))")
            }
            if file.kind == .desktopShim || file.kind == .urlHandler { desktopFilesChanged = true }
        }
        manifest.forget(path: file.path)
        try saveManifest()
    }

    // MARK: - Lines in files miga does not own

    func addLine(_ line: String, to path: String) throws {
        let existing = AtomicFile.read(path)
        let text = existing.map { String(decoding: $0, as: UTF8.self) } ?? ""
        if text.split(separator: "\n", omittingEmptySubsequences: false).contains(Substring(line)) {
            // miga's marked line, perhaps from before a lost manifest: remembered, so it goes too.
            if !manifest.lines.contains(where: { $0.path == path && $0.line == line }) {
                manifest.lines.append(.init(path: path, line: line, createdFile: false, addedNewline: false))
                try saveManifest()
            }
            return
        }
        let addedNewline = !text.isEmpty && !text.hasSuffix("\n")
        manifest.lines.removeAll { $0.path == path && $0.line == line }
        manifest.lines.append(.init(path: path, line: line, createdFile: existing == nil, addedNewline: addedNewline))
        try saveManifest()
        try ensureDirectory(FilePath.parent(of: path))
        try write(text + (addedNewline ? "\n" : "") + line + "\n", to: path, mode: AtomicFile.mode(of: path) ?? 0o644)
        shellStartupChanged = true
        changes.append("added a line to \(layout.display(path))")
    }

    func removeLine(_ added: InstallManifest.AddedLine) throws {
        defer { manifest.lines.removeAll { $0 == added } }
        guard let data = AtomicFile.read(added.path) else { return }
        var text = String(decoding: data, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let index = lines.lastIndex(of: added.line) else { return }
        let wasLast = index == lines.count - 2 && lines.last == ""
        lines.remove(at: index)
        text = lines.joined(separator: "\n")
        if added.addedNewline, wasLast, text.hasSuffix("\n") { text.removeLast() }
        if added.createdFile, text.isEmpty {
            try AtomicFile.remove(added.path)
        } else {
            try write(text, to: added.path, mode: AtomicFile.mode(of: added.path) ?? 0o644)
        }
        changes.append("removed miga's line from \(layout.display(added.path))")
        try saveManifest()
    }
}
