/// How the gateway looks: colour or not, breathing cue or not, motion or not.
public struct GatewayStyle: Equatable, Sendable {
    public var color: Bool
    public var breathing: Bool
    public var animations: Bool

    public init(color: Bool, breathing: Bool, animations: Bool) {
        self.color = color
        self.breathing = breathing
        self.animations = animations
    }

    /// `NO_COLOR` (any non-empty value, per no-color.org) turns colour off.
    public init(config: MigaConfig, environment: [String: String]) {
        self.init(color: (environment["NO_COLOR"] ?? "").isEmpty,
                  breathing: config.breathing == .box,
                  animations: config.animations)
    }
}

/// Draws gateway frames as one string of text and escape codes, so each frame is a single
/// write and never tears. Pure: the TUI passes in the session, the time and the size.
public struct GatewayScreen {
    public static let maxTextWidth = 72

    public var style: GatewayStyle

    public init(style: GatewayStyle) { self.style = style }

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

    /// The lines of one frame, each paired with its visible width (for centring).
    public func lines(for session: GatewaySession, at now: UInt64, columns: Int, rows: Int) -> [(text: String, width: Int)] {
        let width = max(20, min(Self.maxTextWidth, columns - 4))
        var out: [(String, Int)] = []
        func add(_ plain: String, styled: String? = nil) { out.append((styled ?? plain, DisplayWidth.of(plain))) }

        let header = "miga · \(session.app)"
        add(header, styled: dim(header))
        add("")

        let item = session.item
        var body: [String] = []
        if let title = item.title {
            body += TextLayout.wrap(title, width: width).map { bold($0) }
            body.append("")
        }
        body += TextLayout.wrap(item.kind == .quote ? "“\(item.text)”" : item.text, width: width)
        // Leave room for the header, attribution, countdown, cue and choices (about 10 rows).
        let room = max(3, rows - 10)
        if body.count > room {
            body = Array(body.prefix(room - 1)) + ["…"]
        }
        for line in body { add(stripped(line), styled: line) }
        if let author = item.author {
            let attribution = "— \(author)"
            add("")
            add(attribution, styled: dim(attribution))
        }
        add("")

        let left = session.secondsLeft(at: now)
        let barWidth = max(10, min(width, 60) - 8)
        let filled = Int((session.progress(at: now) * Double(barWidth)).rounded(.down))
        let bar = String(repeating: "━", count: filled) + String(repeating: "─", count: barWidth - filled)
        let countdown = left > 0 ? "\(left) s" : "ready"
        add(bar + "  " + countdown, styled: tint("36", String(bar.prefix(filled))) + dim(String(bar.dropFirst(filled))) + "  " + countdown)

        if style.breathing {
            let phase = Self.breathingPhase(elapsedMilliseconds: session.elapsedMilliseconds(at: now))
            let cue = style.animations
                ? "\(phase.label) " + String(repeating: "●", count: phase.count) + String(repeating: "○", count: 4 - phase.count)
                : phase.label
            add(cue, styled: tint("2;36", cue))
        }
        add("")

        let open = left > 0 ? "Open in \(left) s" : "Open"
        let exitKey = "[e] Exit"
        let nextKey = "[n] Read Next"
        let openKey = "[o] \(open)"
        let styledOpen = left > 0 ? dim(openKey) : bold(openKey)
        let choices = "\(exitKey)   \(nextKey)   \(openKey)"
        if DisplayWidth.of(choices) <= width {
            add(choices, styled: tint("1;32", exitKey) + "   " + nextKey + "   " + styledOpen)
        } else {
            // A narrow terminal: one choice per line rather than running off the edge.
            add(exitKey, styled: tint("1;32", exitKey))
            add(nextKey)
            add(openKey, styled: styledOpen)
        }
        if let notice = session.notice {
            add("")
            for line in TextLayout.wrap(notice, width: width) { add(line, styled: tint("33", line)) }
        }
        return out
    }

    /// A whole frame: clear, then each line centred as a block.
    public func frame(for session: GatewaySession, at now: UInt64, columns: Int, rows: Int) -> String {
        compose(lines(for: session, at: now, columns: columns, rows: rows), columns: columns, rows: rows)
    }

    /// The short celebration after Exit: `step` of `steps`, ending on the message.
    public func celebrationFrame(step: Int, steps: Int, message: String, columns: Int, rows: Int) -> String {
        let sparkle = ["·", "· ✦ ·", "·  ✦ ✧ ✦  ·", "✧  ·  ✦  ·  ✧"][min(3, step * 4 / max(1, steps))]
        var lines: [(String, Int)] = [(tint("32", sparkle), DisplayWidth.of(sparkle)), ("", 0)]
        for line in TextLayout.wrap(message, width: min(Self.maxTextWidth, columns - 4)) {
            lines.append((bold(line), DisplayWidth.of(line)))
        }
        return compose(lines, columns: columns, rows: rows)
    }

    private func compose(_ lines: [(text: String, width: Int)], columns: Int, rows: Int) -> String {
        let blockWidth = lines.map(\.width).max() ?? 0
        let pad = String(repeating: " ", count: TextLayout.leftPadding(blockWidth: blockWidth, columns: columns))
        let top = max(1, (rows - lines.count) / 2 + 1)
        var frame = "\u{1B}[H\u{1B}[2J"
        for (offset, line) in lines.enumerated() where top + offset <= rows {
            frame += "\u{1B}[\(top + offset);1H" + pad + line.text
        }
        return frame
    }

    private func stripped(_ styled: String) -> String {
        var plain = ""
        var inEscape = false
        for character in styled {
            if character == "\u{1B}" { inEscape = true; continue }
            if inEscape { if character == "m" { inEscape = false }; continue }
            plain.append(character)
        }
        return plain
    }
}
