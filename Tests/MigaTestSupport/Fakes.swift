import Foundation
import MigaContent
import MigaSystem

/// A clock tests move by hand: the countdown never sleeps.
public final class FakeClock: MigaClock, @unchecked Sendable {
    public var wall: Date
    public var monotonic: UInt64
    public var offsetMinutes: Int
    /// Runs at each look at the wall clock: a test's way to change the world in the middle of
    /// what it tests (a file replaced while a reply is worked out).
    public var onNow: (() -> Void)?

    public init(wall: Date = Date(timeIntervalSince1970: 1_795_000_000), monotonic: UInt64 = 1_000_000_000, offsetMinutes: Int = 60) {
        self.wall = wall
        self.monotonic = monotonic
        self.offsetMinutes = offsetMinutes
    }

    public func now() -> Date {
        onNow?()
        return wall
    }
    public func monotonicNanoseconds() -> UInt64 { monotonic }
    public func utcOffsetMinutes(at date: Date) -> Int { offsetMinutes }

    public func advance(seconds: Double) {
        wall = wall.addingTimeInterval(seconds)
        monotonic += UInt64(seconds * 1_000_000_000)
    }
}

/// Records what would have been run instead of running it.
public final class FakeLauncher: ProcessLauncher, @unchecked Sendable {
    public struct Call: Equatable {
        public var command: ResolvedCommand
        public var environment: [String: String]
        public var detached: Bool

        public init(command: ResolvedCommand, environment: [String: String], detached: Bool) {
            self.command = command
            self.environment = environment
            self.detached = detached
        }
    }
    public struct Exec: Error {}

    public var calls: [Call] = []

    public init() {}

    public func exec(_ command: ResolvedCommand, environment: [String: String]) throws -> Never {
        calls.append(Call(command: command, environment: environment, detached: false))
        throw Exec()
    }

    /// What a started program does at once (a terminal emulator showing the gate, say).
    public var onSpawn: ((ResolvedCommand) -> Void)?

    @discardableResult
    public func spawnDetached(_ command: ResolvedCommand, environment: [String: String]) throws -> Int32 {
        calls.append(Call(command: command, environment: environment, detached: true))
        onSpawn?(command)
        return 0
    }

    public func spawnDetachedKeepingErrors(_ command: ResolvedCommand, environment: [String: String]) throws {
        try spawnDetached(command, environment: environment)
    }

    /// What a watched program's status would be (nil: still running).
    public var watchedStatus: Int32?
    public func spawnDetachedWatching(_ command: ResolvedCommand, environment: [String: String], seconds: Double) throws -> Int32? {
        try spawnDetached(command, environment: environment)
        return watchedStatus
    }

    /// What an app run in the foreground returns.
    public var foregroundStatus: Int32 = 0
    public func runInForeground(_ command: ResolvedCommand, environment: [String: String]) throws -> Int32 {
        calls.append(Call(command: command, environment: environment, detached: false))
        return foregroundStatus
    }

    public var ranHelpers: [ResolvedCommand] = []
    public func run(_ command: ResolvedCommand, environment: [String: String]) throws -> Int32 {
        ranHelpers.append(command)
        return 0
    }
}

/// The person's one-line messages, kept in order; `text` is what standard error would show.
public final class CollectingSink: MessageSink, @unchecked Sendable {
    public var lines: [String] = []
    public init() {}
    public func say(_ line: String) { lines.append(line) }
}

/// A command's output, kept: what standard output would show, as text.
public final class CapturedOutput: TextOutput, @unchecked Sendable {
    public private(set) var bytes = Data()
    public let isTerminal = false
    public let columns: Int? = nil

    public init() {}

    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public func write(_ text: String) throws { bytes.append(contentsOf: Array(text.utf8)) }
    public func write(_ bytes: Data) throws { self.bytes.append(bytes) }
}

extension ContentItem {
    public static func sample(_ id: String, kind: ContentKind = .quote) -> ContentItem {
        ContentItem(id: id, kind: kind, category: "test", text: "Text of \(id).")
    }
}
