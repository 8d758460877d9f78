import FoundationEssentials

/// miga as the desktop's URL handler: its entry, its lines in `mimeapps.list`, and taking them out again.
extension Installer {
    /// miga's own entries out of `mimeapps.list` and nothing else (DESIGN "Uninstall gives back
    /// what the person has now"): a browser the person chose while miga was installed stays
    /// their default, and a file that holds any line of theirs stays, even one miga created.
    /// The message names the browser links go to now, as the desktop will find it.
    func removeOwnMimeAppsLines(_ mime: InstallManifest.MimeApps) throws {
        guard let data = AtomicFile.read(mime.path) else { return } // gone already: nothing of miga's left
        let before = String(decoding: data, as: UTF8.self)
        var list = MimeAppsList(text: before)
        list.undo(mime.change, removing: URLHandler.desktopID)
        if list.text != before {
            if mime.createdFile, list.text.trimming(.whitespacesAndNewlines).isEmpty {
                try AtomicFile.remove(mime.path)
            } else {
                try write(list.text, to: mime.path, mode: AtomicFile.mode(of: mime.path) ?? 0o644)
            }
        }
        let browser = DefaultBrowser(layout: layout, currentDesktop: context.environment["XDG_CURRENT_DESKTOP"]).current()
        changes.append("removed miga's lines from \(layout.display(mime.path))"
                       + (browser.map { "; web links go to \($0)" } ?? "; no default web browser is set"))
    }

    // MARK: - URL handler

    func installURLHandler() throws {
        let browsers = DefaultBrowser(layout: layout, currentDesktop: context.environment["XDG_CURRENT_DESKTOP"])
        var list = MimeAppsList(text: String(decoding: AtomicFile.read(layout.mimeApps) ?? Data(), as: UTF8.self))
        // A browser that took the default back is the one the person now wants links to go to.
        if let current = list.defaultApplication(for: "x-scheme-handler/https"), current != URLHandler.desktopID,
           browsers.entry(id: current) != nil, current != manifest.previousBrowser, manifest.previousBrowser != nil {
            manifest.previousBrowser = current
            changes.append("links that are not gated now go to \(current)")
        }
        if manifest.previousBrowser == nil {
            guard let current = browsers.current() else {
                say("miga: no default web browser found, so links are not routed through miga; install a browser, then run `miga install` again")
                return
            }
            manifest.previousBrowser = current
            try saveManifest()
        }
        try writeManaged(.urlHandler, path: layout.urlHandler, text: URLHandler.text(migaPath: migaPath), mode: 0o644,
                         what: "URL handler", detail: "links go on to \(manifest.previousBrowser!)")
        let existed = AtomicFile.exists(layout.mimeApps)
        let change = list.makeDefault(URLHandler.desktopID, for: URLHandler.mimeTypes)
        guard change != MimeAppsList.Change() else { return }
        if var recorded = manifest.mimeApps {
            recorded.change.merge(change)
            manifest.mimeApps = recorded
        } else {
            manifest.mimeApps = .init(path: layout.mimeApps, createdFile: !existed, change: change)
        }
        try saveManifest()
        try ensureDirectory(layout.configHome)
        try write(list.text, to: layout.mimeApps, mode: AtomicFile.mode(of: layout.mimeApps) ?? 0o644)
        changes.append("made miga the handler for web links in \(layout.display(layout.mimeApps))")
    }

    /// Another list the desktop reads first can still send links past miga; that file is the
    /// person's, so miga names it rather than editing it.
    func warnIfLinksAreOutranked() {
        let browsers = DefaultBrowser(layout: layout, currentDesktop: context.environment["XDG_CURRENT_DESKTOP"])
        guard AtomicFile.exists(layout.urlHandler), let outranking = browsers.outranking() else { return }
        let message = browsers.outrankingMessage(outranking)
        say("miga: \(message.problem); \(message.fix)")
    }
}

extension MimeAppsList.Change {
    /// Adds what a later change did, keeping the earliest value of each entry: undoing the
    /// result restores the file as it was before miga first touched it.
    mutating func merge(_ later: MimeAppsList.Change) {
        for (slot, value) in later.previousValues where previousValues[slot] == nil && !addedKeys.contains(slot) {
            previousValues[slot] = value
        }
        for slot in later.addedKeys where previousValues[slot] == nil && !addedKeys.contains(slot) {
            addedKeys.append(slot)
        }
        for group in later.addedGroups where !addedGroups.contains(group) { addedGroups.append(group) }
        addedFinalNewline = addedFinalNewline || later.addedFinalNewline
    }
}
