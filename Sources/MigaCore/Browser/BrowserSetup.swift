import FoundationEssentials

/// What the extension needs to know to gate: which sites, how long, and whether miga gates at
/// all for this person right now. Read afresh for every request, so a config edit counts at once.
struct BrowserSetup {
    var config: MigaConfig
    var matcher: SiteMatcher
    /// nil while gating; otherwise why not (the extension then gates nothing: it fails open).
    var reason: String?
    var message: String?

    static func load(context: MigaContext) -> BrowserSetup {
        var setup = BrowserSetup(config: MigaConfig(), matcher: SiteMatcher(sites: []), reason: nil, message: nil)
        // A system-wide install gates no one who has not asked for it (no config, never ran
        // `miga install`), and starts no trial.
        let layout = InstallLayout(environment: context.environment, paths: context.paths)
        guard AtomicFile.exists(context.paths.configFile) || AtomicFile.exists(layout.manifest) else {
            setup.reason = "not_set_up"
            setup.message = "miga is not set up for you yet: run `miga install` in a terminal"
            return setup
        }
        do {
            setup.config = try ConfigInForce.load(context: context, inFrontOfApp: true).config
        } catch {
            setup.reason = "config_error"
            setup.message = "\(error); sites open without a pause until it is fixed"
            return setup
        }
        let entitlement = EntitlementStore(context: context).status()
        guard entitlement.gateEnabled else {
            setup.reason = "trial_expired"
            setup.message = entitlement.summary
            return setup
        }
        setup.matcher = SiteMatcher(sites: setup.config.sites)
        return setup
    }

    var gating: Bool { reason == nil }
}
