/// How the gateway looks: colour or not, breathing cue or not, motion or not.
public struct GateStyle: Equatable, Sendable {
    public var color: Bool
    public var breathing: Bool
    public var animations: Bool
    /// Not a UTF-8 locale: box drawing, curly quotes and the breathing dots fall back to ASCII.
    public var ascii: Bool
    public var palette: TerminalPalette

    public init(color: Bool, breathing: Bool, animations: Bool, ascii: Bool = false, palette: TerminalPalette = .dark) {
        self.color = color
        self.breathing = breathing
        self.animations = animations
        self.ascii = ascii
        self.palette = palette
    }

    /// `NO_COLOR` (any non-empty value, per no-color.org) turns colour off.
    public init(config: MigaConfig, environment: [String: String]) {
        self.init(color: (environment["NO_COLOR"] ?? "").isEmpty,
                  breathing: config.breathing == .box,
                  animations: config.animations,
                  ascii: !TerminalText.localeIsUTF8(environment),
                  palette: TerminalPalette(environment: environment))
    }
}

/// Draws gateway frames as one string of text and escape codes, so each frame is a single
/// write and never tears. Pure: the TUI passes in the session, the time and the size.
public struct GateScreen {
    public static let maxTextWidth = 72

    public var style: GateStyle
    /// The typed challenge was just cleared by a wrong key: the hint says to start again.
    public var challengeCleared = false

    public static let challengePrompt = "Type this to open:"
    public static let challengeCleared = "Start again: type it exactly · Esc back"

    public init(style: GateStyle) { self.style = style }

    private func sgr(_ code: String, _ text: String) -> String {
        guard !text.isEmpty else { return text }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }

    private func dim(_ text: String) -> String { sgr("2", text) }
    private func bold(_ text: String) -> String { sgr("1", text) }
    private func tint(_ code: String, _ text: String) -> String { style.color ? sgr(code, text) : text }

    /// Box breathing, 4-4-4-4: the phase for the current second, and how far into it.
    public static func breathingPhase(elapsedMilliseconds: Int) -> (label: String, count: Int) {
        let second = max(0, elapsedMilliseconds) / 1000
        let labels = ["Breathe in", "Hold", "Breathe out", "Hold"]
        return (labels[(second / 4) % 4], second % 4 + 1)
    }

    /// The cue as shown: "Breathe in ●●○○", or the label alone without motion.
    public static func breathingCue(elapsedMilliseconds: Int, dots: Bool) -> String {
        let phase = breathingPhase(elapsedMilliseconds: elapsedMilliseconds)
        guard dots else { return phase.label }
        return "\(phase.label) " + String(repeating: "●", count: phase.count) + String(repeating: "○", count: 4 - phase.count)
    }

    /// How far an item scrolls on this screen: the first line offset that shows its end, and
    /// how many lines a page moves (one line of overlap keeps the reader's place).
    public struct Scroll: Equatable, Sendable {
        public var limit: Int
        public var page: Int
    }

    /// The item's text is the only part that scrolls; the header, title, countdown and choices
    /// stay put, so Open and Exit are always on screen however long the article.
    private struct Layout {
        var top: [(String, Int)] = []
        var body: [String] = []
        var bottom: [(String, Int)] = []
        var room: Int = 0
        var width: Int = 0
        /// A screen too small for the usual frame: one row of keys and seconds, no gaps.
        var compact = false
        var scroll: Scroll { Scroll(limit: max(0, body.count - room), page: max(1, room - 1)) }
    }

    private func layout(for session: GateSession, at now: UInt64, columns: Int, rows: Int, answer: String? = nil) -> Layout {
        var layout = Layout()
        layout.width = max(8, min(Self.maxTextWidth, columns >= 24 ? columns - 4 : columns - 1))
        addHeader(to: &layout, session: session)
        addItem(to: &layout, session.item)
        addCountdown(to: &layout, session: session, at: now)
        if let answer, session.askingChallenge, let sentence = session.challenge {
            // The sentence takes the choices' place, as a question does.
            addChallenge(to: &layout, sentence: sentence, answer: answer)
            return finishLayout(&layout, session: session, now: now, rows: rows, answer: answer)
        }
        if let answer, session.askingIntention {
            // The question takes the choices' place until it is answered or withdrawn.
            addIntentionQuestion(to: &layout, answer: answer)
            return finishLayout(&layout, session: session, now: now, rows: rows, answer: answer)
        }
        if session.askingMinutes {
            addMinutesQuestion(to: &layout, defaultMinutes: session.defaultMinutes)
            return finishLayout(&layout, session: session, now: now, rows: rows, answer: nil)
        }
        addChoices(to: &layout, session: session, secondsLeft: session.secondsLeft(at: now))
        addAlternatives(to: &layout, session.alternatives)
        if let notice = session.notice(at: now) {
            add(&layout.bottom, "")
            for line in TextLayout.wrap(notice, width: layout.width) { add(&layout.bottom, line, styled: tint(style.palette.notice, line)) }
        }
        return finishLayout(&layout, session: session, now: now, rows: rows, answer: nil)
    }

    private func add(_ part: inout [(String, Int)], _ plain: String, styled: String? = nil) {
        part.append((styled ?? plain, DisplayWidth.of(plain)))
    }

    /// "miga · app", then what the gate knows about today.
    private func addHeader(to layout: inout Layout, session: GateSession) {
        let header = "miga · \(TerminalText.forScreen(session.app))"
        add(&layout.top, header, styled: dim(header))
        // "3rd time today", "Last time: …", why the wait is longer: a line each.
        for note in session.notes {
            for line in TextLayout.wrap(TerminalText.forScreen(note), width: layout.width) {
                add(&layout.top, line, styled: tint(style.palette.notice, line))
            }
        }
        add(&layout.top, "")
    }

    /// The item: its title above (fixed), its text (the part that scrolls), its author below.
    private func addItem(to layout: inout Layout, _ item: ContentItem) {
        if let title = item.title {
            for line in TextLayout.wrap(TerminalText.forScreen(title), width: layout.width) { add(&layout.top, line, styled: bold(line)) }
            add(&layout.top, "")
        }
        let text = TerminalText.forScreen(item.text)
        layout.body = TextLayout.wrap(item.kind == .quote ? "“\(text)”" : text, width: layout.width)
        if let author = item.author {
            let attribution = "— \(TerminalText.forScreen(author))"
            add(&layout.bottom, "")
            add(&layout.bottom, attribution, styled: dim(attribution))
        }
        add(&layout.bottom, "")
    }

    /// The bar and the seconds left, and under it the breathing cue.
    private func addCountdown(to layout: inout Layout, session: GateSession, at now: UInt64) {
        let left = session.secondsLeft(at: now)
        let barWidth = max(10, min(layout.width, 60) - 8)
        let filled = Int((session.progress(at: now) * Double(barWidth)).rounded(.down))
        let bar = String(repeating: "━", count: filled) + String(repeating: "─", count: barWidth - filled)
        let countdown = left > 0 ? "\(left) s" : "ready"
        add(&layout.bottom, bar + "  " + countdown,
            styled: tint(style.palette.accent, String(bar.prefix(filled))) + dim(String(bar.dropFirst(filled))) + "  " + countdown)

        if style.breathing {
            let cue = Self.breathingCue(elapsedMilliseconds: session.elapsedMilliseconds(at: now), dots: style.animations)
            add(&layout.bottom, cue, styled: tint("2;" + style.palette.accent, cue))
        }
        add(&layout.bottom, "")
    }

    /// "Type this to open:", the sentence, what has been typed so far and the keys.
    private func addChallenge(to layout: inout Layout, sentence: String, answer: String) {
        let width = layout.width
        add(&layout.bottom, Self.challengePrompt, styled: bold(Self.challengePrompt))
        for line in TextLayout.wrap(TerminalText.forScreen(sentence), width: width) {
            add(&layout.bottom, line, styled: tint(style.palette.notice, line))
        }
        let field = "> " + TextLayout.tail(TerminalText.forScreen(answer), width: width - 3) + "_"
        add(&layout.bottom, field, styled: tint(style.palette.accent, field))
        let hint = challengeCleared ? Self.challengeCleared : "Enter open · Esc back · Ctrl-C exit"
        for line in TextLayout.wrap(hint, width: width) { add(&layout.bottom, line, styled: dim(line)) }
    }

    /// "What are you here to do?" and the answer so far.
    private func addIntentionQuestion(to layout: inout Layout, answer: String) {
        add(&layout.bottom, Intention.question, styled: bold(Intention.question))
        let field = "> " + TextLayout.tail(TerminalText.forScreen(answer), width: layout.width - 3) + "_"
        add(&layout.bottom, field, styled: tint(style.palette.accent, field))
        let hint = "Enter open · Esc back · Ctrl-C exit"
        add(&layout.bottom, hint, styled: dim(hint))
    }

    /// "For how long?" and its numbered answers, on one line if they fit.
    private func addMinutesQuestion(to layout: inout Layout, defaultMinutes: Int) {
        let width = layout.width
        add(&layout.bottom, TimeboxQuestion.text, styled: bold(TimeboxQuestion.text))
        let choices = TimeboxQuestion.choices.enumerated().map { "[\($0.offset + 1)] \($0.element) min" }
        if DisplayWidth.of(choices.joined(separator: "   ")) <= width {
            let line = choices.joined(separator: "   ")
            add(&layout.bottom, line, styled: tint(style.palette.accent, line))
        } else {
            for choice in choices { add(&layout.bottom, choice, styled: tint(style.palette.accent, choice)) }
        }
        let hint = "Enter \(defaultMinutes) min · Esc back · Ctrl-C exit"
        for line in TextLayout.wrap(hint, width: width) { add(&layout.bottom, line, styled: dim(line)) }
    }

    /// Exit, Read Next and Open (locked while seconds are left), on one line if they fit.
    private func addChoices(to layout: inout Layout, session: GateSession, secondsLeft left: Int) {
        let open = left > 0 ? "\(session.openLabel) in \(left) s" : session.openLabel
        let exitKey = "[e] Exit"
        let nextKey = "[n] Read Next"
        let openKey = "[o] \(open)"
        let styledOpen = left > 0 ? dim(openKey) : bold(openKey)
        let choices = "\(exitKey)   \(nextKey)   \(openKey)"
        if DisplayWidth.of(choices) <= layout.width {
            add(&layout.bottom, choices, styled: tint("1;" + style.palette.good, exitKey) + "   " + nextKey + "   " + styledOpen)
        } else {
            // A narrow terminal: one choice per line rather than running off the edge.
            add(&layout.bottom, exitKey, styled: tint("1;" + style.palette.good, exitKey))
            add(&layout.bottom, nextKey)
            add(&layout.bottom, openKey, styled: styledOpen)
        }
    }

    /// The person's own "Do this instead", each an Exit that opens it.
    private func addAlternatives(to layout: inout Layout, _ alternatives: [String]) {
        guard !alternatives.isEmpty else { return }
        let items = alternatives.enumerated().map { "[\($0.offset + 1)] \(TerminalText.forScreen($0.element))" }
        let line = "Instead: " + items.joined(separator: "   ")
        if DisplayWidth.of(line) <= layout.width {
            add(&layout.bottom, line, styled: tint(style.palette.good, line))
        } else {
            for item in items { add(&layout.bottom, item, styled: tint(style.palette.good, item)) }
        }
    }

    private func finishLayout(_ layout: inout Layout, session: GateSession, now: UInt64, rows: Int, answer: String?) -> Layout {
        // Whatever the screen leaves after the fixed parts (and two lines for a gap and the
        // scroll hint), but always a few lines of text, even if that pushes the frame off a
        // tiny screen.
        let fixed = layout.top.count + layout.bottom.count
        if layout.body.count + fixed <= rows {
            layout.room = layout.body.count
        } else if fixed + 3 + 2 <= rows {
            layout.room = rows - fixed - 2
        } else {
            compact(&layout, session: session, now: now, rows: rows, answer: answer)
        }
        return layout
    }

    /// A small terminal (80×13, 40×10, 20×5): what a person must read to act is never cut —
    /// the keys and the seconds, a question with its choices, the sentence to type — each
    /// wrapped whole. The rest has a row while one is free, in order of need: a question's
    /// words, a notice, the day's notes ("2nd time today", "2 of 3 opens left"), the
    /// alternatives' labels, the header. The item's text, decoration beside them, takes what
    /// is left (a line or two kept for it during the countdown), cut with a sign.
    private func compact(_ layout: inout Layout, session: GateSession, now: UInt64, rows: Int, answer: String?) {
        let width = layout.width
        layout.compact = true
        // The title becomes the first lines of the text: it scrolls (and is cut) with it.
        if let title = session.item.title {
            layout.body = TextLayout.wrap(TerminalText.forScreen(title), width: width) + [""] + layout.body
        }
        let header = layout.top.first.map { [$0] } ?? []
        let asked = compactQuestion(session: session, answer: answer, width: width)
        // During the countdown a line of the text (and its sign) keeps its row.
        let reserve = asked == nil ? min(layout.body.count, 2) : 0
        let essential = asked?.essential ?? [compactKeys(session: session, now: now, width: width)]
        var budget = rows - essential.count - reserve
        func take(_ lines: [(String, Int)]) -> [(String, Int)] {
            guard !lines.isEmpty, lines.count <= budget else { return [] }
            budget -= lines.count
            return lines
        }
        let words = take(asked?.words ?? [])
        let notice = take(session.notice(at: now).map { wrapped($0, width: width, styled: { tint(style.palette.notice, $0) }) } ?? [])
        let notes = session.notes.flatMap { take(wrapped(TerminalText.forScreen($0), width: width, styled: { tint(style.palette.notice, $0) })) }
        let instead = asked == nil ? compactAlternatives(session.alternatives, width: width).flatMap(take) : []
        let hint = take(asked?.hint ?? [])
        let top = take(header)
        layout.top = top + notes
        layout.bottom = notice + instead + words + essential + hint
        let free = max(0, rows - layout.top.count - layout.bottom.count)
        if layout.body.count <= free {
            layout.room = layout.body.count
        } else if free >= 2 {
            layout.room = free - 1 // a line for the sign
        } else {
            // No room for a line and its sign: the text gives way whole, never a part of
            // it without a sign that more is there.
            layout.body = []
            layout.room = 0
        }
    }

    /// `text` wrapped to `width`, each line styled, paired with its width.
    private func wrapped(_ text: String, width: Int, styled: (String) -> String) -> [(String, Int)] {
        TextLayout.wrap(text, width: width).map { (styled($0), DisplayWidth.of($0)) }
    }

    /// The countdown's one row of keys and seconds, as long as the width allows.
    private func compactKeys(session: GateSession, now: UInt64, width: Int) -> (String, Int) {
        let left = session.secondsLeft(at: now)
        let seconds = left > 0 ? "\(left) s" : "ready"
        // The person's own alternatives keep a key in the hint while there is room for it.
        let instead = session.alternatives.isEmpty ? "" : session.alternatives.count == 1 ? " · 1 instead" : " · 1–\(session.alternatives.count) instead"
        let keys = ["e exit · n next · o open\(instead) · \(seconds)", instead.isEmpty ? "" : "e/n/o\(instead) · \(seconds)",
                    "e exit · n next · o open · \(seconds)",
                    "e/n/o \(left > 0 ? "\(left)s" : "ready")", left > 0 ? "\(left)s" : "ok"]
            .first { !$0.isEmpty && DisplayWidth.of($0) <= width } ?? "\(left)"
        return (tint("1;" + style.palette.good, keys), DisplayWidth.of(keys))
    }

    /// The alternatives' labels: one row when it fits, else a group of rows per label
    /// (each taken whole or not at all).
    private func compactAlternatives(_ alternatives: [String], width: Int) -> [[(String, Int)]] {
        guard !alternatives.isEmpty else { return [] }
        let items = alternatives.enumerated().map { "[\($0.offset + 1)] \(TerminalText.forScreen($0.element))" }
        let line = "Instead: " + items.joined(separator: "   ")
        if DisplayWidth.of(line) <= width { return [[(tint(style.palette.good, line), DisplayWidth.of(line))]] }
        return items.map { wrapped($0, width: width, styled: { tint(style.palette.good, $0) }) }
    }

    /// A question on a small screen: what must be read to answer it (`essential`: the
    /// sentence to type, the field, the minutes with their keys), its words above it and
    /// its keys' hint below, each shown when there is a row; nil during the countdown.
    private func compactQuestion(session: GateSession, answer: String?, width: Int)
        -> (words: [(String, Int)], essential: [(String, Int)], hint: [(String, Int)])? {
        func field(_ answer: String) -> (String, Int) {
            let field = "> " + TextLayout.tail(TerminalText.forScreen(answer), width: width - 3) + "_"
            return (tint(style.palette.accent, field), DisplayWidth.of(field))
        }
        let dimmed = { (text: String) in self.dim(text) }
        if let answer, session.askingChallenge, let sentence = session.challenge {
            let sentenceLines = wrapped(TerminalText.forScreen(sentence), width: width, styled: { tint(style.palette.notice, $0) })
            let hint = challengeCleared ? Self.challengeCleared : "Enter open · Esc back · Ctrl-C exit"
            return (wrapped(Self.challengePrompt, width: width, styled: bold), sentenceLines + [field(answer)],
                    wrapped(hint, width: width, styled: dimmed))
        }
        if let answer, session.askingIntention {
            return (wrapped(Intention.question, width: width, styled: bold), [field(answer)],
                    wrapped("Enter open · Esc back · Ctrl-C exit", width: width, styled: dimmed))
        }
        if session.askingMinutes {
            let enter = "Enter \(session.defaultMinutes) min"
            return (wrapped(TimeboxQuestion.text, width: width, styled: bold),
                    minutesChoices(width: width) + wrapped(enter, width: width, styled: { tint(style.palette.accent, $0) }),
                    wrapped("Esc back · Ctrl-C exit", width: width, styled: dimmed))
        }
        return nil
    }

    /// "[1] 5 min   [2] 10 min …" packed into as few rows as the width allows, each key
    /// beside its own minutes; "[1] 5m" when the full words take more than two rows.
    private func minutesChoices(width: Int) -> [(String, Int)] {
        let keyed = { (unit: String) in TimeboxQuestion.choices.enumerated().map { "[\($0.offset + 1)] \($0.element)\(unit)" } }
        let full = TextLayout.pack(keyed(" min"), width: width)
        let lines = full.count <= 2 ? full : TextLayout.pack(keyed("m"), width: width)
        return lines.map { (tint(style.palette.accent, $0), DisplayWidth.of($0)) }
    }

    /// How far the current item can scroll on a `columns` × `rows` screen.
    public func scroll(for session: GateSession, at now: UInt64, columns: Int, rows: Int) -> Scroll {
        layout(for: session, at: now, columns: columns, rows: rows).scroll
    }

    /// The lines of one frame, each paired with its visible width (for centring). `scroll` is
    /// the first line of the item's text to show; it is clamped to what the text allows.
    public func lines(for session: GateSession, at now: UInt64, columns: Int, rows: Int,
                      scroll: Int = 0, answer: String? = nil) -> [(text: String, width: Int)] {
        lines(of: layout(for: session, at: now, columns: columns, rows: rows, answer: answer), scroll: scroll)
    }

    private func lines(of layout: Layout, scroll: Int) -> [(text: String, width: Int)] {
        var out = layout.top
        let limit = layout.scroll.limit
        let offset = min(max(0, scroll), limit)
        for line in layout.body[offset..<min(layout.body.count, offset + layout.room)] {
            out.append((line, DisplayWidth.of(line)))
        }
        if limit > 0 {
            let arrows = offset == 0 ? "↓" : offset == limit ? "↑" : "↑↓"
            let last = min(layout.body.count, offset + layout.room)
            let long = "\(arrows) lines \(offset + 1)–\(last) of \(layout.body.count) · ↑/↓ PgUp/PgDn to scroll"
            let short = "\(arrows) \(offset + 1)–\(last)/\(layout.body.count)"
            let hint = DisplayWidth.of(long) <= layout.width ? long : DisplayWidth.of(short) <= layout.width ? short : arrows
            if !layout.compact { out.append(("", 0)) }
            out.append((tint("2;" + style.palette.accent, hint), DisplayWidth.of(hint)))
        }
        return out + layout.bottom
    }

    /// A whole frame: clear, then each line centred as a block.
    /// `answer`: the intention typed so far, while the question is on screen.
    public func frame(for session: GateSession, at now: UInt64, columns: Int, rows: Int, scroll: Int = 0,
                      answer: String? = nil) -> String {
        // One layout serves both, unless the question's field is on screen (the block is
        // centred by the item's layout, so the field never moves it).
        let shown = layout(for: session, at: now, columns: columns, rows: rows, answer: answer)
        let plain = answer == nil ? shown : layout(for: session, at: now, columns: columns, rows: rows)
        return compose(lines(of: shown, scroll: scroll), columns: columns, rows: rows, blockWidth: blockWidth(of: plain))
    }

    /// The width the frame is centred by: every line of the item, not only those on screen,
    /// and the widest scroll hint, so scrolling never moves the text sideways.
    func blockWidth(for session: GateSession, at now: UInt64, columns: Int, rows: Int) -> Int {
        blockWidth(of: layout(for: session, at: now, columns: columns, rows: rows))
    }

    private func blockWidth(of layout: Layout) -> Int {
        var widths = (layout.top + layout.bottom).map(\.1) + layout.body.map(DisplayWidth.of)
        if layout.scroll.limit > 0 {
            let count = layout.body.count
            let long = "↑↓ lines \(count)–\(count) of \(count) · ↑/↓ PgUp/PgDn to scroll"
            widths.append(DisplayWidth.of(long) <= layout.width ? DisplayWidth.of(long) : DisplayWidth.of("↑↓ \(count)–\(count)/\(count)"))
        }
        return widths.max() ?? 0
    }

    /// The short celebration after Exit: `step` of `steps`, ending on the message.
    public func celebrationFrame(step: Int, steps: Int, message: String, columns: Int, rows: Int) -> String {
        let sparkle = ["·", "· ✦ ·", "·  ✦ ✧ ✦  ·", "✧  ·  ✦  ·  ✧"][min(3, step * 4 / max(1, steps))]
        var lines: [(String, Int)] = [(tint(style.palette.good, sparkle), DisplayWidth.of(sparkle)), ("", 0)]
        for line in TextLayout.wrap(message, width: min(Self.maxTextWidth, columns - 4)) {
            lines.append((bold(line), DisplayWidth.of(line)))
        }
        return compose(lines, columns: columns, rows: rows)
    }

    private func compose(_ lines: [(text: String, width: Int)], columns: Int, rows: Int, blockWidth: Int? = nil) -> String {
        let blockWidth = max(blockWidth ?? 0, lines.map(\.width).max() ?? 0)
        let pad = String(repeating: " ", count: TextLayout.leftPadding(blockWidth: blockWidth, columns: columns))
        let top = max(1, (rows - lines.count) / 2 + 1)
        var frame = "\u{1B}[H\u{1B}[2J"
        for (offset, line) in lines.enumerated() where top + offset <= rows {
            frame += "\u{1B}[\(top + offset);1H" + pad + line.text
        }
        return style.ascii ? TerminalText.ascii(frame) : frame
    }
}
