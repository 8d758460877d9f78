/// The soft end of "For how long?" as front ends reach it: the rule itself is in `Timebox/`
/// (`EventStore.endTimebox`), with the service's store and clock.
extension GateService {
    /// The timebox of the Open in `session`, as the store has it now.
    public func timebox(session: String) -> Timebox? {
        store.timebox(session: session, now: context.clock.nowMilliseconds())
    }

    /// Each app's or site's timebox that is running or over and not yet answered.
    public func openTimeboxes() -> [Timebox] {
        (try? store.openTimeboxes(at: context.clock.nowMilliseconds())) ?? []
    }

    /// Records how `box` ended, or that it got five more minutes (once).
    public func endTimebox(_ box: Timebox, choice: String) throws -> Timebox {
        try store.endTimebox(box, choice: choice, clock: context.clock)
    }
}
