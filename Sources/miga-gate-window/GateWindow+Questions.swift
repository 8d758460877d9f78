import CGtk
import GateWindowProtocol

/// The questions before Open: what the person is here to do, and for how long.
extension GateWindow {
    // MARK: The question before Open

    /// The countdown (over by now) makes way for the question. Its keys are typing now, so the
    /// buttons say what they do here: Exit, Back (Esc) and Open (Enter), for a person who
    /// uses only the mouse as for one who uses only keys.
    func ask() {
        guard !celebrating, !asking else { return }
        let (box, entry) = question ?? buildQuestion()
        leaveChallenge()
        asking = true
        answered = false
        gtk_editable_set_text(miga_editable(entry), "")
        gtk_editable_set_editable(miga_editable(entry), 1)
        showChoices(false)
        gtk_widget_set_visible(box, 1)
        gtk_widget_grab_focus(entry)
    }

    func buildQuestion() -> (box: Widget, entry: Widget) {
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
        gtk_box_insert_child_after(miga_box(stage), box, countdown)

        // Enter in the field: the answer, even an empty one, is the Open.
        let activate: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, context in
            GateWindow.from(context).answer()
        }
        connectSignal(UnsafeMutableRawPointer(entry), "activate", activate, context)
        question = (box, entry)
        return (box, entry)
    }

    /// Enter in the field, or the Open button beside it: the answer is the Open.
    func answer() {
        guard asking, !answered, !celebrating, let (_, field) = question else { return }
        answered = true
        gtk_editable_set_editable(miga_editable(field), 0)
        let text = gtk_editable_get_text(miga_editable(field)).map { String(cString: $0) } ?? ""
        send(.intention(text))
    }

    // MARK: "For how long?"

    /// After the countdown (and any intention): one button per answer, `1`…`4` on the keys,
    /// and Open (Enter) for the default.
    func askMinutes(choices: [Int], defaultMinutes: Int) {
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
        if let first = buttons.first(where: { $0.minutes == defaultMinutes }) ?? buttons.first { gtk_widget_grab_focus(first.button) }
    }

    func buildMinutes(_ choices: [Int]) -> (box: Widget, buttons: [(button: Widget, minutes: Int)]) {
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
        gtk_box_insert_child_after(miga_box(stage), box, countdown)
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
            gtk_widget_grab_focus(openButton)
            send(.back)
            return
        }
        if askingMinutes, !answered, let (box, _) = timebox {
            askingMinutes = false
            gtk_widget_set_visible(box, 0)
            showChoices(true)
            gtk_widget_grab_focus(openButton)
            send(.back)
            return
        }
        guard asking, !answered, let (box, _) = question else { return }
        asking = false
        gtk_widget_set_visible(box, 0)
        showChoices(true)
        // Out of the hidden field, onto the choice the person was making.
        gtk_widget_grab_focus(openButton)
        send(.back)
    }

    /// The countdown's three choices, or the question's: the same buttons, relabelled.
    func showChoices(_ all: Bool) {
        gtk_widget_set_visible(countdown, all ? 1 : 0)
        gtk_button_set_label(miga_button(exitButton), all ? "Exit (e)" : "Exit")
        gtk_button_set_label(miga_button(nextButton), all ? "Read Next (n)" : "Back (Esc)")
        // The countdown is over whenever the question shows, so Open is always ready here.
        gtk_button_set_label(miga_button(openButton), all ? "\(openLabel) (o)" : "\(openLabel) (Enter)")
        // Their keys are the question's while it asks (1… pick minutes): they come back with
        // the choices.
        gtk_widget_set_visible(insteadRow, all && !alternativeButtons.isEmpty ? 1 : 0)
    }
}
