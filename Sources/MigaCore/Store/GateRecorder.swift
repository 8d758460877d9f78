import FoundationEssentials

/// Writes one gate session's events: it owns the session id, the app and the clock, so every
/// front end stamps events alike (milliseconds rounded to nearest, the local offset then).
public struct GateRecorder {
    public let app: String
    public let session: String
    let store: EventStore
    let clock: MigaClock
    /// A snooze's own pause: every event carries `{"snooze":true}` (see `Event.snoozeDetail`).
    public var marksSnooze = false

    public init(app: String, session: String = GateRecorder.newSession(), store: EventStore, clock: MigaClock) {
        self.app = app
        self.session = session
        self.store = store
        self.clock = clock
    }

    public static func newSession() -> String { UUID().uuidString.lowercased() }

    public func event(_ type: EventType, contentID: String? = nil, waitMilliseconds: Int? = nil,
                      detail: String? = nil, at time: Date? = nil) -> Event {
        Self.event(type, app: app, session: session, clock: clock, contentID: contentID, waitMilliseconds: waitMilliseconds,
                   detail: marksSnooze ? Event.snoozeMarked(detail) : detail, at: time)
    }

    /// The same without a database (a gate failing open because it has none).
    public static func event(_ type: EventType, app: String, session: String, clock: MigaClock, contentID: String? = nil,
                             waitMilliseconds: Int? = nil, detail: String? = nil, at time: Date? = nil) -> Event {
        let now = time ?? clock.now()
        return Event(timestamp: clock.milliseconds(now),
                     utcOffsetMinutes: clock.utcOffsetMinutes(at: now), session: session,
                     type: type, app: app, contentID: contentID, waitMilliseconds: waitMilliseconds, detail: detail)
    }

    /// Records the event; the problem, if it could be kept nowhere (not even the spool).
    @discardableResult
    public func record(_ type: EventType, contentID: String? = nil, waitMilliseconds: Int? = nil,
                       detail: String? = nil, at time: Date? = nil) -> String? {
        do {
            try store.record(event(type, contentID: contentID, waitMilliseconds: waitMilliseconds, detail: detail, at: time))
            return nil
        } catch {
            return "\(error)"
        }
    }
}
