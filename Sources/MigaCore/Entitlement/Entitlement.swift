import FoundationEssentials
import JSON

/// `entitlement.json` (DESIGN "Entitlement"): a 3-day trial from the first pause of an app or
/// site the person chose, or a purchased licence. Whatever the file says, miga never stands between a person and their app: an ended
/// trial (or a file someone broke) only turns the pause off.
public struct EntitlementStatus: Equatable {
    public enum State: Equatable {
        /// No pause of a chosen app or site yet: the trial has not begun (and gates run).
        case trialNotStarted
        case trial(endsAt: Date, remaining: TimeInterval)
        case trialEnded(endedAt: Date)
        case purchased(LicenseFile.Payload)
        /// The file cannot be used; treated as an ended trial.
        case broken(problem: String)
    }

    public var state: State
    public var path: String

    /// Whether the gate pauses (trial running or licence valid).
    public var gateEnabled: Bool {
        switch state {
        case .trialNotStarted, .trial, .purchased: return true
        case .trialEnded, .broken: return false
        }
    }

    /// Before the trial: when it starts. Said by `miga license` and the Settings.
    public static let trialStartsAt = "The 3-day trial starts at the first pause of an app or site you chose."
    /// How a licence is had, and what the end of the trial changes (and does not).
    public static let howToBuy = [
        "A licence is a one-time purchase: the licence file arrives by email; then run `miga license activate FILE`.",
        "When the trial ends without one, apps and sites open without a pause; stats, config and export keep working (your data is yours).",
    ]

    /// What `miga license` says: the state, and until a licence is active how one is had.
    public var explanation: [String] {
        if case .purchased = state { return [summary] }
        return [summary] + Self.howToBuy
    }

    public var summary: String {
        switch state {
        case .trialNotStarted:
            return "trial not started. " + Self.trialStartsAt
        case .trial(_, let remaining):
            return "trial — \(Self.duration(remaining)) left"
        case .trialEnded(let endedAt):
            return "trial ended on \(Self.utc(endedAt)); buy a licence, then `miga license activate FILE` (until then apps open without a pause)"
        case .purchased(let payload):
            return "purchased — licensed to \(payload.licensee), licence id \(payload.licenseID) (\(payload.edition))"
        case .broken(let problem):
            return "\(problem); treated as an ended trial (apps open without a pause) until `miga license activate FILE`"
        }
    }

    /// "2 days 5 hours", "3 hours 10 minutes", "12 minutes".
    static func duration(_ interval: TimeInterval) -> String {
        let minutes = max(0, Int(interval / 60))
        let (days, hours, rest) = (minutes / 1440, minutes / 60 % 24, minutes % 60)
        func unit(_ value: Int, _ name: String) -> String { "\(value) \(name)\(value == 1 ? "" : "s")" }
        if days > 0 { return unit(days, "day") + " " + unit(hours, "hour") }
        if hours > 0 { return unit(hours, "hour") + " " + unit(rest, "minute") }
        return unit(rest, "minute")
    }

    static func utc(_ date: Date) -> String {
        let stamp = EventTimestamp.format(unixMilliseconds: UnixTime.clampedMilliseconds(date), offsetMinutes: 0)
        return String(stamp.prefix(16)).replacingEvery("T", with: " ") + " UTC"
    }
}

public struct EntitlementStore {
    public static let trialLength: TimeInterval = 72 * 3600

    public var path: String
    public var clock: any MigaClock
    public var verifier: LicenseVerifier
    /// Makes the folder the entitlement is written into.
    public var files: any FileService

    public init(path: String, clock: any MigaClock, verifier: LicenseVerifier = LicenseVerifier(), files: any FileService = SystemFiles()) {
        self.path = path
        self.clock = clock
        self.verifier = verifier
        self.files = files
    }

    public init(context: MigaContext) {
        self.init(path: context.paths.configDirectory + "/entitlement.json", clock: context.clock, files: context.files)
    }

    /// The entitlement now. Only reading: without a file the trial has not started, and it is
    /// not started here (`doctor`, `license`, the demo or the browser's setup must not start it).
    /// `startingTrial`: a gate of an app or site the person chose (see `GateService.admit`),
    /// the one place the trial begins, written down.
    public func status(startingTrial: Bool = false) -> EntitlementStatus {
        let now = clock.now()
        // Absent and unreadable are told apart by one read: asking "does it exist?" after a
        // failed read raced another miga's first use (four browser hosts starting at once),
        // and an unreadable file counts as an ended trial.
        let read: Data?
        do {
            read = try BoundedFile.readIfPresent(path)
        } catch {
            return EntitlementStatus(state: .broken(problem: "\(path) cannot be read"), path: path)
        }
        guard let data = read else {
            guard startingTrial else { return EntitlementStatus(state: .trialNotStarted, path: path) }
            try? writeTrial(startedAt: now)
            return trial(startedAt: now, now: now)
        }
        guard let object = try? JSONValue.parse(data), let kind = object["kind"]?.string else {
            return EntitlementStatus(state: .broken(problem: "\(path) is not a miga entitlement"), path: path)
        }
        switch kind {
        case "trial":
            // A start before 1970 is no time miga wrote: treated as unreadable, never as endless.
            guard let text = object["trial_started"]?.string, let started = EventTimestamp.parse(text),
                  EventBounds.timestamps.contains(started.unixMilliseconds) else {
                return EntitlementStatus(state: .broken(problem: "\(path) has no readable trial_started"), path: path)
            }
            var start = Date(timeIntervalSince1970: Double(started.unixMilliseconds) / 1000)
            if start > now {
                // A start in the future (a moved clock, an edited file) counts from when the
                // file was last written, at the latest now, and is written down as that. Taken
                // from the file itself, it holds even where the file cannot be rewritten: a
                // trial must not become endless.
                // An mtime outside 1970...9999 says nothing about when the file was written.
                let written = FileStatus.at(path).map { UnixTime.date(of: $0.modified) ?? now } ?? now
                start = min(now, written)
                try? writeTrial(startedAt: start)
            }
            return trial(startedAt: start, now: now)
        case "purchase":
            guard let license = object["license"], let payload = license["payload"]?.string,
                  let signature = license["signature"]?.string else {
                return EntitlementStatus(state: .broken(problem: "\(path) holds no licence"), path: path)
            }
            do {
                let (_, fields) = try verifier.verify(LicenseFile(payload: payload, signature: signature))
                return EntitlementStatus(state: .purchased(fields), path: path)
            } catch {
                return EntitlementStatus(state: .broken(problem: "the licence in \(path) is not valid (\(Self.reason(error)))"), path: path)
            }
        default:
            return EntitlementStatus(state: .broken(problem: "\(path) has an unknown kind \"\(TerminalText.excerpt(kind))\""), path: path)
        }
    }

    /// Verifies the licence file and stores it; on any refusal the current entitlement stays.
    @discardableResult
    public func activate(licensePath: String) throws -> LicenseFile.Payload {
        let (file, payload) = try verifier.read(path: licensePath)
        try write("{\"kind\":\"purchase\",\"license\":\(file.json)}\n")
        return payload
    }

    private func trial(startedAt start: Date, now: Date) -> EntitlementStatus {
        let end = start.addingTimeInterval(Self.trialLength)
        let state: EntitlementStatus.State = now < end ? .trial(endsAt: end, remaining: end.timeIntervalSince(now)) : .trialEnded(endedAt: end)
        return EntitlementStatus(state: state, path: path)
    }

    private func writeTrial(startedAt start: Date) throws {
        let stamp = EventTimestamp.format(unixMilliseconds: UnixTime.clampedMilliseconds(start), offsetMinutes: 0)
        try write("{\"kind\":\"trial\",\"trial_started\":\"\(stamp.dropLast(6))Z\"}\n")
    }

    private func write(_ text: String) throws {
        try files.makeDirectories(FilePath.parent(of: path), mode: 0o700)
        try AtomicFile.write(text, to: path, mode: 0o600)
    }

    private static func reason(_ error: Error) -> String {
        let text = "\(error)"
        return text.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? text
    }
}

/// Remembers the local day the "trial ended" notice was last given, so it is given at most
/// once a day however many apps open.
public struct TrialNotice {
    var path: String
    var today: String
    var files: any FileService

    public init(context: MigaContext) {
        path = context.paths.stateDirectory + "/trial-notice"
        today = LocalMoment(clock: context.clock).day.description
        files = context.files
    }

    /// True (and recorded) when today's notice has not been given yet.
    public func due() -> Bool {
        let last = AtomicFile.read(path).map { String(decoding: $0, as: UTF8.self).trimming(.whitespacesAndNewlines) }
        guard last != today else { return false }
        try? files.makeDirectories(FilePath.parent(of: path), mode: 0o700)
        try? AtomicFile.write(today + "\n", to: path, mode: 0o600)
        return true
    }
}
