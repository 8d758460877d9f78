import Foundation
import XCTest
@testable import MigaCore
import JSON

/// The browser protocol (`ExtensionToHost`, `HostToExtension`): every message decodes and
/// encodes, hostile input is refused with a clear error and never traps, the extension's
/// mirror (`browser/protocol.js`) lists exactly the Swift messages and fields, and the
/// decisions the host sends (a site's addresses, a timebox's times and choices) are Swift's rules.
final class BrowserProtocolTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let session = "0123abcd-4567-89ef-0123-456789abcdef"

    /// One message of each kind, with every optional field it may carry.
    static func sample(_ kind: ExtensionToHost.Kind) -> ExtensionToHost {
        switch kind {
        case .hello: return .hello
        case .state: return .state
        case .gate: return .gate(url: "https://reddit.com/r/linux", reentry: true)
        case .resume: return .resume(session: session, url: "https://reddit.com/")
        case .next: return .next(session: session)
        case .completed: return .completed(session: session)
        case .exit: return .exit(session: session, alternative: 2)
        case .open: return .open(session: session, challenge: "I choose this", intention: "reply to Sam", minutes: 10)
        case .timeboxEnd: return .timeboxEnd(session: session, choice: "extend")
        case .abandon: return .abandon(session: session)
        case .gracePass: return .gracePass(url: "https://reddit.com/")
        case .schedulePass: return .schedulePass(url: "https://reddit.com/")
        case .stats: return .stats
        case .reentry: return .reentry(url: "https://reddit.com/r/linux", awaySeconds: 720)
        case .focus: return .focus(url: "https://reddit.com/r/linux", seconds: 60)
        case .budgetEnd: return .budgetEnd(url: "https://reddit.com/", choice: "keep")
        }
    }

    static let timebox = HostToExtension.Timebox(
        session: session, site: "*.example.com", domain: "example.com", addresses: SiteMatcher.addressPattern(of: "*.example.com"),
        minutes: 10, extended: false, end: 1_700_000_600_000, noticeAt: 1_700_000_540_000, noticeUntil: 1_700_000_585_000,
        declaredMinutes: 10, choices: ["close", "extend", "keep"], extendLabel: "5 more minutes")
    static let item = HostToExtension.Item(id: "q1", kind: "quote", category: "calm", text: "Breathe.", author: "A", title: nil,
                                           image: "data:image/png;base64,AAAA")
    static let gate = HostToExtension.Gate(
        session: session, site: "reddit.com", app: "reddit.com", timerSeconds: 15, breathing: "on", animations: true, item: item,
        notes: ["3rd time today"], intention: true, openLabel: "Open", minutes: ([5, 10, 20, 30], 10),
        alternatives: [("Read a book", "url")], challenge: "I choose this", waitedMilliseconds: 1200)

    static let budgetEnd = HostToExtension.BudgetEnd(site: "reddit.com", minutes: 30, message: DailyBudget.message(minutes: 30, site: "reddit.com"),
                                                     choices: DailyBudget.siteChoices)

    /// Each kind of host message, in every shape it has (together they carry every field).
    static func samples(_ kind: HostToExtension.Kind) -> [HostToExtension] {
        switch kind {
        case .state:
            return [.state(HostToExtension.State(
                version: "1.0", gating: true, reason: nil, message: nil, grace: [("reddit.com", 1)], ungated: [],
                timeboxes: [timebox], siteRules: [NativeHostService.siteRule("reddit.com")],
                settings: ConfigKeys.state(of: MigaConfig())))]
        case .gate:
            return [.gate(.goNotGating(reason: "paused", message: "miga is paused")), .gate(.goNotGated),
                    .gate(.goSchedule(site: "reddit.com")), .gate(.goHandedOver(site: "reddit.com")),
                    .gate(.goGrace(site: "reddit.com", until: 5)), .gate(.gate(gate))]
        case .resume: return [.resume(gate)]
        case .next: return [.next(item: item)]
        case .completed: return [.completed]
        case .exit:
            return [.exit(message: "Well done", alternative: nil),
                    .exit(message: "Well done", alternative: .init(label: "Walk", kind: "command", action: .launched))]
        case .open: return [.open(site: "reddit.com", graceUntil: 9, timebox: timebox), .open(site: "reddit.com", graceUntil: nil, timebox: nil)]
        case .timeboxEnd: return [.timeboxEnd(graceUntil: 9, timebox: timebox)]
        case .abandon: return [.abandon]
        case .gracePass: return [.gracePass(recorded: true)]
        case .schedulePass: return [.schedulePass(recorded: false)]
        case .stats:
            return [.stats(.init(exits: 1, opens: 2, reads: 3, currentStreak: 4, longestStreak: 5, gating: true, reason: nil,
                                 message: nil, snooze: (until: 7, apps: ["reddit.com"]), focusMinutes: 47.5))]
        case .error: return [.error("Open unlocks in 3 s", secondsLeft: 3, challengeFailed: true), .error("no such gate")]
        case .reentry: return [.reentry(gate: true, site: "reddit.com"), .reentry(gate: false, site: nil)]
        case .focus:
            return [.focus(.init(site: "reddit.com", minutesToday: 30.2, budgetEnd: budgetEnd)), .focus(.init(site: nil, minutesToday: 0))]
        case .budgetEnd: return [.budgetEnd(recorded: true)]
        }
    }

    func decode(_ text: String) throws -> ExtensionToHost {
        try ExtensionToHost.decode(Data(text.utf8)).message
    }

    func problem(_ body: Data) -> String? {
        do {
            _ = try ExtensionToHost.decode(body)
            return nil
        } catch {
            return "\(error)"
        }
    }

    // MARK: - Extension to host

    func testEveryMessageDecodesFromWhatItEncodes() throws {
        for kind in ExtensionToHost.Kind.allCases {
            let message = Self.sample(kind)
            XCTAssertEqual(message.kind, kind)
            let (decoded, id) = try ExtensionToHost.decode(Data(message.json(id: .int(7)).text.utf8))
            XCTAssertEqual(decoded, message, kind.rawValue)
            XCTAssertEqual(id, .int(7))
        }
        XCTAssertEqual(try decode(#"{"type":"gate","url":"https://x.test/","extra":[1,2]}"#), .gate(url: "https://x.test/"),
                       "fields it does not know are not read")
        XCTAssertEqual(try decode(#"{"type":"open","session":"ab-12"}"#),
                       .open(session: "ab-12", challenge: nil, intention: nil, minutes: nil))
    }

    func testHostileMessagesAreRefusedWithAClearError() {
        let cases: [(String, String)] = [
            ("[1,2]", "not a JSON object"),
            (#"{"id":1}"#, #"no "type""#),
            (#"{"type":7}"#, #"no "type""#),
            (#"{"type":""}"#, #"no "type""#),
            (#"{"type":"\#(String(repeating: "a", count: 33))"}"#, #"no "type""#),
            (#"{"type":"rm -rf\u001b[2J"}"#, "unknown message type \"rm -rf\u{FFFD}[2J\""),
            (#"{"type":"gate"}"#, #""url" is missing or not valid"#),
            (#"{"type":"gate","url":""}"#, #""url" is missing or not valid"#),
            (#"{"type":"gate","url":["https://x.test/"]}"#, #""url" is missing or not valid"#),
            (#"{"type":"gate","url":"\#(String(repeating: "u", count: 65537))"}"#, #""url" is missing or not valid"#),
            (#"{"type":"resume","session":"ab"}"#, #""url" is missing or not valid"#),
            (#"{"type":"next","session":"AB-12"}"#, #""session" is missing or not valid"#),
            (#"{"type":"next","session":12}"#, #""session" is missing or not valid"#),
            (#"{"type":"next","session":"\#(String(repeating: "a", count: 65))"}"#, #""session" is missing or not valid"#),
            (#"{"type":"abandon","session":"../../etc"}"#, #""session" is missing or not valid"#),
            (#"{"type":"timebox_end","session":"ab"}"#, #""choice" is missing or not valid"#),
            (#"{"type":"timebox_end","session":"ab","choice":"\#(String(repeating: "c", count: 17))"}"#,
             #""choice" is missing or not valid"#),
        ]
        for (body, expected) in cases {
            XCTAssertEqual(problem(Data(body.utf8)), expected, body)
        }
        XCTAssertEqual(problem(Data([0x7B, 0xFF, 0x7D])), "not UTF-8 JSON")
        XCTAssertEqual(problem(Data("{\"type\":".utf8)), jsonProblem("{\"type\":"))
        XCTAssertEqual(problem(Data((String(repeating: "[", count: 100_000)).utf8)), "JSON nested deeper than 512 levels (at byte 513)")
    }

    /// The JSON reader's own error for `text`, as the protocol says it.
    func jsonProblem(_ text: String) -> String {
        do {
            _ = try JSONValue.parse(text)
            return "parsed"
        } catch {
            return "\(error)"
        }
    }

    /// Optional fields out of range or of the wrong type are taken as absent, never trapped on.
    func testOptionalFieldsOutOfRangeAreAbsent() throws {
        for alternative in ["0", "4", "-9223372036854775808", "9223372036854775807", "1e300", "1.5", "\"1\"", "null", "true"] {
            XCTAssertEqual(try decode(#"{"type":"exit","session":"ab","alternative":\#(alternative)}"#),
                           .exit(session: "ab", alternative: nil), alternative)
        }
        XCTAssertEqual(try decode(#"{"type":"exit","session":"ab","alternative":3}"#), .exit(session: "ab", alternative: 3))
        XCTAssertEqual(try decode(#"{"type":"open","session":"ab","minutes":-9223372036854775808,"challenge":7,"intention":""}"#),
                       .open(session: "ab", challenge: nil, intention: nil, minutes: Int(Int64.min)))
        XCTAssertEqual(try decode(#"{"type":"open","session":"ab","minutes":1e300}"#),
                       .open(session: "ab", challenge: nil, intention: nil, minutes: nil))
        let long = String(repeating: "x", count: 4097)
        XCTAssertEqual(try decode(#"{"type":"open","session":"ab","challenge":"\#(long)"}"#),
                       .open(session: "ab", challenge: nil, intention: nil, minutes: nil))
    }

    func testIDsAreEchoedOnlyWhenABrowserKeepsThemExactly() throws {
        XCTAssertEqual(try ExtensionToHost.decode(Data(#"{"type":"hello","id":"abc"}"#.utf8)).id, .string("abc"))
        XCTAssertEqual(try ExtensionToHost.decode(Data(#"{"type":"hello","id":9007199254740992}"#.utf8)).id, .null)
        XCTAssertEqual(try ExtensionToHost.decode(Data(#"{"type":"hello","id":-9223372036854775808}"#.utf8)).id, .null)
        XCTAssertEqual(try ExtensionToHost.decode(Data(#"{"type":"hello","id":{"a":1}}"#.utf8)).id, .null)
    }

    // MARK: - Host to extension

    func testEveryHostMessageEncodesItsTypeAndID() throws {
        for kind in HostToExtension.Kind.allCases {
            for message in Self.samples(kind) {
                XCTAssertEqual(message.kind, kind)
                let value = try JSONValue.parse(message.json(id: .string("x")).text)
                XCTAssertEqual(value["type"]?.string, kind.rawValue)
                XCTAssertEqual(value["id"]?.string, "x")
            }
        }
        let locked = try JSONValue.parse(HostToExtension.error("Open unlocks in 3 s", secondsLeft: 3).json(id: .int(1)).text)
        XCTAssertEqual(locked["seconds_left"]?.integer, 3)
        XCTAssertNil(locked["challenge_failed"])
    }

    // MARK: - The JavaScript mirror

    /// `PROTOCOL` from browser/protocol.js: the JSON between its markers.
    func mirror() throws -> JSONValue {
        let text = try String(contentsOf: Self.repository.appendingPathComponent("browser/protocol.js"), encoding: .utf8)
        let start = try XCTUnwrap(text.range(of: "/* protocol-table */"), "protocol.js has no table marker")
        let end = try XCTUnwrap(text.range(of: "/* end-protocol-table */"), "protocol.js has no end marker")
        return try JSONValue.parse(String(text[start.upperBound..<end.lowerBound]))
    }

    func names(_ value: JSONValue?) -> [String: [String]] {
        var table: [String: [String]] = [:]
        for (key, fields) in value?.object ?? [:] {
            if case .array(let items) = fields { table[key] = items.compactMap(\.string) }
        }
        return table
    }

    func fields(of json: OrderedJSON) -> [String] {
        guard case .object(let members) = json else { return [] }
        return members.map(\.0).filter { $0 != "type" && $0 != "id" }
    }

    func testTheJavaScriptMirrorListsExactlyTheSwiftMessagesAndFields() throws {
        let table = try mirror()
        let toHost = names(table["toHost"])
        XCTAssertEqual(Set(toHost.keys), Set(ExtensionToHost.Kind.allCases.map(\.rawValue)), "toHost's messages")
        for kind in ExtensionToHost.Kind.allCases {
            XCTAssertEqual(toHost[kind.rawValue], fields(of: Self.sample(kind).json(id: .null)), "the fields of \(kind.rawValue)")
        }
        let fromHost = names(table["fromHost"])
        XCTAssertEqual(Set(fromHost.keys), Set(HostToExtension.Kind.allCases.map(\.rawValue)), "fromHost's messages")
        for kind in HostToExtension.Kind.allCases {
            let sent = Set(Self.samples(kind).flatMap { fields(of: $0.json(id: .null)) })
            XCTAssertEqual(Set(fromHost[kind.rawValue] ?? []), sent, "the fields of \(kind.rawValue)")
        }
        let records = names(table["records"])
        XCTAssertEqual(records["timebox"], fields(of: Self.timebox.json))
        let rule = HostToExtension.state(HostToExtension.State(
            version: "", gating: true, reason: nil, message: nil, grace: [], ungated: [], timeboxes: [],
            siteRules: [NativeHostService.siteRule("a.test")], settings: [])).json(id: .null)
        let ruleFields = try JSONValue.parse(rule.text)["site_rules"].flatMap { value -> [String]? in
            guard case .array(let items) = value, let first = items.first?.object else { return nil }
            return Array(first.keys)
        }
        XCTAssertEqual(Set(records["site_rule"] ?? []), Set(ruleFields ?? []))
        XCTAssertEqual(records["budget_end"], fields(of: Self.budgetEnd.json))
        let choice = try JSONValue.parse(Self.budgetEnd.json.text)["choices"].flatMap { value -> [String]? in
            guard case .array(let items) = value, let first = items.first?.object else { return nil }
            return Array(first.keys)
        }
        XCTAssertEqual(Set(records["budget_choice"] ?? []), Set(choice ?? []))
    }

    // MARK: - The room: coming back, focused time, the budget

    /// The room's messages as the extension sends them, and hostile values in them: a time
    /// away out of range is absent (a first sight, which counts as a return), focused seconds
    /// outside 1–60 and a choice that is no word refuse the message.
    func testTheRoomsMessagesDecodeAndRefuseHostileValues() throws {
        XCTAssertEqual(try decode(#"{"type":"gate","url":"https://x.test/","reentry":true}"#), .gate(url: "https://x.test/", reentry: true))
        for reentry in ["false", "1", "\"true\"", "null", "{}"] {
            XCTAssertEqual(try decode(#"{"type":"gate","url":"https://x.test/","reentry":\#(reentry)}"#), .gate(url: "https://x.test/"), reentry)
        }
        XCTAssertEqual(try decode(#"{"type":"reentry","url":"https://x.test/","away_seconds":0}"#),
                       .reentry(url: "https://x.test/", awaySeconds: 0))
        XCTAssertEqual(try decode(#"{"type":"reentry","url":"https://x.test/"}"#), .reentry(url: "https://x.test/", awaySeconds: nil))
        for away in ["-1", "-9223372036854775808", "9223372036854775807", "3155760001", "1e300", "12.5", "\"600\"", "null", "[600]"] {
            XCTAssertEqual(try decode(#"{"type":"reentry","url":"https://x.test/","away_seconds":\#(away)}"#),
                           .reentry(url: "https://x.test/", awaySeconds: nil), away)
        }
        XCTAssertEqual(try decode(#"{"type":"focus","url":"https://x.test/","seconds":1}"#), .focus(url: "https://x.test/", seconds: 1))
        XCTAssertEqual(try decode(#"{"type":"focus","url":"https://x.test/","seconds":60}"#), .focus(url: "https://x.test/", seconds: 60))
        for seconds in ["0", "61", "-5", "9223372036854775807", "1e300", "30.5", "\"30\"", "null"] {
            XCTAssertEqual(problem(Data(#"{"type":"focus","url":"https://x.test/","seconds":\#(seconds)}"#.utf8)),
                           #""seconds" is missing or not valid"#, seconds)
        }
        XCTAssertEqual(problem(Data(#"{"type":"focus","url":"https://x.test/"}"#.utf8)), #""seconds" is missing or not valid"#)
        XCTAssertEqual(problem(Data(#"{"type":"focus","seconds":30}"#.utf8)), #""url" is missing or not valid"#)
        XCTAssertEqual(problem(Data(#"{"type":"reentry","away_seconds":30}"#.utf8)), #""url" is missing or not valid"#)
        XCTAssertEqual(try decode(#"{"type":"budget_end","url":"https://x.test/","choice":"close"}"#),
                       .budgetEnd(url: "https://x.test/", choice: "close"))
        for body in [#"{"type":"budget_end","url":"https://x.test/"}"#, #"{"type":"budget_end","url":"https://x.test/","choice":7}"#,
                     #"{"type":"budget_end","url":"https://x.test/","choice":"\#(String(repeating: "c", count: 17))"}"#] {
            XCTAssertEqual(problem(Data(body.utf8)), #""choice" is missing or not valid"#, body)
        }
    }

    /// The exact shapes the extension reads: `minutes_today` and `focus_minutes` numbers with
    /// one decimal, `budget_end` null or the soft end, `reentry`'s `action`, `state`'s `idle_seconds`.
    func testTheRoomsAnswersHaveTheirShapes() throws {
        let focus = HostToExtension.focus(.init(site: "reddit.com", minutesToday: 30, budgetEnd: Self.budgetEnd)).json(id: .int(1)).text
        XCTAssertEqual(focus, #"{"type":"focus","id":1,"site":"reddit.com","minutes_today":30.0,"budget_end":{"site":"reddit.com","minutes":30,"#
                       + #""message":"Your 30 minutes on reddit.com for today are used","choices":[{"choice":"close","label":"Close tab"},"#
                       + #"{"choice":"keep","label":"Keep going"}]}}"#)
        XCTAssertEqual(HostToExtension.focus(.init(site: nil, minutesToday: 0)).json(id: .null).text,
                       #"{"type":"focus","id":null,"site":null,"minutes_today":0.0,"budget_end":null}"#)
        XCTAssertEqual(HostToExtension.reentry(gate: true, site: "reddit.com").json(id: .int(2)).text,
                       #"{"type":"reentry","id":2,"action":"gate","site":"reddit.com"}"#)
        XCTAssertEqual(HostToExtension.reentry(gate: false, site: nil).json(id: .int(2)).text, #"{"type":"reentry","id":2,"action":"go","site":null}"#)
        XCTAssertEqual(HostToExtension.budgetEnd(recorded: false).json(id: .int(3)).text, #"{"type":"budget_end","id":3,"recorded":false}"#)
        let stats = try JSONValue.parse(Self.samples(.stats)[0].json(id: .null).text)
        XCTAssertEqual(stats["focus_minutes"]?.double, 47.5)
        let state = try JSONValue.parse(Self.samples(.state)[0].json(id: .null).text)
        XCTAssertEqual(state["idle_seconds"]?.integer, 300)
        XCTAssertEqual(NativeHostService.idleSeconds(environment: ["MIGA_IDLE_SECONDS": "15"]), 15)
        for text in ["14", "3601", "-1", "abc", "", "99999999999999999999"] {
            XCTAssertEqual(NativeHostService.idleSeconds(environment: ["MIGA_IDLE_SECONDS": text]), 300, text)
        }
    }

    /// Messages built by protocol.js's own `request` decode here, when node is on the machine
    /// (CI has none: there the browser tests send every message through it to the real host).
    func testMessagesTheJavaScriptEncoderBuildsDecode() throws {
        guard let node = ["/usr/bin/node", "/usr/local/bin/node"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw XCTSkip("no node here")
        }
        let samples = ExtensionToHost.Kind.allCases.map { kind in
            let message = Self.sample(kind).json(id: .null)
            guard case .object(let members) = message else { return "" }
            let fields = OrderedJSON.object(members.filter { $0.0 != "type" && $0.0 != "id" }).text
            return "console.log(JSON.stringify(request(\(JSONText.string(kind.rawValue)), \(fields))));"
        }
        let script = "import { request } from \(JSONText.string(Self.repository.appendingPathComponent("browser/protocol.js").path));\n"
            + samples.joined(separator: "\n")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: node)
        process.arguments = ["--input-type=module", "-e", script]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        XCTAssertEqual(lines.count, ExtensionToHost.Kind.allCases.count)
        for (kind, line) in zip(ExtensionToHost.Kind.allCases, lines) {
            XCTAssertEqual(try decode(String(line)), Self.sample(kind), String(line))
        }
    }

    // MARK: - Decisions the host sends

    /// A site's `addresses` pattern matches exactly the addresses `SiteMatcher.site(for:)`
    /// gives that site (as a browser writes them), first match first, as the extension uses it.
    func testASitesAddressesAreSiteMatchersRule() throws {
        let sites = ["reddit.com", "*.example.com", "news.ycombinator.com", "xn--bcher-kva.example", "192.168.1.10", "[::1]", "a-b.test"]
        let matcher = SiteMatcher(sites: sites)
        let patterns = try matcher.sites.map { site in (site, try Regex(SiteMatcher.addressPattern(of: site)).ignoresCase()) }
        let urls = [
            "https://reddit.com/", "https://www.reddit.com/r/linux?x=1#top", "http://old.reddit.com:8080/", "https://reddit.com./",
            "https://reddit.com../x", "https://evilreddit.com/", "https://reddit.com.evil.example/", "https://evil.example/reddit.com",
            "https://evil.example/?u=https://reddit.com/", "https://reddit.com@evil.example/", "https://user:pw@reddit.com/",
            "https://evil.example/#reddit.com", "ftp://reddit.com/", "https://example.com/", "https://a.example.com/",
            "https://a.b.example.com/x", "https://aexample.com/", "https://ycombinator.com/", "https://news.ycombinator.com/item",
            "https://xn--bcher-kva.example/", "https://shop.xn--bcher-kva.example/", "http://192.168.1.10/", "http://192.168.1.100/",
            "http://[::1]:3000/", "http://[::2]/", "https://a-b.test/", "https://b.test/", "https://reddit.com", "https://REDDIT.COM/",
            "https://reddit.com:443x/",
        ]
        for url in urls {
            let expected = matcher.site(for: url).map { site in matcher.sites.first { SiteMatcher.domain(of: $0) == site } ?? site }
            let matched = patterns.first { (try? $0.1.wholeMatch(in: url)) != nil }?.0
            XCTAssertEqual(matched, expected, url)
        }
        // Group 1 is the whole address: the redirect rules substitute it after the gate page's `#`.
        let match = try XCTUnwrap(try Regex(SiteMatcher.addressPattern(of: "reddit.com")).wholeMatch(in: "https://www.reddit.com/r/x"))
        XCTAssertEqual(match.output.count, 2)
        XCTAssertEqual(match.output[1].substring.map(String.init), "https://www.reddit.com/r/x")
    }

    /// Path sites: the rules in the order sent, each matched as the extension matches it (a
    /// whole host's without case, a path site's with case), give the site `site(for:)` gives,
    /// for addresses as a browser writes them (`href`): percent-encoding, `..` resolved, `//`,
    /// the case of a path, ports and userinfo.
    func testAPathSitesAddressesAreSiteMatchersRule() throws {
        let sites = ["youtube.com", "youtube.com/shorts", "reddit.com/r/all", "*.example.com/x", "example.com/caf%C3%A9",
                     "example.com/a%2Fb", "example.com/(x)+[y]$^|{z}", "example.com/~u_1.2;p=3,4!*'@:&", "a-b.test/shorts/live"]
        let matcher = SiteMatcher(sites: sites)
        XCTAssertEqual(matcher.sites.count, sites.count, "every site reads")
        let rules = matcher.orderedSites.map(NativeHostService.siteRule)
        let patterns = try rules.map { rule in
            (rule.site, rule.path.isEmpty ? try Regex(rule.addresses).ignoresCase() : try Regex(rule.addresses))
        }
        XCTAssertEqual(rules.first { $0.site == "youtube.com/shorts" }?.path, "/shorts")
        XCTAssertEqual(rules.first { $0.site == "youtube.com" }?.path, "")
        XCTAssertLessThan(try XCTUnwrap(rules.firstIndex { $0.site == "youtube.com/shorts" }), try XCTUnwrap(rules.firstIndex { $0.site == "youtube.com" }))
        let urls = [
            "https://youtube.com/shorts", "https://youtube.com/shorts/abc", "https://www.youtube.com/shorts/", "https://youtube.com/shortsx",
            "https://youtube.com/Shorts/x", "https://youtube.com/SHORTS", "https://youtube.com/watch?v=1", "https://youtube.com/watch?v=1#/shorts/x",
            "https://youtube.com/?next=/shorts", "https://youtube.com//shorts/x", "https://youtube.com/shorts%2Fx", "https://youtube.com/%73horts/x",
            "https://youtube.com:8443/shorts/x", "http://youtube.com:80x/shorts", "https://u:p@youtube.com/shorts/x", "https://youtube.com%40evil.example/shorts",
            "https://evil.example/youtube.com/shorts", "https://youtube.com.evil.example/shorts", "https://youtube.com./shorts/x",
            "https://youtube.com../shorts", "https://reddit.com/r/all", "https://reddit.com/r/all/top?t=day", "https://reddit.com/r/allx",
            "https://old.reddit.com/r/all#x", "https://reddit.com/r/All", "https://reddit.com/r/", "https://a.example.com/x", "https://a.example.com/x/y",
            "https://example.com/x", "https://example.com/caf%C3%A9", "https://example.com/caf%c3%a9/x", "https://example.com/caf%C3%A9x",
            "https://example.com/cafe", "https://example.com/a%2Fb", "https://example.com/a%2fb?q", "https://example.com/a/b",
            "https://example.com/(x)+[y]$^|%7Bz%7D/1", "https://example.com/(x)+[y]$^|%7bz%7d", "https://example.com/(x)+[y]$^|%7Bz%7Dx",
            "https://example.com/(x)+[y]$^|%7Bz", "https://example.com/(x)+[y]$^%7Cz",
            "https://example.com/~u_1.2;p=3,4!*'@:&", "https://example.com/~u_1.2;p=3,4!*'@:&/", "https://example.com/%7Eu_1.2;p=3,4!*'@:&",
            "https://a-b.test/shorts/live/1", "https://a-b.test/shorts/lives", "https://a-b.test/shorts", "ftp://youtube.com/shorts",
        ]
        for url in urls {
            let expected = matcher.listedSite(for: url)
            let matched = patterns.first { (try? $0.1.wholeMatch(in: url)) != nil }?.0
            XCTAssertEqual(matched, expected, url)
        }
        XCTAssertEqual(matcher.site(for: "https://youtube.com/shorts/abc"), "youtube.com/shorts")
        XCTAssertEqual(matcher.site(for: "https://youtube.com/watch?v=1"), "youtube.com")
        // Group 1 is the whole address, for the gate page's `#`.
        let match = try XCTUnwrap(try Regex(SiteMatcher.addressPattern(of: "youtube.com/shorts")).wholeMatch(in: "https://youtube.com/shorts/x?y#z"))
        XCTAssertEqual(match.output.count, 2)
        XCTAssertEqual(match.output[1].substring.map(String.init), "https://youtube.com/shorts/x?y#z")
    }

    /// A timebox's notice, end and choices are `Timebox`'s: the extension only shows them.
    func testATimeboxCarriesTheDecisionsOfTimebox() throws {
        var box = Timebox(app: "reddit.com", session: Self.session, openedAt: 1_000_000, minutes: 10)
        var sent = NativeHostService.timebox(box, site: "reddit.com")
        XCTAssertEqual(sent.end, 1_000_000 + 600_000)
        XCTAssertEqual(sent.noticeAt, sent.end - 60_000)
        XCTAssertEqual(sent.noticeUntil, sent.end - 15_000)
        XCTAssertEqual(sent.choices, ["close", "extend", "keep"])
        XCTAssertEqual(sent.declaredMinutes, 10)
        XCTAssertEqual(sent.extendLabel, "5 more minutes")
        XCTAssertEqual(sent.addresses, SiteMatcher.addressPattern(of: "reddit.com"))
        box.extended = true
        box.extendedAt = 1_000_000 + 700_000
        sent = NativeHostService.timebox(box, site: "reddit.com")
        XCTAssertEqual(sent.end, 1_000_000 + 700_000 + 300_000)
        XCTAssertEqual(sent.choices, ["close", "keep"], "five more minutes once per Open")
        XCTAssertEqual(sent.declaredMinutes, 15)
        XCTAssertEqual(sent.domain, "reddit.com")
        XCTAssertEqual(NativeHostService.timebox(box, site: "*.example.com").domain, "example.com")
    }
}
