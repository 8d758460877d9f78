/// `~/.config/mimeapps.list` (XDG MIME Applications Associations), edited in place: miga
/// changes only its own entries and keeps every other line as it was, other programs' and the
/// person's included.
public struct MimeAppsList: Equatable {
    public static let defaults = "Default Applications"
    public static let added = "Added Associations"

    /// What making miga the default changed, so removing it restores the file exactly.
    public struct Change: Codable, Equatable {
        /// "Group\u{1F}type" → the value before, for keys that existed.
        public var previousValues: [String: String] = [:]
        /// Keys that did not exist before and were added.
        public var addedKeys: [String] = []
        /// Groups that did not exist and were appended.
        public var addedGroups: [String] = []
        /// The file did not end in a newline and one was needed before a new group.
        public var addedFinalNewline = false

        static func slot(_ group: String, _ type: String) -> String { group + "\u{1F}" + type }

        static func parts(of slot: String) -> (group: String, type: String)? {
            let parts = slot.split(separator: "\u{1F}", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, parts.allSatisfy(isOneLine), !parts[1].isEmpty else { return nil }
            return (parts[0], parts[1])
        }

        static func isOneLine(_ text: String) -> Bool {
            !text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
        }
    }

    private var lines: [String]

    public init(text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    public var text: String { lines.joined(separator: "\n") }

    /// The first application listed as default for `type`, if any.
    public func defaultApplication(for type: String) -> String? {
        value(type, in: Self.defaults).flatMap { Self.ids($0).first }
    }

    /// The applications listed for `type` in `group`, in order.
    public func applications(for type: String, in group: String) -> [String] {
        value(type, in: group).map(Self.ids) ?? []
    }

    /// Makes `id` the default for each of `types` and adds it to their associations. The
    /// previous default stays listed after it, so links keep working if miga disappears.
    public mutating func makeDefault(_ id: String, for types: [String]) -> Change {
        var change = Change()
        for group in [Self.defaults, Self.added] {
            for type in types {
                let before = value(type, in: group)
                let others = before.map(Self.ids)?.filter { $0 != id } ?? []
                let newValue = ([id] + others).joined(separator: ";") + ";"
                guard newValue != before else { continue }
                if let before {
                    change.previousValues[Change.slot(group, type)] = before
                } else {
                    change.addedKeys.append(Change.slot(group, type))
                }
                let endedWithoutNewline = lines.last != ""
                if set(type, to: newValue, in: group) {
                    change.addedGroups.append(group)
                    if endedWithoutNewline { change.addedFinalNewline = true }
                }
            }
        }
        return change
    }

    /// Takes miga's `id` out of every entry `change` touched, leaving whatever else happened
    /// to the file since: an entry still as miga left it gets its value from before back
    /// (byte for byte); one the person (or their desktop) set since keeps their choice, less
    /// miga's id; a line that held only miga's id goes. So uninstall gives back the browser the
    /// person chose most recently, whenever they chose it, and never a line of theirs.
    public mutating func undo(_ change: Change, removing id: String) {
        // The change comes back from installed.json, which anyone can edit: a slot that is not
        // "group␟type", or text that would break a line, is passed over, never trusted.
        let slots = change.previousValues.keys.sorted() + change.addedKeys.filter { change.previousValues[$0] == nil }
        for slot in slots {
            guard let (group, type) = Change.parts(of: slot), let current = value(type, in: group) else { continue }
            let ids = Self.ids(current)
            guard ids.contains(id) else { continue } // the person's own line now
            let rest = ids.filter { $0 != id }
            if let previous = change.previousValues[slot], Change.isOneLine(previous), Self.ids(previous) == rest {
                _ = set(type, to: previous, in: group)
            } else if rest.isEmpty {
                remove(type, in: group)
            } else {
                _ = set(type, to: rest.joined(separator: ";") + ";", in: group)
            }
        }
        for group in change.addedGroups where Change.isOneLine(group) { removeGroupIfEmpty(group) }
        // The newline added before a new group goes too, once that group is gone again.
        if change.addedFinalNewline, change.addedGroups.allSatisfy({ groupRange($0) == nil }), lines.last == "" {
            lines.removeLast()
        }
    }

    static func ids(_ value: String) -> [String] {
        value.split(separator: ";").map { $0.trimming(.whitespaces) }.filter { !$0.isEmpty }
    }

    // MARK: - Lines

    private func groupRange(_ group: String) -> Range<Int>? {
        guard let header = lines.firstIndex(where: { $0.trimming(.whitespaces) == "[\(group)]" }) else { return nil }
        let end = lines[(header + 1)...].firstIndex { $0.trimming(.whitespaces).hasPrefix("[") } ?? lines.count
        return header..<end
    }

    private func keyLine(_ key: String, in range: Range<Int>) -> Int? {
        range.dropFirst().first { index in
            let line = lines[index]
            guard let equals = line.firstIndex(of: "=") else { return false }
            return line[..<equals].trimming(.whitespaces) == key
        }
    }

    private func value(_ key: String, in group: String) -> String? {
        guard let range = groupRange(group), let index = keyLine(key, in: range) else { return nil }
        let line = lines[index]
        return String(line[line.index(after: line.firstIndex(of: "=")!)...]).trimming(.whitespaces)
    }

    /// Sets `key=value` in `group`; true when the group had to be created.
    private mutating func set(_ key: String, to value: String, in group: String) -> Bool {
        var created = false
        if groupRange(group) == nil {
            // A new group at the end; a file without a final newline gets one first.
            if lines.last == "" { lines.removeLast() }
            lines += ["[\(group)]", ""]
            created = true
        }
        let range = groupRange(group)!
        if let index = keyLine(key, in: range) {
            lines[index] = "\(key)=\(value)"
        } else {
            // After the group's last key (or its header), before any blank lines that end it.
            let last = range.dropFirst().last { !lines[$0].trimming(.whitespaces).isEmpty } ?? range.lowerBound
            lines.insert("\(key)=\(value)", at: last + 1)
        }
        return created
    }

    private mutating func remove(_ key: String, in group: String) {
        guard let range = groupRange(group), let index = keyLine(key, in: range) else { return }
        lines.remove(at: index)
    }

    private mutating func removeGroupIfEmpty(_ group: String) {
        guard let range = groupRange(group),
              range.dropFirst().allSatisfy({ lines[$0].trimming(.whitespaces).isEmpty }) else { return }
        lines.removeSubrange(range)
        if lines.last != "" { lines.append("") }
    }
}
