import FoundationEssentials
// fuzz/run.sh compiles this file and the JSON target's files as one module.
#if canImport(JSON)
import JSON
#endif

/// Event names of DESIGN "Events"; the raw values are the stored contract.
public enum EventType: String, CaseIterable, Sendable, Codable {
    case sessionStart = "session_start"
    case contentRead = "content_read"
    case gatewayCompleted = "gateway_completed"
    case exitSelected = "exit_selected"
    case openSelected = "open_selected"
    case abandoned = "abandoned"
    case gracePass = "grace_pass"
    case gatewaySkipped = "gateway_skipped"
    /// A timebox's soft end (`{"minutes":…,"choice":"close|extend|keep|gone","used":…}`).
    case timeboxEnded = "timebox_ended"
    /// A loosened setting applied after its wait (`loosen_delay_minutes`), at the moment it
    /// applied (`{"setting":"timer_seconds","from":"30","to":"20","waited_minutes":30}`).
    case settingLoosened = "setting_loosened"
    /// Focused time on a gated app or site (`{"seconds":N}`, 1–60): one a minute while it is
    /// in front and the person not idle, and the rest when focus leaves.
    case focus = "focus"
}

extension EventType {
    /// The type as an SQL string literal, for statements that name a fixed type: the planner
    /// then knows it when it prepares them. Bound as a parameter instead, it could decide the
    /// partial index of Exits (v2-exit-days) only per binding, and SQLite prepared each such
    /// statement twice. A raw value is one of the names above, never text from outside.
    var sqlLiteral: String { "'" + rawValue + "'" }
}

/// One row of the `events` table.
public struct Event: Equatable, Sendable {
    public var id: Int64?
    /// Unix time in milliseconds, UTC.
    public var timestamp: Int64
    public var utcOffsetMinutes: Int
    public var session: String
    public var type: EventType
    public var app: String
    public var contentID: String?
    public var waitMilliseconds: Int?
    /// A JSON object, e.g. `{"reason":"trial_expired"}`.
    public var detail: String?

    public init(id: Int64? = nil, timestamp: Int64, utcOffsetMinutes: Int, session: String, type: EventType,
                app: String, contentID: String? = nil, waitMilliseconds: Int? = nil, detail: String? = nil) {
        self.id = id
        self.timestamp = timestamp
        self.utcOffsetMinutes = utcOffsetMinutes
        self.session = session
        self.type = type
        self.app = app
        self.contentID = contentID
        self.waitMilliseconds = waitMilliseconds
        self.detail = detail
    }

    /// `{"snooze":true}`: a snooze's event. Its own pause's events carry it first in their
    /// detail (a snooze is a pause, not an app: the day's totals and the streak count them,
    /// no app's row does), and so do the passes it lets through (`grace_pass`).
    public static let snoozeDetail = "{\"snooze\":true}"

    /// `detail` with the snooze's mark first: `{"snooze":true,…the rest…}`.
    public static func snoozeMarked(_ detail: String?) -> String {
        guard let detail, detail.hasPrefix("{"), detail != "{}" else { return snoozeDetail }
        return detail.hasPrefix(snoozeMarkPrefix) ? detail : snoozeMarkPrefix + "," + String(detail.dropFirst())
    }

    /// What every marked detail starts with, and the SQL that tells one (a prefix: cheap,
    /// and never fooled by the words of an intention, which are escaped inside a string).
    /// Asked as a range of texts (the prefix up to the prefix with its last letter the next
    /// one), which compares in place: `substr` made a copy of every row's detail, a tenth of
    /// `stats`'s instructions.
    static let snoozeMarkPrefix = "{\"snooze\":true"
    static let snoozeMarkSQL = "(detail >= '\(snoozeMarkPrefix)' AND detail < '\(snoozeMarkPrefix.dropLast())f')"

    /// The app name of a snooze's own pause (`Snooze.gateName`): the events of its pause are
    /// this app's, marked. Asked first, so that no other row's detail is read at all.
    public static let snoozePauseApp = "snooze"
    static let snoozePauseSQL = "CASE WHEN app = '\(snoozePauseApp)' THEN \(snoozeMarkSQL) END"

    /// `{"reason": "…"}` as stored in `detail`.
    public static func reasonDetail(_ reason: String) -> String {
        "{\"reason\":\(JSONText.string(reason))}"
    }
}
