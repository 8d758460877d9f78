import CAdw

/// The one window: a header with the page switcher (a bar at the bottom when narrow), and
/// the Hub, Stats and Settings pages in an `AdwViewStack` (libadwaita 1.2).
final class MainWindow {
    let window: UnsafeMutablePointer<GtkWidget>
    let stack: UnsafeMutablePointer<GtkWidget>
    let model: AppModel

    init(application: UnsafeMutablePointer<GtkApplication>, model: AppModel) {
        self.model = model
        window = adw_application_window_new(application)
        gtk_window_set_title(miga_window(window), "miga")
        gtk_window_set_default_size(miga_window(window), 760, 600)
        stack = adw_view_stack_new()
        addPage(HubPage(model: model).widget, name: "hub", title: "Hub", icon: "view-grid-symbolic")
        addPage(StatsPage(model: model).widget, name: "stats", title: "Stats", icon: "view-list-symbolic")
        addPage(SettingsPage(model: model).widget, name: "settings", title: "Settings", icon: "emblem-system-symbolic")
        adw_application_window_set_content(miga_adw_window(window), layout())
    }

    private func addPage(_ page: UnsafeMutablePointer<GtkWidget>, name: String, title: String, icon: String) {
        let stackPage = adw_view_stack_add_titled(miga_view_stack(stack), page, name, title)
        adw_view_stack_page_set_icon_name(stackPage, icon)
    }

    /// Header with the switcher as its title; below a certain width the switcher moves to a
    /// bar at the bottom (the title hides itself, the bar shows).
    private func layout() -> UnsafeMutablePointer<GtkWidget> {
        let header = adw_header_bar_new()!
        let title = adw_view_switcher_title_new()!
        adw_view_switcher_title_set_stack(miga_view_switcher_title(title), miga_view_stack(stack))
        adw_view_switcher_title_set_title(miga_view_switcher_title(title), "miga")
        adw_header_bar_set_title_widget(miga_header_bar(header), title)
        let bar = adw_view_switcher_bar_new()!
        adw_view_switcher_bar_set_stack(miga_view_switcher_bar(bar), miga_view_stack(stack))
        g_object_bind_property(title, "title-visible", bar, "reveal", G_BINDING_SYNC_CREATE)
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(miga_box(box), header)
        gtk_widget_set_vexpand(stack, 1)
        gtk_box_append(miga_box(box), stack)
        gtk_box_append(miga_box(box), bar)
        return box
    }
}
