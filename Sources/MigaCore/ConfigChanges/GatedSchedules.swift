/// The `[[schedule]]` tables added and removed from outside an editor (the miga app's
/// Settings): written as a person would write them, checked by the loader before the file is
/// replaced, and a table that makes hours gentler waits `loosen_delay_minutes` like any
/// loosening (`Loosening` compares the tables as a whole).
public struct GatedSchedules {
    public var context: MigaContext

    public init(context: MigaContext) {
        self.context = context
    }

    /// The tables as written (a table with a mistake is left out, as the gate leaves it out).
    public func list() throws -> [Schedule] {
        try ConfigFile(path: context.paths.configFile, files: context.files).loadForEditing().schedules
    }

    /// Adds a table: `days` as a schedule takes them (`mon-fri`, `daily`), `from` and `to` as
    /// "HH:MM", and either a timer for those hours or (`gate` false) no gate at all.
    /// Returns the lines to say (the wait, when the table loosens).
    @discardableResult
    public func add(days: String, from: String, to: String, timerSeconds: Int?, gate: Bool) throws -> [String] {
        guard Schedule.days(days) != nil else {
            throw ConfigValueError.wrongType("days", expected: "daily, weekdays, weekends or days like mon-fri, sat,sun")
        }
        guard Schedule.minutes(from, allowEndOfDay: false) != nil else { throw ConfigValueError.wrongType("from", expected: "a time like 09:00") }
        guard Schedule.minutes(to, allowEndOfDay: true) != nil else { throw ConfigValueError.wrongType("to", expected: "a time like 17:00 (24:00 ends the day)") }
        if let timerSeconds, !MigaConfig.timerRange.contains(timerSeconds) {
            throw ConfigValueError.outOfRange("timer_seconds", MigaConfig.timerRange)
        }
        var assignments = ["days = \(ConfigEditor.string(days))", "from = \(ConfigEditor.string(from))", "to = \(ConfigEditor.string(to))"]
        if !gate {
            assignments.append("gate = false")
        } else if let timerSeconds {
            assignments.append("timer_seconds = \(timerSeconds)")
        }
        let file = ConfigFile(path: context.paths.configFile, files: context.files)
        try Installer(context: context).prepareConfigFolder()
        let count = try file.loadForEditing().schedules.count
        try file.update({ $0.addSchedule(assignments) }, expect: { $0.schedules.count == count + 1 })
        return ConfigInForce.waitingNote(context: context).map { "waiting: " + $0 }
    }

    /// Removes the table `Schedule.index` numbers `number`; returns the lines to say.
    @discardableResult
    public func remove(_ number: Int) throws -> [String] {
        let file = ConfigFile(path: context.paths.configFile, files: context.files)
        let tables = try file.loadForEditing().schedules
        guard tables.contains(where: { $0.index == number }) else {
            throw ConfigValueError.wrongType("schedule \(number)", expected: "one of the [[schedule]] tables (\(tables.map { String($0.index) }.joined(separator: ", ")))")
        }
        var before = 0
        try file.update(using: { editor, current in
            before = current.schedules.count
            editor.removeSchedule(number)
        }, expect: { $0.schedules.count == before - 1 })
        return ConfigInForce.waitingNote(context: context).map { "waiting: " + $0 }
    }
}
