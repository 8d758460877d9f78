/// Rotation without repeats: every enabled item is shown once before any is shown again, and
/// a refill never starts with the item shown last. The bag's state (ids shown this round, the
/// last id) is persisted by `EventStore`; this is the pure rule.
public enum ShuffleBag {
    public struct Draw: Equatable {
        public var id: String?
        /// The round was complete, so the shown set starts again (with `id` in it).
        public var refilled: Bool
    }

    public static func draw<G: RandomNumberGenerator>(
        candidates: [String], shown: Set<String>, last: String?, using generator: inout G
    ) -> Draw {
        guard !candidates.isEmpty else { return Draw(id: nil, refilled: false) }
        // Items removed from the library (or from the enabled kinds) simply drop out of the
        // round; items added later join it at once.
        let remaining = candidates.filter { !shown.contains($0) && $0 != last }
        if let pick = remaining.randomElement(using: &generator) {
            return Draw(id: pick, refilled: false)
        }
        let fresh = candidates.count > 1 ? candidates.filter { $0 != last } : candidates
        return Draw(id: fresh.randomElement(using: &generator), refilled: true)
    }
}
