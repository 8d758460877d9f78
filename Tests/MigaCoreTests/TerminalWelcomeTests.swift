import Foundation
import MigaTestSupport
import XCTest
@testable import MigaCore

/// The terminal welcome's screens as pure logic: what is ticked, what each key and typed line
/// does, and that every frame fits the terminal with its keys on screen.
final class TerminalWelcomeTests: XCTestCase {
    static let sites = ["reddit.com", "youtube.com", "youtube.com/shorts", "x.com", "instagram.com", "facebook.com",
                        "tiktok.com", "linkedin.com", "twitch.tv", "news.ycombinator.com"]

    static let offer = WelcomeOffer(
        apps: [FoundApp(name: "discord", label: "Discord", desktopID: "discord.desktop", source: .system, icon: nil, command: ["discord"]),
               FoundApp(name: "slack", label: "Slack", desktopID: "com.slack.Slack.desktop", source: .flatpak, icon: nil,
                        command: ["flatpak", "run", "com.slack.Slack"])],
        sites: sites.enumerated().map { OfferedSite(site: $0.element, preselected: $0.offset < 7) })

    func form(timer: Int = 30) -> WelcomeForm {
        WelcomeForm(offer: Self.offer, timerSeconds: timer, extras: ContentLibrary.extraCategories)
    }

    // MARK: the form

    func testFoundAppsAndTheFirstSevenSitesArePreselectedAndTheTimerIsLeftAlone() {
        let choice = form().choice
        XCTAssertEqual(choice.apps, ["discord", "slack"])
        XCTAssertEqual(choice.sites, Array(Self.sites.prefix(7)))
        XCTAssertNil(choice.timerSeconds, "a timer the person did not move is not written")
        XCTAssertEqual(choice.reentryMinutes, 10)
        XCTAssertEqual(choice.extraCategories, [], "clinical material is never on unasked")
    }

    func testTogglesTimerAndTypedNames() {
        var form = form(timer: 45)
        form.toggle(item: 0) // Discord off
        form.toggle(item: 10) // twitch.tv on
        form.adjustTimer(by: 1)
        XCTAssertEqual(form.timerSeconds, 45, "the range's end holds")
        form.adjustTimer(by: -3)
        form.comesBack = false
        form.toggle(extra: 1)
        XCTAssertEqual(try form.add(appName: "signal-desktop").get(), 2, "a typed app goes after the other apps")
        XCTAssertEqual(try form.add(appName: "DISCORD").get(), 0, "a listed app typed again is ticked, not added twice")
        XCTAssertThrowsError(try form.add(appName: "rm -rf /").get())
        XCTAssertThrowsError(try form.add(appName: "").get())
        form.toggle(item: 99) // out of range: nothing
        let choice = form.choice
        XCTAssertEqual(choice.apps, ["discord", "slack", "signal-desktop"])
        XCTAssertEqual(choice.sites, Array(Self.sites.prefix(7)) + ["twitch.tv"])
        XCTAssertEqual(choice.timerSeconds, 30)
        XCTAssertEqual(choice.reentryMinutes, 0)
        XCTAssertEqual(choice.extraCategories, [ContentLibrary.extraCategories[1].name])
    }

    func testStepsGoOnAndBack() {
        var form = form()
        form.back()
        XCTAssertEqual(form.step, .about)
        XCTAssertFalse(form.next())
        XCTAssertFalse(form.next())
        XCTAssertEqual(form.step, .pause)
        form.back()
        XCTAssertEqual(form.step, .choose)
        XCTAssertFalse(form.next())
        XCTAssertTrue(form.next(), "Enter on the pause is the choice")
    }

    func testAnOutOfRangeTimerInForceIsTreatedAsAbsent() {
        XCTAssertEqual(WelcomeForm(offer: Self.offer, timerSeconds: 9_999, extras: []).timerSeconds, 30)
    }

    // MARK: the full screen

    func visibleLines(_ frame: String) -> [String] {
        frame.replacingOccurrences(of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression)
            .components(separatedBy: "\r\n")
    }

    func testEveryScreenFitsAt80x24And40x10WithItsKeysOnScreen() {
        let screen = WelcomeScreen(color: true, ascii: false)
        for (columns, rows) in [(80, 24), (40, 10)] {
            var form = form()
            for keys in ["Enter next · q leave", "Enter next · b back", "Enter set up"] {
                let lines = visibleLines(screen.frame(form, columns: columns, rows: rows, scroll: 0))
                XCTAssertLessThanOrEqual(lines.count, rows, lines.joined(separator: "\n"))
                for line in lines { XCTAssertLessThanOrEqual(DisplayWidth.of(line), columns, "too wide at \(columns): \(line)") }
                XCTAssertTrue(lines.joined(separator: " ").contains(keys), "\(columns)×\(rows): no \(keys) in\n\(lines.joined(separator: "\n"))")
                _ = form.next()
            }
        }
    }

    func testAtTheSmallSizeTheListScrollsAndATickedItemComesIntoView() {
        let screen = WelcomeScreen(color: false, ascii: false)
        var form = form()
        _ = form.next()
        let layout = screen.layout(form, columns: 40, rows: 10)
        XCTAssertGreaterThan(layout.scrollLimit, 0)
        let top = visibleLines(screen.frame(form, columns: 40, rows: 10, scroll: 0)).joined(separator: "\n")
        XCTAssertTrue(top.contains("1 [x] Discord") && top.contains("↓ more below"), top)
        XCTAssertFalse(top.contains("news.ycombinator.com"), top)
        // After 1–9 the letters, b (back) passed over: "d" is the twelfth key, the last site.
        XCTAssertEqual(WelcomeForm.itemIndex(forKey: "a"), 9)
        XCTAssertEqual(WelcomeForm.itemIndex(forKey: "d"), 11)
        let last = 11
        form.toggle(item: last)
        let scroll = screen.reveal(line: layout.itemLines[last]!, scroll: 0, layout: layout)
        let bottom = visibleLines(screen.frame(form, columns: 40, rows: 10, scroll: scroll)).joined(separator: "\n")
        XCTAssertTrue(bottom.contains("d [x] news.ycombinator.com"), bottom)
        XCTAssertTrue(bottom.contains("↑ more above"), bottom)
    }

    func testNoColorDrawsNoColourAndAsciiLocalesNoArrows() {
        var form = form()
        _ = form.next()
        let colored = WelcomeScreen(environment: ["LANG": "C.UTF-8"]).frame(form, columns: 40, rows: 10, scroll: 0)
        XCTAssertTrue(colored.contains("\u{1B}[32m"))
        let plain = WelcomeScreen(environment: ["NO_COLOR": "1", "LANG": "C"]).frame(form, columns: 40, rows: 10, scroll: 0)
        XCTAssertFalse(plain.contains("\u{1B}[32m"))
        XCTAssertTrue(plain.contains("v more below (^/v scroll)"), plain)
    }

    func testALabelFromADesktopEntryCannotDrawOnTheTerminal() {
        var offer = Self.offer
        offer.apps[0].label = "Disc\u{1B}]0;owned\u{07}ord\u{1B}[2J"
        var form = WelcomeForm(offer: offer, timerSeconds: 30, extras: [])
        _ = form.next()
        let frame = WelcomeScreen(color: false, ascii: false).frame(form, columns: 80, rows: 24, scroll: 0)
        XCTAssertFalse(frame.contains("\u{1B}]0;"), frame)
        XCTAssertFalse(frame.contains("\u{07}"))
    }

    func testKeysFromRawBytes() {
        let keys = FullScreenWelcome.keys(from: Array("1a+\r\u{1B}[B\u{1B}[6~\u{1B}\u{03}\u{1A}".utf8)[...]).map(\.key)
        XCTAssertEqual(keys, [.character("1"), .character("a"), .character("+"), .enter, .down, .pageDown, .escape, .interrupt, .suspend])
    }

    // MARK: plain mode

    func plainRun(_ lines: [LineInput], form: WelcomeForm? = nil) -> (choice: WelcomeChoice?, said: String, prompts: [String]) {
        var lines = lines[...]
        var said = "", prompts: [String] = []
        let plain = PlainWelcome(form: form ?? self.form(), read: { prompt in
            prompts.append(prompt)
            return lines.popFirst() ?? .endOfInput
        }, write: { said += $0 })
        return (plain.run(), said, prompts)
    }

    func testPlainModeNumbersNamesTheTimerAndEnter() {
        let run = plainRun([.line(""), .line("1 4 5 6 7 8 9 10"), .line("signal-desktop"), .line("bad/name"), .line(""),
                            .line("20 1 3"), .line("")])
        XCTAssertEqual(run.choice?.apps, ["slack", "signal-desktop"])
        XCTAssertEqual(run.choice?.sites, ["reddit.com", "linkedin.com"])
        XCTAssertEqual(run.choice?.timerSeconds, 20)
        XCTAssertEqual(run.choice?.reentryMinutes, 0)
        XCTAssertEqual(run.choice?.extraCategories, [ContentLibrary.extraCategories[1].name])
        for expected in ["miga setup · 1 of 3", "1 (on) Discord", "3 (on) reddit.com", "12 (off) news.ycombinator.com",
                         "Chosen: Slack, signal-desktop, reddit.com, linkedin.com", "\"bad/name\" is not an app name",
                         "Timer: 20 s (15–45)", "1 (off) Pause when I come back after 10 minutes"] {
            XCTAssertTrue(run.said.contains(expected), "missing \(expected) in\n\(run.said)")
        }
        XCTAssertFalse(run.said.contains("\u{1B}"), "plain mode moves no cursor")
    }

    func testPlainModeLeavesWithoutAChoiceOnQCtrlCCtrlDOrAHangUp() {
        for ending in [LineInput.line("q"), .interrupted, .endOfInput, .hungUp(signal: nil)] {
            XCTAssertNil(plainRun([.line(""), ending]).choice, "\(ending)")
        }
    }

    func testPlainModeBackAndOutOfRangeNumbers() {
        let run = plainRun([.line(""), .line("99"), .line(""), .line("b"), .line("2"), .line(""), .line("50"), .line("")])
        XCTAssertTrue(run.said.contains("There is no 99: type 1 to 12."), run.said)
        XCTAssertTrue(run.said.contains("There is no 50"), run.said)
        XCTAssertEqual(run.choice?.apps, ["discord"])
        XCTAssertNil(run.choice?.timerSeconds)
    }
}
