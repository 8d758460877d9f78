import Foundation
@testable import MigaCore

/// A clock tests move by hand: the countdown never sleeps.
final class FakeClock: MigaClock, @unchecked Sendable {
    var wall: Date
    var monotonic: UInt64
    var offsetMinutes: Int

    init(wall: Date = Date(timeIntervalSince1970: 1_795_000_000), monotonic: UInt64 = 1_000_000_000, offsetMinutes: Int = 60) {
        self.wall = wall
        self.monotonic = monotonic
        self.offsetMinutes = offsetMinutes
    }

    func now() -> Date { wall }
    func monotonicNanoseconds() -> UInt64 { monotonic }
    func utcOffsetMinutes(at date: Date) -> Int { offsetMinutes }

    func advance(seconds: Double) {
        wall = wall.addingTimeInterval(seconds)
        monotonic += UInt64(seconds * 1_000_000_000)
    }
}

/// Records what would have been run instead of running it.
final class FakeLauncher: ProcessLauncher {
    struct Call: Equatable {
        var command: ResolvedCommand
        var environment: [String: String]
        var detached: Bool
    }
    struct Exec: Error {}

    var calls: [Call] = []

    func exec(_ command: ResolvedCommand, environment: [String: String]) throws -> Never {
        calls.append(Call(command: command, environment: environment, detached: false))
        throw Exec()
    }

    /// What a started program does at once (a terminal emulator showing the gate, say).
    var onSpawn: ((ResolvedCommand) -> Void)?

    func spawnDetached(_ command: ResolvedCommand, environment: [String: String]) throws {
        calls.append(Call(command: command, environment: environment, detached: true))
        onSpawn?(command)
    }

    var ranHelpers: [ResolvedCommand] = []
    func run(_ command: ResolvedCommand, environment: [String: String]) throws -> Int32 {
        ranHelpers.append(command)
        return 0
    }
}

final class CollectingSink: MessageSink {
    var lines: [String] = []
    func say(_ line: String) { lines.append(line) }
}

/// A temporary folder removed when the test ends.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "miga-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func write(_ text: String, to relative: String, mode: Int = 0o644) throws -> String {
        let file = path + "/" + relative
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file)
        return file
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Runs a short-lived tool (a validator, gio) and returns its status and combined output.
func runProgram(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// A deterministic generator so rotation tests are reproducible.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension ContentItem {
    static func sample(_ id: String, kind: ContentKind = .quote) -> ContentItem {
        ContentItem(id: id, kind: kind, category: "test", text: "Text of \(id).")
    }
}
