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

    @discardableResult
    func spawnDetached(_ command: ResolvedCommand, environment: [String: String]) throws -> Int32 {
        calls.append(Call(command: command, environment: environment, detached: true))
        onSpawn?(command)
        return 0
    }

    func spawnDetachedKeepingErrors(_ command: ResolvedCommand, environment: [String: String]) throws {
        try spawnDetached(command, environment: environment)
    }

    /// What a watched program's status would be (nil: still running).
    var watchedStatus: Int32?
    func spawnDetachedWatching(_ command: ResolvedCommand, environment: [String: String], seconds: Double) throws -> Int32? {
        try spawnDetached(command, environment: environment)
        return watchedStatus
    }

    /// What an app run in the foreground returns.
    var foregroundStatus: Int32 = 0
    func runInForeground(_ command: ResolvedCommand, environment: [String: String]) throws -> Int32 {
        calls.append(Call(command: command, environment: environment, detached: false))
        return foregroundStatus
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

extension ContentItem {
    static func sample(_ id: String, kind: ContentKind = .quote) -> ContentItem {
        ContentItem(id: id, kind: kind, category: "test", text: "Text of \(id).")
    }
}
