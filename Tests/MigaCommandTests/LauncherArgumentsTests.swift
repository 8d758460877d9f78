import ArgumentParser
import Foundation
import MigaCore
@testable import miga
import MigaTestSupport
import XCTest

/// The launchers' argument lists skip ArgumentParser. These tests hold that shortcut to two
/// promises: every list miga writes takes it (else the speed-up silently goes), and whatever
/// it accepts, ArgumentParser reads exactly the same way (else a shim would run something
/// `miga gate` would not).
final class LauncherArgumentsTests: XCTestCase {
    let migaPath = "/opt/my tools/miga" // a space, so the launchers' quoting is exercised

    /// What ArgumentParser makes of `arguments`, in the shortcut's terms.
    func parsedByArgumentParser(_ arguments: [String]) throws -> LauncherArguments? {
        switch try Miga.parseAsRoot(arguments) {
        case let gate as Gate: return .gate(gate.request)
        case let open as OpenURL: return .openURL(urls: open.urls, forward: open.forward)
        case let host as NativeHostCommand: return .nativeHost(host.browserArguments)
        default: return nil
        }
    }

    func assertShortcut(_ arguments: [String], is expected: LauncherArguments,
                        file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(LauncherArguments(arguments), expected, "\(arguments)", file: file, line: line)
        XCTAssertEqual(try parsedByArgumentParser(arguments), expected, "ArgumentParser on \(arguments)", file: file, line: line)
    }

    func testThePATHShimTakesIt() throws {
        let folder = NSTemporaryDirectory() + "miga-launcher-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The shim execs miga; a stand-in records the argv it gets, NUL-separated.
        let fakeMiga = folder + "/miga"
        try "#!/bin/sh\nprintf '%s\\0' \"$@\" > \"$0.argv\"\n".write(toFile: fakeMiga, atomically: true, encoding: .utf8)
        let shim = folder + "/discord"
        try PathShim.text(migaPath: fakeMiga, app: "discord", command: "/usr/bin/disc'ord")
            .write(toFile: shim, atomically: true, encoding: .utf8)
        for path in [fakeMiga, shim] { chmod(path, 0o755) }

        let appArguments = ["--flag", "two words", "", "--", "--help", "-h"]
        let run = Process()
        run.executableURL = URL(fileURLWithPath: "/bin/sh")
        run.arguments = [shim] + appArguments
        try run.run()
        run.waitUntilExit()
        XCTAssertEqual(run.terminationStatus, 0)
        let recorded = try String(contentsOfFile: fakeMiga + ".argv", encoding: .utf8)
        let arguments = recorded.split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(String.init)

        try assertShortcut(arguments, is: .gate(GateRequest(app: "discord", command: ["/usr/bin/disc'ord"] + appArguments)))
    }

    func testEveryDesktopShimTakesIt() throws {
        let fixtures = Fixtures.path("desktop")
        let files = try FileManager.default.contentsOfDirectory(atPath: fixtures).filter { $0.hasSuffix(".desktop") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 10)
        let urls = ["https://www.debian.org/", "irc://irc.oftc.net/debian"]
        for file in files {
            let original = try DesktopEntry.load(path: fixtures + "/" + file)
            let shim = try DesktopEntry(text: DesktopShim.text(for: original, migaPath: migaPath, app: "chat"), name: file)
            let expected = try XCTUnwrap(original.rawValue("Exec").map(ExecLine.init(rawValue:)))
                .invocations(urls: urls, icon: nil, name: "Chat", location: nil)
            let launched = try XCTUnwrap(shim.rawValue("Exec").map(ExecLine.init(rawValue:)))
                .invocations(urls: urls, icon: nil, name: "Chat", location: nil)
            XCTAssertEqual(launched.count, expected.count, file)
            for (arguments, command) in zip(launched, expected) {
                // sh -c SCRIPT MIGA APP...: the script execs "$0" gate --app chat --detach -- "$@".
                XCTAssertEqual(Array(arguments.prefix(2)), ["/bin/sh", "-c"], file)
                XCTAssertEqual(arguments.dropFirst(3).first, migaPath, file)
                let received = ["gate", "--app", "chat", "--detach", "--"] + arguments.dropFirst(4)
                XCTAssertTrue(arguments[2].contains("exec \"$0\" gate --app 'chat' --detach -- \"$@\""), arguments[2])
                try assertShortcut(received, is: .gate(GateRequest(app: "chat", command: command, detach: true)))
            }
        }
    }

    func testTheLinkHandlerTakesIt() throws {
        let urls = ["https://old.reddit.com/r/debian", "https://www.debian.org/?q=a b"]
        let handler = try DesktopEntry(text: URLHandler.text(migaPath: migaPath), name: URLHandler.desktopID)
        let launched = try XCTUnwrap(handler.rawValue("Exec").map(ExecLine.init(rawValue:)))
            .invocations(urls: urls, icon: nil, name: nil, location: nil)
        XCTAssertEqual(launched.count, 1, "%U: one process for all the links")
        XCTAssertEqual(launched.first?.first, migaPath)
        try assertShortcut(Array(launched[0].dropFirst()), is: .openURL(urls: urls, forward: false))
    }

    /// Written by Gatekeeper (the terminal it opens) and URLRouter (the gate's Open of a link).
    func testTheGatesOwnInnerCommandsTakeIt() throws {
        try assertShortcut(["gate", "--app", "reddit.com", "--detach", "--plain", "--", "/bin/app", "-x"],
                           is: .gate(GateRequest(app: "reddit.com", command: ["/bin/app", "-x"], detach: true, plain: true)))
        try assertShortcut(["open-url", "--forward", "--", "https://reddit.com/", "--help"],
                           is: .openURL(urls: ["https://reddit.com/", "--help"], forward: true))
    }

    /// What Chromium and Firefox pass the native host (through the miga-native-host link,
    /// which runs the shortcut whatever the arguments; `miga native-host` by hand too).
    func testTheBrowsersArgumentsTakeIt() throws {
        try assertShortcut(["native-host", "chrome-extension://\(BrowserExtension.chromiumID)/"],
                           is: .nativeHost(["chrome-extension://\(BrowserExtension.chromiumID)/"]))
        try assertShortcut(["native-host", "/home/me/.mozilla/native-messaging-hosts/miga.gateway.json", BrowserExtension.geckoID],
                           is: .nativeHost(["/home/me/.mozilla/native-messaging-hosts/miga.gateway.json", BrowserExtension.geckoID]))
        try assertShortcut(["native-host"], is: .nativeHost([]))
        XCTAssertNil(LauncherArguments(["native-host", "--help"]))
    }

    /// Help, version, completion scripts, other spellings and mistakes keep ArgumentParser's
    /// handling (and its messages).
    func testAnythingElseGoesToArgumentParser() {
        for arguments in [
            [], ["gate"], ["gate", "--help"], ["gate", "-h", "--", "x"], ["gate", "--app=x", "--", "y"],
            ["gate", "--app", "x", "y"], ["gate", "--app", "x", "--"], ["gate", "--app", "--", "x"],
            ["gate", "--app", "x", "--app", "y", "--", "z"], ["gate", "--detach", "--detach", "--", "z"],
            ["gate", "--generate-completion-script", "bash", "--", "x"], ["gate", "--version", "--", "x"],
            ["open-url"], ["open-url", "--help"], ["open-url", "-x"], ["open-url", "https://a/", "--forward"],
            ["open-url", "--forward", "https://a/"], ["open-url", "--forward", "--"], ["open-url", "--", "https://a/"],
            ["stats"], ["--version"], ["--generate-completion-script", "bash"], ["help", "gate"],
        ] {
            XCTAssertNil(LauncherArguments(arguments), "\(arguments)")
        }
    }

    /// Every argument list of up to four tokens that matter, after either verb: whenever the
    /// shortcut accepts one, ArgumentParser must parse it to the same command.
    func testWhateverItAcceptsArgumentParserReadsTheSame() throws {
        let tokens = ["--app", "--detach", "--plain", "--forward", "--", "x", "", "-x", "--help", "https://a.example/"]
        var lists: [[String]] = [[]]
        var accepted = 0
        for length in 0...4 {
            if length > 0 { lists = lists.flatMap { list in tokens.map { list + [$0] } } }
            for tail in lists {
                for verb in ["gate", "open-url", "native-host"] {
                    let arguments = [verb] + tail
                    guard let shortcut = LauncherArguments(arguments) else { continue }
                    accepted += 1
                    XCTAssertEqual(try parsedByArgumentParser(arguments), shortcut, "\(arguments)")
                }
            }
        }
        XCTAssertGreaterThan(accepted, 1_000, "the lists must reach the accepted shapes")
    }
}
