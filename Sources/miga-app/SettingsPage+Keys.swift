import CAdw
import MigaCore

/// One row per key of `ConfigKeys.table`, made from the key's kind (a range → a spin button
/// with that range, a flag → a switch, a choice → a combo row, content kinds → a switch each,
/// text and folders → an entry row), so a key the table gains shows up by itself. A change is
/// `SettingChange.set`, as `miga config set` makes it.
final class KeyRow {
    let key: ConfigKey
    let row: UnsafeMutablePointer<GtkWidget>
    /// The control that holds the value (spin button, switch, combo row, entry row), or the
    /// switches of a list of kinds, by category name.
    var control: UnsafeMutablePointer<GtkWidget>?
    var switches: [(String, UnsafeMutablePointer<GtkWidget>)] = []
    /// Set while the page writes a value into a control, so that is not taken for a change.
    var updating = false

    init(key: ConfigKey, row: UnsafeMutablePointer<GtkWidget>) {
        self.key = key
        self.row = row
    }

    /// The title a person reads: the key's name in words ("Timer seconds").
    static func title(of name: String) -> String {
        let words = name.split(separator: "_").joined(separator: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }

    /// What the key does, its name as config.toml and `miga config` spell it, and its range.
    var about: String {
        var text = key.doc + " (" + key.name
        if case .integer(let range, let unit) = key.kind { text += ", \(range.lowerBound)–\(range.upperBound) \(unit)" }
        return text + ")"
    }

    /// Which group of the page the key belongs in.
    var group: String {
        switch key.name {
        case "timer_seconds", "grace_minutes", "breathing", "animations", "escalate_seconds": return "pause"
        case "ask_minutes", "default_minutes", "opens_per_day", "minutes_per_day", "reentry_minutes", "intention",
             "challenge", "loosen_delay_minutes", "weekly_summary": return "habits"
        case "categories", "extra_categories": return "content"
        case "sync_folder", "sync_config": return "sync"
        default: return "more"
        }
    }
}

extension SettingsPage {
    /// The rows of every top-level key but the site list (the Sites group lists and adds
    /// sites one by one) and the app-only ones (a command belongs to an app).
    func addKeyRows(config: MigaConfig, context: MigaContext) {
        for key in ConfigKeys.table where key.scope != .app {
            if case .sites = key.kind { continue }
            let keyRow = makeRow(for: key, context: context)
            keyRows[key.name] = keyRow
            if let group = groups[keyRow.group] { adw_preferences_group_add(miga_preferences_group(group), keyRow.row) }
        }
        refreshKeys(config: config, context: context)
    }

    private func makeRow(for key: ConfigKey, context: MigaContext) -> KeyRow {
        let title = KeyRow.title(of: key.name)
        switch key.kind {
        case .integer(let range, _):
            let keyRow = KeyRow(key: key, row: actionRow(title))
            let spin = gtk_spin_button_new_with_range(Double(range.lowerBound), Double(range.upperBound), 1)!
            gtk_widget_set_valign(spin, GTK_ALIGN_CENTER)
            gtk_spin_button_set_numeric(miga_spin_button(spin), 1)
            adw_action_row_add_suffix(miga_action_row(keyRow.row), spin)
            adw_action_row_set_activatable_widget(miga_action_row(keyRow.row), spin)
            keyRow.control = spin
            onSignal(UnsafeMutableRawPointer(spin), "value-changed") { [self] in
                guard !keyRow.updating else { return }
                set(keyRow, to: String(gtk_spin_button_get_value_as_int(miga_spin_button(spin))), context: context)
            }
            return keyRow
        case .flag:
            let keyRow = KeyRow(key: key, row: actionRow(title))
            let toggle = gtk_switch_new()!
            gtk_widget_set_valign(toggle, GTK_ALIGN_CENTER)
            adw_action_row_add_suffix(miga_action_row(keyRow.row), toggle)
            adw_action_row_set_activatable_widget(miga_action_row(keyRow.row), toggle)
            keyRow.control = toggle
            onSignal(UnsafeMutableRawPointer(toggle), "notify::active", with: { [self] _ in
                guard !keyRow.updating else { return }
                set(keyRow, to: gtk_switch_get_active(miga_switch(toggle)) != 0 ? "true" : "false", context: context)
            })
            return keyRow
        case .choice(let choices):
            let combo = adw_combo_row_new()!
            adw_preferences_row_set_title(miga_preferences_row(combo), title)
            let list = gtk_string_list_new(nil)!
            for choice in choices { gtk_string_list_append(list, choice) }
            adw_combo_row_set_model(miga_combo_row(combo), miga_list_model(UnsafeMutableRawPointer(list)))
            let keyRow = KeyRow(key: key, row: combo)
            keyRow.control = combo
            onSignal(UnsafeMutableRawPointer(combo), "notify::selected", with: { [self] _ in
                let index = Int(adw_combo_row_get_selected(miga_combo_row(combo)))
                guard !keyRow.updating, choices.indices.contains(index) else { return }
                set(keyRow, to: choices[index], context: context)
            })
            return keyRow
        case .categories where key.name == "categories": // a switch per content kind; another list is typed
            let expander = adw_expander_row_new()!
            adw_preferences_row_set_title(miga_preferences_row(expander), title)
            let keyRow = KeyRow(key: key, row: expander)
            for kind in ContentKind.allCases {
                let row = actionRow(KeyRow.title(of: kind.categoryName))
                let toggle = gtk_switch_new()!
                gtk_widget_set_valign(toggle, GTK_ALIGN_CENTER)
                adw_action_row_add_suffix(miga_action_row(row), toggle)
                adw_action_row_set_activatable_widget(miga_action_row(row), toggle)
                adw_expander_row_add_row(miga_expander_row(expander), row)
                keyRow.switches.append((kind.categoryName, toggle))
                onSignal(UnsafeMutableRawPointer(toggle), "notify::active", with: { [self] _ in
                    guard !keyRow.updating else { return }
                    let chosen = keyRow.switches.filter { gtk_switch_get_active(miga_switch($0.1)) != 0 }.map(\.0)
                    set(keyRow, to: chosen.joined(separator: ","), context: context)
                })
            }
            return keyRow
        default:
            // Text, a folder, and any kind the table gains: typed, checked by the table on Apply.
            let entry = adw_entry_row_new()!
            adw_preferences_row_set_title(miga_preferences_row(entry), title)
            adw_entry_row_set_show_apply_button(miga_entry_row(entry), 1)
            let keyRow = KeyRow(key: key, row: entry)
            keyRow.control = entry
            onSignal(UnsafeMutableRawPointer(entry), "apply") { [self] in
                let text = String(cString: gtk_editable_get_text(miga_editable(entry)))
                set(keyRow, to: text, context: context) // "" is a value here: no sync folder, find a terminal

            }
            return keyRow
        }
    }

    /// The change, through the one place `config set` makes it; then every row shows what
    /// config.toml now says and what waits (one change can make another wait).
    private func set(_ keyRow: KeyRow, to value: String, context: MigaContext) {
        change { try SettingChange(context: context, addingSite: "add it in Sites").set(keyRow.key.name, to: value) }
        refreshKeys(config: loadConfig(context), context: context)
    }

    /// Puts each key's written value into its control, and its wait (the value in force until
    /// then) under its title.
    func refreshKeys(config: MigaConfig, context: MigaContext) {
        for keyRow in keyRows.values {
            keyRow.updating = true
            defer { keyRow.updating = false }
            let text = ConfigKeys.display(ConfigKeyPath(app: nil, key: keyRow.key.name), in: config)
            show(text, in: keyRow)
            let waiting = SettingChange.waiting(for: keyRow.key.name, context: context)
            let subtitle = ([keyRow.about] + waiting.map { "Waiting: " + $0 }).joined(separator: "\n")
            if case .categories = keyRow.key.kind, keyRow.key.name == "categories" { adw_expander_row_set_subtitle(miga_expander_row(keyRow.row), Self.markupFree(subtitle)); continue }
            if let combo = keyRow.control, case .choice = keyRow.key.kind {
                // A combo row's subtitle is plain text in libadwaita 1.2 (no markup to escape).
                adw_action_row_set_subtitle(miga_action_row(combo), subtitle)
                continue
            }
            if case .integer = keyRow.key.kind { adw_action_row_set_subtitle(miga_action_row(keyRow.row), Self.markupFree(subtitle)); continue }
            if case .flag = keyRow.key.kind { adw_action_row_set_subtitle(miga_action_row(keyRow.row), Self.markupFree(subtitle)); continue }
            // An entry row has no subtitle: what it does is its description.
            miga_accessible_set_description(keyRow.row, subtitle)
            gtk_widget_set_tooltip_text(keyRow.row, subtitle)
        }
    }

    private func show(_ text: String, in keyRow: KeyRow) {
        switch keyRow.key.kind {
        case .integer:
            if let value = Int(text), let spin = keyRow.control { gtk_spin_button_set_value(miga_spin_button(spin), Double(value)) }
        case .flag:
            if let toggle = keyRow.control { gtk_switch_set_active(miga_switch(toggle), text == "true" ? 1 : 0) }
        case .choice(let choices):
            if let combo = keyRow.control, let index = choices.firstIndex(of: text) {
                adw_combo_row_set_selected(miga_combo_row(combo), guint(index))
            }
        case .categories where keyRow.key.name == "categories":
            let chosen = text.split(separator: "\n").map(String.init)
            for (name, toggle) in keyRow.switches { gtk_switch_set_active(miga_switch(toggle), chosen.contains(name) ? 1 : 0) }
        default:
            if let entry = keyRow.control {
                gtk_editable_set_text(miga_editable(entry), text.split(separator: "\n").joined(separator: ", "))
            }
        }
    }
}
