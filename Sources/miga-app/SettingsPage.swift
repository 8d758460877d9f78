import CAdw

/// The Settings page (DESIGN "Welcome, hub, stats and settings").
final class SettingsPage {
    let widget: UnsafeMutablePointer<GtkWidget>

    init(model: AppModel) {
        widget = adw_status_page_new()
        adw_status_page_set_title(miga_status_page(widget), "Settings")
    }
}
