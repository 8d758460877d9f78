import CGtk
import GateWindowProtocol

/// The same keys as the terminal gate: e/E/q/Esc Exit, n/N/Space Read Next, o/O/Return Open.
/// The controller runs in the capture phase, before the focused button sees the key; otherwise
/// Space and Return would press whichever button has the focus. Open is sent even while it is
/// locked: the gate answers with a notice saying how long is left. While the gate asks what
/// the person is here to do, the keys belong to the answer field instead.
enum KeyBindings {
    enum Action { case send(WindowToGate), pressFocused, scroll(pages: Double, lines: Double), navigate, pass }

    static func attach(to gate: GateWindow) {
        let controller = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_CAPTURE)
        let pressed: @convention(c) (UnsafeMutableRawPointer?, guint, guint, GdkModifierType, UnsafeMutableRawPointer?) -> gboolean = {
            _, keyval, _, state, context in
            KeyBindings.pressed(keyval: keyval, state: state, gate: GateWindow.from(context)) ? 1 : 0
        }
        connectSignal(UnsafeMutableRawPointer(controller), "key-pressed", pressed, gate.context)
        gtk_widget_add_controller(gate.window, controller)
    }

    /// true when the key was ours.
    static func pressed(keyval: guint, state: GdkModifierType, gate: GateWindow) -> Bool {
        // Ctrl, Alt and Super combinations are not choices (Ctrl+Q is not a considered Exit).
        let modifiers = GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue | GDK_SUPER_MASK.rawValue | GDK_META_MASK.rawValue
        guard state.rawValue & modifiers == 0 else { return false }
        if gate.celebrating { return true }
        if gate.challenging { return challengeKey(keyval, gate: gate) }
        // The question is a text field: every key is typing (e, n, o, q and Space are letters
        // of the answer, Return is the field's own Enter), but Esc, which goes back.
        if gate.asking {
            guard Int32(keyval) == GDK_KEY_Escape else { return false }
            gate.goBack()
            return true
        }
        if gate.softEnding { return softEndKey(keyval, gate: gate) }
        if gate.askingMinutes { return minutesKey(keyval, gate: gate) }
        if alternativeKey(keyval, gate: gate) { return true }
        return choiceKey(keyval, gate: gate)
    }

    /// Tab, the arrows: the person moves the focus between buttons, GTK's own way.
    static func isNavigation(_ keyval: guint) -> Bool {
        switch Int32(keyval) {
        case GDK_KEY_Tab, GDK_KEY_ISO_Left_Tab, GDK_KEY_KP_Tab, GDK_KEY_Left, GDK_KEY_Right, GDK_KEY_KP_Left, GDK_KEY_KP_Right:
            return true
        default: return false
        }
    }

    /// The typed challenge: each key is one character of the sentence, taken here and nowhere
    /// else (there is no text field, so a paste has nowhere to go). Ctrl+V and the like were
    /// turned away before; Shift+Insert has no character.
    private static func challengeKey(_ keyval: guint, gate: GateWindow) -> Bool {
        if isNavigation(keyval) {
            gate.navigated = true
            return false
        }
        switch Int32(keyval) {
        case GDK_KEY_Escape: gate.goBack()
        case GDK_KEY_BackSpace: gate.eraseChallenge()
        case GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_ISO_Enter:
            // Enter opens, unless the person moved onto a button with Tab: that button.
            if gate.navigated, let focus = gtk_window_get_focus(miga_window(gate.window)), gate.buttons.contains(focus) {
                return false
            }
            gate.submitChallenge()
        default:
            let code = gdk_keyval_to_unicode(keyval)
            guard code >= 0x20, code != 0x7F, !(0x80..<0xA0).contains(code), let scalar = Unicode.Scalar(code) else { break }
            gate.typeChallenge(Character(scalar))
        }
        return true
    }

    /// A timebox's soft end: c closes the app, m extends, k (or Esc) keeps going.
    private static func softEndKey(_ keyval: guint, gate: GateWindow) -> Bool {
        if isNavigation(keyval) {
            gate.navigated = true
            return false
        }
        switch Int32(keyval) {
        case GDK_KEY_c, GDK_KEY_C: gate.send(.softEndChoice("close"))
        case GDK_KEY_m, GDK_KEY_M: gate.choose(button: UnsafeMutableRawPointer(gate.nextButton))
        case GDK_KEY_k, GDK_KEY_K, GDK_KEY_Escape: gate.send(.softEndChoice("keep"))
        case GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_ISO_Enter, GDK_KEY_space:
            return false // the focused button
        default: break
        }
        return true
    }

    /// "For how long?": 1…9 pick an answer, Enter the default, Esc goes back.
    private static func minutesKey(_ keyval: guint, gate: GateWindow) -> Bool {
        if isNavigation(keyval) {
            gate.navigated = true
            return false
        }
        switch Int32(keyval) {
        case GDK_KEY_Escape: gate.goBack()
        case GDK_KEY_1...GDK_KEY_9: gate.chooseMinutes(index: Int(Int32(keyval) - GDK_KEY_1))
        case GDK_KEY_KP_1...GDK_KEY_KP_9: gate.chooseMinutes(index: Int(Int32(keyval) - GDK_KEY_KP_1))
        case GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_ISO_Enter:
            // Enter is the default, unless the person moved onto a button with Tab.
            guard gate.navigated else { gate.chooseMinutes(nil); return true }
            return false
        default: break
        }
        return true
    }

    /// "Do this instead": 1…3 at the choices (an Exit, so never locked); true if it was one.
    private static func alternativeKey(_ keyval: guint, gate: GateWindow) -> Bool {
        guard !gate.alternativeButtons.isEmpty else { return false }
        switch Int32(keyval) {
        case GDK_KEY_1...GDK_KEY_3:
            gate.chooseAlternative(index: Int(Int32(keyval) - GDK_KEY_1))
            return true
        case GDK_KEY_KP_1...GDK_KEY_KP_3:
            gate.chooseAlternative(index: Int(Int32(keyval) - GDK_KEY_KP_1))
            return true
        default: return false
        }
    }

    /// The countdown's choices: Exit, Read Next, Open, scrolling and moving the focus.
    private static func choiceKey(_ keyval: guint, gate: GateWindow) -> Bool {
        switch action(for: keyval, navigated: gate.navigated) {
        case .send(let message):
            gate.send(message)
            return true
        case .pressFocused:
            guard let focus = gtk_window_get_focus(miga_window(gate.window)),
                  gate.buttons.contains(focus) else { return false }
            gate.choose(button: UnsafeMutableRawPointer(focus))
            return true
        case .scroll(let pages, let lines):
            return gate.scroll(pages: pages, lines: lines)
        case .navigate:
            gate.navigated = true
            return false
        case .pass:
            return false
        }
    }

    static func action(for keyval: guint, navigated: Bool) -> Action {
        switch Int32(keyval) {
        case GDK_KEY_e, GDK_KEY_E, GDK_KEY_q, GDK_KEY_Escape: return .send(.exit)
        case GDK_KEY_n, GDK_KEY_N: return .send(.readNext)
        case GDK_KEY_o, GDK_KEY_O: return .send(.open)
        case GDK_KEY_space, GDK_KEY_KP_Space: return navigated ? .pressFocused : .send(.readNext)
        case GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_ISO_Enter: return navigated ? .pressFocused : .send(.open)
        case GDK_KEY_Page_Down, GDK_KEY_KP_Page_Down: return .scroll(pages: 1, lines: 0)
        case GDK_KEY_Page_Up, GDK_KEY_KP_Page_Up: return .scroll(pages: -1, lines: 0)
        case GDK_KEY_Down, GDK_KEY_KP_Down: return .scroll(pages: 0, lines: 1)
        case GDK_KEY_Up, GDK_KEY_KP_Up: return .scroll(pages: 0, lines: -1)
        default: return isNavigation(keyval) ? .navigate : .pass
        }
    }
}
