import ArgumentParser
import JSON
import MigaCore

struct ConfigPending: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "pending",
        abstract: "List the loosened settings waiting out loosen_delay_minutes, or drop them.",
        discussion: """
            With loosen_delay_minutes set, a change that loosens a rule (removing an app or \
            site, a shorter timer, a larger allowance, hours without a gate, a snooze, a habit \
            turned off) waits that long before it applies, however it was made; a change that \
            tightens applies at once. `miga uninstall` never waits.

            Examples:
              miga config set loosen_delay_minutes 30
              miga config pending
              miga config pending --json
              miga config pending --cancel
            """
    )

    @Flag(help: "Drop every waiting change: what applies now stays, and config.toml is set back to it.")
    var cancel = false

    @Flag(help: "Print [{\"setting\",\"from\",\"to\",\"since\",\"applies\",\"cancelled\"}] as JSON.")
    var json = false

    func run(_ context: MigaContext) throws {
        let now = context.clock.nowMilliseconds()
        if cancel {
            let dropped = try ConfigInForce.cancelPending(context: context)
            let snooze = Snooze.cancelWaiting(paths: context.paths, nowMilliseconds: now)
            if dropped.isEmpty && !snooze {
                try context.output.line("Nothing is waiting.")
                return
            }
            for entry in dropped { try context.output.line("Dropped: \(entry.setting.name) stays \(entry.from) (config.toml is set back).") }
            if snooze { try context.output.line("Dropped: the snooze that was waiting.") }
            return
        }
        let pending = try ConfigInForce.load(context: context).pending
            + (Snooze.waiting(paths: context.paths, nowMilliseconds: now)?.asPending.map { [$0] } ?? [])
        if json {
            let offset = context.clock.utcOffsetMinutes(at: context.clock.now())
            func time(_ ms: Int64) -> OrderedJSON { .string(EventTimestamp.format(unixMilliseconds: ms, offsetMinutes: offset)) }
            try context.output.line(OrderedJSON.array(pending.map { entry in
                .object([("setting", .string(entry.setting.name)), ("from", .string(entry.from)), ("to", .string(entry.to)),
                         ("since", time(entry.since)), ("applies", time(entry.applies)), ("cancelled", .bool(entry.cancelled))])
            }).text)
            return
        }
        if pending.isEmpty { try context.output.line("Nothing is waiting.") }
        for entry in pending { try context.output.line(ConfigInForce.describe(entry, now: now, clock: context.clock)) }
    }
}
