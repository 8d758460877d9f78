import MigaTestSupport
import XCTest
@testable import MigaCore

final class GateScreenTests: XCTestCase {
    let start: UInt64 = 1_000_000_000

    func plainText(_ frame: String) -> String {
        frame.replacingOccurrences(of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "\n", options: .regularExpression)
    }

    func testFrameShowsAppItemAuthorCountdownCueAndChoices() {
        let item = ContentItem(id: "q", kind: .quote, category: "c", text: "You can't stop the waves, but you can learn to surf.", author: "Jon Kabat-Zinn")
        let session = GateSession(app: "discord", timerSeconds: 30, item: item, startedAt: start)
        let screen = GateScreen(style: GateStyle(color: true, breathing: true, animations: true))
        let text = plainText(screen.frame(for: session, at: start + 5_500_000_000, columns: 100, rows: 30))
        for expected in ["miga · discord", "“You can't stop the waves, but you can learn to surf.”", "— Jon Kabat-Zinn",
                         "25 s", "Hold ●●○○", "[e] Exit", "[n] Read Next", "[o] Open in 25 s"] {
            XCTAssertTrue(text.contains(expected), "missing \(expected) in\n\(text)")
        }
    }

    /// The person's alternatives: a row of keys on a full screen, a word in the hint of a
    /// small one while it fits, and the sentence of a challenge in the choices' place.
    func testAlternativesAndTheChallengeAtEachSize() {
        let item = ContentItem(id: "q", kind: .quote, category: "c", text: "Breathe.")
        var session = GateSession(app: "chat", timerSeconds: 15, item: item, startedAt: start,
                                  alternatives: ["Read a chapter", "Walk\u{1B}[2J"], challenge: "I am opening chat on purpose")
        let screen = GateScreen(style: GateStyle(color: false, breathing: false, animations: false))
        let full = plainText(screen.frame(for: session, at: start, columns: 80, rows: 24))
        XCTAssertTrue(full.contains("Instead: [1] Read a chapter   [2] Walk"), full)
        XCTAssertFalse(full.contains("\u{1B}[2J"), "a label is never drawn raw")
        let small = plainText(screen.frame(for: session, at: start, columns: 40, rows: 10))
        XCTAssertTrue(small.contains("e/n/o · 1–2 instead · 15 s"), small.debugDescription)
        let tiny = plainText(screen.frame(for: session, at: start, columns: 20, rows: 5))
        XCTAssertTrue(tiny.contains("e/n/o 15s"), tiny)
        _ = session.tick(at: start + 15_000_000_000)
        _ = session.choose(.open, at: start + 15_000_000_000)
        let asked = plainText(screen.frame(for: session, at: start + 15_000_000_000, columns: 80, rows: 24, answer: "I am"))
        XCTAssertTrue(asked.contains("Type this to open:") && asked.contains("I am opening chat on purpose") && asked.contains("> I am_"), asked)
        XCTAssertFalse(asked.contains("[o] Open"), "the sentence takes the choices' place")
    }

    /// The rows of a frame as a person sees them (no escape codes), blank rows dropped.
    func rowsShown(_ screen: GateScreen, _ session: GateSession, at now: UInt64, columns: Int, rows: Int, answer: String? = nil) -> [String] {
        let lines = screen.lines(for: session, at: now, columns: columns, rows: rows, answer: answer).map {
            $0.text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        }
        XCTAssertLessThanOrEqual(lines.count, rows, "\(columns)×\(rows): the frame runs off the screen:\n\(lines.joined(separator: "\n"))")
        for line in lines { XCTAssertLessThanOrEqual(DisplayWidth.of(line), columns, "\(columns)×\(rows): \(line)") }
        return lines
    }

    /// A small terminal keeps what a person must read to act, and shows the day's notes
    /// and the alternative's label while rows are free (the text gives way first).
    func testASmallTerminalShowsTheNotesAndTheAlternativesLabel() {
        let item = ContentItem(id: "q", kind: .quote, category: "c", text: "Between stimulus and response there is a space.", author: "Viktor Frankl")
        let session = GateSession(app: "slack", timerSeconds: 15, item: item, startedAt: start,
                                  notes: ["2nd time today", "2 of 3 opens left today"], alternatives: ["Read a chapter"])
        let screen = GateScreen(style: GateStyle(color: false, breathing: true, animations: true))
        let shown = rowsShown(screen, session, at: start, columns: 40, rows: 10).joined(separator: "\n")
        for expected in ["2nd time today", "2 of 3 opens left today", "Read a chapter", "e/n/o · 1 instead · 15 s", "Between stimulus"] {
            XCTAssertTrue(shown.contains(expected), "40×10: missing \(expected) in\n\(shown)")
        }
        let tiny = rowsShown(screen, session, at: start, columns: 20, rows: 5).joined(separator: "\n")
        XCTAssertTrue(tiny.contains("e/n/o 15s") && tiny.contains("2nd time today"), tiny)
    }

    /// "For how long?" at each small size: every key with its minutes (never "1-4" alone,
    /// never a key run into its minutes as "1 5"), and what Enter gives.
    func testASmallTerminalShowsTheMinutesOfEachKey() {
        var session = GateSession(app: "slack", timerSeconds: 15, item: article(paragraphs: 12), startedAt: start,
                                  notes: ["2nd time today"], asksMinutes: true, defaultMinutes: 10)
        let done = start + 15_000_000_000
        _ = session.tick(at: done)
        _ = session.choose(.open, at: done)
        XCTAssertTrue(session.askingMinutes)
        let screen = GateScreen(style: GateStyle(color: false, breathing: true, animations: true))
        for (columns, rows) in [(80, 13), (40, 10), (20, 5)] {
            let shown = rowsShown(screen, session, at: done, columns: columns, rows: rows).joined(separator: "\n")
            for (key, minutes) in zip(1...4, TimeboxQuestion.choices) {
                XCTAssertNotNil(shown.range(of: #"\[\#(key)\] \#(minutes)( min|m)\b"#, options: .regularExpression),
                                "\(columns)×\(rows): key \(key)'s minutes:\n\(shown)")
            }
            XCTAssertTrue(shown.contains("Enter 10 min"), "\(columns)×\(rows):\n\(shown)")
            XCTAssertFalse(shown.contains("1-4"), "\(columns)×\(rows):\n\(shown)")
        }
    }

    /// At 20×5 the sentence to type is there whole, wrapped (the text gives way), with the
    /// field to type it in.
    func testATinyTerminalShowsTheWholeSentenceToType() {
        var session = GateSession(app: "slack", timerSeconds: 15, item: article(paragraphs: 12), startedAt: start,
                                  notes: ["2nd time today"], alternatives: ["Walk"], challenge: "I am opening slack on purpose")
        let done = start + 15_000_000_000
        _ = session.tick(at: done)
        _ = session.choose(.open, at: done)
        XCTAssertTrue(session.askingChallenge)
        let screen = GateScreen(style: GateStyle(color: false, breathing: true, animations: true))
        for (columns, rows) in [(40, 10), (20, 5), (16, 4)] {
            let shown = rowsShown(screen, session, at: done, columns: columns, rows: rows, answer: "I am")
            XCTAssertTrue(shown.joined(separator: " ").contains("I am opening slack on purpose"), "\(columns)×\(rows):\n\(shown.joined(separator: "\n"))")
            XCTAssertFalse(shown.contains { $0.contains("…") }, "nothing cut: \(shown)")
            XCTAssertTrue(shown.contains("> I am_"), "\(columns)×\(rows): the field:\n\(shown.joined(separator: "\n"))")
        }
    }

    /// An item that came with escape sequences (a pack from elsewhere, before validation
    /// refuses it) is drawn with them made visible, never obeyed: no clipboard write (OSC 52),
    /// no hidden link (OSC 8), no cleared screen, no bell.
    func testControlCharactersInAnItemAreNeverDrawnRaw() {
        let hostile = "Hi \u{1B}]52;c;aGVsbG8=\u{07}there\u{1B}[2J\u{9B}31m \u{1B}]8;;https://evil.example\u{1B}\\link"
        let item = ContentItem(id: "x", kind: .article, category: "c\u{1B}[5m", text: hostile + "\nnext\tline", author: "A\u{1B}[8m", title: "T\u{07}")
        let session = GateSession(app: "chat", timerSeconds: 15, item: item, startedAt: start)
        let frame = GateScreen(style: GateStyle(color: true, breathing: true, animations: true)).frame(for: session, at: start, columns: 100, rows: 30)
        for raw in ["\u{1B}]", "\u{07}", "\u{9B}", "there\u{1B}[2J", "\u{1B}[8m"] {
            XCTAssertFalse(frame.contains(raw), "drew \(raw.unicodeScalars.map { TerminalText.name($0) })")
        }
        let text = plainText(frame)
        XCTAssertTrue(text.contains("Hi \u{FFFD}]52;c;aGVsbG8=\u{FFFD}there\u{FFFD}[2J\u{FFFD}31m"), text)
        XCTAssertFalse(frame.contains("\t") || text.contains("next\u{FFFD}"), "a tab is a space:\n\(text)")
    }

    /// A 4 MB word (a hostile or broken pack) is split into screen-wide pieces in one pass:
    /// linear, so the gate keeps drawing and answering keys and signals. Quadratic splitting
    /// took minutes here.
    func testAHugeWordWrapsInLinearTime() {
        let word = String(repeating: "ab宽", count: 1_400_000) // 4.2 M characters, 5.6 M cells
        let lines = TextLayout.wrap("before " + word + " after", width: 72)
        XCTAssertEqual(lines.first, "before")
        XCTAssertEqual(lines.last?.hasSuffix(" after"), true)
        XCTAssertTrue(lines.allSatisfy { DisplayWidth.of($0) <= 72 })
        XCTAssertEqual(lines.dropFirst().joined().replacingOccurrences(of: " after", with: ""), word)
    }

    func testBreathingIsBoxFourFourFourFour() {
        XCTAssertEqual(GateScreen.breathingPhase(elapsedMilliseconds: 0).label, "Breathe in")
        XCTAssertEqual(GateScreen.breathingPhase(elapsedMilliseconds: 4_000).label, "Hold")
        XCTAssertEqual(GateScreen.breathingPhase(elapsedMilliseconds: 8_000).label, "Breathe out")
        XCTAssertEqual(GateScreen.breathingPhase(elapsedMilliseconds: 12_999).label, "Hold")
        XCTAssertEqual(GateScreen.breathingPhase(elapsedMilliseconds: 16_000).label, "Breathe in")
        XCTAssertEqual(GateScreen.breathingPhase(elapsedMilliseconds: 6_500).count, 3)
    }

    func testNoColorMeansNoColourCodesAndBreathingOffHidesTheCue() {
        let session = GateSession(app: "a", timerSeconds: 15, item: .sample("x"), startedAt: start)
        let config = { () -> MigaConfig in var c = MigaConfig(); c.breathing = .off; return c }()
        let style = GateStyle(config: config, environment: ["NO_COLOR": "1"])
        XCTAssertFalse(style.color)
        let frame = GateScreen(style: style).frame(for: session, at: start, columns: 80, rows: 24)
        XCTAssertNil(frame.range(of: "\u{1B}\\[[0-9;]*3[0-9]m", options: .regularExpression), "a colour code despite NO_COLOR")
        XCTAssertFalse(plainText(frame).contains("Breathe"))
        XCTAssertTrue(GateStyle(config: MigaConfig(), environment: ["NO_COLOR": ""]).color, "empty NO_COLOR does not count")
    }

    func testUnlockedAndNoticeLines() {
        var session = GateSession(app: "a", timerSeconds: 15, item: .sample("x"), startedAt: start)
        _ = session.choose(.open, at: start + 1_000_000_000)
        let screen = GateScreen(style: GateStyle(color: false, breathing: false, animations: false))
        XCTAssertTrue(plainText(screen.frame(for: session, at: start + 1_000_000_000, columns: 80, rows: 24)).contains("Open unlocks in 14 s"))
        XCTAssertTrue(plainText(screen.frame(for: session, at: start + 15_000_000_000, columns: 80, rows: 24)).contains("[o] Open\n") ||
                      plainText(screen.frame(for: session, at: start + 15_000_000_000, columns: 80, rows: 24)).hasSuffix("[o] Open"))
    }

    func testWrappingRespectsWidthIncludingWideCharacters() {
        let text = "这是一个很长的句子用来测试宽字符的换行是否正确 and some words that go on and on beyond the width"
        for width in [10, 20, 33] {
            for line in TextLayout.wrap(text, width: width) {
                XCTAssertLessThanOrEqual(DisplayWidth.of(line), width, "\(line)")
            }
        }
        XCTAssertEqual(TextLayout.wrap("one two three", width: 7), ["one two", "three"])
        XCTAssertEqual(TextLayout.wrap("a\n\nb", width: 7), ["a", "", "b"])
        XCTAssertEqual(DisplayWidth.of("宽"), 2)
    }

    func testNarrowTerminalNeverOverflows() {
        let session = GateSession(app: "discord", timerSeconds: 30, item: .sample("x"), startedAt: start)
        let screen = GateScreen(style: GateStyle(color: false, breathing: true, animations: true))
        for columns in [30, 40, 72, 200] {
            let widest = screen.lines(for: session, at: start, columns: columns, rows: 24).map(\.width).max() ?? 0
            XCTAssertLessThanOrEqual(widest, columns, "columns \(columns)")
            XCTAssertLessThanOrEqual(widest, GateScreen.maxTextWidth)
        }
    }

    /// The text of each line, without bold/dim codes (which are not colour, so NO_COLOR keeps them).
    func plainLines(_ screen: GateScreen, _ session: GateSession, rows: Int, scroll: Int) -> [String] {
        screen.lines(for: session, at: start, columns: 80, rows: rows, scroll: scroll).map {
            $0.text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        }
    }

    func article(paragraphs: Int) -> ContentItem {
        let text = (1...paragraphs).map { "Paragraph \($0) is calm." }
            .joined(separator: "\n\n")
        return ContentItem(id: "long", kind: .article, category: "c", text: text, title: "A long read")
    }

    func testALongArticleScrollsWhileTitleCountdownAndChoicesStay() {
        let session = GateSession(app: "chat", timerSeconds: 30, item: article(paragraphs: 12), startedAt: start)
        let screen = GateScreen(style: GateStyle(color: false, breathing: true, animations: true))
        let rows = 20
        let range = screen.scroll(for: session, at: start, columns: 80, rows: rows)
        XCTAssertGreaterThan(range.limit, 0)

        var seen = Set<String>()
        for offset in 0...range.limit + 3 {
            let lines = plainLines(screen, session, rows: rows, scroll: offset)
            XCTAssertLessThanOrEqual(lines.count, rows, "offset \(offset) does not fit")
            for fixed in ["miga · chat", "A long read", "[e] Exit   [n] Read Next   [o] Open in 30 s"] {
                XCTAssertTrue(lines.contains(fixed), "\(fixed) missing at offset \(offset)")
            }
            seen.formUnion(lines.filter { $0.hasPrefix("Paragraph") })
        }
        let all = (1...12).map { "Paragraph \($0) is calm." }
        XCTAssertEqual(seen, Set(all), "scrolling through shows every line of the text")
        // 20 rows less 4 fixed above (header, title), 5 below (bar, cue, choices) and the gap
        // and hint leave 9 lines of the 23 (12 paragraphs, 11 gaps); a page keeps one line of overlap.
        XCTAssertEqual(range, GateScreen.Scroll(limit: 14, page: 8))

        let first = plainLines(screen, session, rows: rows, scroll: 0)
        XCTAssertTrue(first.contains("↓ lines 1–9 of 23 · ↑/↓ PgUp/PgDn to scroll"), first.joined(separator: "\n"))
        let last = plainLines(screen, session, rows: rows, scroll: range.limit)
        XCTAssertTrue(last.contains("↑ lines 15–23 of 23 · ↑/↓ PgUp/PgDn to scroll"), last.joined(separator: "\n"))
        XCTAssertTrue(last.contains("Paragraph 12 is calm."))
        XCTAssertFalse(last.contains("Paragraph 1 is calm."))
        XCTAssertEqual(plainLines(screen, session, rows: rows, scroll: range.limit + 50), last,
                       "past the end is clamped")
    }

    func testAShortItemHasNoScrollHint() {
        let session = GateSession(app: "chat", timerSeconds: 30, item: article(paragraphs: 2), startedAt: start)
        let screen = GateScreen(style: GateStyle(color: false, breathing: true, animations: true))
        XCTAssertEqual(screen.scroll(for: session, at: start, columns: 80, rows: 40).limit, 0)
        let lines = plainLines(screen, session, rows: 40, scroll: 5)
        XCTAssertFalse(lines.contains { $0.contains("to scroll") })
        XCTAssertTrue(lines.contains("Paragraph 1 is calm.") && lines.contains("Paragraph 2 is calm."))
    }

    func testCelebrationOrdinals() {
        XCTAssertEqual((1...4).map(Ordinal.english) + [11, 12, 13, 21, 22, 103, 111].map(Ordinal.english),
                       ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "103rd", "111th"])
        XCTAssertTrue(Celebration.message(.init(exitsThisWeek: 3)).text.contains("3rd exit in the last 7 days"))
    }
}
