import JSON

/// An Open that said how long (`ask_minutes`: `open_selected` with `{"minutes":N}`), as the
/// events have it: its grace lasts that long, "5 more minutes" (a `timebox_ended` with choice
/// `extend`) adds five once, and any other `timebox_ended` in its session closes it.
/// Times are Unix ms of the wall clock, as every event's: a laptop suspended through a
/// timebox wakes with it over (DESIGN "Time and friction").
public struct Timebox: Equatable, Sendable {
    public var app: String
    public var session: String
    public var openedAt: Int64
    /// The local offset at the Open, for its local day.
    public var offsetMinutes = 0
    public var minutes: Int
    /// "5 more minutes" was chosen (it is offered once), and when.
    public var extended = false
    public var extendedAt: Int64?
    /// How it ended (`close`, `keep`, `gone`), once it has.
    public var ending: String?
    public var endedAt: Int64?

    public static let extensionMinutes = 5
    /// What an Open may declare: the config table's range for `default_minutes` (the keyed
    /// answers are 5…30; any other in range may be typed as `Nm`).
    public static let minutesRange = MigaConfig.defaultMinutesRange
    /// How far back a timebox is looked for: the longest one, extended, and a day's slack for
    /// a soft end nobody answered (the machine was off).
    public static let lookback: Int64 = 24 * 3_600_000

    public init(app: String, session: String, openedAt: Int64, minutes: Int, extended: Bool = false,
                ending: String? = nil, endedAt: Int64? = nil) {
        self.app = app
        self.session = session
        self.openedAt = openedAt
        self.minutes = minutes
        self.extended = extended
        self.ending = ending
        self.endedAt = endedAt
    }

    /// When the time declared is up: the minutes from the Open, and "5 more minutes" from
    /// when it was chosen (a soft end answered late still gives five).
    public var end: Int64 {
        let declared = openedAt + Int64(minutes) * 60_000
        guard extended else { return declared }
        return max(declared, extendedAt ?? declared) + Int64(Self.extensionMinutes) * 60_000
    }

    /// How long after its end an unanswered soft end is still asked (the browser was closed,
    /// the machine off): later, it is let go rather than asked out of the blue.
    public static let unansweredLimit: Int64 = 3_600_000

    /// The minutes an `open_selected` detail declares, if any (and sane).
    public static func minutes(inDetail detail: String?) -> Int? {
        guard let detail, detail.utf8.count <= 64 * 1024, detail.contains("\"minutes\""),
              let number = (try? JSONValue.parse(detail))?["minutes"]?.integer,
              minutesRange.contains(Int(clamping: number)) else { return nil }
        return Int(number)
    }

    /// `timebox_ended`'s detail: the minutes declared (with any extension), the choice, and
    /// the minutes from Open to this end.
    public func endingDetail(choice: String, at now: Int64) -> String {
        OrderedJSON.object([("minutes", .int(declaredMinutes)), ("choice", .string(choice)), ("used", .int(usedMinutes(at: now)))]).text
    }

    /// The minutes declared, with any extension.
    public var declaredMinutes: Int { minutes + (extended ? Self.extensionMinutes : 0) }

    /// Whole minutes from the Open to `now`, to the nearest.
    public func usedMinutes(at now: Int64) -> Int {
        Int(min(max(0, now - openedAt) / 1000 + 30, 6_000_000) / 60)
    }

    /// The local day of the Open.
    public var day: CivilDay { CivilDay(unixMilliseconds: openedAt, offsetMinutes: offsetMinutes) }

    /// The choices a soft end records.
    public static let choices = ["close", "extend", "keep", "gone"]

    /// The choices a soft end offers a person now: "5 more minutes" once per Open.
    public var offeredChoices: [String] { extended ? ["close", "keep"] : ["close", "extend", "keep"] }

    /// What "extend" is called where it is offered.
    public static var extendLabel: String { "\(extensionMinutes) more minutes" }

    /// The soft end's line: "Your 10 minutes in discord are up", "Your 1 minute in slack is up".
    public var endLine: String {
        let minutes = declaredMinutes
        return "Your \(minutes) minute\(minutes == 1 ? "" : "s") in \(app) \(minutes == 1 ? "is" : "are") up"
    }

    /// The quiet notice comes a minute before the end; one that would come with less than
    /// 15 s left says nothing the soft end will not say a moment later, and is skipped.
    public static let noticeBefore: Int64 = 60_000
    public var noticeAt: Int64 { end - Self.noticeBefore }
    public var noticeUntil: Int64 { end - 15_000 }
}

extension EventStore {
    /// The last Open of `app` on this machine (grace is per machine: an Open on the laptop
    /// lets nothing through on the desktop): when, its session, and the minutes it declared.
    public func lastOpen(app: String) throws -> (at: Int64, session: String, minutes: Int?)? {
        // The bound keeps text and blobs (which sort above every number) out of the order, and
        // the (type, app, ts) index still answers it in one step.
        guard let row = try db.rows("""
            SELECT ts, session, detail FROM events WHERE type = \(EventType.openSelected.sqlLiteral) AND app = ? AND ts BETWEEN ? AND ?
                AND device IS NULL
            ORDER BY ts DESC, id DESC LIMIT 1
            """, [.text(app), .integer(EventBounds.timestamps.lowerBound), .integer(EventBounds.timestamps.upperBound)]).first,
              let at = StoredValue.integer(row[0]), let session = StoredValue.text(row[1]) else { return nil }
        return (at, session, Timebox.minutes(inDetail: StoredValue.text(row[2])))
    }

    /// For `miga status` and the timeboxes: the apps and sites whose last Open on this
    /// machine is after `since` (Unix ms), with when that was. By the time index (`+type`), not by walking
    /// every Open ever made. A snooze's own Open is none of them: it starts no grace.
    public func lastOpens(since: Int64) throws -> [(app: String, at: Int64)] {
        try db.rows("""
            SELECT app, max(ts) FROM events WHERE +type = \(EventType.openSelected.sqlLiteral) AND ts BETWEEN ? AND ? AND device IS NULL
                AND (detail IS NULL OR NOT \(Event.snoozeMarkSQL)) GROUP BY app ORDER BY app
            """, [.integer(since), .integer(EventBounds.timestamps.upperBound)]).compactMap { row in
            guard let app = StoredValue.text(row[0]), let at = StoredValue.integer(row[1]) else { return nil }
            return (app, at)
        }
    }

    /// The timeboxes opened since `since` (Unix ms), oldest first (two in the same millisecond
    /// in the order they were recorded), each with its extension and
    /// ending from the `timebox_ended` events of its session. By the time index (`+type` keeps the planner off the type index, which would walk
    /// every Open ever made): a day of events, however long the history.
    /// This machine's, unless `everyMachine` (the week's figures): a timebox runs where it
    /// was opened.
    public func timeboxes(since: Int64, everyMachine: Bool = false) throws -> [Timebox] {
        var boxes: [Timebox] = []
        for row in try db.rows("""
            SELECT app, session, ts, detail, utc_offset_min FROM events WHERE +type = \(EventType.openSelected.sqlLiteral) AND ts BETWEEN ? AND ?
                AND detail LIKE '%"minutes"%' \(everyMachine ? "" : "AND device IS NULL") ORDER BY ts, id
            """, [.integer(since), .integer(EventBounds.timestamps.upperBound)]) {
            guard let app = StoredValue.text(row[0]), let session = StoredValue.text(row[1]), let at = StoredValue.integer(row[2]),
                  let minutes = Timebox.minutes(inDetail: StoredValue.text(row[3])) else { continue }
            var box = Timebox(app: app, session: session, openedAt: at, minutes: minutes)
            box.offsetMinutes = StoredValue.integer(row[4]).map { Int(max(-1080, min(1080, $0))) } ?? 0
            boxes.append(box)
        }
        guard !boxes.isEmpty else { return [] }
        var index: [String: Int] = [:]
        for (position, box) in boxes.enumerated() { index[box.session] = position }
        for row in try db.rows("""
            SELECT session, detail, ts FROM events WHERE +type = \(EventType.timeboxEnded.sqlLiteral) AND ts BETWEEN ? AND ?
                \(everyMachine ? "" : "AND device IS NULL") ORDER BY ts, id
            """, [.integer(since), .integer(EventBounds.timestamps.upperBound)]) {
            guard let session = StoredValue.text(row[0]), let position = index[session], let at = StoredValue.integer(row[2]),
                  let detail = StoredValue.text(row[1]), detail.utf8.count <= 64 * 1024,
                  let choice = (try? JSONValue.parse(detail))?["choice"]?.string else { continue }
            if choice == "extend" {
                if !boxes[position].extended { boxes[position].extendedAt = at }
                boxes[position].extended = true
            } else if boxes[position].ending == nil, Timebox.choices.contains(choice) {
                boxes[position].ending = choice
                boxes[position].endedAt = at
            }
        }
        return boxes
    }

    /// When "5 more minutes" was chosen for the Open in `session` made at `openedAt`, if it
    /// was: the one row a grace needs, found from the Open's time on (a gate's path). This
    /// machine's choice only: another machine's journal naming this session extends nothing.
    public func extensionTime(session: String, openedAt: Int64) throws -> Int64? {
        StoredValue.integer(try db.value("""
            SELECT min(ts) FROM events WHERE +type = \(EventType.timeboxEnded.sqlLiteral) AND ts BETWEEN ? AND ? AND session = ?
                AND detail LIKE '%"choice":"extend"%' AND device IS NULL
            """, [.integer(openedAt), .integer(EventBounds.timestamps.upperBound), .text(session)]))
    }

    /// Each app's timebox still running at `now`, or over by at most `Timebox.unansweredLimit`
    /// and not yet answered; only one that belongs to the app's last Open (a later Open,
    /// with minutes or without, replaces it).
    public func openTimeboxes(at now: Int64) throws -> [Timebox] {
        let since = now - Timebox.lookback
        let lastOpens = Dictionary(try lastOpens(since: since).map { ($0.app, $0.at) }, uniquingKeysWith: max)
        var latest: [String: Timebox] = [:]
        for box in try timeboxes(since: since) where box.openedAt <= now + 60_000 && lastOpens[box.app] == box.openedAt {
            latest[box.app] = box
        }
        return latest.values.filter { $0.ending == nil && $0.end > now - Timebox.unansweredLimit }.sorted { $0.end < $1.end }
    }
}
