import CGtk

/// How the window is built: its parts, each made once by `init` and updated in place after.
extension GateWindow {
    /// The card's size in pixels: about twelve lines of an article, within a 1024×768 screen.
    static let cardWidth: Int32 = 600
    static let cardHeight: Int32 = 280
    /// The least the card's scroller keeps (about three lines) once the window's size is
    /// held, should something later need more room than the stage kept for it.
    static let cardLeast: Int32 = 72

    static func label(classes: [String], wrap: Bool) -> Widget {
        let label = gtk_label_new(nil)!
        for name in classes { gtk_widget_add_css_class(label, name) }
        gtk_label_set_xalign(miga_label(label), 0)
        gtk_label_set_selectable(miga_label(label), 0)
        if wrap {
            gtk_label_set_wrap(miga_label(label), 1)
            gtk_label_set_wrap_mode(miga_label(label), PANGO_WRAP_WORD_CHAR)
        }
        return label
    }

    /// The app's name, and under it what the gate knows about today.
    static func buildHeader() -> (header: Widget, notes: Widget) {
        let header = label(classes: ["miga-header"], wrap: false)
        gtk_label_set_ellipsize(miga_label(header), PANGO_ELLIPSIZE_END)
        // What the gate knows about today ("3rd time today", "Last time: …"): quiet, under the
        // header, one line each; an intention can be long, so it wraps rather than widening.
        let notes = label(classes: ["miga-notes"], wrap: true)
        gtk_label_set_max_width_chars(miga_label(notes), 72)
        gtk_widget_set_visible(notes, 0)
        return (header, notes)
    }

    /// The card: the item's picture, and beside it the item in a scroller.
    static func buildCard() -> (card: Widget, title: Widget, text: Widget, author: Widget, itemBox: Widget,
                                 scroller: Widget, picture: Widget) {
        let (title, text, author, item, scroller) = buildItem()
        let picture = buildPicture()
        // In a box of its own: asked how wide it is for the card's height, a GtkPicture alone
        // answers as wide as the picture would be at that height, and takes the text's room.
        let frame = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_widget_set_valign(frame, GTK_ALIGN_CENTER)
        gtk_box_append(miga_box(frame), picture)
        let card = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 20)!
        gtk_box_append(miga_box(card), frame)
        gtk_box_append(miga_box(card), scroller)
        return (card, title, text, author, item, scroller, picture)
    }

    /// The item: a title (articles), the text, the author, in a card of one height: a short
    /// quote stands in its middle, a long article scrolls inside it, and Read Next never
    /// resizes the window (it did, for each item: people found the jumping restless).
    static func buildItem() -> (title: Widget, text: Widget, author: Widget, item: Widget, scroller: Widget) {
        let title = label(classes: ["miga-title"], wrap: true)
        let text = label(classes: ["miga-text"], wrap: true)
        let author = label(classes: ["miga-author"], wrap: true)
        // No minimum in characters: the card's width (cardWidth) holds, whatever the font.
        for label in [title, text, author] { gtk_label_set_max_width_chars(miga_label(label), 72) }
        let item = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_widget_set_halign(item, GTK_ALIGN_CENTER)
        // The scroller is never shorter than its scrollbar (about 50 px): a one-line item sits
        // in the middle of that rather than above a gap.
        gtk_widget_set_valign(item, GTK_ALIGN_CENTER)
        for label in [title, text, author] { gtk_box_append(miga_box(item), label) }
        let scroller = gtk_scrolled_window_new()!
        gtk_widget_add_css_class(scroller, "miga-scroller")
        gtk_scrolled_window_set_policy(miga_scrolled_window(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_propagate_natural_height(miga_scrolled_window(scroller), 1)
        gtk_scrolled_window_set_propagate_natural_width(miga_scrolled_window(scroller), 1)
        gtk_scrolled_window_set_min_content_height(miga_scrolled_window(scroller), cardHeight)
        gtk_scrolled_window_set_max_content_height(miga_scrolled_window(scroller), cardHeight)
        gtk_scrolled_window_set_child(miga_scrolled_window(scroller), item)
        gtk_widget_set_vexpand(scroller, 1)
        gtk_widget_set_hexpand(scroller, 1)
        return (title, text, author, item, scroller)
    }

    /// The picture stands left of the text, in the middle of the card's height; a card
    /// without one gives the text the whole width.
    static func buildPicture() -> Widget {
        let picture = gtk_picture_new()!
        gtk_widget_add_css_class(picture, "miga-picture")
        gtk_picture_set_can_shrink(OpaquePointer(picture), 0)
        gtk_widget_set_valign(picture, GTK_ALIGN_CENTER)
        gtk_widget_set_halign(picture, GTK_ALIGN_CENTER)
        gtk_widget_set_visible(picture, 0)
        return picture
    }

    /// The countdown: bar, seconds, breathing cue (fixed widths, so nothing jiggles as the
    /// numbers change).
    static func buildCountdown() -> (box: Widget, progress: Widget, seconds: Widget, cue: Widget) {
        let countdown = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        gtk_widget_add_css_class(countdown, "miga-countdown")
        let progress = gtk_progress_bar_new()!
        gtk_widget_set_hexpand(progress, 1)
        gtk_widget_set_valign(progress, GTK_ALIGN_CENTER)
        miga_accessible_set_label(progress, "Countdown")
        let seconds = label(classes: ["miga-seconds"], wrap: false)
        gtk_label_set_width_chars(miga_label(seconds), 5)
        gtk_label_set_xalign(miga_label(seconds), 1)
        let cue = label(classes: ["miga-cue"], wrap: false)
        gtk_label_set_width_chars(miga_label(cue), 16)
        for widget in [progress, seconds, cue] { gtk_box_append(miga_box(countdown), widget) }
        return (countdown, progress, seconds, cue)
    }

    /// Exit, Read Next and Open, one width each; Open locked until the countdown ends.
    static func buildChoices() -> (row: Widget, exit: Widget, next: Widget, open: Widget) {
        let choices = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
        gtk_widget_add_css_class(choices, "miga-choices")
        gtk_box_set_homogeneous(miga_box(choices), 1)
        let exit = gtk_button_new_with_label("Exit (e)")!
        let next = gtk_button_new_with_label("Read Next (n)")!
        let open = gtk_button_new_with_label("Open (o)")!
        gtk_widget_set_sensitive(open, 0)
        for button in [exit, next, open] {
            gtk_widget_set_hexpand(button, 1)
            gtk_box_append(miga_box(choices), button)
        }
        return (choices, exit, next, open)
    }

    /// The row of "Do this instead" buttons (setAlternatives fills it), hidden while empty.
    static func buildInsteadRow() -> Widget {
        let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
        gtk_widget_add_css_class(row, "miga-instead")
        gtk_box_set_homogeneous(miga_box(row), 1)
        gtk_widget_set_visible(row, 0)
        return row
    }

    /// Under the card: the countdown (or a question, the challenge, the celebration in its
    /// place), the notice, and the buttons at the bottom, where they stay from state to state.
    /// Its height is the room its tallest state needs (`.miga-stage` in Style), so the window
    /// is one size throughout; it never takes the card's room by expanding.
    static func buildStage(top: [Widget], bottom: [Widget]) -> Widget {
        let stage = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_widget_add_css_class(stage, "miga-stage")
        // Between them a spacer takes what the state above does not fill.
        let spacer = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_widget_set_vexpand(spacer, 1)
        for part in top + [spacer] + bottom { gtk_box_append(miga_box(stage), part) }
        gtk_widget_set_vexpand(stage, 0) // the spacer would otherwise make it take the card's room
        return stage
    }

    /// The celebration after Exit, hidden until then.
    static func buildCelebration() -> (box: Widget, sparkle: Widget, label: Widget) {
        let celebration = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
        gtk_widget_add_css_class(celebration, "miga-celebration")
        let sparkle = label(classes: ["miga-sparkle"], wrap: false)
        gtk_label_set_text(miga_label(sparkle), "✦")
        gtk_label_set_xalign(miga_label(sparkle), 0.5)
        let text = label(classes: ["miga-celebration-text"], wrap: true)
        gtk_label_set_xalign(miga_label(text), 0.5)
        gtk_label_set_justify(miga_label(text), GTK_JUSTIFY_CENTER)
        gtk_label_set_max_width_chars(miga_label(text), 72)
        gtk_box_append(miga_box(celebration), sparkle)
        gtk_box_append(miga_box(celebration), text)
        gtk_widget_set_visible(celebration, 0)
        return (celebration, sparkle, text)
    }
}
