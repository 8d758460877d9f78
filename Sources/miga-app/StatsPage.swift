import CAdw

/// The Stats page (DESIGN "Welcome, hub, stats and settings").
final class StatsPage {
    let widget: UnsafeMutablePointer<GtkWidget>

    init(model: AppModel) {
        widget = adw_status_page_new()
        adw_status_page_set_title(miga_status_page(widget), "Stats")
    }
}
