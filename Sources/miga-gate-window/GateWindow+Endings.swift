import CGtk
import GateWindowProtocol

/// How a gate's window ends: a timebox's soft end, and the celebration after Exit.
extension GateWindow {
    // MARK: A timebox's soft end

    /// "Your 10 minutes in discord are up": the card holds the line, and the three buttons
    /// become Close discord (c), 5 more minutes (m), Keep going (k). No countdown: it asks.
    func softEnd(text: String, closeLabel: String, canExtend: Bool) {
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
    }

    /// Exit was chosen: the choices and countdown make way for the gate's line and a brief
    /// sparkle, then the window ends by itself (1.5 s, well inside the gate's 3 s wait).
    func celebrate(_ text: String) {
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
        present()
        g_timeout_add(1500, { context in
            GateWindow.from(context).quit()
            return 0
        }, context)
    }
}
