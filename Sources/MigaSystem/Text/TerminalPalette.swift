/// The colours miga paints a terminal with, chosen to read on the person's background.
///
/// The basic ANSI green, cyan and yellow are drawn bright by most terminals: fine on black,
/// about 2:1 (yellow 1.6:1) on white, which is hard to read. A terminal that says its
/// background (`COLORFGBG`: rxvt, Konsole, …) gets shades for it; otherwise, with 256 colours,
/// shades from the middle of the colour cube that keep at least 4:1 on both white and black
/// (tested); with 8 colours and no word on the background, the basic ones (the Linux console,
/// where they were made for, is dark).
public struct TerminalPalette: Equatable, Sendable {
    /// SGR parameters for each role.
    /// The countdown's bar and the field being typed.
    public var accent: String
    /// Exits, streaks, the celebration.
    public var good: String
    /// A note above the countdown ("3rd time today", an escalation), a warning line.
    public var notice: String

    public init(accent: String, good: String, notice: String) {
        self.accent = accent
        self.good = good
        self.notice = notice
    }

    /// The basic colours, for a dark background.
    public static let dark = TerminalPalette(accent: "36", good: "32", notice: "33")
    /// Dark shades of the 256-colour cube (#005f87, #005f00, #875f00), for a light background.
    public static let light = TerminalPalette(accent: "38;5;24", good: "38;5;22", notice: "38;5;94")
    /// Middle shades (#0087af, #008700, #af5f00): at least 4:1 on white and on black.
    public static let either = TerminalPalette(accent: "38;5;31", good: "38;5;28", notice: "38;5;130")
    /// No hue at all, bold instead: a light background with only 8 colours.
    public static let plain = TerminalPalette(accent: "1", good: "1", notice: "1")

    public init(environment: [String: String]) {
        let many = Self.hasManyColors(environment)
        switch (Self.backgroundIsLight(environment["COLORFGBG"]), many) {
        case (false?, _): self = .dark
        case (true?, true): self = .light
        case (true?, false): self = .plain
        case (nil, true): self = .either
        case (nil, false): self = .dark
        }
    }

    /// `COLORFGBG` is "FG;BG" (or "FG;default;BG"), in the 16 basic colours: 0–6 and 8 are
    /// dark, 7 and 9–15 light. Anything else says nothing.
    static func backgroundIsLight(_ value: String?) -> Bool? {
        guard let value, let last = value.split(separator: ";").last, let index = Int(last), (0...15).contains(index) else { return nil }
        return index == 7 || index >= 9
    }

    /// 256 colours or more, as terminals say it (`COLORTERM`, a `-256color` or `-direct`
    /// `TERM`), or a terminal known to have them whatever TERM it sets: every `xterm*` in use
    /// today does (xterm itself sets plain `xterm`, on a white background by default). A
    /// terminal that has not ignores 38;5;N and draws the text in its own colour.
    static func hasManyColors(_ environment: [String: String]) -> Bool {
        if let colorterm = environment["COLORTERM"], !colorterm.isEmpty { return true }
        let term = environment["TERM"] ?? ""
        return term.includes("256color") || term.hasSuffix("-direct") || term.hasPrefix("xterm")
            || ["alacritty", "foot", "wezterm"].contains(term)
    }
}
