import ArgumentParser
import FoundationEssentials
import MigaCore

struct StatusCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "One line for status bars: today's exits and opens, the streak, grace, the schedule.",
        discussion: """
            Prints something like `miga 3 exits · 1 open · streak 5 · grace discord 4 min`; \
            with --json the same as an object (grace times in ISO 8601, the schedule in force or null). \
            It reads only (with sync_folder set, it first folds in the other machines' events); a \
            home without miga's files prints zeros.

            Examples:
              miga status
              miga status --json | jq .streak
              # waybar: "custom/miga": {"exec": "miga status", "interval": 60}
              # i3blocks: [miga] command=miga status interval=60
            """
    )

    @Flag(help: "Print {\"date\",\"exits\",\"opens\",\"streak\",\"grace\",\"schedule\",\"snooze\",\"timeboxes\",\"pending\"} as JSON.")
    var json = false

    func run(_ context: MigaContext) throws {
        // A broken config still gives the day's numbers: a status bar should not go blank.
        let inForce = try? ConfigInForce.load(context: context)
        let config = inForce?.config ?? MigaConfig()
        let store = try EventStore.openForReading(config: config, context: context)
        let now = context.clock.now()
        let report = try StatusReport.build(store: store, config: config,
                                            nowMilliseconds: context.clock.milliseconds(now),
                                            offsetMinutes: context.clock.utcOffsetMinutes(at: now),
                                            snooze: Snooze.active(paths: context.paths, nowMilliseconds: context.clock.milliseconds(now))
                                                .map { StatusReport.Snoozed(until: $0.until, apps: $0.apps) },
                                            pending: (inForce?.pending ?? [])
                                                + (Snooze.waiting(paths: context.paths, nowMilliseconds: context.clock.milliseconds(now))?.asPending.map { [$0] } ?? []))
        try context.output.line(json ? report.json : report.line)
    }
}
