import XCTest
@testable import MigaSystem
import MigaTestSupport

final class CommandResolverTests: XCTestCase {
    func testSkipsTheShimFolderByRealPath() throws {
        let root = try TemporaryDirectory()
        let shim = try root.write("#!/bin/sh\n", to: "data/miga/bin/discord", mode: 0o755)
        let real = try root.write("#!/bin/sh\n", to: "usr/bin/discord", mode: 0o755)
        // The same shim folder reached through a symlink and a `..` detour.
        try FileManager.default.createSymbolicLink(atPath: root.path + "/alias", withDestinationPath: root.path + "/data/miga/bin")
        let shimFolder = (shim as NSString).deletingLastPathComponent
        let path = [root.path + "/alias", root.path + "/data/miga/../miga/bin", shimFolder, root.path + "/usr/bin"].joined(separator: ":")
        let resolver = CommandResolver(searchPath: path, skipping: [shimFolder])
        XCTAssertEqual(try resolver.resolve(["discord", "--x"]), ResolvedCommand(executable: root.path + "/usr/bin/discord", arguments: ["discord", "--x"]))
        XCTAssertEqual(resolver.lookUp("discord"), real)
    }

    func testSymlinkIntoTheShimFolderIsSkippedToo() throws {
        let root = try TemporaryDirectory()
        let shim = try root.write("#!/bin/sh\n", to: "shims/app", mode: 0o755)
        try FileManager.default.createDirectory(atPath: root.path + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root.path + "/bin/app", withDestinationPath: shim)
        let real = try root.write("#!/bin/sh\n", to: "real/app", mode: 0o755)
        let resolver = CommandResolver(searchPath: "\(root.path)/bin:\(root.path)/real", skipping: [root.path + "/shims"])
        XCTAssertEqual(resolver.lookUp("app"), real)
    }

    func testNonExecutablesAndFoldersAreNotCommands() throws {
        let root = try TemporaryDirectory()
        _ = try root.write("data", to: "a/tool", mode: 0o644)
        try FileManager.default.createDirectory(atPath: root.path + "/b/tool", withIntermediateDirectories: true)
        let real = try root.write("#!/bin/sh\n", to: "c/tool", mode: 0o755)
        let resolver = CommandResolver(searchPath: "\(root.path)/a:\(root.path)/b:\(root.path)/c", skipping: [])
        XCTAssertEqual(resolver.lookUp("tool"), real)
    }

    /// An explicit path is taken as written once it can run; what cannot is the shell's 127
    /// (missing) or 126 (a folder, not executable), found before anything is shown.
    func testNotFoundAndExplicitPaths() throws {
        let root = try TemporaryDirectory()
        let program = try root.write("#!/bin/sh\n", to: "My App/My App", mode: 0o755)
        let text = try root.write("data", to: "notes.txt", mode: 0o644)
        let resolver = CommandResolver(searchPath: "/nonexistent", skipping: [])
        XCTAssertThrowsError(try resolver.resolve(["no-such-tool-x"])) { error in
            XCTAssertEqual(error as? CommandError, .commandNotFound("no-such-tool-x"))
        }
        XCTAssertThrowsError(try resolver.resolve([])) { XCTAssertEqual($0 as? CommandError, .noCommand) }
        XCTAssertEqual(try resolver.resolve([program, "a"]), ResolvedCommand(executable: program, arguments: [program, "a"]))
        for (path, status) in [(root.path + "/missing", 127), (text, 126), (root.path + "/My App", 126), (text + "/x", 127)] {
            XCTAssertThrowsError(try resolver.resolve([path])) { XCTAssertEqual(($0 as? CommandError)?.status, Int32(status), path) }
        }
    }
}

final class TerminalEmulatorsTests: XCTestCase {
    func testDesignOrderAndEachEmulatorsFlag() throws {
        let argv = ["/usr/bin/miga", "gate", "--", "x"]
        let root = try TemporaryDirectory()
        var installed = ["xterm", "kitty", "gnome-terminal", "x-terminal-emulator", "xdg-terminal-exec"]
        for name in installed { _ = try root.write("#!/bin/sh\n", to: "bin/\(name)", mode: 0o755) }
        var expected: [[String]] = [
            ["xdg-terminal-exec"], ["x-terminal-emulator", "-e"], ["gnome-terminal", "--"], ["kitty"], ["xterm", "-e"],
        ]
        while !installed.isEmpty {
            let emulators = TerminalEmulators(setting: "", environment: [:],
                                              resolver: CommandResolver(searchPath: root.path + "/bin", skipping: []))
            let command = try XCTUnwrap(emulators.command(running: argv))
            XCTAssertEqual(command.arguments, expected[0] + argv)
            XCTAssertEqual(command.executable, root.path + "/bin/" + expected[0][0])
            let name = expected.removeFirst()[0]
            try FileManager.default.removeItem(atPath: root.path + "/bin/" + name)
            installed.removeAll { $0 == name }
        }
        let none = TerminalEmulators(setting: "", environment: [:], resolver: CommandResolver(searchPath: root.path + "/bin", skipping: []))
        XCTAssertNil(none.command(running: argv))
    }

    func testSettingThenTERMINALComeFirst() throws {
        let root = try TemporaryDirectory()
        for name in ["xterm", "foot", "mine"] { _ = try root.write("#!/bin/sh\n", to: "bin/\(name)", mode: 0o755) }
        let resolver = CommandResolver(searchPath: root.path + "/bin", skipping: [])
        let fromSetting = TerminalEmulators(setting: "foot", environment: ["TERMINAL": "xterm"], resolver: resolver)
        XCTAssertEqual(fromSetting.command(running: ["m"])?.arguments, ["foot", "m"])
        let spelledOut = TerminalEmulators(setting: "mine --run-this", environment: [:], resolver: resolver)
        XCTAssertEqual(spelledOut.command(running: ["m"])?.arguments, ["mine", "--run-this", "m"])
        let fromEnvironment = TerminalEmulators(setting: "", environment: ["TERMINAL": "mine"], resolver: resolver)
        XCTAssertEqual(fromEnvironment.command(running: ["m"])?.arguments, ["mine", "-e", "m"])
        let missingSetting = TerminalEmulators(setting: "alacritty", environment: [:], resolver: resolver)
        XCTAssertEqual(missingSetting.command(running: ["m"])?.arguments, ["foot", "m"], "falls through to what exists")
    }

    func testGraphicalSession() {
        let resolver = CommandResolver(searchPath: "", skipping: [])
        XCTAssertFalse(TerminalEmulators(setting: "", environment: [:], resolver: resolver).graphicalSessionPresent)
        XCTAssertTrue(TerminalEmulators(setting: "", environment: ["WAYLAND_DISPLAY": "wayland-0"], resolver: resolver).graphicalSessionPresent)
        XCTAssertTrue(TerminalEmulators(setting: "", environment: ["DISPLAY": ":0"], resolver: resolver).graphicalSessionPresent)
    }
}

final class LinuxSystemTests: XCTestCase {
    func testMakeDirectoriesCreatesPrivateFoldersAndRefusesFiles() throws {
        let root = try TemporaryDirectory()
        try LinuxSystem.makeDirectories(root.path + "/a/b/c", mode: 0o700)
        try LinuxSystem.makeDirectories(root.path + "/a/b/c", mode: 0o700) // idempotent
        let mode = try FileManager.default.attributesOfItem(atPath: root.path + "/a/b")[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o700)
        _ = try root.write("x", to: "file")
        XCTAssertThrowsError(try LinuxSystem.makeDirectories(root.path + "/file/sub", mode: 0o700))
        XCTAssertThrowsError(try LinuxSystem.makeDirectories(root.path + "/file", mode: 0o700))
    }
}

final class MigaPathsTests: XCTestCase {
    func testXDGVariablesWinAndRelativeOnesAreIgnored() throws {
        let paths = try MigaPaths(environment: ["HOME": "/home/u", "XDG_CONFIG_HOME": "/cfg", "XDG_DATA_HOME": "relative/data"])
        XCTAssertEqual(paths.configFile, "/cfg/miga/config.toml")
        XCTAssertEqual(paths.database, "/home/u/.local/share/miga/miga.sqlite3", "a relative XDG value is invalid per the spec")
        XCTAssertEqual(paths.shimDirectory, "/home/u/.local/share/miga/bin")
        XCTAssertEqual(paths.stateDirectory, "/home/u/.local/state/miga")
        XCTAssertThrowsError(try MigaPaths(environment: [:]))
    }
}
