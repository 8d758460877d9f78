/// `miga open-url`: the http/https handler. Links to sites the person listed go through the
/// gate (in a terminal, since links usually come from graphical apps); every other link goes
/// straight to the previous default browser, by running that entry's Exec ourselves — handing
/// it to xdg-open or gio would only bring it back here.
public struct URLRouter {
    public var context: MigaContext

    public init(context: MigaContext) {
        self.context = context
    }

    /// Opens `urls`; `forward` skips the sites check (the gate already ran). Returns the exit status.
    public func open(_ urls: [String], forward: Bool) -> Int32 {
        guard !urls.isEmpty else { return 0 }
        // miga is the http/https handler only: a javascript:, file: or data: link handed to it
        // is refused whole, never passed on to a browser as it came.
        let refused = urls.filter { !SiteMatcher.isWebLink($0) }
        guard refused.isEmpty else {
            for url in refused {
                say("miga open-url: \(TerminalText.visible(String(url.prefix(200)))) is not an http or https link; nothing was opened")
            }
            return 64
        }
        // MIGA_GATED inherited from a gated chat app names that app: the browser started here
        // is not that app, and must not carry its pass.
        var environment = context.environment
        environment[Gatekeeper.gatedVariable] = nil

        var gated: [String] = []
        var site: String?
        var plain = urls
        if !forward {
            let sites: [String]
            do {
                sites = try ConfigInForce.load(context: context, inFrontOfApp: true).config.sites
            } catch {
                say("miga: \(error); links open without a pause until it is fixed")
                sites = []
            }
            let matcher = SiteMatcher(sites: sites)
            plain = []
            for url in urls {
                if let match = matcher.site(for: url) {
                    site = site ?? match
                    gated.append(url)
                } else {
                    plain.append(url)
                }
            }
        }

        var handedSites: [String] = []
        if forward {
            // The gate ran (an Open, grace, or hours without one): the browser's own gate lets
            // this same attempt through once rather than pausing it a second time.
            handedSites = (try? ConfigInForce.load(context: context, inFrontOfApp: true).config.sites) ?? []
            let matcher = SiteMatcher(sites: handedSites)
            var count: [String: Int] = [:]
            for url in urls { if let site = matcher.site(for: url) { count[SiteMatcher.appName(site: site), default: 0] += 1 } }
            for (app, links) in count { HandedOverPass.leave(app: app, count: links, paths: context.paths, clock: context.clock, files: context.files) }
        }
        var status: Int32 = 0
        if !plain.isEmpty {
            status = forwardToBrowser(plain, environment: environment, afterGate: forward)
        }
        if forward, status != 0 { // nothing reached the browser: nothing to let through
            for url in urls { if let site = SiteMatcher(sites: handedSites).site(for: url) { HandedOverPass.withdraw(app: SiteMatcher.appName(site: site), paths: context.paths, files: context.files) } }
        }
        if let site, !gated.isEmpty {
            var gateContext = context
            gateContext.environment = environment
            let command = [context.executablePath, "open-url", "--forward", "--"] + gated
            // The site names the gate, its events and its grace; an address such as [::1] is
            // made into a valid name.
            let app = SiteMatcher.appName(site: site)
            let gateStatus = Gatekeeper(context: gateContext).run(GateRequest(app: app, command: command, detach: true))
            if status == 0 { status = gateStatus }
        }
        return status
    }

    /// How long a browser started after a gate is watched for failing at once (a missing
    /// library, no display): it exits within a fraction of a second; one that runs longer
    /// has started, and one handing the link to a running instance exits 0.
    static let browserWatchSeconds = 1.5

    /// Runs the browser's Exec for `urls`. After a gate (`afterGate`: this process was started
    /// detached, so its stderr may be nobody's) a browser that cannot be started, or ends at
    /// once with a failure, is also said as a desktop notification: an Open that opens
    /// nothing must never be silent.
    private func forwardToBrowser(_ urls: [String], environment: [String: String], afterGate: Bool) -> Int32 {
        func report(_ line: String) {
            say(line)
            if afterGate { context.notifyDesktop(line) }
        }
        let layout = InstallLayout(environment: context.environment, paths: context.paths)
        let browsers = DefaultBrowser(layout: layout, currentDesktop: context.environment["XDG_CURRENT_DESKTOP"])
        let recorded = InstallManifest.previousBrowser(recordedAt: layout.manifest)
        guard let browser = recorded.flatMap(browsers.entry(id:)) ?? browsers.current().flatMap(browsers.entry(id:)) else {
            report("miga: \(InstallError.noBrowser)")
            return 1
        }
        guard let exec = browser.entry.rawValue("Exec"), let line = try? ExecLine(rawValue: exec) else {
            report("miga: \(browser.path): its Exec line cannot be run; choose another browser, then run `miga install`")
            return 1
        }
        let resolver = context.commandResolver
        for argv in line.invocations(urls: urls, icon: browser.entry.string("Icon"), name: browser.entry.string("Name"),
                                     location: browser.path) {
            do {
                let command = try resolver.resolve(argv)
                guard afterGate else {
                    try context.launcher.spawnDetached(command, environment: environment)
                    continue
                }
                if let status = try context.launcher.spawnDetachedWatching(command, environment: environment, seconds: Self.browserWatchSeconds),
                   status != 0 {
                    let name = browser.entry.string("Name").map { "\($0) (\(command.executable))" } ?? command.executable
                    report("miga: \(TerminalText.visible(name)) ended at once with status \(status), so the link did not open: \(TerminalText.visible(String(urls[0].prefix(200)))); "
                        + "open it yourself, or choose another default browser and run `miga install`")
                    return 1
                }
            } catch {
                report("miga: \(error); the link did not open")
                return 1
            }
        }
        return 0
    }

    private func say(_ line: String) { context.messages.say(line) }
}
