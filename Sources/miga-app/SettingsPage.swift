import CAdw
import MigaCore

/// The Settings page (DESIGN "Welcome, hub, stats and settings"): every key of the config
/// table as a row made from its kind (`SettingsPage+Keys`), the gated apps, sites and
/// schedules (`SettingsPage+Lists`), and the trial or licence (`SettingsPage+Licence`). No rule
/// lives here: each change goes through MigaCore (`SettingChange`, `GatedApps`, `GatedSites`,
/// `GatedSchedules`, `EntitlementStore`), which checks it and says what it did; what it says
/// shows under the page, and a refusal (a broken config.toml) shows there too, never a crash.
///
/// The page object lives as long as its widgets: their signal handlers hold it.
final class SettingsPage {
    let widget: UnsafeMutablePointer<GtkWidget>
    let model: AppModel
    let page: UnsafeMutablePointer<GtkWidget>
    /// What the last change said, or why it was refused: below the page, always in view.
    let status: UnsafeMutablePointer<GtkWidget>
    /// The key rows, by key name, to say a wait or a refusal on the row that made it.
    var keyRows: [String: KeyRow] = [:]
    /// Rows of the lists (apps, sites, schedules), remade after each change to them.
    var listRows: [String: [UnsafeMutablePointer<GtkWidget>]] = [:]
    var groups: [String: UnsafeMutablePointer<GtkWidget>] = [:]

    init(model: AppModel) {
        self.model = model
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        page = adw_preferences_page_new()
        adw_preferences_page_set_title(miga_preferences_page(page), "Settings")
        status = gtk_label_new(nil)
        gtk_label_set_wrap(miga_label(status), 1)
        gtk_label_set_xalign(miga_label(status), 0)
        gtk_label_set_selectable(miga_label(status), 1)
        gtk_widget_set_margin_start(status, 18)
        gtk_widget_set_margin_end(status, 18)
        gtk_widget_set_margin_top(status, 6)
        gtk_widget_set_margin_bottom(status, 6)
        gtk_widget_set_visible(status, 0)
        gtk_widget_set_vexpand(page, 1)
        gtk_box_append(miga_box(widget), page)
        gtk_box_append(miga_box(widget), status)
        guard let context = model.context else {
            say(["miga cannot read your settings: \(model.problem ?? "no home folder")"], problem: true)
            return
        }
        build(context)
    }

    /// The groups in the order a person looks for them; keys the table gains later land in
    /// the group `KeyRow.group` names, or under "More".
    private func build(_ context: MigaContext) {
        for (name, title) in Self.groupTitles {
            let group = adw_preferences_group_new()!
            adw_preferences_group_set_title(miga_preferences_group(group), title)
            adw_preferences_page_add(miga_preferences_page(page), miga_preferences_group(group))
            groups[name] = group
        }
        let config = loadConfig(context)
        addKeyRows(config: config, context: context)
        refreshLists(context)
        addLicenceRows(context)
    }

    static let groupTitles: [(String, String)] = [
        ("pause", "Pause"), ("apps", "Apps"), ("sites", "Sites"), ("habits", "Habits"), ("schedules", "Schedules"),
        ("content", "Content"), ("sync", "Sync folder"), ("more", "More"), ("licence", "Trial or licence"),
    ]

    /// config.toml as written (what the person chose: a value still waiting shows with its
    /// wait on its row); the defaults when it cannot be read, the problem said.
    func loadConfig(_ context: MigaContext) -> MigaConfig {
        do {
            return try ConfigFile(path: context.paths.configFile, files: context.files).loadForEditing()
        } catch {
            say(["\(error)"], problem: true)
            return MigaConfig()
        }
    }

    /// Shows what a change said (or, `problem`, why it could not be made) below the page.
    func say(_ lines: [String], problem: Bool = false) {
        let text = lines.map { String($0.drop { $0 == " " }) }.joined(separator: "\n")
        gtk_label_set_text(miga_label(status), text)
        gtk_widget_set_visible(status, text.isEmpty ? 0 : 1)
        if problem { gtk_widget_add_css_class(status, "error") } else { gtk_widget_remove_css_class(status, "error") }
    }

    /// Runs a change through MigaCore: says its lines, or its error; true when it was made.
    @discardableResult
    func change(_ body: () throws -> [String]) -> Bool {
        do {
            say(try body())
            return true
        } catch {
            say(["\(error)"], problem: true)
            return false
        }
    }

    /// A button for a row's end, centred as libadwaita's rows want them.
    func rowButton(_ label: String, accessibleName: String, action: @escaping () -> Void) -> UnsafeMutablePointer<GtkWidget> {
        let button = gtk_button_new_with_label(label)!
        gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
        miga_accessible_set_label(button, accessibleName)
        onSignal(UnsafeMutableRawPointer(button), "clicked", action)
        return button
    }

    /// An action row with a title and a subtitle, not yet in a group.
    func actionRow(_ title: String, subtitle: String? = nil) -> UnsafeMutablePointer<GtkWidget> {
        let row = adw_action_row_new()!
        adw_preferences_row_set_title(miga_preferences_row(row), Self.markupFree(title))
        if let subtitle { adw_action_row_set_subtitle(miga_action_row(row), Self.markupFree(subtitle)) }
        return row
    }

    /// Row titles and subtitles are Pango markup in libadwaita 1.2: text from config.toml or
    /// a desktop entry (`R&D <chat>`) is escaped so it shows as written and cannot style.
    static func markupFree(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
