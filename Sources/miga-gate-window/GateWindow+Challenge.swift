import CGtk
import GateWindowProtocol

/// The typed challenge (`challenge = "type"`): a sentence typed key by key before Open.
extension GateWindow {
    // MARK: The typed challenge

    struct Challenge {
        let box: Widget
        let sentence: Widget
        let typed: Widget
        let hint: Widget
    }

    static let challengeHint = "Type it key by key · Enter opens · Esc goes back"

    /// "Type this to open:" and the sentence, then what has been typed so far. There is no
    /// text field on purpose: nothing here can take a paste (Ctrl+V, Shift+Insert, the middle
    /// button, a drop), so only keys typed one by one count (KeyBindings sends each here).
    func askChallenge(_ sentence: String) {
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
        // Off any button, so Return and Space are the challenge's (KeyBindings sees them
        // first anyway, unless the person moves onto a button with Tab).
        gtk_widget_grab_focus(openButton)
    }

    func buildChallenge() -> Challenge {
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
        gtk_box_insert_child_after(miga_box(stage), box, countdown)
        let parts = Challenge(box: box, sentence: sentence, typed: typed, hint: hint)
        challenge = parts
        return parts
    }

    /// Shows `text` as typed so far (with a caret after it), and `hint` under it.
    func setTyped(_ text: String, hint: String) {
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
    func leaveChallenge() {
        guard challenging else { return }
        challenging = false
        typed = ""
        if let parts = challenge { gtk_widget_set_visible(parts.box, 0) }
    }
}
