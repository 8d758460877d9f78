import CAdw
import FoundationEssentials

// The few widget shapes the Hub, Stats and the welcome repeat, each named for a screen reader
// as it is shown. libadwaita 1.2's widgets only.

typealias Widget = UnsafeMutablePointer<GtkWidget>

enum Widgets {
    /// A label that wraps, left-aligned, with optional style classes ("title-2", "dim-label").
    static func label(_ text: String, classes: [String] = [], wrap: Bool = true) -> Widget {
        let label = gtk_label_new(text)!
        gtk_label_set_wrap(miga_label(label), wrap ? 1 : 0)
        gtk_label_set_xalign(miga_label(label), 0)
        classes.forEach { gtk_widget_add_css_class(label, $0) }
        return label
    }

    static func button(_ text: String, classes: [String] = [], action: @escaping () -> Void) -> Widget {
        // Not a mnemonic: GTK 4.8 names such a button by its raw text and its label ("_Next Next").
        let button = gtk_button_new_with_label(text)!
        classes.forEach { gtk_widget_add_css_class(button, $0) }
        onSignal(UnsafeMutableRawPointer(button), "clicked", action)
        return button
    }

    /// An icon from a theme name or an absolute path (a desktop entry's `Icon` is either).
    /// A name the theme lacks, or a path that is not a small regular file (a FIFO would hang
    /// the loader), shows `fallback` instead.
    static func icon(_ name: String?, fallback: String, size: Int32) -> Widget {
        let image: Widget
        if let name, name.hasPrefix("/"), isSmallRegularFile(name) {
            image = gtk_image_new_from_file(name)
        } else if let name, !name.hasPrefix("/"), let display = gdk_display_get_default(),
                  gtk_icon_theme_has_icon(gtk_icon_theme_get_for_display(display), name) != 0 {
            image = gtk_image_new_from_icon_name(name)
        } else {
            image = gtk_image_new_from_icon_name(fallback)
        }
        gtk_image_set_pixel_size(miga_image(image), size)
        return image
    }

    private static func isSmallRegularFile(_ path: String) -> Bool {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let size = attributes[.size] as? Int else { return false }
        return size <= 4 << 20
    }

    /// An `AdwActionRow`: a screen reader reads its title, then its subtitle (GTK 4.8 adds the
    /// row's title to any name set here, so none is).
    static func row(_ title: String, _ subtitle: String? = nil) -> Widget {
        let row = adw_action_row_new()!
        adw_preferences_row_set_title(miga_preferences_row(row), markupEscaped(title))
        if let subtitle { adw_action_row_set_subtitle(miga_action_row(row), markupEscaped(subtitle)) }
        return row
    }

    static func group(_ title: String, description: String? = nil) -> Widget {
        let group = adw_preferences_group_new()!
        adw_preferences_group_set_title(miga_preferences_group(group), markupEscaped(title))
        if let description { adw_preferences_group_set_description(miga_preferences_group(group), markupEscaped(description)) }
        return group
    }

    static func box(_ orientation: GtkOrientation, spacing: Int32, _ children: [Widget]) -> Widget {
        let box = gtk_box_new(orientation, spacing)!
        children.forEach { gtk_box_append(miga_box(box), $0) }
        return box
    }

    /// Row titles are Pango markup in libadwaita 1.2: a name with `&` or `<` is text, not markup.
    static func markupEscaped(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
    }

    /// Shows one child of a GtkStack and hides the rest: a stack keeps its other children
    /// "visible", and a screen reader would walk their buttons too (the welcome's three Nexts).
    static func showOnly(_ stack: Widget, _ name: String) {
        let target = gtk_stack_get_child_by_name(miga_stack(stack), name)
        if let target { gtk_widget_set_visible(target, 1) }
        gtk_stack_set_visible_child_name(miga_stack(stack), name)
        var child = gtk_widget_get_first_child(stack)
        while let widget = child {
            if widget != target { gtk_widget_set_visible(widget, 0) }
            child = gtk_widget_get_next_sibling(widget)
        }
    }

    /// Removes every child of a box (a page rebuilt with today's numbers).
    static func empty(_ box: Widget) {
        while let child = gtk_widget_get_first_child(box) { gtk_box_remove(miga_box(box), child) }
    }
}
