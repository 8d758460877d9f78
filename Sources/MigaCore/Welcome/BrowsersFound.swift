import FoundationEssentials

/// The browsers on this machine, each with where miga's extension stands in its profiles and
/// the clicks that add it: read from the same files `miga doctor` reads (`BrowserProfileCheck`).
extension FoundBrowser {
    /// Every browser `miga install` writes a host manifest for.
    static func found(installer: Installer, systemRoot: String = "") -> [FoundBrowser] {
        let layout = installer.layout
        let check = BrowserProfileCheck(layout: layout, extensionFolder: installer.extensionFolder,
                                        hasFirefoxESR: installer.resolver.lookUp("firefox-esr") != nil,
                                        files: installer.context.files, systemRoot: systemRoot)
        return installer.presentBrowsers.map { browser in
            var roots = [BrowserProfileCheck.Root(browser: browser, path: browser.profilesPath(in: layout), subject: browser.name)]
            for build in browser.sandboxedInstalls(in: layout, exists: AtomicFile.exists) where build.reach != .never {
                if let folder = build.profiles {
                    roots.append(.init(browser: browser, build: build, path: layout.home + "/" + folder, subject: browser.name))
                }
            }
            let states = roots.flatMap(check.states(in:))
            let state: ExtensionState = states.contains(.on) ? .on : states.contains { $0 != .absent } ? .installed : .missing
            return FoundBrowser(id: id(of: browser), label: browser.name, extensionState: state,
                                steps: steps(for: browser, state: state, check: check))
        }
    }

    /// `Google Chrome` is `google-chrome`, as `--found --json` names it.
    static func id(of browser: BrowserHostTarget) -> String {
        browser.name.lowercased().replacing(" ", with: "-")
    }

    /// The exact clicks that put the extension on, one step a line; none once it is on.
    static func steps(for browser: BrowserHostTarget, state: ExtensionState, check: BrowserProfileCheck) -> [String] {
        let privateWindows = "\(browser.extensionsPage) → miga → \(browser.privateWindowSwitch) (for private windows)"
        switch state {
        case .on:
            return []
        case .installed:
            return ["\(browser.extensionsPage) → miga → turn it on", privateWindows]
        case .missing:
            switch browser.family {
            case .chromium:
                let folder = check.extensionFolderShown(.chromium) ?? "the chromium folder of miga's browser folder"
                return ["\(browser.extensionsPage) → Developer mode → Load unpacked → \(folder)", privateWindows]
            case .firefox:
                if browser.name == "Firefox", check.packaged(BrowserExtension.packagedForFirefox) {
                    let folder = FilePath.parent(of: BrowserExtension.packagedForFirefox)
                    return ["restart Firefox: it loads miga's extension from \(folder) at start", privateWindows]
                }
                let lasting = check.lastingFirefoxInstall(.init(browser: browser, path: "", subject: browser.name))
                return [check.firefoxTemporaryLoad(browser), lasting.fix, privateWindows]
            }
        }
    }
}
