import CAdw
import MigaCore

/// The welcome (DESIGN "Welcome, hub, stats and settings"), the app's first run and the
/// header menu's "Welcome…": what miga does; what pulls you in (the apps found on this
/// machine, by their own name and icon, and the common sites); the pause; then "Set up" does
/// it through `WelcomeSetup` and says what it did. Escape or Back goes back a screen.
final class WelcomePage {
    let widget: Widget
    private let model: AppModel
    private let offer: WelcomeOffer
    private let screens = ["intro", "choose", "pause", "done"]
    private var appChecks: [(name: String, check: Widget)] = []
    private var siteChecks: [(site: String, check: Widget)] = []
    private var typedApp: Widget!
    private var timer: Widget!
    private var comingBack: Widget!
    private var extraSwitches: [(name: String, toggle: Widget)] = []
    private var problem: Widget!
    private var said: Widget!
    /// After the last screen: the window shows the Hub.
    var finished: () -> Void = {}

    init(model: AppModel) {
        self.model = model
        offer = model.offer()
        widget = gtk_stack_new()
                gtk_widget_set_vexpand(widget, 1)
        gtk_stack_add_named(miga_stack(widget), intro(), "intro")
        gtk_stack_add_named(miga_stack(widget), choose(), "choose")
        gtk_stack_add_named(miga_stack(widget), pause(), "pause")
        gtk_stack_add_named(miga_stack(widget), done(), "done")
        show(0)
    }

    private var current: Int {
        let name = gtk_stack_get_visible_child_name(miga_stack(widget)).map { String(cString: $0) } ?? "intro"
        return screens.firstIndex(of: name) ?? 0
    }

    private func show(_ index: Int) {
        Widgets.showOnly(widget, screens[max(0, min(index, screens.count - 1))])
    }

    /// Escape: one screen back (the last one, done, has nothing to go back to).
    func back() {
        if current > 0, current < screens.count - 1 { show(current - 1) }
    }

    func restart() { show(0) }

    // MARK: the screens

    private func intro() -> Widget {
        let page = adw_status_page_new()!
        adw_status_page_set_icon_name(miga_status_page(page), "app.miga.Gate")
        adw_status_page_set_title(miga_status_page(page), "Welcome to miga")
        adw_status_page_set_description(miga_status_page(page), """
            miga puts a short pause in front of the apps and sites you choose.
            A quote and a countdown, then you choose: Exit, Read Next or Open.
            Nothing is paused that you did not choose, and nothing leaves this computer.
            """)
        let next = Widgets.button("Next", classes: ["suggested-action", "pill"]) { [unowned self] in show(1) }
        gtk_widget_set_halign(next, GTK_ALIGN_CENTER)
        adw_status_page_set_child(miga_status_page(page), next)
        return page
    }

    private func choose() -> Widget {
        let apps = Widgets.group("What pulls you in?", description: offer.apps.isEmpty
                                 ? "No chat or social app was found on this computer; type one below."
                                 : "The chat and social apps found on this computer. A chosen one shows the pause when you open it.")
        for app in offer.apps {
            let row = Widgets.row(app.label, app.source == .system ? nil : app.source.rawValue.capitalized)
            adw_action_row_add_prefix(miga_action_row(row), Widgets.icon(app.icon, fallback: "application-x-executable", size: 32))
            appChecks.append((app.name, check(in: row, named: app.label, active: true)))
            adw_preferences_group_add(miga_preferences_group(apps), row)
        }
        typedApp = adw_entry_row_new()
        adw_preferences_row_set_title(miga_preferences_row(typedApp), "Another app (its command, e.g. hexchat)")
        adw_preferences_group_add(miga_preferences_group(apps), typedApp)

        let sites = Widgets.group("Sites", description: "Paused in every browser with miga's extension, and in links you open.")
        for site in offer.sites {
            let row = Widgets.row(site.site)
            siteChecks.append((site.site, check(in: row, named: site.site, active: site.preselected)))
            adw_preferences_group_add(miga_preferences_group(sites), row)
        }
        return screen([apps, sites], back: 0, next: ("Next", { [unowned self] in show(2) }))
    }

    private func pause() -> Widget {
        let group = Widgets.group("The pause", description: "You can change these any time in Settings.")
        let range = MigaConfig.timerRange
        timer = gtk_spin_button_new_with_range(Double(range.lowerBound), Double(range.upperBound), 1)
        gtk_spin_button_set_value(miga_spin_button(timer), Double(min(max(model.timerSeconds, range.lowerBound), range.upperBound)))
        gtk_widget_set_valign(timer, GTK_ALIGN_CENTER)
        let timerRow = Widgets.row("Pause length", "Seconds of quiet before Open, \(range.lowerBound) to \(range.upperBound)")
        adw_action_row_add_suffix(miga_action_row(timerRow), timer)
        adw_action_row_set_activatable_widget(miga_action_row(timerRow), timer)

        comingBack = gtk_switch_new()
        gtk_switch_set_active(miga_switch(comingBack), 1)
        gtk_widget_set_valign(comingBack, GTK_ALIGN_CENTER)
        let backRow = Widgets.row("Pause when I come back", "To an app or site left open for 10 minutes or more")
        adw_action_row_add_suffix(miga_action_row(backRow), comingBack)
        adw_action_row_set_activatable_widget(miga_action_row(backRow), comingBack)
        adw_preferences_group_add(miga_preferences_group(group), timerRow)
        adw_preferences_group_add(miga_preferences_group(group), backRow)

        problem = Widgets.label("", classes: ["error"])
        gtk_widget_set_visible(problem, 0)
        adw_preferences_group_add(miga_preferences_group(group), problem)
        return screen([group, extraContent()], back: 1, next: ("Set up", { [unowned self] in setUp() }))
    }

    /// The content beyond the calm defaults, off until turned on here (or in Settings).
    private func extraContent() -> Widget {
        let group = Widgets.group("What the pause shows", description: "Quotes, affirmations and short resets; also, if you wish:")
        extraSwitches = ContentLibrary.extraCategories.map { category in
            let toggle = gtk_switch_new()!
            gtk_widget_set_valign(toggle, GTK_ALIGN_CENTER)
            let row = Widgets.row(category.label)
            adw_action_row_add_suffix(miga_action_row(row), toggle)
            adw_action_row_set_activatable_widget(miga_action_row(row), toggle)
            adw_preferences_group_add(miga_preferences_group(group), row)
            return (category.name, toggle)
        }
        return group
    }

    private func done() -> Widget {
        let page = adw_status_page_new()!
        adw_status_page_set_icon_name(miga_status_page(page), "app.miga.Gate")
        adw_status_page_set_title(miga_status_page(page), "miga is ready")
        said = Widgets.label("", classes: [])
        gtk_label_set_selectable(miga_label(said), 1)
        let hub = Widgets.button("Open the hub", classes: ["suggested-action", "pill"]) { [unowned self] in finished() }
        gtk_widget_set_halign(hub, GTK_ALIGN_CENTER)
        adw_status_page_set_child(miga_status_page(page), Widgets.box(GTK_ORIENTATION_VERTICAL, spacing: 24, [said, hub]))
        return page
    }

    /// Groups on a scrolling page, with Back and the screen's next step below.
    private func screen(_ groups: [Widget], back: Int, next: (String, () -> Void)) -> Widget {
        let page = adw_preferences_page_new()!
        gtk_widget_set_vexpand(page, 1)
        groups.forEach { adw_preferences_page_add(miga_preferences_page(page), miga_preferences_group($0)) }
        let backButton = Widgets.button("Back", classes: ["pill"]) { [unowned self] in show(back) }
        let nextButton = Widgets.button(next.0, classes: ["suggested-action", "pill"], action: next.1)
        let buttons = Widgets.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [backButton, nextButton])
        gtk_widget_set_halign(buttons, GTK_ALIGN_CENTER)
        gtk_widget_set_margin_bottom(buttons, 18)
        gtk_widget_set_margin_top(buttons, 6)
        return Widgets.box(GTK_ORIENTATION_VERTICAL, spacing: 0, [page, buttons])
    }

    private func check(in row: Widget, named name: String, active: Bool) -> Widget {
        let check = gtk_check_button_new()!
        gtk_check_button_set_active(miga_check_button(check), active ? 1 : 0)
        // Named by its row's title (the row's activatable widget), as a screen reader reads it.
        adw_action_row_add_suffix(miga_action_row(row), check)
        adw_action_row_set_activatable_widget(miga_action_row(row), check)
        return check
    }

    // MARK: doing it

    var choice: WelcomeChoice {
        let typed = String(cString: gtk_editable_get_text(miga_editable(typedApp)))
            .split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
        return WelcomeChoice(apps: appChecks.filter { gtk_check_button_get_active(miga_check_button($0.check)) != 0 }.map(\.name) + typed,
                             sites: siteChecks.filter { gtk_check_button_get_active(miga_check_button($0.check)) != 0 }.map(\.site),
                             timerSeconds: Int(gtk_spin_button_get_value_as_int(miga_spin_button(timer))),
                             reentryMinutes: gtk_switch_get_active(miga_switch(comingBack)) != 0 ? 10 : 0,
                             extraCategories: extraSwitches.filter { gtk_switch_get_active(miga_switch($0.toggle)) != 0 }.map(\.name))
    }

    private func setUp() {
        do {
            let lines = try model.setUp(choice, offer: offer)
            gtk_label_set_text(miga_label(said), lines.isEmpty ? "Nothing was changed." : lines.joined(separator: "\n"))
            gtk_widget_set_visible(problem, 0)
            show(3)
        } catch {
            gtk_label_set_text(miga_label(problem), "\(error)")
            gtk_widget_set_visible(problem, 1)
        }
    }
}
