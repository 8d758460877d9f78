import FoundationEssentials

/// The native messaging host manifests that let miga's browser extension reach
/// `miga native-host` (DESIGN "Browsers").
extension Installer {
    /// The `miga-native-host` link a package puts beside miga (`PREFIX/lib/miga/`), when it
    /// leads to this very miga; nil for a build run from its checkout.
    public var packagedHostPath: String? {
        let prefix = FilePath.parent(of: FilePath.parent(of: migaPath))
        let candidate = prefix + "/lib/miga/" + BrowserExtension.hostLinkName
        guard let target = context.files.realPath(candidate), target == (context.files.realPath(migaPath) ?? migaPath) else { return nil }
        return candidate
    }

    /// What the manifests name as the host: the packaged link, else miga's own link.
    public var hostPath: String { packagedHostPath ?? ownHostLink }

    var ownHostLink: String { layout.paths.shimDirectory + "/" + BrowserExtension.hostLinkName }

    /// Browsers installed here, by their folder or their command on PATH, or as a Flatpak or
    /// Snap that reaches hosts through the WebExtensions portal (which reads the manifest in
    /// the browser's own folder outside the sandbox).
    public var presentBrowsers: [BrowserHostTarget] {
        BrowserHostTarget.all.filter { browser in
            AtomicFile.exists(browser.profilePath(in: layout)) || browser.commands.contains { resolver.lookUp($0) != nil }
                || browser.sandboxedInstalls(in: layout, exists: AtomicFile.exists).contains { $0.reach != .never }
        }
    }

    /// The folder holding the extension per family (`chromium/`, `firefox/`) beside this miga,
    /// for a browser's "Load unpacked": `PREFIX/share/webext/miga` (`make install`, and the
    /// Debian package's `/usr/share/webext/miga`), or `.build/browser` in the checkout a build
    /// runs from (`make extension`); nil when none is found.
    public var extensionFolder: String? {
        let miga = context.files.realPath(migaPath) ?? migaPath
        let prefix = FilePath.parent(of: FilePath.parent(of: miga))
        var candidates = [prefix + "/share/webext/miga"]
        // A build in a checkout: CHECKOUT/.build/TRIPLE/debug/miga.
        var folder = FilePath.parent(of: miga)
        for _ in 0..<4 where folder.count > 1 {
            if FilePath.lastComponent(of: folder) == ".build" {
                candidates.append(folder + "/browser")
                break
            }
            folder = FilePath.parent(of: folder)
        }
        return candidates.first { FileStatus.at($0 + "/chromium/manifest.json")?.isRegularFile == true }
    }

    func installBrowserHosts() throws {
        let browsers = presentBrowsers
        if packagedHostPath == nil, !browsers.isEmpty {
            try linkManaged(ownHostLink, target: migaPath)
        } else if let link = manifest.file(at: ownHostLink) {
            try removeManaged(link, what: Self.describe(.hostLink)) // the package's link serves now
        }
        for browser in browsers {
            try writeManaged(.browserHost, path: browser.manifestPath(in: layout), text: browser.manifestText(hostPath: hostPath),
                             mode: 0o644, what: "\(browser.name) host manifest", detail: "for the miga extension")
        }
        for browser in BrowserHostTarget.all {
            for build in browser.sandboxedInstalls(in: layout, exists: AtomicFile.exists) {
                let shown = "\(browser.name) here is a \(build.kind.rawValue) (\(layout.display(layout.home + "/" + build.folder)))"
                switch build.reach {
                case .portal:
                    say("miga: note: \(shown); it reaches miga through the WebExtensions portal, which asks you once")
                case .portalOncePermitted:
                    say("miga: note: \(shown); it reaches miga through the WebExtensions portal only once you allow it: \(Self.portalPermission(build))")
                case .never:
                    say("miga: note: \(shown); its sandbox cannot start miga's native host, so sites opened in it are not paused")
                }
            }
        }
    }

    /// The command that lets a Flatpak build start miga's host through the WebExtensions portal.
    public static func portalPermission(_ build: SandboxedBrowser) -> String {
        "flatpak permission-set webextensions \(BrowserExtension.hostName) \(build.appID) yes"
    }

    /// A symbolic link miga owns, made atomically (a new link renamed over the old one).
    func linkManaged(_ path: String, target: String) throws {
        let sha = Self.linkHash(target)
        let known = manifest.file(at: path)
        let current = context.files.readLink(path)
        if current == target {
            if known?.sha256 != sha {
                manifest.record(.init(kind: .hostLink, path: path, app: nil, sha256: sha))
                try saveManifest()
            }
            return
        }
        if known == nil, context.files.pathExists(path) {
            say("miga: \(layout.display(path)) is not miga's; left as it is, so browsers cannot start miga until it is moved away (then run `miga install`)")
            return
        }
        try ensureDirectory(FilePath.parent(of: path))
        manifest.record(.init(kind: .hostLink, path: path, app: nil, sha256: sha))
        try saveManifest()
        do {
            try context.files.replaceWithLink(path, target: target)
        } catch {
            throw InstallError.write(path: path, problem: "\(error)")
        }
        changes.append("\(known == nil ? "created" : "refreshed") browser host link \(layout.display(path)) → \(target)")
    }

    func removeLink(_ file: InstallManifest.File) throws {
        if let current = context.files.readLink(file.path) {
            if Self.linkHash(current) == file.sha256 {
                context.files.removeFile(file.path)
                changes.append("removed browser host link \(layout.display(file.path))")
            } else {
                say("miga: \(layout.display(file.path)) was changed since miga made it; left as it is")
            }
        }
        manifest.forget(path: file.path)
        try saveManifest()
    }

    static func linkHash(_ target: String) -> String { AtomicFile.sha256(Data(("link:" + target).utf8)) }
}
