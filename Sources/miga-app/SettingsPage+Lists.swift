import CAdw
import MigaCore

/// The lists of config.toml, one row per item with its Remove, and a way to add: apps
/// (`GatedApps`: the config and the shims together; found on this machine by
/// `WelcomeOffer.find`, or typed), sites (`GatedSites`), schedules (`GatedSchedules`) and the
/// alternatives (listed; `miga config alternatives` edits them).
extension SettingsPage {
    /// Remakes every list's rows from config.toml as it is now.
    func refreshLists(_ context: MigaContext) {
        let config = loadConfig(context)
        fill("apps", with: appRows(config, context: context))
        fill("sites", with: siteRows(config, context: context))
        fill("schedules", with: scheduleRows(config, context: context))
    }

    /// Replaces the rows this page put in `group` with `rows`.
    private func fill(_ group: String, with rows: [UnsafeMutablePointer<GtkWidget>]) {
        guard let box = groups[group] else { return }
        for row in listRows[group] ?? [] { adw_preferences_group_remove(miga_preferences_group(box), row) }
        for row in rows { adw_preferences_group_add(miga_preferences_group(box), row) }
        listRows[group] = rows
    }

    /// A list change through MigaCore, then the lists and the key rows as the file now says.
    private func changeList(_ context: MigaContext, _ body: () throws -> [String]) {
        change(body)
        refreshLists(context)
        refreshKeys(config: loadConfig(context), context: context)
    }

    // MARK: - Apps

    private func appRows(_ config: MigaConfig, context: MigaContext) -> [UnsafeMutablePointer<GtkWidget>] {
        var rows: [UnsafeMutablePointer<GtkWidget>] = []
        for app in config.apps.values.sorted(by: { $0.name < $1.name }) {
            let row = actionRow(app.name, subtitle: "runs " + app.command)
            adw_action_row_add_suffix(miga_action_row(row), rowButton("Remove", accessibleName: "Remove \(app.name)") { [self] in
                changeList(context) {
                    let installer = try GatedApps(context: context).remove(name: app.name)
                    let waiting = ConfigInForce.waitingNote(context: context)
                    return [waiting.isEmpty ? "\(app.name) is no longer gated." : "\(app.name) is removed; it stays gated until the wait is over:"]
                        + waiting + installer.changes
                }
            })
            rows.append(row)
        }
        // Found on this machine (chat and social clients), not gated yet: added by their own name.
        let found = WelcomeOffer.find(context: context).apps.filter { config.apps[$0.name] == nil }
        for app in found {
            let row = actionRow(app.label, subtitle: "found on this machine (\(app.source.rawValue)) · not paused")
            adw_action_row_add_suffix(miga_action_row(row), rowButton("Add", accessibleName: "Add \(app.label)") { [self] in
                addApp(app.name, command: app.command.count == 1 ? app.command[0] : app.desktopID, context: context)
            })
            rows.append(row)
        }
        let entry = adw_entry_row_new()!
        adw_preferences_row_set_title(miga_preferences_row(entry), "Add an app by name")
        adw_entry_row_set_show_apply_button(miga_entry_row(entry), 1)
        onSignal(UnsafeMutableRawPointer(entry), "apply") { [self] in
            let name = String(cString: gtk_editable_get_text(miga_editable(entry))).trimmingSpaces
            guard !name.isEmpty else { return }
            addApp(name, command: nil, context: context)
            focusLast("apps") // the row typed in was remade: the keyboard stays where it was
        }
        rows.append(entry)
        return rows
    }

    /// Gives the keyboard to a list's last row (its "Add …" row), as remade after a change.
    private func focusLast(_ group: String) {
        if let row = listRows[group]?.last { gtk_widget_grab_focus(row) }
    }

    private func addApp(_ name: String, command: String?, context: MigaContext) {
        changeList(context) {
            let home = context.environment["HOME"] ?? "/"
            let (app, installer) = try GatedApps(context: context, workingDirectory: home).add(name: name, command: command, timer: nil)
            return ["\(app.name) is gated: it pauses first, however it is opened."] + installer.changes
        }
    }

    // MARK: - Sites

    private func siteRows(_ config: MigaConfig, context: MigaContext) -> [UnsafeMutablePointer<GtkWidget>] {
        var rows: [UnsafeMutablePointer<GtkWidget>] = []
        for site in config.sites {
            let row = actionRow(site)
            adw_action_row_add_suffix(miga_action_row(row), rowButton("Remove", accessibleName: "Remove \(site)") { [self] in
                changeList(context) {
                    let removed = try GatedSites(context: context).remove(site)
                    let waiting = ConfigInForce.waitingNote(context: context)
                    return [waiting.isEmpty ? "\(removed) is no longer gated." : "\(removed) is removed; it stays gated until the wait is over:"] + waiting
                }
            })
            rows.append(row)
        }
        let entry = adw_entry_row_new()!
        adw_preferences_row_set_title(miga_preferences_row(entry), "Add a site")
        adw_entry_row_set_show_apply_button(miga_entry_row(entry), 1)
        onSignal(UnsafeMutableRawPointer(entry), "apply") { [self] in
            let host = String(cString: gtk_editable_get_text(miga_editable(entry))).trimmingSpaces
            guard !host.isEmpty else { return }
            changeList(context) {
                let (site, outcome) = try GatedSites(context: context).add(host)
                return [outcome == .changed ? "\(site) is gated: links to it pause first." : "\(site) is already gated."]
            }
            focusLast("sites")
        }
        rows.append(entry)
        return rows
    }

    // MARK: - Schedules

    private func scheduleRows(_ config: MigaConfig, context: MigaContext) -> [UnsafeMutablePointer<GtkWidget>] {
        var rows: [UnsafeMutablePointer<GtkWidget>] = []
        for schedule in config.schedules {
            let what = schedule.gate ? schedule.timerSeconds.map { "timer \($0) s" } ?? "the usual pause" : "no pause"
            let only = schedule.apps.map { " · only " + $0.joined(separator: ", ") } ?? ""
            let title = "\(schedule.daysText) \(schedule.hours)"
            let row = actionRow(title, subtitle: what + only)
            adw_action_row_add_suffix(miga_action_row(row), rowButton("Remove", accessibleName: "Remove schedule \(title)") { [self] in
                changeList(context) { ["Schedule \(title) removed."] + (try GatedSchedules(context: context).remove(schedule.index)) }
            })
            rows.append(row)
        }
        for alternative in config.alternatives {
            rows.append(actionRow("Alternative: " + alternative.label, subtitle: alternative.summary + " · `miga config alternatives` edits them"))
        }
        rows.append(newScheduleRow(context))
        return rows
    }

    /// "Add a schedule": days, hours, and a timer or no pause in those hours.
    private func newScheduleRow(_ context: MigaContext) -> UnsafeMutablePointer<GtkWidget> {
        let expander = adw_expander_row_new()!
        adw_preferences_row_set_title(miga_preferences_row(expander), "Add a schedule")
        adw_expander_row_set_subtitle(miga_expander_row(expander), "days like mon-fri, weekdays, daily; hours like 09:00 to 17:00")
        func field(_ title: String, _ text: String) -> UnsafeMutablePointer<GtkWidget> {
            let entry = adw_entry_row_new()!
            adw_preferences_row_set_title(miga_preferences_row(entry), title)
            gtk_editable_set_text(miga_editable(entry), text)
            adw_expander_row_add_row(miga_expander_row(expander), entry)
            return entry
        }
        let days = field("Days", "mon-fri"), from = field("From", "09:00"), to = field("To", "17:00")
        let timerRow = actionRow("Schedule timer seconds")
        let timer = gtk_spin_button_new_with_range(Double(MigaConfig.timerRange.lowerBound), Double(MigaConfig.timerRange.upperBound), 1)!
        gtk_spin_button_set_value(miga_spin_button(timer), 45)
        gtk_widget_set_valign(timer, GTK_ALIGN_CENTER)
        adw_action_row_add_suffix(miga_action_row(timerRow), timer)
        adw_action_row_set_activatable_widget(miga_action_row(timerRow), timer)
        adw_expander_row_add_row(miga_expander_row(expander), timerRow)
        let offRow = actionRow("No pause in these hours")
        let off = gtk_switch_new()!
        gtk_widget_set_valign(off, GTK_ALIGN_CENTER)
        adw_action_row_add_suffix(miga_action_row(offRow), off)
        adw_action_row_set_activatable_widget(miga_action_row(offRow), off)
        adw_expander_row_add_row(miga_expander_row(expander), offRow)
        let addRow = actionRow("Add this schedule")
        adw_action_row_add_suffix(miga_action_row(addRow), rowButton("Add", accessibleName: "Add schedule") { [self] in
            func text(_ entry: UnsafeMutablePointer<GtkWidget>) -> String { String(cString: gtk_editable_get_text(miga_editable(entry))).trimmingSpaces }
            let gate = gtk_switch_get_active(miga_switch(off)) == 0
            changeList(context) {
                try GatedSchedules(context: context).add(days: text(days), from: text(from), to: text(to),
                                                         timerSeconds: Int(gtk_spin_button_get_value_as_int(miga_spin_button(timer))), gate: gate)
                    .reduce(["Schedule \(text(days)) \(text(from))–\(text(to)) added."]) { $0 + [$1] }
            }
        })
        adw_expander_row_add_row(miga_expander_row(expander), addRow)
        return expander
    }
}

extension String {
    /// Without the spaces and tabs a person typed around it.
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
