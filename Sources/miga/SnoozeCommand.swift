import ArgumentParser
import FoundationEssentials
import MigaCore

struct SnoozeCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "snooze",
        abstract: "Let every gate (or the named apps' and sites') pass for a while, behind one pause.",
        discussion: """
            A snooze is an Open of everything it names, so it waits behind one gate countdown \
            of its own; Exit there snoozes nothing. While it runs, gates pass (recorded as \
            grace passes) and the browser lets the sites through; it always ends by itself. \
            5 minutes to 4 hours. `miga status` shows it.

            Examples:
              miga snooze 20m              # every gate, for 20 minutes
              miga snooze 1h discord       # only discord's
              miga snooze 45m reddit.com   # a site
              miga snooze --off            # end it now
            """
    )

    @Flag(help: "End a running snooze now (no pause: ending one only brings the gates back).")
    var off = false

    @Flag(help: .hidden) // after the snooze's own gate: start it
    var begin = false

    @Argument(help: ArgumentHelp("How long: 20m, 1h, 1h30m (5 minutes to 4 hours).", valueName: "duration"))
    var duration: String?

    @Argument(help: ArgumentHelp("Gated apps or sites to snooze; none means every gate.", valueName: "name"),
              completion: .custom(CommandSupport.configuredApps))
    var names: [String] = []

    func run(_ context: MigaContext) throws {
        let now = context.clock.nowMilliseconds()
        if off {
            guard duration == nil else { throw ValidationError("--off takes no duration: miga snooze --off") }
            try context.output.line(try Snooze.end(paths: context.paths, nowMilliseconds: now) ? "The snooze is over: gates are back." : "No snooze is running.")
            return
        }
        guard let duration else { throw ValidationError("give a duration: miga snooze 20m (or miga snooze --off)") }
        let minutes = try Snooze.minutes(from: duration).get()
        let apps = try snoozedApps(context)
        if begin {
            // A snooze loosens every gate it names: with loosen_delay_minutes it waits that long.
            let delay = Int64((try? ConfigInForce.load(context: context).config.loosenDelayMinutes) ?? 0) * 60_000
            let from = now + delay
            let snooze = Snooze(until: from + Int64(minutes) * 60_000, apps: apps, from: delay > 0 ? from : nil,
                                requested: delay > 0 ? now : nil)
            try snooze.save(paths: context.paths, files: context.files)
            let offset = context.clock.utcOffsetMinutes(at: context.clock.now())
            let end = LocalMoment(unixMilliseconds: snooze.until, offsetMinutes: offset)
            let what = apps.isEmpty ? "every gate" : apps.joined(separator: ", ")
            if delay > 0 {
                let start = LocalMoment(unixMilliseconds: from, offsetMinutes: offset)
                try context.output.line("The snooze of \(what) waits \(delay / 60_000) min (loosen_delay_minutes): from \(Schedule.clock(start.minute)) "
                                        + "until \(Schedule.clock(end.minute)). `miga config pending --cancel` drops it.")
            } else {
                try context.output.line("Snoozed \(what) until \(Schedule.clock(end.minute)); `miga snooze --off` ends it sooner.")
            }
            return
        }
        // The snooze's own pause: Open starts it (this command again, with --begin).
        let command = [context.executablePath, "snooze", "--begin", duration] + names
        let status = Gatekeeper(context: context).run(GateRequest(app: Snooze.gateName, command: command))
        if status != 0 { throw ExitCode(status) }
    }

    /// The names as app names (a site by its app name), each one miga gates.
    private func snoozedApps(_ context: MigaContext) throws -> [String] {
        guard !names.isEmpty else { return [] }
        let config = (try? ConfigInForce.load(context: context).config) ?? MigaConfig()
        let sites = SiteMatcher(sites: config.sites).sites
        return try names.map { name in
            if config.apps[name] != nil { return name }
            if let site = SiteMatcher.normalizedSite(name), sites.contains(site) { return SiteMatcher.appName(site: site) }
            throw SnoozeError.unknownName(name)
        }
    }
}
