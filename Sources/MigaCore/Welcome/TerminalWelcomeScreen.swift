import FoundationEssentials

/// The welcome's words, shared by the full screen and plain mode.
public enum WelcomeWords {
    public static let about = [
        "miga puts a short pause in front of the apps and sites you choose.",
        "When one opens you see a quote or a short read and a countdown, then choose: Exit, Read Next or Open.",
        "Nothing is paused that you did not choose, and nothing leaves this machine.",
    ]
    public static let chooseTitle = "What pulls you in?"
    public static let appsFound = "Apps found on this machine:"
    public static let noAppsFound = "No chat or social apps were found on this machine; type a name to add one."
    public static let sitesTitle = "Sites:"
    public static let pauseTitle = "The pause"
    public static let comeBack = "Pause when I come back after \(WelcomeForm.reentryMinutes) minutes"
    public static let extrasTitle = "Beyond the calm defaults (quotes, affirmations, resets):"

    public static func timer(_ seconds: Int) -> String {
        "Timer: \(seconds) s (\(MigaConfig.timerRange.lowerBound)–\(MigaConfig.timerRange.upperBound))"
    }

    public static func step(_ step: WelcomeForm.Step) -> String {
        "miga setup · \(step.rawValue + 1) of 3"
    }
}

/// Draws the welcome's frames as one string of text and escape codes, as `GateScreen` does
/// for the gate. Pure: the front passes the form, the size and how far the list is scrolled.
/// The heading and the keys stay put; only the middle scrolls, so what a person must read to
/// act is on screen at any size (80×24, 40×10).
public struct WelcomeScreen {
    public var color: Bool
    /// Not a UTF-8 locale: the scroll signs fall back to ASCII.
    public var ascii: Bool

    public init(color: Bool, ascii: Bool) {
        self.color = color
        self.ascii = ascii
    }

    public init(environment: [String: String]) {
        self.init(color: (environment["NO_COLOR"] ?? "").isEmpty, ascii: !TerminalText.localeIsUTF8(environment))
    }

    /// What the front adds below the keys: the name being typed, or a problem to say.
    public struct Extras: Equatable, Sendable {
        public var typing: String?
        public var message: String?
        public init(typing: String? = nil, message: String? = nil) {
            self.typing = typing
            self.message = message
        }
    }

    /// One frame's lines, split into the parts that stay and the part that scrolls.
    public struct Layout: Equatable {
        public var top: [String] = []
        public var body: [String] = []
        public var bottom: [String] = []
        /// The body line of each item on the choose screen, to scroll a ticked one into view.
        public var itemLines: [Int: Int] = [:]
        public var width = 0
        public var margin = 0
        /// Body lines that fit.
        public var room = 0
        /// The furthest the body scrolls.
        public var scrollLimit: Int { max(0, body.count - room) }
    }

    public func layout(_ form: WelcomeForm, columns: Int, rows: Int, extras: Extras = Extras()) -> Layout {
        var layout = Layout()
        layout.margin = columns >= 24 ? 2 : 0
        layout.width = max(8, min(GateScreen.maxTextWidth, columns - 2 * layout.margin))
        layout.top = [WelcomeWords.step(form.step)]
        switch form.step {
        case .about: addAbout(&layout)
        case .choose: addChoose(&layout, form)
        case .pause: addPause(&layout, form)
        }
        addKeys(&layout, form, extras: extras)
        let fixed = layout.top.count + layout.bottom.count
        if layout.body.count + fixed + 2 <= rows {
            // Gaps under the heading and above the keys when all fits.
            layout.top.append("")
            layout.bottom.insert("", at: 0)
            layout.room = layout.body.count
        } else {
            // The sign for more takes a line; the gap above the keys only on a tall screen.
            if rows >= 16 { layout.bottom.insert("", at: 0) }
            layout.room = max(1, rows - layout.top.count - layout.bottom.count - 1)
        }
        return layout
    }

    private func addAbout(_ layout: inout Layout) {
        for (index, line) in WelcomeWords.about.enumerated() {
            if index > 0 { layout.body.append("") }
            layout.body += TextLayout.wrap(line, width: layout.width)
        }
    }

    private func addChoose(_ layout: inout Layout, _ form: WelcomeForm) {
        layout.body += TextLayout.wrap(WelcomeWords.chooseTitle, width: layout.width)
        layout.body.append("")
        let apps = form.items.indices.filter { form.items[$0].kind == .app }
        if apps.isEmpty {
            layout.body += TextLayout.wrap(WelcomeWords.noAppsFound, width: layout.width)
        } else {
            layout.body += TextLayout.wrap(WelcomeWords.appsFound, width: layout.width)
            for index in apps { addItem(&layout, form, index) }
        }
        layout.body.append("")
        layout.body += TextLayout.wrap(WelcomeWords.sitesTitle, width: layout.width)
        for index in form.items.indices where form.items[index].kind == .site { addItem(&layout, form, index) }
    }

    private func addItem(_ layout: inout Layout, _ form: WelcomeForm, _ index: Int) {
        let item = form.items[index]
        let key = index < WelcomeForm.itemKeys.count ? String(WelcomeForm.itemKeys[index]) : " "
        layout.itemLines[index] = layout.body.count
        addChoice(&layout, key: key, chosen: item.chosen, label: TerminalText.forScreen(item.label))
    }

    /// "1 [x] Discord", a long label wrapped under itself.
    private func addChoice(_ layout: inout Layout, key: String, chosen: Bool, label: String) {
        let prefix = "\(key) \(chosen ? "[x]" : "[ ]") "
        let indent = String(repeating: " ", count: DisplayWidth.of(prefix))
        let lines = TextLayout.wrap(label, width: max(4, layout.width - indent.count))
        for (number, line) in (lines.isEmpty ? [""] : lines).enumerated() {
            layout.body.append((number == 0 ? prefix : indent) + line)
        }
    }

    private func addPause(_ layout: inout Layout, _ form: WelcomeForm) {
        layout.body += TextLayout.wrap(WelcomeWords.pauseTitle, width: layout.width)
        layout.body.append("")
        layout.body += TextLayout.wrap("-/+ " + WelcomeWords.timer(form.timerSeconds), width: layout.width)
        addChoice(&layout, key: "1", chosen: form.comesBack, label: WelcomeWords.comeBack)
        guard !form.extras.isEmpty else { return }
        layout.body.append("")
        layout.body += TextLayout.wrap(WelcomeWords.extrasTitle, width: layout.width)
        for (index, extra) in form.extras.enumerated() where index + 2 <= 9 {
            addChoice(&layout, key: "\(index + 2)", chosen: extra.chosen, label: extra.label)
        }
    }

    /// The keys for this screen, shortest form that fits the width (a line or two at 40).
    private func addKeys(_ layout: inout Layout, _ form: WelcomeForm, extras: Extras) {
        var lines: [String] = []
        if let message = extras.message { lines += TextLayout.wrap(message, width: layout.width) }
        if let typing = extras.typing {
            lines += ["App name: " + TextLayout.tail(typing, width: layout.width - 11) + "_", "Enter add · Esc back"]
        } else {
            let keys: String
            switch form.step {
            case .about: keys = "Enter next · q leave"
            case .choose:
                let last = min(form.items.count, WelcomeForm.itemKeys.count) - 1
                let range = last < 0 ? "" : last == 0 ? "1" : "1–\(WelcomeForm.itemKeys[last])"
                keys = (range.isEmpty ? "" : "\(range) choose · ") + "+ other app · Enter next · b back · q leave"
            case .pause:
                keys = "-/+ timer · 1–\(1 + min(form.extras.count, 8)) switch · Enter set up · b back · q leave"
            }
            lines += Self.wrapKeys(keys, width: layout.width)
        }
        layout.bottom = lines
    }

    /// Keys wrapped between their " · " parts, so "Enter next" is never split over two rows.
    static func wrapKeys(_ keys: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for part in keys.pieces(separatedBy: " · ") {
            let joined = line.isEmpty ? part : line + " · " + part
            if DisplayWidth.of(joined) <= width || line.isEmpty {
                line = joined
            } else {
                lines.append(line)
                line = part
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines.flatMap { DisplayWidth.of($0) <= width ? [$0] : TextLayout.wrap($0, width: width) }
    }

    /// The frame: heading, the body from `scroll`, a sign when more is above or below, keys.
    public func frame(_ form: WelcomeForm, columns: Int, rows: Int, scroll: Int, extras: Extras = Extras()) -> String {
        let layout = layout(form, columns: columns, rows: rows, extras: extras)
        let offset = min(max(0, scroll), layout.scrollLimit)
        let pad = String(repeating: " ", count: layout.margin)
        var lines = layout.top.enumerated().map { $0.offset == 0 ? bold($0.element) : $0.element }
        lines += layout.body.dropFirst(offset).prefix(layout.room).map { tick($0) }
        if layout.body.count > layout.room {
            let above = offset > 0, below = offset < layout.scrollLimit
            let up = ascii ? "^" : "↑", down = ascii ? "v" : "↓"
            let sign = below ? "\(down) more below (\(up)/\(down) scroll)" : above ? "\(up) more above (\(up)/\(down) scroll)" : ""
            lines.append(dim(sign))
        }
        lines += layout.bottom.map { dim($0) }
        var frame = "\u{1B}[H\u{1B}[2J"
        for (index, line) in lines.prefix(max(1, rows)).enumerated() {
            if index > 0 { frame += "\r\n" }
            frame += pad + line
        }
        return frame
    }

    /// The scroll that keeps body line `line` in view, from `scroll`.
    public func reveal(line: Int, scroll: Int, layout: Layout) -> Int {
        if line < scroll { return line }
        if line >= scroll + layout.room { return min(layout.scrollLimit, line - layout.room + 1) }
        return min(scroll, layout.scrollLimit)
    }

    private func sgr(_ code: String, _ text: String) -> String {
        text.isEmpty ? text : "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }

    private func bold(_ text: String) -> String { sgr("1", text) }
    private func dim(_ text: String) -> String { sgr("2", text) }

    /// A ticked box in green when colour is on (NO_COLOR: the [x] alone says it).
    private func tick(_ line: String) -> String {
        guard color, line.contains("[x]") else { return line }
        return line.replacing("[x]", with: sgr("32", "[x]"))
    }
}
