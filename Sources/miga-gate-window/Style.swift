#if canImport(Glibc)
import Glibc
#endif
import CGtk

/// The window's look, compiled into the binary so nothing has to be found on disk. Colours
/// come from the theme (text, buttons, the bar) so light and dark both read well; the two
/// tints of our own are mixed with `currentColor`, which makes them darker on a light theme
/// and lighter on a dark one (the theme's orange warning colour is too pale on white).
enum Style {
    static let css = """
    .miga-page { padding: 18px 32px 20px 32px; }
    .miga-header { font-size: 0.85em; opacity: 0.6; letter-spacing: 1px; margin-bottom: 14px; }
    .miga-header.with-notes { margin-bottom: 4px; }
    .miga-notes { font-size: 0.9em; opacity: 0.7; line-height: 1.25; margin-bottom: 14px; }
    .miga-title { font-weight: bold; font-size: 1.1em; margin-bottom: 8px; }
    .miga-text { font-size: 1.05em; line-height: 1.3; }
    .miga-text.quote { font-size: 1.25em; }
    /* More of an article below: the text fades at the scroller's edge (GTK shows the
       undershoot node only while there is more to scroll that way). */
    .miga-scroller undershoot.bottom { background-image: linear-gradient(to top, alpha(@theme_bg_color, 0.95), alpha(@theme_bg_color, 0) 28px); }
    .miga-scroller undershoot.top { background-image: linear-gradient(to bottom, alpha(@theme_bg_color, 0.95), alpha(@theme_bg_color, 0) 28px); }
    .miga-author { opacity: 0.7; margin-top: 10px; }
    /* Under the card, room for its tallest state (the typed challenge and the buttons), in
       the font's size so it holds at any: the window keeps one size from state to state. */
    .miga-stage { min-height: 14em; }
    .miga-countdown { margin-top: 22px; }
    .miga-countdown progressbar { min-width: 120px; }
    .miga-seconds { font-feature-settings: "tnum"; }
    .miga-cue { opacity: 0.75; font-feature-settings: "tnum"; }
    .miga-question { margin-top: 22px; }
    .miga-question-label { font-size: 1.05em; }
    .miga-question entry { min-height: 36px; padding-left: 10px; padding-right: 10px; }
    .miga-hint { font-size: 0.85em; opacity: 0.6; }
    .miga-hint.warning { color: mix(#c98500, currentColor, 0.4); opacity: 1; }
    .miga-sentence { font-size: 1.1em; font-weight: bold; margin-top: 2px; }
    /* What has been typed of the challenge: drawn like a field, but not one (no paste). */
    .miga-typed { font-size: 1.1em; min-height: 24px; padding: 6px 10px; border-radius: 6px;
                  border: 1px solid alpha(currentColor, 0.35); background-color: alpha(currentColor, 0.04); }
    .miga-picture { border-radius: 6px; }
    .miga-instead { margin-top: 8px; }
    .miga-notice { color: mix(#c98500, currentColor, 0.4); margin-top: 12px; }
    .miga-choices { margin-top: 16px; }
    .miga-celebration { margin-top: 22px; }
    .miga-celebration-text { font-size: 1.15em; }
    .miga-sparkle { font-size: 2.4em; color: mix(#c98500, currentColor, 0.25); }
    .miga-sparkle.animated { animation: miga-sparkle 1200ms ease-out 1 both; }
    @keyframes miga-sparkle {
        0% { opacity: 0; transform: scale(0.4) rotate(-40deg); }
        55% { opacity: 1; transform: scale(1.3) rotate(8deg); }
        100% { opacity: 0.9; transform: scale(1) rotate(0deg); }
    }
    window.miga.no-motion, window.miga.no-motion * { transition: none; animation: none; }
    """

    static func install() {
        let provider = gtk_css_provider_new()!
        // GTK drops a rule it cannot parse without a word; say so, since the CSS is ours.
        let parsingError: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<GError>?,
                                          UnsafeMutableRawPointer?) -> Void = { _, section, error, _ in
            let location = section.flatMap { gtk_css_section_to_string($0) }
            defer { g_free(location) }
            sayOnStandardError("miga-gate-window: CSS \(location.map { String(cString: $0) } ?? ""): "
                               + "\(error.map { String(cString: $0.pointee.message) } ?? "?")\n")
        }
        connectSignal(UnsafeMutableRawPointer(provider), "parsing-error", parsingError, nil)
        gtk_css_provider_load_from_data(provider, css, -1)
        gtk_style_context_add_provider_for_display(gdk_display_get_default(), OpaquePointer(provider),
                                                   UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    }
}
