#if canImport(Glibc)
import Glibc
#endif
import CGtk
import GateWindowProtocol

typealias Widget = UnsafeMutablePointer<GtkWidget>

/// The window itself: plain GTK widgets laid out once, then updated in place as the gate's
/// messages arrive. It holds no session state of its own beyond what is on screen; every
/// decision (how long is left, what comes next, whether Open may open) is the gate's.
///
/// Its parts are extensions in files of their own (GateWindow+Layout, +Questions,
/// +Challenge, +Picture, +Choices, +Endings); they share the state below, so it is not
/// private. Outside them only main.swift and KeyBindings use the window.
final class GateWindow {
    let window: Widget
    let page: Widget
    let header: Widget
    let notesLabel: Widget
    let scroller: Widget
    let itemBox: Widget
    /// The item's picture (a content pack's `image`), beside the text; hidden when none.
    let picture: Widget
    let titleLabel: Widget
    let textLabel: Widget
    let authorLabel: Widget
    let countdown: Widget
    let progress: Widget
    let secondsLabel: Widget
    let cueLabel: Widget
    let noticeLabel: Widget
    let choices: Widget
    /// The person's own "Do this instead" choices (`[[alternative]]`), a row of buttons just
    /// above Exit, keys `1`…`3`; hidden when there are none, and while a question is asked.
    let insteadRow: Widget
    var alternativeButtons: [Widget] = []
    let exitButton: Widget
    let nextButton: Widget
    let openButton: Widget
    let celebration: Widget
    let sparkle: Widget
    let celebrationLabel: Widget
    /// The question before Open ("What are you here to do?"), built the first time it is
    /// asked: most gates never ask, and a text field (its input method above all) is work the
    /// first frame should not wait for.
    var question: (box: Widget, entry: Widget)?
    /// "For how long?" (`ask_minutes`): one button per answer, built when first asked.
    var timebox: (box: Widget, buttons: [(button: Widget, minutes: Int)])?
    var askingMinutes = false
    /// A timebox's soft end is on screen, not a gate: the three buttons are its choices.
    var softEnding = false
    var defaultMinutes = 10
    /// The typed challenge (`challenge = "type"`), built when first asked.
    var challenge: Challenge?
    /// The challenge is on screen: every key is a character of it (or Backspace, Enter, Esc).
    var challenging = false
    var sentence = ""
    /// The item's picture being decoded: its open file and what cancels it.
    var pictureLoad: (stream: UnsafeMutablePointer<GFileInputStream>, cancellable: UnsafeMutablePointer<GCancellable>)?
    var typed = ""

    /// Where the window's messages go (set once the link exists).
    var send: (WindowToGate) -> Void = { _ in }
    /// Ends the program.
    var quit: () -> Void = {}

    /// Motion allowed: by the gate's `animations` and by GTK's own setting.
    var motion = true
    var celebrating = false
    /// The question is on screen: keys are typing, not choices.
    var asking = false
    var answered = false
    /// The person has moved the focus with Tab or the arrows: Return and Space then press the
    /// focused button, as they would in any dialog, instead of meaning Open and Read Next.
    var navigated = false
    var presented = false
    var hasItem = false
    var paintHandler: gulong = 0
    var shownSent = false
    var secondsLeft: Int?
    /// "Open", or what the gate calls it ("Open anyway").
    var openLabel = "Open"

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
        (header, notesLabel) = Self.buildHeader()
        let item = Self.buildCard()
        (titleLabel, textLabel, authorLabel, itemBox, scroller, picture) =
            (item.title, item.text, item.author, item.itemBox, item.scroller, item.picture)
        (countdown, progress, secondsLabel, cueLabel) = Self.buildCountdown()
        noticeLabel = Self.label(classes: ["miga-notice"], wrap: true)
        gtk_label_set_max_width_chars(miga_label(noticeLabel), 72)
        gtk_widget_set_visible(noticeLabel, 0)
        (choices, exitButton, nextButton, openButton) = Self.buildChoices()
        insteadRow = Self.buildInsteadRow()
        (celebration, sparkle, celebrationLabel) = Self.buildCelebration()

        for widget in [header, notesLabel, item.card, countdown, noticeLabel, insteadRow, choices, celebration] {
            gtk_box_append(miga_box(page), widget)
        }
        gtk_window_set_child(miga_window(window), page)

        motion = miga_object_get_bool(UnsafeMutableRawPointer(gtk_settings_get_default()), "gtk-enable-animations") != 0
        if !motion { gtk_widget_add_css_class(window, "no-motion") }
        connectSignals()
    }

    // MARK: The gate's messages

    func handle(_ message: GateToWindow) {
        switch message {
        case .setUp(let app, let animations, let breathing):
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
        case .launch(let app, let executable):
            handOn(app: app, executable: executable)
        case .close:
            quit()
        }
    }

    /// Open: a new activation token for the app, asked while this window still has the focus
    /// (the person's Open is what lets the app's window come to the front), then the end.
    func handOn(app: String, executable: String) {
        if let given = miga_new_activation_token(app, executable) {
            let token = String(cString: given)
            g_free(given)
            if ActivationToken.isPlausible(token) { send(.activationToken(token)) }
        }
        quit()
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

    func show(kind: String, text: String, author: String, title: String) {
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
    func fitHeight() {
        guard presented else { return }
        var width: Int32 = 0, height: Int32 = 0 // GTK 4.8 writes both, no NULL allowed
        gtk_window_get_default_size(miga_window(window), &width, &height)
        gtk_window_set_default_size(miga_window(window), width, -1)
    }

    func tick(secondsLeft left: Int, permille: Int, breath: String) {
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
    func setText(_ label: Widget, _ text: String) -> Bool {
        if let current = gtk_label_get_text(miga_label(label)), String(cString: current) == text { return false }
        gtk_label_set_text(miga_label(label), text)
        return true
    }
}
