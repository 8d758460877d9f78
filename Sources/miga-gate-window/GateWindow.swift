#if canImport(Glibc)
import Glibc
#endif
import CGtk
import GateWindowProtocol

typealias Widget = UnsafeMutablePointer<GtkWidget>

/// The window itself: plain GTK widgets laid out once, then updated in place as the gate's
/// messages arrive. It holds no session state of its own beyond what is on screen; every
/// decision (how long is left, what comes next, whether Open may open) is the gate's.
final class GateWindow {
    let window: Widget
    private let page: Widget
    private let header: Widget
    private let notesLabel: Widget
    private let scroller: Widget
    private let itemBox: Widget
    /// The item's picture (a content pack's `image`), beside the text; hidden when none.
    private let picture: Widget
    private let titleLabel: Widget
    private let textLabel: Widget
    private let authorLabel: Widget
    private let countdown: Widget
    private let progress: Widget
    private let secondsLabel: Widget
    private let cueLabel: Widget
    private let noticeLabel: Widget
    private let choices: Widget
    /// The person's own "Do this instead" choices (`[[alternative]]`), a row of buttons just
    /// above Exit, keys `1`…`3`; hidden when there are none, and while a question is asked.
    private let insteadRow: Widget
    private(set) var alternativeButtons: [Widget] = []
    let exitButton: Widget
    let nextButton: Widget
    let openButton: Widget
    private let celebration: Widget
    private let sparkle: Widget
    private let celebrationLabel: Widget
    /// The question before Open ("What are you here to do?"), built the first time it is
    /// asked: most gates never ask, and a text field (its input method above all) is work the
    /// first frame should not wait for.
    private var question: (box: Widget, entry: Widget)?
    /// "For how long?" (`ask_minutes`): one button per answer, built when first asked.
    private var timebox: (box: Widget, buttons: [(button: Widget, minutes: Int)])?
    private(set) var askingMinutes = false
    /// A timebox's soft end is on screen, not a gate: the three buttons are its choices.
    private(set) var softEnding = false
    private var defaultMinutes = 10
    /// The typed challenge (`challenge = "type"`), built when first asked.
    private var challenge: Challenge?
    /// The challenge is on screen: every key is a character of it (or Backspace, Enter, Esc).
    private(set) var challenging = false
    private var sentence = ""
    /// The item's picture being decoded: its open file and what cancels it.
    private var pictureLoad: (stream: UnsafeMutablePointer<GFileInputStream>, cancellable: UnsafeMutablePointer<GCancellable>)?
    private var typed = ""

    /// Where the window's messages go (set once the link exists).
    var send: (WindowToGate) -> Void = { _ in }
    /// Ends the program.
    var quit: () -> Void = {}

    /// Motion allowed: by the gate's `animations` and by GTK's own setting.
    private(set) var motion = true
    private(set) var celebrating = false
    /// The question is on screen: keys are typing, not choices.
    private(set) var asking = false
    private var answered = false
    /// The person has moved the focus with Tab or the arrows: Return and Space then press the
    /// focused button, as they would in any dialog, instead of meaning Open and Read Next.
    var navigated = false
    private var presented = false
    private var hasItem = false
    private var paintHandler: gulong = 0
    private var shownSent = false
    private var secondsLeft: Int?
    /// "Open", or what the gate calls it ("Open anyway").
    private var openLabel = "Open"

    init() {
        window = gtk_window_new()
        gtk_widget_add_css_class(window, "miga")
        gtk_window_set_title(miga_window(window), "miga")
        gtk_window_set_default_size(miga_window(window), Self.cardWidth, -1)

        page = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_widget_add_css_class(page, "miga-page")
        // One width for every item and every second of the countdown (the Open button's label
        // grows from "Open (o)" to "Open in 15 s (o)"): the window never jumps sideways.
        gtk_widget_set_size_request(page, Self.cardWidth, -1)
        header = Self.label(classes: ["miga-header"], wrap: false)
        gtk_label_set_ellipsize(miga_label(header), PANGO_ELLIPSIZE_END)
        // What the gate knows about today ("3rd time today", "Last time: …"): quiet, under the
        // header, one line each; an intention can be long, so it wraps rather than widening.
        notesLabel = Self.label(classes: ["miga-notes"], wrap: true)
        gtk_label_set_max_width_chars(miga_label(notesLabel), 72)
        gtk_widget_set_visible(notesLabel, 0)

        // The item: a title (articles), the text, the author, in a card of one height: a short
        // quote stands in its middle, a long article scrolls inside it, and Read Next never
        // resizes the window (it did, for each item: people found the jumping restless).
        titleLabel = Self.label(classes: ["miga-title"], wrap: true)
        textLabel = Self.label(classes: ["miga-text"], wrap: true)
        authorLabel = Self.label(classes: ["miga-author"], wrap: true)
        // No minimum in characters: the card's width (cardWidth) holds, whatever the font.
        for label in [titleLabel, textLabel, authorLabel] { gtk_label_set_max_width_chars(miga_label(label), 72) }
        let item = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        itemBox = item
        gtk_widget_set_halign(item, GTK_ALIGN_CENTER)
        // The scroller is never shorter than its scrollbar (about 50 px): a one-line item sits
        // in the middle of that rather than above a gap.
        gtk_widget_set_valign(item, GTK_ALIGN_CENTER)
        for label in [titleLabel, textLabel, authorLabel] { gtk_box_append(miga_box(item), label) }
        scroller = gtk_scrolled_window_new()
        gtk_widget_add_css_class(scroller, "miga-scroller")
        gtk_scrolled_window_set_policy(miga_scrolled_window(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_propagate_natural_height(miga_scrolled_window(scroller), 1)
        gtk_scrolled_window_set_propagate_natural_width(miga_scrolled_window(scroller), 1)
        gtk_scrolled_window_set_min_content_height(miga_scrolled_window(scroller), Self.cardHeight)
        gtk_scrolled_window_set_max_content_height(miga_scrolled_window(scroller), Self.cardHeight)
        gtk_scrolled_window_set_child(miga_scrolled_window(scroller), item)
        gtk_widget_set_vexpand(scroller, 1)
        gtk_widget_set_hexpand(scroller, 1)

        // The picture stands left of the text, in the middle of the card's height; a card
        // without one gives the text the whole width.
        picture = gtk_picture_new()!
        gtk_widget_add_css_class(picture, "miga-picture")
        gtk_picture_set_can_shrink(OpaquePointer(picture), 0)
        gtk_widget_set_valign(picture, GTK_ALIGN_CENTER)
        gtk_widget_set_halign(picture, GTK_ALIGN_CENTER)
        gtk_widget_set_visible(picture, 0)
        // In a box of its own: asked how wide it is for the card's height, a GtkPicture alone
        // answers as wide as the picture would be at that height, and takes the text's room.
        let frame = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_widget_set_valign(frame, GTK_ALIGN_CENTER)
        gtk_box_append(miga_box(frame), picture)
        let card = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 20)!
        gtk_box_append(miga_box(card), frame)
        gtk_box_append(miga_box(card), scroller)

        // The countdown: bar, seconds, breathing cue (fixed widths, so nothing jiggles as
        // the numbers change).
        countdown = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)
        gtk_widget_add_css_class(countdown, "miga-countdown")
        progress = gtk_progress_bar_new()
        gtk_widget_set_hexpand(progress, 1)
        gtk_widget_set_valign(progress, GTK_ALIGN_CENTER)
        miga_accessible_set_label(progress, "Countdown")
        secondsLabel = Self.label(classes: ["miga-seconds"], wrap: false)
        gtk_label_set_width_chars(miga_label(secondsLabel), 5)
        gtk_label_set_xalign(miga_label(secondsLabel), 1)
        cueLabel = Self.label(classes: ["miga-cue"], wrap: false)
        gtk_label_set_width_chars(miga_label(cueLabel), 16)
        for widget in [progress, secondsLabel, cueLabel] { gtk_box_append(miga_box(countdown), widget) }

        noticeLabel = Self.label(classes: ["miga-notice"], wrap: true)
        gtk_label_set_max_width_chars(miga_label(noticeLabel), 72)
        gtk_widget_set_visible(noticeLabel, 0)

        choices = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)
        gtk_widget_add_css_class(choices, "miga-choices")
        gtk_box_set_homogeneous(miga_box(choices), 1)
        exitButton = gtk_button_new_with_label("Exit (e)")
        nextButton = gtk_button_new_with_label("Read Next (n)")
        openButton = gtk_button_new_with_label("Open (o)")
        gtk_widget_set_sensitive(openButton, 0)
        for button in [exitButton, nextButton, openButton] {
            gtk_widget_set_hexpand(button, 1)
            gtk_box_append(miga_box(choices), button)
        }
        insteadRow = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)
        gtk_widget_add_css_class(insteadRow, "miga-instead")
        gtk_box_set_homogeneous(miga_box(insteadRow), 1)
        gtk_widget_set_visible(insteadRow, 0)

        // The celebration after Exit, hidden until then.
        celebration = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)
        gtk_widget_add_css_class(celebration, "miga-celebration")
        sparkle = Self.label(classes: ["miga-sparkle"], wrap: false)
        gtk_label_set_text(miga_label(sparkle), "✦")
        gtk_label_set_xalign(miga_label(sparkle), 0.5)
        celebrationLabel = Self.label(classes: ["miga-celebration-text"], wrap: true)
        gtk_label_set_xalign(miga_label(celebrationLabel), 0.5)
        gtk_label_set_justify(miga_label(celebrationLabel), GTK_JUSTIFY_CENTER)
        gtk_label_set_max_width_chars(miga_label(celebrationLabel), 72)
        gtk_box_append(miga_box(celebration), sparkle)
        gtk_box_append(miga_box(celebration), celebrationLabel)
        gtk_widget_set_visible(celebration, 0)

        for widget in [header, notesLabel, card, countdown, noticeLabel, insteadRow, choices, celebration] {
            gtk_box_append(miga_box(page), widget)
        }
        gtk_window_set_child(miga_window(window), page)

        motion = miga_object_get_bool(UnsafeMutableRawPointer(gtk_settings_get_default()), "gtk-enable-animations") != 0
        if !motion { gtk_widget_add_css_class(window, "no-motion") }
        connectSignals()
    }

    /// The card's size in pixels: about twelve lines of an article, within a 1024×768 screen.
    static let cardWidth: Int32 = 600
    static let cardHeight: Int32 = 280

    private static func label(classes: [String], wrap: Bool) -> Widget {
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

    // MARK: The gate's messages

    func handle(_ message: GateToWindow) {
        switch message {
        case .setUp(let app, let animations, let breathing):
            gtk_window_set_title(miga_window(window), "miga — \(app)")
            gtk_label_set_text(miga_label(header), "miga · \(app)")
            gtk_widget_set_visible(cueLabel, breathing ? 1 : 0)
            if !animations && motion {
                motion = false
                gtk_widget_add_css_class(window, "no-motion")
            }
        case .item(let kind, let text, let author, let title, let image):
            show(kind: kind, text: text, author: author, title: title)
            showPicture(image, description: [title, author].filter { !$0.isEmpty }.joined(separator: ", "))
        case .alternatives(let labels):
            setAlternatives(labels)
        case .askChallenge(let sentence):
            askChallenge(sentence)
        case .tick(let secondsLeft, let permille, let breath):
            tick(secondsLeft: secondsLeft, permille: permille, breath: breath)
        case .notice(let text):
            guard setText(noticeLabel, text) else { break }
            gtk_widget_set_visible(noticeLabel, text.isEmpty ? 0 : 1)
            fitHeight() // a shown notice would otherwise squeeze the item into a scroll
        case .notes(let text):
            guard setText(notesLabel, text) else { break }
            gtk_widget_set_visible(notesLabel, text.isEmpty ? 0 : 1)
            if text.isEmpty {
                gtk_widget_remove_css_class(header, "with-notes")
            } else {
                gtk_widget_add_css_class(header, "with-notes")
            }
            fitHeight()
        case .openLabel(let text):
            openLabel = text.isEmpty ? "Open" : text
            secondsLeft = nil // the next tick relabels the button
        case .askIntention:
            ask()
        case .askMinutes(let choices, let defaultMinutes):
            askMinutes(choices: choices, defaultMinutes: defaultMinutes)
        case .softEnd(let text, let closeLabel, let canExtend):
            softEnd(text: text, closeLabel: closeLabel, canExtend: canExtend)
        case .celebrate(let text):
            celebrate(text)
        case .close:
            quit()
        }
    }

    /// After each batch of messages: the window appears once it has something to show, so
    /// its first frame has its real size and content.
    func batchDone() {
        if hasItem { present() }
    }

    func present() {
        guard !presented else { return }
        presented = true
        gtk_window_present(miga_window(window))
    }

    private func show(kind: String, text: String, author: String, title: String) {
        hasItem = true
        let isArticle = kind == "article" && !title.isEmpty
        gtk_label_set_text(miga_label(titleLabel), isArticle ? title : "")
        gtk_widget_set_visible(titleLabel, isArticle ? 1 : 0)
        gtk_label_set_text(miga_label(textLabel), kind == "quote" ? "“\(text)”" : text)
        if kind == "quote" {
            gtk_widget_add_css_class(textLabel, "quote")
        } else {
            gtk_widget_remove_css_class(textLabel, "quote")
        }
        // Quotes and affirmations stand centred, like a line on a card; an article's
        // paragraphs read better ranged left.
        let centred = kind != "article"
        gtk_label_set_xalign(miga_label(textLabel), centred ? 0.5 : 0)
        gtk_label_set_justify(miga_label(textLabel), centred ? GTK_JUSTIFY_CENTER : GTK_JUSTIFY_LEFT)
        gtk_label_set_xalign(miga_label(authorLabel), centred ? 0.5 : 0)
        gtk_label_set_text(miga_label(authorLabel), author.isEmpty ? "" : "— \(author)")
        gtk_widget_set_visible(authorLabel, author.isEmpty ? 0 : 1)
        // A new item starts at its top, not where the last one was scrolled to.
        let adjustment = gtk_scrolled_window_get_vadjustment(miga_scrolled_window(scroller))
        gtk_adjustment_set_value(adjustment, 0)
        fitHeight()
    }

    /// A shown window keeps its size when its content changes (GTK 4 only grows it up to the
    /// new minimum, and the scroller's minimum is small), so an article after a short quote
    /// would sit in a two-line slit, and a notice would push the item into a scroll. Asking
    /// for the natural height again at the current width fits the content, within the
    /// scroller's 460 px.
    private func fitHeight() {
        guard presented else { return }
        var width: Int32 = 0, height: Int32 = 0 // GTK 4.8 writes both, no NULL allowed
        gtk_window_get_default_size(miga_window(window), &width, &height)
        gtk_window_set_default_size(miga_window(window), width, -1)
    }

    private func tick(secondsLeft left: Int, permille: Int, breath: String) {
        gtk_progress_bar_set_fraction(miga_progress_bar(progress), Double(permille) / 1000)
        setText(cueLabel, breath)
        guard secondsLeft != left else { return }
        secondsLeft = left
        setText(secondsLabel, left > 0 ? "\(left) s" : "ready")
        let spoken = left > 0 ? "\(left) second\(left == 1 ? "" : "s") left" : "Ready to open"
        miga_accessible_set_label(secondsLabel, spoken)
        miga_accessible_set_label(progress, "Countdown, \(spoken)")
        gtk_button_set_label(miga_button(openButton), left > 0 ? "\(openLabel) in \(left) s (o)" : "\(openLabel) (o)")
        gtk_widget_set_sensitive(openButton, left > 0 ? 0 : 1)
    }

    /// Sets a label's text only when it changed (ticks come ten times a second); true if it did.
    @discardableResult
    private func setText(_ label: Widget, _ text: String) -> Bool {
        if let current = gtk_label_get_text(miga_label(label)), String(cString: current) == text { return false }
        gtk_label_set_text(miga_label(label), text)
        return true
    }

    // MARK: The question before Open

    /// The countdown (over by now) makes way for the question. Its keys are typing now, so the
    /// buttons say what they do here: Exit, Back (Esc) and Open (Enter), for a person who
    /// uses only the mouse as for one who uses only keys.
    private func ask() {
        guard !celebrating, !asking else { return }
        let (box, entry) = question ?? buildQuestion()
        leaveChallenge()
        asking = true
        answered = false
        gtk_editable_set_text(miga_editable(entry), "")
        gtk_editable_set_editable(miga_editable(entry), 1)
        showChoices(false)
        gtk_widget_set_visible(box, 1)
        fitHeight()
        gtk_widget_grab_focus(entry)
    }

    private func buildQuestion() -> (box: Widget, entry: Widget) {
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
        gtk_widget_add_css_class(box, "miga-question")
        let prompt = Self.label(classes: ["miga-question-label"], wrap: true)
        gtk_label_set_text(miga_label(prompt), "What are you here to do?")
        let entry = gtk_entry_new()!
        gtk_widget_set_hexpand(entry, 1)
        // 120 characters, as the gate keeps (it counts again, by grapheme, and cleans).
        gtk_entry_set_max_length(miga_entry(entry), 120)
        miga_accessible_set_label(entry, "What are you here to do?")
        let hint = Self.label(classes: ["miga-hint"], wrap: false)
        gtk_label_set_text(miga_label(hint), "Enter opens · Esc goes back")
        for widget in [prompt, entry, hint] { gtk_box_append(miga_box(box), widget) }
        gtk_box_insert_child_after(miga_box(page), box, countdown)

        // Enter in the field: the answer, even an empty one, is the Open.
        let activate: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, context in
            GateWindow.from(context).answer()
        }
        connectSignal(UnsafeMutableRawPointer(entry), "activate", activate, context)
        question = (box, entry)
        return (box, entry)
    }

    /// Enter in the field, or the Open button beside it: the answer is the Open.
    private func answer() {
        guard asking, !answered, !celebrating, let (_, field) = question else { return }
        answered = true
        gtk_editable_set_editable(miga_editable(field), 0)
        let text = gtk_editable_get_text(miga_editable(field)).map { String(cString: $0) } ?? ""
        send(.intention(text))
    }

    // MARK: "For how long?"

    /// After the countdown (and any intention): one button per answer, `1`…`4` on the keys,
    /// and Open (Enter) for the default.
    private func askMinutes(choices: [Int], defaultMinutes: Int) {
        guard !celebrating, !askingMinutes else { return }
        if let (box, _) = question { gtk_widget_set_visible(box, 0) }
        asking = false
        leaveChallenge()
        self.defaultMinutes = defaultMinutes
        let (box, buttons) = timebox ?? buildMinutes(choices)
        askingMinutes = true
        answered = false
        showChoices(false)
        gtk_button_set_label(miga_button(openButton), "\(openLabel) \(defaultMinutes) min (Enter)")
        gtk_widget_set_visible(box, 1)
        fitHeight()
        if let first = buttons.first(where: { $0.minutes == defaultMinutes }) ?? buttons.first { gtk_widget_grab_focus(first.button) }
    }

    private func buildMinutes(_ choices: [Int]) -> (box: Widget, buttons: [(button: Widget, minutes: Int)]) {
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
        gtk_widget_add_css_class(box, "miga-question")
        let prompt = Self.label(classes: ["miga-question-label"], wrap: true)
        gtk_label_set_text(miga_label(prompt), "For how long?")
        let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
        gtk_box_set_homogeneous(miga_box(row), 1)
        var buttons: [(button: Widget, minutes: Int)] = []
        let clicked: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { button, context in
            GateWindow.from(context).choose(button: button)
        }
        for (index, minutes) in choices.enumerated() {
            let button = gtk_button_new_with_label("\(minutes) min (\(index + 1))")!
            gtk_widget_set_hexpand(button, 1)
            gtk_box_append(miga_box(row), button)
            connectSignal(UnsafeMutableRawPointer(button), "clicked", clicked, context)
            buttons.append((button, minutes))
        }
        for widget in [prompt, row] { gtk_box_append(miga_box(box), widget) }
        gtk_box_insert_child_after(miga_box(page), box, countdown)
        timebox = (box, buttons)
        return (box, buttons)
    }

    /// The minutes keyed `index` (0-based), if there is such an answer.
    func chooseMinutes(index: Int) {
        guard let buttons = timebox?.buttons, buttons.indices.contains(index) else { return }
        chooseMinutes(buttons[index].minutes)
    }

    /// The answer is the Open.
    func chooseMinutes(_ minutes: Int?) {
        guard askingMinutes, !answered, !celebrating else { return }
        answered = true
        send(.minutes(minutes ?? defaultMinutes))
    }

    /// Esc in a question: the usual choices again, the answer dropped.
    func goBack() {
        if challenging, !answered {
            leaveChallenge()
            showChoices(true)
            fitHeight()
            gtk_widget_grab_focus(openButton)
            send(.back)
            return
        }
        if askingMinutes, !answered, let (box, _) = timebox {
            askingMinutes = false
            gtk_widget_set_visible(box, 0)
            showChoices(true)
            fitHeight()
            gtk_widget_grab_focus(openButton)
            send(.back)
            return
        }
        guard asking, !answered, let (box, _) = question else { return }
        asking = false
        gtk_widget_set_visible(box, 0)
        showChoices(true)
        fitHeight()
        // Out of the hidden field, onto the choice the person was making.
        gtk_widget_grab_focus(openButton)
        send(.back)
    }

    /// The countdown's three choices, or the question's: the same buttons, relabelled.
    private func showChoices(_ all: Bool) {
        gtk_widget_set_visible(countdown, all ? 1 : 0)
        gtk_button_set_label(miga_button(exitButton), all ? "Exit (e)" : "Exit")
        gtk_button_set_label(miga_button(nextButton), all ? "Read Next (n)" : "Back (Esc)")
        // The countdown is over whenever the question shows, so Open is always ready here.
        gtk_button_set_label(miga_button(openButton), all ? "\(openLabel) (o)" : "\(openLabel) (Enter)")
        // Their keys are the question's while it asks (1… pick minutes): they come back with
        // the choices.
        gtk_widget_set_visible(insteadRow, all && !alternativeButtons.isEmpty ? 1 : 0)
    }

    // MARK: The item's picture

    /// The longest side a picture is shown at, in logical pixels. The largest picture (by its
    /// header) that is loaded at all is `PictureSize`'s, the browser page's too: a file
    /// claiming more is skipped. A picture is decoded on a worker thread (a 36-megapixel PNG
    /// takes 1.6 s here), so the window answers keys all the while.
    static let pictureSide = 240
    static let pictureMaxBytes = 64 << 20

    /// Shows the item's picture beside its text, or takes the last one away (`path` empty, or
    /// a picture that cannot be shown: the text stands alone then, as without one). Its room
    /// is kept from the start, at the size its header gives, so the text does not move when
    /// the picture arrives a moment later.
    private func showPicture(_ path: String, description: String) {
        cancelPicture()
        guard !path.isEmpty, let (stream, width, height) = Self.openPicture(path) else {
            hidePicture()
            return
        }
        gtk_picture_set_paintable(OpaquePointer(picture), nil)
        gtk_widget_set_size_request(picture, width, height)
        let name = description.isEmpty ? "Picture" : "Picture: \(description)"
        gtk_picture_set_alternative_text(OpaquePointer(picture), name)
        miga_accessible_set_label(picture, name)
        gtk_widget_set_visible(picture, 1)
        // Beside a picture the text starts at its edge, not in the middle of what is left.
        gtk_widget_set_halign(itemBox, GTK_ALIGN_FILL)
        fitHeight()
        let cancellable = g_cancellable_new()!
        pictureLoad = (stream, cancellable)
        // gdk-pixbuf's own _async decodes on the main loop between reads (a 36-megapixel PNG
        // held keys up for 400 ms at a time here): a GTask's worker thread decodes instead.
        let size = UnsafeMutablePointer<Int32>.allocate(capacity: 2)
        size[0] = width
        size[1] = height
        let task = g_task_new(UnsafeMutableRawPointer(stream), cancellable, { source, result, context in
            GateWindow.from(context).pictureDecoded(source: UnsafeMutableRawPointer(source), result: result)
        }, context)
        g_task_set_task_data(task, size) { $0?.assumingMemoryBound(to: Int32.self).deallocate() }
        g_task_run_in_thread(task) { task, source, data, cancellable in
            let size = data!.assumingMemoryBound(to: Int32.self)
            let input = source!.assumingMemoryBound(to: GInputStream.self)
            var error: UnsafeMutablePointer<GError>?
            let pixbuf = gdk_pixbuf_new_from_stream_at_scale(input, size[0], size[1], 0, cancellable, &error)
            if let error { g_error_free(error) }
            g_task_return_pointer(task, pixbuf.map { UnsafeMutableRawPointer($0) }) { g_object_unref($0) }
        }
        g_object_unref(UnsafeMutableRawPointer(task))
    }

    /// The worker's picture: shown if it is still the item's (Read Next may have come since).
    private func pictureDecoded(source: UnsafeMutableRawPointer?, result: OpaquePointer?) {
        var error: UnsafeMutablePointer<GError>?
        let decoded = g_task_propagate_pointer(result, &error).map { OpaquePointer($0) }
        if let error { g_error_free(error) }
        guard let load = pictureLoad, source == UnsafeMutableRawPointer(load.stream) else {
            if let decoded { g_object_unref(UnsafeMutableRawPointer(decoded)) }
            return
        }
        pictureLoad = nil
        g_object_unref(UnsafeMutableRawPointer(load.stream))
        g_object_unref(UnsafeMutableRawPointer(load.cancellable))
        guard let decoded else {
            hidePicture()
            return
        }
        // A camera's photo says which way up it goes.
        var pixbuf = decoded
        if let turned = gdk_pixbuf_apply_embedded_orientation(decoded) {
            g_object_unref(UnsafeMutableRawPointer(decoded))
            pixbuf = turned
        }
        let texture = gdk_texture_new_for_pixbuf(pixbuf)
        let width = gdk_pixbuf_get_width(pixbuf), height = gdk_pixbuf_get_height(pixbuf)
        g_object_unref(UnsafeMutableRawPointer(pixbuf))
        guard let texture else {
            hidePicture()
            return
        }
        gtk_picture_set_paintable(OpaquePointer(picture), texture)
        g_object_unref(UnsafeMutableRawPointer(texture))
        gtk_widget_set_size_request(picture, width, height)
    }

    private func cancelPicture() {
        guard let load = pictureLoad else { return }
        pictureLoad = nil
        g_cancellable_cancel(load.cancellable)
        g_object_unref(UnsafeMutableRawPointer(load.stream))
        g_object_unref(UnsafeMutableRawPointer(load.cancellable))
    }

    private func hidePicture() {
        cancelPicture()
        guard gtk_widget_get_visible(picture) != 0 else { return }
        gtk_picture_set_paintable(OpaquePointer(picture), nil)
        gtk_widget_set_visible(picture, 0)
        gtk_widget_set_halign(itemBox, GTK_ALIGN_CENTER)
        fitHeight()
    }

    /// The picture at `path`, opened to be read, and the size to show it at (scaled down to
    /// fit `pictureSide` square, never up); nil for anything that is not a picture of a sane
    /// size. The gate checked the path already; the window checks again on the file it
    /// actually opens (non-blocking, so a FIFO put there since cannot hang it), and reads that
    /// same open file through /proc from then on, never the path a second time.
    static func openPicture(_ path: String) -> (stream: UnsafeMutablePointer<GFileInputStream>, width: Int32, height: Int32)? {
        guard path.hasPrefix("/") else { return nil }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
              info.st_size > 0, info.st_size <= pictureMaxBytes else { return nil }
        let opened = "/proc/self/fd/\(fd)"
        // The header only: how big the picture says it is.
        var width: Int32 = 0, height: Int32 = 0
        guard gdk_pixbuf_get_file_info(opened, &width, &height) != nil, width > 0, height > 0,
              PictureSize.allows(width: Int(width), height: Int(height)) else { return nil }
        let scale = min(1, Double(pictureSide) / Double(width), Double(pictureSide) / Double(height))
        let file = g_file_new_for_path(opened)
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        var error: UnsafeMutablePointer<GError>?
        guard let stream = g_file_read(file, nil, &error) else {
            if let error { g_error_free(error) }
            return nil
        }
        return (stream, max(1, Int32((Double(width) * scale).rounded())), max(1, Int32((Double(height) * scale).rounded())))
    }

    // MARK: Do this instead

    /// One button per alternative (at most 3), in a row under the choices: "Write (1)".
    private func setAlternatives(_ labels: [String]) {
        for button in alternativeButtons { gtk_box_remove(miga_box(insteadRow), button) }
        alternativeButtons = []
        let clicked: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { button, context in
            GateWindow.from(context).choose(button: button)
        }
        for (index, label) in labels.prefix(3).enumerated() {
            let button = gtk_button_new()!
            gtk_widget_add_css_class(button, "miga-alternative")
            gtk_widget_set_hexpand(button, 1)
            // A long label is cut short on its button, never its key; the tooltip and the
            // accessible name say it whole.
            let face = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
            gtk_widget_set_halign(face, GTK_ALIGN_CENTER)
            let text = gtk_label_new(label)!
            gtk_label_set_ellipsize(miga_label(text), PANGO_ELLIPSIZE_END)
            gtk_label_set_single_line_mode(miga_label(text), 1)
            let key = gtk_label_new(" (\(index + 1))")!
            gtk_box_append(miga_box(face), text)
            gtk_box_append(miga_box(face), key)
            gtk_button_set_child(miga_button(button), face)
            if label.count > 20 { gtk_widget_set_tooltip_text(button, label) }
            miga_accessible_set_label(button, "Instead: \(label) (\(index + 1))")
            connectSignal(UnsafeMutableRawPointer(button), "clicked", clicked, context)
            gtk_box_append(miga_box(insteadRow), button)
            alternativeButtons.append(button)
        }
        let choosing = !asking && !askingMinutes && !challenging && !softEnding && !celebrating
        gtk_widget_set_visible(insteadRow, choosing && !alternativeButtons.isEmpty ? 1 : 0)
        fitHeight()
    }

    /// Alternative `index` (0-based), if there is one and the gate is at its choices: an
    /// Exit that opens it (the gate answers with `celebrate`).
    func chooseAlternative(index: Int) {
        guard alternativeButtons.indices.contains(index), !asking, !askingMinutes, !challenging, !softEnding, !celebrating else { return }
        send(.alternative(index + 1))
    }

    // MARK: The typed challenge

    private struct Challenge {
        let box: Widget
        let sentence: Widget
        let typed: Widget
        let hint: Widget
    }

    static let challengeHint = "Type it key by key · Enter opens · Esc goes back"

    /// "Type this to open:" and the sentence, then what has been typed so far. There is no
    /// text field on purpose: nothing here can take a paste (Ctrl+V, Shift+Insert, the middle
    /// button, a drop), so only keys typed one by one count (KeyBindings sends each here).
    private func askChallenge(_ sentence: String) {
        guard !celebrating, !softEnding else { return }
        let parts = challenge ?? buildChallenge()
        let again = challenging && answered
        if let (box, _) = question { gtk_widget_set_visible(box, 0) }
        if let (box, _) = timebox { gtk_widget_set_visible(box, 0) }
        asking = false
        askingMinutes = false
        challenging = true
        answered = false
        self.sentence = sentence
        gtk_label_set_text(miga_label(parts.sentence), sentence)
        setTyped("", hint: again ? "That was not it: type it again" : Self.challengeHint)
        showChoices(false)
        gtk_widget_set_visible(parts.box, 1)
        fitHeight()
        // Off any button, so Return and Space are the challenge's (KeyBindings sees them
        // first anyway, unless the person moves onto a button with Tab).
        gtk_widget_grab_focus(openButton)
    }

    private func buildChallenge() -> Challenge {
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
        gtk_widget_add_css_class(box, "miga-question")
        let prompt = Self.label(classes: ["miga-question-label"], wrap: true)
        gtk_label_set_text(miga_label(prompt), "Type this to open:")
        let sentence = Self.label(classes: ["miga-sentence"], wrap: true)
        gtk_label_set_max_width_chars(miga_label(sentence), 72)
        let typed = Self.label(classes: ["miga-typed"], wrap: true)
        gtk_label_set_max_width_chars(miga_label(typed), 72)
        gtk_widget_set_hexpand(typed, 1)
        let hint = Self.label(classes: ["miga-hint"], wrap: false)
        gtk_label_set_ellipsize(miga_label(hint), PANGO_ELLIPSIZE_END)
        for widget in [prompt, sentence, typed, hint] { gtk_box_append(miga_box(box), widget) }
        gtk_box_insert_child_after(miga_box(page), box, countdown)
        let parts = Challenge(box: box, sentence: sentence, typed: typed, hint: hint)
        challenge = parts
        return parts
    }

    /// Shows `text` as typed so far (with a caret after it), and `hint` under it.
    private func setTyped(_ text: String, hint: String) {
        typed = text
        guard let parts = challenge else { return }
        let escaped = g_markup_escape_text(text, -1).map { pointer -> String in
            defer { g_free(pointer) }
            return String(cString: pointer)
        } ?? ""
        gtk_label_set_markup(miga_label(parts.typed), escaped + "<span alpha=\"45%\">▏</span>")
        miga_accessible_set_label(parts.typed, text.isEmpty ? "Typed so far: nothing" : "Typed so far: \(text)")
        setText(parts.hint, hint)
        if hint == Self.challengeHint {
            gtk_widget_remove_css_class(parts.hint, "warning")
        } else {
            gtk_widget_add_css_class(parts.hint, "warning")
        }
    }

    /// One key's character: the next of the sentence, or a mistake that clears it all.
    func typeChallenge(_ character: Character) {
        guard challenging, !answered, !celebrating else { return }
        let next = ChallengeTyping.adding(character, to: typed, sentence: sentence)
        setTyped(next, hint: next.isEmpty ? "Start again: type it exactly" : Self.challengeHint)
    }

    func eraseChallenge() {
        guard challenging, !answered, !celebrating else { return }
        setTyped(ChallengeTyping.erasing(typed), hint: Self.challengeHint)
    }

    /// Enter, or the Open button: the sentence goes to the gate once it is typed whole.
    func submitChallenge() {
        guard challenging, !answered, !celebrating else { return }
        guard typed == sentence else {
            setTyped(typed, hint: "Not yet: type the whole sentence, then Enter")
            return
        }
        answered = true
        send(.challenge(typed))
    }

    /// The challenge makes way (for the next question, or the choices).
    private func leaveChallenge() {
        guard challenging else { return }
        challenging = false
        typed = ""
        if let parts = challenge { gtk_widget_set_visible(parts.box, 0) }
    }

    // MARK: A timebox's soft end

    /// "Your 10 minutes in discord are up": the card holds the line, and the three buttons
    /// become Close discord (c), 5 more minutes (m), Keep going (k). No countdown: it asks.
    private func softEnd(text: String, closeLabel: String, canExtend: Bool) {
        guard !celebrating else { return }
        softEnding = true
        hasItem = true
        show(kind: "affirmation", text: text, author: "", title: "")
        showPicture("", description: "")
        gtk_widget_set_visible(countdown, 0)
        gtk_widget_set_visible(insteadRow, 0)
        gtk_button_set_label(miga_button(exitButton), "\(closeLabel) (c)")
        gtk_button_set_label(miga_button(nextButton), "5 more minutes (m)")
        gtk_widget_set_visible(nextButton, canExtend ? 1 : 0)
        gtk_button_set_label(miga_button(openButton), "Keep going (k)")
        gtk_widget_set_sensitive(openButton, 1)
        fitHeight()
    }

    /// Exit was chosen: the choices and countdown make way for the gate's line and a brief
    /// sparkle, then the window ends by itself (1.5 s, well inside the gate's 3 s wait).
    private func celebrate(_ text: String) {
        guard !celebrating else { return }
        celebrating = true
        for widget in [countdown, choices, insteadRow, noticeLabel] + (question.map { [$0.box] } ?? []) + (timebox.map { [$0.box] } ?? [])
                + (challenge.map { [$0.box] } ?? []) {
            gtk_widget_set_visible(widget, 0)
        }
        gtk_label_set_text(miga_label(celebrationLabel), text)
        gtk_widget_set_visible(celebrationLabel, text.isEmpty ? 0 : 1)
        // Without motion the sparkle stands still rather than vanishing, so the celebration
        // looks the same apart from the movement.
        if motion { gtk_widget_add_css_class(sparkle, "animated") }
        gtk_widget_set_visible(celebration, 1)
        fitHeight()
        present()
        g_timeout_add(1500, { context in
            GateWindow.from(context).quit()
            return 0
        }, context)
    }

    // MARK: Signals

    private func connectSignals() {
        let clicked: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { button, context in
            let gate = GateWindow.from(context)
            gate.choose(button: button)
        }
        for button in [exitButton, nextButton, openButton] {
            connectSignal(UnsafeMutableRawPointer(button), "clicked", clicked, context)
        }

        // The close button is the person's explicit Exit: the gate answers with `celebrate`.
        let closeRequest: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = { _, context in
            let gate = GateWindow.from(context)
            if gate.celebrating {
                gate.quit()
            } else if gate.softEnding {
                gate.send(.softEndChoice("keep"))
            } else {
                gate.send(.closeButton)
            }
            return 1
        }
        connectSignal(UnsafeMutableRawPointer(window), "close-request", closeRequest, context)

        // `shown` goes out after the first frame is actually painted, not at map time: the
        // gate falls back to a terminal if it does not hear it.
        let mapped: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, context in
            let gate = GateWindow.from(context)
            guard gate.paintHandler == 0, !gate.shownSent, let clock = gtk_widget_get_frame_clock(gate.window) else { return }
            let painted: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { clock, context in
                let gate = GateWindow.from(context)
                g_signal_handler_disconnect(clock, gate.paintHandler)
                guard !gate.shownSent else { return }
                gate.shownSent = true
                gate.send(.shown)
            }
            gate.paintHandler = connectSignal(UnsafeMutableRawPointer(clock), "after-paint", painted, context)
        }
        connectSignal(UnsafeMutableRawPointer(window), "map", mapped, context)

        KeyBindings.attach(to: self)
    }

    func choose(button: UnsafeMutableRawPointer?) {
        guard !celebrating, let button else { return }
        if softEnding {
            switch button {
            case UnsafeMutableRawPointer(exitButton): send(.softEndChoice("close"))
            case UnsafeMutableRawPointer(nextButton):
                if gtk_widget_get_visible(nextButton) != 0 { send(.softEndChoice("extend")) }
            case UnsafeMutableRawPointer(openButton): send(.softEndChoice("keep"))
            default: break
            }
            return
        }
        switch button {
        case UnsafeMutableRawPointer(exitButton): send(.exit)
        case UnsafeMutableRawPointer(nextButton): asking || askingMinutes || challenging ? goBack() : send(.readNext)
        case UnsafeMutableRawPointer(openButton):
            askingMinutes ? chooseMinutes(nil) : asking ? answer() : challenging ? submitChallenge() : send(.open)
        default:
            if let answer = timebox?.buttons.first(where: { UnsafeMutableRawPointer($0.button) == button }) {
                chooseMinutes(answer.minutes)
            } else if let index = alternativeButtons.firstIndex(where: { UnsafeMutableRawPointer($0) == button }) {
                chooseAlternative(index: index)
            }
        }
    }

    /// The buttons Return and Space press once the person has moved onto one with Tab.
    var buttons: [Widget] { [exitButton, nextButton, openButton] + alternativeButtons }

    /// Scrolls a long article by `pages` of its visible height (or by lines); false when
    /// there is nothing to scroll, so the key can do its usual job.
    func scroll(pages: Double = 0, lines: Double = 0) -> Bool {
        guard let adjustment = gtk_scrolled_window_get_vadjustment(miga_scrolled_window(scroller)) else { return false }
        let page = gtk_adjustment_get_page_size(adjustment)
        guard gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_lower(adjustment) > page + 0.5 else { return false }
        let step = pages * page * 0.9 + lines * 40
        gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) + step)
        return true
    }
}
