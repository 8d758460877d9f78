import ArgumentParser
import FoundationEssentials
import MigaCore

struct StatsCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Exits, opens, reads, minutes waited, streaks, per day and per app.",
        discussion: """
            Days are your local days, by the offset each event was recorded with, so travel and \
            daylight-saving changes do not break a streak. A mindful day has at least one Exit; \
            the current streak ends today, or yesterday while today has none yet. Streaks ignore \
            --days and --app.

            --week compares this week (Monday to Sunday, local) with the last one, per app, with             the intentions you gave most often before Open.

            Examples:
              miga stats
              miga stats --days 30 --app discord
              miga stats --week
              miga stats --json | jq .streak.current     # for waybar, polybar, i3blocks
              miga stats --by-machine                    # with sync_folder: each machine's part
            """
    )

    @Option(help: ArgumentHelp("How many local days to count, today included (1–\(StatsReport.dayRange.upperBound)).",
                               valueName: "n"))
    var days = StatsReport.defaultDays

    @Option(help: ArgumentHelp("Only this app (or site).", valueName: "name"), completion: .custom(CommandSupport.configuredApps))
    var app: String?

    @Flag(help: "This week against last: per app, minutes waited, top intentions, the streak.")
    var week = false

    @Flag(help: "Print the numbers as JSON, for scripts and status bars: the same totals with stable keys (`miga stats --json | jq keys` lists them; --week has its own).")
    var json = false

    @Flag(help: "With sync_folder set: the same counts for each of your machines (JSON: a \"machines\" list).")
    var byMachine = false

    func validate() throws {
        if week, byMachine {
            throw ValidationError("--week counts every machine together; leave out --by-machine, or use --days 7 --by-machine")
        }
        if week, app != nil {
            throw ValidationError("--week shows every app; leave out --app, or use --days 7 --app NAME")
        }
        guard StatsReport.dayRange.contains(days) else {
            throw ValidationError("--days must be a whole number from 1 to \(StatsReport.dayRange.upperBound) (60 years), not \(days)")
        }
    }

    func run(_ context: MigaContext) throws {
        // A broken config still gives the numbers (of this machine, when it names no folder).
        let config = (try? ConfigInForce.load(context: context))?.config ?? MigaConfig()
        let store = try EventStore.openForReading(config: config, context: context)
        let today = LocalMoment(clock: context.clock).day
        if week {
            let report = try WeekReport.build(store: store, weekOf: today, today: today)
            try context.output.write(json ? report.json + "\n" : WeekView(color: CommandSupport.useColor(context), palette: CommandSupport.palette(context)).render(report, today: today))
            return
        }
        if let app {
            let known = try store?.appsWithEvents() ?? []
            guard known.contains(app) else { throw StatsError.noSuchApp(app, known: known) }
        }
        var report = try StatsReport.build(store: store, today: today, days: days, app: app)
        if byMachine { try report.addMachines(store: store, device: store?.journal?.device, app: app, processes: context.processes) }
        if json {
            try context.output.line(report.json)
        } else {
            try context.output.write(StatsView(color: CommandSupport.useColor(context),
                                               columns: context.output.columns ?? Int(context.environment["COLUMNS"] ?? "") ?? 80,
                                               palette: CommandSupport.palette(context))
                .render(report, app: app))
        }
    }
}
