import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// "Time and friction" in the gate window, for real (the same Xvfb, xdotool and screenshots
/// as GateWindowTests): the person's own alternatives beside Exit, the typed challenge before
/// Open (key by key: a paste never counts), and an item's picture beside its text.
extension GateWindowTests {
    // MARK: Do this instead

    /// Two alternatives, each writing a file of its own when run (absolute paths in the
    /// throwaway folder): their buttons are on screen, with keys 1 and 2.
    func writeAlternatives(extra: String = "") throws {
        try home.writeConfig("""
            timer_seconds = 15
            \(extra)
            [[alternative]]
            label = "Write"
            command = ["sh", "-c", "echo done > \(home.root)/alt-ran"]

            [[alternative]]
            label = "Walk"
            command = ["sh", "-c", "echo done > \(home.root)/walk-ran"]
            """)
    }

    func exitDetails() throws -> String {
        try home.sqlite("SELECT quote(detail) FROM events WHERE type = 'exit_selected' ORDER BY id")
    }

    /// Waits for the file an alternative writes: it ran.
    func waitForAlternative(_ name: String, file: StaticString = #filePath, line: UInt = #line) {
        eventually("the alternative's command to run (\(name))", file: file, line: line) {
            FileManager.default.fileExists(atPath: self.home.root + "/" + name)
        }
    }

    /// `1` during the countdown (an alternative is an Exit: never locked): its command runs,
    /// the app does not, and the Exit says which alternative it was.
    func testKeyOneRunsTheFirstAlternativeAsAnExit() throws {
        try writeAlternatives()
        let gate = try startGate()
        let id = try window()
        try waitForEvents([.sessionStart])
        _ = try screenshot("window-alternatives")
        try press("1", in: id)
        waitForAlternative("alt-ran")
        XCTAssertEqual(gate.wait().status, 0)
        try eventually("the window to go") { try windowGone(id) }
        XCTAssertNil(home.recordedArguments(), "an alternative never opens the app")
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.root + "/walk-ran"), "only the one chosen runs")
        XCTAssertFalse(try home.events().contains { $0.type == .openSelected })
        XCTAssertEqual(try exitDetails(), "'{\"alternative\":\"Write\"}'")
    }

    /// A person who uses the mouse: the second alternative's button, clicked. The buttons sit
    /// in a row just above Exit, Read Next and Open (the bottom row).
    func testClickingTheSecondAlternativeRunsIt() throws {
        try writeAlternatives()
        let gate = try startGate()
        let id = try window()
        try waitForEvents([.sessionStart])
        try clickAlternative(2, of: 2, in: id)
        waitForAlternative("walk-ran")
        XCTAssertEqual(gate.wait().status, 0)
        XCTAssertNil(home.recordedArguments())
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.root + "/alt-ran"))
        XCTAssertEqual(try exitDetails(), "'{\"alternative\":\"Walk\"}'")
    }

    /// Clicks alternative `number` of `count`: the row's buttons share the card's width, and
    /// the row is centred 88 px above the window's bottom edge (the bottom row at 38 px).
    func clickAlternative(_ number: Int, of count: Int, in id: String) throws {
        let shell = try xdotool(["getwindowgeometry", "--shell", id]).stdout
        func value(_ key: String) -> Double {
            shell.split(separator: "\n").first { $0.hasPrefix(key + "=") }.flatMap { Double($0.dropFirst(key.count + 1)) } ?? 0
        }
        let left = value("X") + 32, width = value("WIDTH") - 64 // the page's padding
        let x = left + width * (Double(number) - 0.5) / Double(count)
        let point = [String(Int(x)), String(Int(value("Y") + value("HEIGHT") - 88))]
        XCTAssertEqual(try xdotool(["mousemove", "--sync"] + point).status, 0)
        XCTAssertEqual(try xdotool(["click", "1"]).status, 0)
    }

    // MARK: The typed challenge

    static let sentence = "I am opening chat on purpose"

    /// `challenge = "type"` for chat; its gate's window with the challenge on screen (the
    /// countdown over, `o` pressed).
    func openTheChallenge() throws -> (MigaHome.Child, String) {
        try home.writeConfig("""
            timer_seconds = 15

            [apps.chat]
            command = "\(home.recorder)"
            challenge = "type"
            """)
        let gate = try startGate()
        let id = try window()
        try openUntilAsked(id, Self.typeThis)
        return (gate, id)
    }

    func type(_ text: String) throws {
        XCTAssertEqual(try xdotool(["type", "--delay", "20", text]).status, 0)
    }

    /// Nothing opened yet (after a moment for a wrong Open to have happened).
    func assertNotOpened(_ why: String, file: StaticString = #filePath, line: UInt = #line) throws {
        Thread.sleep(forTimeInterval: 0.6)
        XCTAssertNil(home.recordedArguments(), why, file: file, line: line)
        XCTAssertFalse(try home.events().contains { $0.type == .openSelected }, why, file: file, line: line)
    }

    /// A typo clears what was typed; Backspace takes back a character; Enter on a part does
    /// nothing; the whole sentence and Enter open, recorded as passed.
    func testTheChallengeIsTypedExactlyAndATypoStartsAgain() throws {
        let (gate, id) = try openTheChallenge()
        _ = try screenshot("window-challenge")
        try type("I am openinx") // the x clears it all
        try press("Return", in: id)
        try assertNotOpened("a typo is not the sentence")
        // Had the typo not cleared it, nothing from here on would match.
        try type("I am opening chat on purpo")
        XCTAssertEqual(try xdotool(["key", "--delay", "20", "BackSpace", "BackSpace"]).status, 0)
        _ = try screenshot("window-challenge-typing")
        try press("Return", in: id)
        try assertNotOpened("part of the sentence is not the sentence")
        try type("pose") // "…on pur" + "pose"
        try press("Return", in: id)
        eventually("the app to start") { home.recordedInfo() != nil }
        XCTAssertEqual(home.recordedArguments(), ["--flag", "a b", ""])
        XCTAssertEqual(gate.wait().status, 0)
        XCTAssertTrue(try windowGone(id))
        let details = try openDetails()
        XCTAssertTrue(details.contains("\"challenge\":true"), details)
    }

    /// The sentence on the clipboard and in the primary selection: Ctrl+V, Shift+Insert and
    /// a middle click on the typed text put nothing there, so Enter does not open; typed key
    /// by key, it does.
    func testAPastedSentenceDoesNotCount() throws {
        let (gate, id) = try openTheChallenge()
        guard let tool = ["/usr/bin/xclip", "/usr/bin/xsel"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            try press("Escape", in: id)
            try press("e", in: id)
            _ = gate.wait()
            throw XCTSkip("neither xclip nor xsel is installed: the paste part of the challenge is not tested")
        }
        for selection in ["clipboard", "primary"] {
            let arguments = tool.hasSuffix("xclip") ? "-selection \(selection) -i" : "--\(selection) -i"
            // The tool stays behind to serve the selection; it goes with the X server.
            let put = try home.run("/bin/sh", ["-c", "printf %s \(shellQuote(Self.sentence)) | \(tool) \(arguments) >/dev/null 2>&1"],
                                   environment: environment)
            XCTAssertEqual(put.status, 0, put.stderr)
        }
        // The tool serves the selection from a child it forks, which takes the selection a
        // moment after the command returns: read it back until it is there.
        var clipboard = ""
        try eventually(timeout: 10, "the sentence on the clipboard") {
            clipboard = try self.home.run(tool, tool.hasSuffix("xclip") ? ["-selection", "clipboard", "-o"] : ["--clipboard", "-o"],
                                          environment: self.environment).stdout
            return clipboard == Self.sentence
        }
        XCTAssertEqual(clipboard, Self.sentence, "the sentence is on the clipboard")
        try press("ctrl+v", in: id)
        try press("shift+Insert", in: id)
        try click("label: Typed so far: nothing", in: id, button: "2") // on the typed text
        try press("Return", in: id)
        try assertNotOpened("a paste is not typing")
        XCTAssertFalse(processEnded(gate.pid))
        try type(Self.sentence)
        try press("Return", in: id)
        eventually("the app to start") { home.recordedInfo() != nil }
        XCTAssertEqual(gate.wait().status, 0)
        XCTAssertTrue(try openDetails().contains("\"challenge\":true"))
    }

    /// Esc in the challenge is back to the gate, not Exit; `o` asks again, from nothing.
    func testEscInTheChallengeGoesBackAndOAsksAgain() throws {
        let (gate, id) = try openTheChallenge()
        try type("I am opening")
        try press("Escape", in: id)
        try waitForShowing(Self.choices, "the three choices again")
        XCTAssertFalse(try windowGone(id), "Esc in the challenge is not Exit")
        XCTAssertFalse(processEnded(gate.pid))
        XCTAssertFalse(try home.events().contains { [.exitSelected, .openSelected].contains($0.type) })
        XCTAssertNil(home.recordedArguments())
        try press("o", in: id)
        try waitForShowing(Self.typeThis, "the challenge asked again")
        try waitForShowing("label: Typed so far: nothing", "the challenge asked again, from nothing")
        // What was typed before went with the Esc: the rest alone is not the sentence.
        try type(" chat on purpose")
        try press("Return", in: id)
        try assertNotOpened("going back dropped what was typed")
        try type(Self.sentence)
        try press("Return", in: id)
        eventually("the app to start") { home.recordedInfo() != nil }
        XCTAssertEqual(gate.wait().status, 0)
    }

    // MARK: A picture beside the text

    /// The person's own pack with one article per entry of `items` (id, image path), and the
    /// rotation made to show those next: every bundled article counts as shown this round.
    func writePicturePack(_ items: [(id: String, image: String)]) throws {
        try home.writeFile("home/.local/share/miga/quotes/mine.toml", items.map { item in
            """
            [[items]]
            id = "\(item.id)"
            kind = "article"
            category = "own"
            title = "The sea at Dunwich"
            text = "Grey water, a long breath, and the shingle moving under every wave."
            image = "\(item.image)"

            """
        }.joined())
        try home.writeConfig("timer_seconds = 15\ncategories = [\"articles\"]\n")
        let ours = Set(items.map(\.id))
        let articles = try home.miga(["content", "list", "--kind", "article"]).stdout
            .split(separator: "\n").map { String($0.split(separator: "\t")[0]) }.filter { !ours.contains($0) }
        XCTAssertGreaterThan(articles.count, 10)
        // A first gate creates the database; what it ends with does not matter here.
        _ = try home.miga(["gate", "--plain", "--app", "warmup", "--", "/bin/true"], environment: home.environment(["TERM": "dumb"]))
        _ = try home.sqlite("DELETE FROM rotation_shown; DELETE FROM rotation_state; " +
                            articles.map { "INSERT INTO rotation_shown VALUES ('\($0)');" }.joined())
        _ = try home.sqlite("DELETE FROM events")
    }

    /// A picture of one flat colour, `width`×`height`.
    func writePicture(_ name: String, width: Int, height: Int, colour: String) throws -> String {
        let path = home.root + "/" + name
        let made = try home.run("/usr/bin/convert", ["-size", "\(width)x\(height)", "xc:\(colour)", "PNG24:" + path], environment: environment)
        XCTAssertEqual(made.status, 0, made.stderr)
        return path
    }

    /// The pixels of exactly `colour` in a screenshot: how many, and their bounding box.
    func pixels(of colour: String, in screenshot: String) throws -> (count: Int, box: (x: Int, y: Int, width: Int, height: Int)) {
        let measured = try home.run("/usr/bin/convert", [
            screenshot, "-alpha", "off", "-fill", "black", "+opaque", colour, "-fill", "white", "-opaque", colour,
            "-format", "%[fx:round(mean*w*h)] %@", "info:",
        ], environment: environment).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = measured.split(separator: " ")
        let count = parts.first.flatMap { Int($0) } ?? 0
        // %@ is WxH+X+Y
        let box = parts.count > 1 ? parts[1].split(whereSeparator: { $0 == "x" || $0 == "+" }).compactMap { Int($0) } : []
        guard box.count == 4 else { return (count, (0, 0, 0, 0)) }
        return (count, (box[2], box[3], box[0], box[1]))
    }

    /// An article with a picture (300×180, so shown at 240×144): the picture stands left of
    /// the text, at its scaled size, and the text is drawn to its right.
    func testAnItemsPictureIsShownBesideItsText() throws {
        let picture = try writePicture("pic.png", width: 300, height: 180, colour: "#ff00ff")
        try writePicturePack([("mine-sea", picture)])
        let gate = try startGate()
        let id = try window()
        try waitForEvents([.sessionStart])
        XCTAssertEqual(try home.events().first?.contentID, "mine-sea", "the rotation shows our article")
        var shot = ""
        var found = (count: 0, box: (x: 0, y: 0, width: 0, height: 0))
        // The picture is decoded off the main thread: it lands a moment after the first frame.
        try eventually("the picture on screen") {
            shot = try self.screenshot("window-picture")
            found = try self.pixels(of: "#ff00ff", in: shot)
            return found.count > 30_000
        }
        XCTAssertEqual(found.box.width, 240, "scaled to fit 240 px: \(found)")
        XCTAssertEqual(found.box.height, 144, "keeping its shape: \(found)")
        // Rounded corners take a few pixels off the rectangle, no more.
        XCTAssertGreaterThan(found.count, 240 * 144 - 200)
        let geometry = try xdotool(["getwindowgeometry", "--shell", id]).stdout
        func value(_ key: String) -> Int {
            geometry.split(separator: "\n").first { $0.hasPrefix(key + "=") }.flatMap { Int($0.dropFirst(key.count + 1)) } ?? 0
        }
        let left = value("X"), width = value("WIDTH")
        XCTAssertLessThan(found.box.x + found.box.width, left + width / 2, "the picture stands in the left half: \(found)")
        XCTAssertGreaterThanOrEqual(found.box.x, left)
        // Text to its right, in the same band: many shades (glyphs drawn antialiased).
        let right = found.box.x + found.box.width + 8
        let band = "\(left + width - 24 - right)x\(found.box.height)+\(right)+\(found.box.y)"
        let shades = try home.run("/usr/bin/convert", [shot, "-crop", band, "+repage", "-format", "%k", "info:"],
                                  environment: environment).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertGreaterThan(Int(shades) ?? 0, 10, "text beside the picture (\(band): \(shades) colours)")
        try press("e", in: id)
        XCTAssertEqual(gate.wait().status, 0)
    }

    /// Pictures that cannot be shown safely, named .png: a header claiming 30000×30000 pixels,
    /// a file of 2 GB (sparse), a text file and a FIFO.
    func writeHostilePictures(file: StaticString = #filePath, line: UInt = #line) throws -> (huge: String, big: String, text: String, fifo: String) {
        let huge = home.root + "/huge.png"
        try hugePNGHeader().write(to: URL(fileURLWithPath: huge))
        let big = home.root + "/big.png"
        XCTAssertTrue(FileManager.default.createFile(atPath: big, contents: nil), file: file, line: line)
        XCTAssertEqual(truncate(big, 2 << 30), 0, file: file, line: line)
        let text = try home.writeFile("text.png", "not a picture\n")
        let fifo = home.root + "/fifo.png"
        XCTAssertEqual(mkfifo(fifo, 0o644), 0, file: file, line: line)
        return (huge, big, text, fifo)
    }

    /// Pictures that cannot be shown safely: a header claiming 30000×30000 pixels, a file of
    /// 2 GB, a text file, a FIFO (opening one for reading waits for a writer). Each item is
    /// still shown, text alone, the window answers keys all along, and Open works after.
    func testPicturesThatCannotBeShownLeaveTheTextAndOpenWorking() throws {
        let (huge, big, text, fifo) = try writeHostilePictures()
        let items = [("mine-huge", huge), ("mine-big", big), ("mine-text", text), ("mine-fifo", fifo)]
        try writePicturePack(items)
        let gate = try startGate()
        let id = try window()
        try waitForEvents([.sessionStart])
        var shown: Set<String> = []
        for read in 0..<items.count {
            if read > 0 {
                try press("n", in: id)
                try waitForEvents([.sessionStart] + Array(repeating: .contentRead, count: read))
            }
            shown.insert(try home.events().last?.contentID ?? "")
            _ = try screenshot("window-no-picture-\(read)")
        }
        XCTAssertEqual(shown, Set(items.map(\.0)), "every one of them was shown")
        try eventually(timeout: 30, "the countdown to end") { try home.events().contains { $0.type == .gatewayCompleted } }
        try press("o", in: id)
        eventually("the app to start") { home.recordedInfo() != nil }
        XCTAssertEqual(gate.wait().status, 0)
        XCTAssertTrue(try windowGone(id))
    }

    /// A PNG whose header claims 30000×30000 pixels (900 million), with almost no data.
    func hugePNGHeader() -> Data {
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            return bigEndian(UInt32(body.count)) + typed + bigEndian(crc32(typed))
        }
        func bigEndian(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        func crc32(_ bytes: [UInt8]) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return ~crc
        }
        let header = bigEndian(30000) + bigEndian(30000) + [8, 2, 0, 0, 0]
        // A stored (uncompressed) zlib block of a few zero bytes: valid, and far too short.
        let idat: [UInt8] = [0x78, 0x01, 0x01, 0x04, 0x00, 0xFB, 0xFF, 0, 0, 0, 0, 0x00, 0x04, 0x00, 0x01]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", idat) + chunk("IEND", []))
    }

    // MARK: The window alone

    /// The window's own defences, whatever the gate checked: the same hostile files sent
    /// straight to a bare window (as if the file changed after the gate looked), then a good
    /// picture, then an item without one. The window answers a key after each, never hangs,
    /// shows the good picture, and the next item takes it away.
    func testTheBareWindowSkipsPicturesItCannotShowSafely() throws {
        let real = URL(fileURLWithPath: home.binary).deletingLastPathComponent().appendingPathComponent("miga-gate-window").path
        let (huge, big, text, fifo) = try writeHostilePictures()
        let good = try writePicture("good.png", width: 100, height: 400, colour: "#00ff7f")
        let input = home.root + "/window-in"
        XCTAssertEqual(mkfifo(input, 0o600), 0)
        let child = try home.start("/bin/sh", ["-c", "exec \"$1\" < \"$2\"", "sh", real, input], environment: environment, ownGroup: true)
        defer { kill(-child.pid, SIGKILL); _ = child.wait() }
        // Read and write: never blocks, and a window gone is never a SIGPIPE to the tests.
        var writer = open(input, O_RDWR | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(writer, 0)
        defer { if writer >= 0 { close(writer) } }
        func send(_ fields: [String]) {
            let line = Array((fields.joined(separator: "\t") + "\n").utf8)
            XCTAssertEqual(line.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }, line.count)
        }
        func answers() -> [String] {
            ((try? String(contentsOfFile: child.stdoutPath, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        send(["setup", "chat", "0", "1"])
        send(["item", "quote", "A first quote", "Someone", ""])
        send(["tick", "10", "300", "breathe in"])
        eventually("the window to paint") { answers().contains("shown") }
        let id = try window()
        for (index, path) in [huge, big, text, fifo, "/nonexistent/pic.png", good].enumerated() {
            send(["item", "article", "Item \(index) with a picture", "Someone", "Title \(index)", path])
            try press("n", in: id)
            eventually("the window to answer after item \(index)") { answers().filter { $0 == "next" }.count == index + 1 }
        }
        var found = (count: 0, box: (x: 0, y: 0, width: 0, height: 0))
        try eventually("the good picture on screen") {
            found = try self.pixels(of: "#00ff7f", in: try self.screenshot("window-bare-picture"))
            return found.count > 5_000
        }
        XCTAssertEqual(found.box.width, 60, "100×400 fits 240 px tall at 60×240: \(found)")
        XCTAssertEqual(found.box.height, 240, "\(found)")
        send(["item", "quote", "No picture now", "Someone", ""])
        try press("n", in: id)
        eventually("the window to answer") { answers().filter { $0 == "next" }.count == 7 }
        try eventually("the picture taken away") {
            try self.pixels(of: "#00ff7f", in: try self.screenshot("window-bare-no-picture")).count == 0
        }
        close(writer)
        writer = -1
        eventually("the window to end with its input") { processEnded(child.pid) }
    }
}
