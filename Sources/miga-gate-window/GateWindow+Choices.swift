import CGtk
import GateWindowProtocol

/// The buttons and what pressing them means: the countdown's choices, "Do this instead",
/// and the window's own signals (close, first paint, keys).
extension GateWindow {
    // MARK: Do this instead

    /// One button per alternative (at most 3), in a row under the choices: "Write (1)".
    func setAlternatives(_ labels: [String]) {
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
    }

    /// Alternative `index` (0-based), if there is one and the gate is at its choices: an
    /// Exit that opens it (the gate answers with `celebrate`).
    func chooseAlternative(index: Int) {
        guard alternativeButtons.indices.contains(index), !asking, !askingMinutes, !challenging, !softEnding, !celebrating else { return }
        send(.alternative(index + 1))
    }

    // MARK: Signals

    func connectSignals() {
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
                gate.holdSize()
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
