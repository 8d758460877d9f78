import CAdw
import MigaCore

/// The Hub page (DESIGN "Welcome, hub, stats and settings"): the gated apps and sites as a
/// grid of tiles, each with its icon, its name and today's count and minutes; activating one
/// opens it through its gate. Nothing gated: a page pointing to the welcome.
final class HubPage {
    let widget: Widget
    private let model: AppModel
    /// Asked for by the empty page's button: the window shows the welcome.
    var showWelcome: () -> Void = {}
    private var status: Widget?

    init(model: AppModel) {
        self.model = model
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        reload()
    }

    /// Shows today's numbers (after the welcome, and whenever the window comes back to the front).
    func reload() {
        Widgets.empty(widget)
        switch model.overview() {
        case .failure(let problem):
            gtk_box_append(miga_box(widget), statusPage("Cannot read your miga", String(describing: problem)))
        case .success(let overview) where overview.hub.isEmpty:
            let page = statusPage("Nothing is paused yet", "Choose the apps and sites that pull you in, and miga puts a short pause in front of them.")
            let button = Widgets.button("Choose what to pause…", classes: ["suggested-action", "pill"]) { [unowned self] in showWelcome() }
            gtk_widget_set_halign(button, GTK_ALIGN_CENTER)
            adw_status_page_set_child(miga_status_page(page), button)
            gtk_box_append(miga_box(widget), page)
        case .success(let overview):
            gtk_box_append(miga_box(widget), grid(overview))
        }
    }

    private func statusPage(_ title: String, _ description: String) -> Widget {
        let page = adw_status_page_new()!
        adw_status_page_set_icon_name(miga_status_page(page), "app.miga.Gate")
        adw_status_page_set_title(miga_status_page(page), Widgets.markupEscaped(title))
        adw_status_page_set_description(miga_status_page(page), Widgets.markupEscaped(description))
        gtk_widget_set_vexpand(page, 1)
        return page
    }

    private func grid(_ overview: AppOverview) -> Widget {
        let flow = gtk_flow_box_new()!
        gtk_flow_box_set_selection_mode(miga_flow_box(flow), GTK_SELECTION_NONE)
        gtk_flow_box_set_homogeneous(miga_flow_box(flow), 1)
        gtk_flow_box_set_max_children_per_line(miga_flow_box(flow), 6)
        gtk_flow_box_set_column_spacing(miga_flow_box(flow), 12)
        gtk_flow_box_set_row_spacing(miga_flow_box(flow), 12)
        gtk_widget_set_valign(flow, GTK_ALIGN_START)
        for item in overview.hub {
            gtk_flow_box_append(miga_flow_box(flow), tile(item))
            // The tile's button takes the focus; its flow box child need not be a stop of its own.
            if let child = gtk_widget_get_last_child(flow) { gtk_widget_set_focusable(child, 0) }
        }
        let status = Widgets.label("", classes: ["error"])
        gtk_widget_set_visible(status, 0)
        self.status = status
        let heading = Widgets.label("Open one through its pause", classes: ["title-4"])
        let content = Widgets.box(GTK_ORIENTATION_VERTICAL, spacing: 12, [heading, status, flow])
        gtk_widget_set_margin_top(content, 24)
        gtk_widget_set_margin_bottom(content, 24)
        gtk_widget_set_margin_start(content, 24)
        gtk_widget_set_margin_end(content, 24)
        let scrolled = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(miga_scrolled_window(scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(miga_scrolled_window(scrolled), content)
        gtk_widget_set_vexpand(scrolled, 1)
        return scrolled
    }

    /// A button: icon, name, "2 times today · 5.0 min"; its accessible name says all three.
    private func tile(_ item: AppOverview.HubItem) -> Widget {
        let icon = Widgets.icon(item.icon, fallback: item.kind == .site ? "web-browser" : "application-x-executable", size: 48)
        let name = Widgets.label(item.name, classes: ["heading"], wrap: false)
        let today = Widgets.label(item.todayLine, classes: ["dim-label", "caption"], wrap: false)
        for label in [name, today] {
            gtk_label_set_xalign(miga_label(label), 0.5)
            gtk_label_set_ellipsize(miga_label(label), PANGO_ELLIPSIZE_END)
        }
        let content = Widgets.box(GTK_ORIENTATION_VERTICAL, spacing: 6, [icon, name, today])
        let button = Widgets.button("", classes: ["card"]) { [unowned self] in open(item) }
        gtk_button_set_child(miga_button(button), content)
        gtk_widget_set_size_request(button, 150, 130)
        miga_accessible_set_label(button, "\(item.name): \(item.todayLine)")
        miga_accessible_set_description(button, item.kind == .app ? "Opens \(item.name) through its pause" : "Opens \(item.name) in your browser through its pause")
        return button
    }

    private func open(_ item: AppOverview.HubItem) {
        guard let status else { return }
        if let problem = model.open(item) {
            gtk_label_set_text(miga_label(status), "Could not open \(item.name): \(problem)")
            gtk_widget_set_visible(status, 1)
        } else {
            gtk_widget_set_visible(status, 0)
        }
    }
}
