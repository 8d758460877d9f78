import CAdw

/// The one window: a header with the page switcher (a bar at the bottom when narrow) and a
/// menu, and either the welcome (first run, or "Welcome…" in the menu) or the Hub, Stats and
/// Settings pages in an `AdwViewStack` (libadwaita 1.2).
final class MainWindow {
    let window: Widget
    let stack: Widget
    let model: AppModel
    private let root: Widget
    private let switcherTitle: Widget
    private let hub: HubPage
    private let stats: StatsPage
    private let welcome: WelcomePage

    init(application: UnsafeMutablePointer<GtkApplication>, model: AppModel) {
        self.model = model
        window = adw_application_window_new(application)
        gtk_window_set_title(miga_window(window), "miga")
        gtk_window_set_default_size(miga_window(window), 760, 600)
        stack = adw_view_stack_new()
        hub = HubPage(model: model)
        stats = StatsPage(model: model)
        welcome = WelcomePage(model: model)
        switcherTitle = adw_view_switcher_title_new()
        root = gtk_stack_new()
        addPage(hub.widget, name: "hub", title: "Hub", icon: "view-app-grid-symbolic")
        addPage(stats.widget, name: "stats", title: "Stats", icon: "view-list-symbolic")
        addPage(SettingsPage(model: model).widget, name: "settings", title: "Settings", icon: "emblem-system-symbolic")
        adw_application_window_set_content(miga_adw_window(window), layout())
        hub.showWelcome = { [unowned self] in showWelcome() }
        welcome.finished = { [unowned self] in showPages() }
        addActions()
        // Back at the window after a gate (or anything else): today's numbers again.
        onSignal(UnsafeMutableRawPointer(window), "notify::is-active", with: { [unowned self] _ in
            if gtk_window_is_active(miga_window(window)) != 0 { reload() }
        })
        if model.nothingGated { showWelcome() } else { showPages() }
    }

    private func addPage(_ page: Widget, name: String, title: String, icon: String) {
        let stackPage = adw_view_stack_add_titled(miga_view_stack(stack), page, name, title)
        adw_view_stack_page_set_icon_name(stackPage, icon)
    }

    func showWelcome() {
        welcome.restart()
        Widgets.showOnly(root, "welcome")
        adw_view_switcher_title_set_stack(miga_view_switcher_title(switcherTitle), nil)
        adw_view_switcher_title_set_subtitle(miga_view_switcher_title(switcherTitle), "Welcome")
    }

    func showPages() {
        adw_view_stack_set_visible_child_name(miga_view_stack(stack), "hub")
        Widgets.showOnly(root, "pages")
        reload() // once the welcome has gone: what it set up shows at once
        adw_view_switcher_title_set_stack(miga_view_switcher_title(switcherTitle), miga_view_stack(stack))
        adw_view_switcher_title_set_subtitle(miga_view_switcher_title(switcherTitle), "")
    }

    private var showingWelcome: Bool {
        gtk_stack_get_visible_child_name(miga_stack(root)).map { String(cString: $0) } == "welcome"
    }

    private func reload() {
        guard !showingWelcome else { return }
        hub.reload()
        stats.reload()
    }

    /// The menu's "Welcome…", and Escape going back a screen in the welcome.
    private func addActions() {
        addAction("welcome") { [unowned self] in showWelcome() }
        addAction("back") { [unowned self] in if showingWelcome { welcome.back() } }
    }

    private func addAction(_ name: String, _ run: @escaping () -> Void) {
        let action = g_simple_action_new(name, nil)!
        onSignal(UnsafeMutableRawPointer(action), "activate", with: { _ in run() })
        g_action_map_add_action(miga_action_map(window), action)
    }

    /// Header with the switcher as its title and the menu; below a certain width the switcher
    /// moves to a bar at the bottom (the title hides itself, the bar shows).
    private func layout() -> Widget {
        let header = adw_header_bar_new()!
        adw_view_switcher_title_set_title(miga_view_switcher_title(switcherTitle), "miga")
        adw_header_bar_set_title_widget(miga_header_bar(header), switcherTitle)
        adw_header_bar_pack_end(miga_header_bar(header), menuButton())
        let bar = adw_view_switcher_bar_new()!
        adw_view_switcher_bar_set_stack(miga_view_switcher_bar(bar), miga_view_stack(stack))
        g_object_bind_property(switcherTitle, "title-visible", bar, "reveal", G_BINDING_SYNC_CREATE)
        gtk_widget_set_vexpand(stack, 1)
        let pages = Widgets.box(GTK_ORIENTATION_VERTICAL, spacing: 0, [stack, bar])
        gtk_stack_add_named(miga_stack(root), pages, "pages")
        gtk_stack_add_named(miga_stack(root), welcome.widget, "welcome")
        if let problem = model.problem {
            let page = adw_status_page_new()!
            adw_status_page_set_title(miga_status_page(page), "miga cannot start")
            adw_status_page_set_description(miga_status_page(page), Widgets.markupEscaped(problem))
            gtk_stack_add_named(miga_stack(root), page, "problem")
            Widgets.showOnly(root, "problem")
        }
        gtk_widget_set_vexpand(root, 1)
        return Widgets.box(GTK_ORIENTATION_VERTICAL, spacing: 0, [header, root])
    }

    private func menuButton() -> Widget {
        let menu = g_menu_new()!
        g_menu_append(menu, "_Welcome…", "win.welcome")
        g_menu_append(menu, "_Quit", "app.quit")
        let button = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(miga_menu_button(button), "open-menu-symbolic")
        gtk_menu_button_set_menu_model(miga_menu_button(button), UnsafeMutablePointer<GMenuModel>(menu))
        miga_accessible_set_label(button, "Main menu")
        return button
    }
}
