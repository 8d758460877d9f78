import FoundationEssentials
// ContentItem and the pack format are part of MigaCore's API: its users import MigaCore alone.
@_exported import MigaContent

/// Every item miga can show: the packs compiled into the binary.
public struct ContentLibrary: Sendable {
    public let items: [ContentItem]

    public init(items: [ContentItem]) throws {
        var ids = Set<String>(minimumCapacity: items.count)
        if let repeated = items.first(where: { !ids.insert($0.id).inserted }) {
            throw ContentError(pack: "library", line: nil, problem: "duplicate id \"\(TerminalText.excerpt(repeated.id))\"")
        }
        self.init(unique: items)
    }

    /// Items whose ids are known to be unique (the build checked the bundled packs'): no gate
    /// hashes 155 ids to learn again what the build already knows.
    private init(unique items: [ContentItem]) {
        self.items = items
    }

    /// The bundled library: `quotes/`, checked and turned into values at build time.
    public static func bundled() throws -> ContentLibrary {
        ContentLibrary(unique: bundledPacks.flatMap(\.items))
    }

    /// Bounds on the person's own content (DESIGN "Bounded work for every input"), so a gate's
    /// work has a ceiling whatever the folder holds: packs are read in name order until
    /// `userPacksLimit` bytes in all, and an item larger than `itemLimit` is left out. Forty
    /// 4 MiB packs held a gate's first frame for 11 s; one 4 MB article kept the gate window
    /// from showing within its 3 s.
    public static let userPacksLimit = 8 << 20
    public static let itemLimit = 64 << 10
    /// The least a pack counts against `userPacksLimit`, however small: each costs an open
    /// and a parse, so ten thousand empty files are bounded too.
    static let packMinimumCost = 4 << 10

    /// The bundled packs plus the person's own (`*.toml` in `userFolder`, in name order). A
    /// pack that cannot be used, or that reuses an id, is reported through `warn` and skipped:
    /// the gate still works with the rest. What the bounds leave out is named in one warning.
    /// The folder is listed with readdir alone (`files`): Foundation's listing set itself up
    /// and stat'ed every entry, 0.3M instructions of every gate for a folder most people
    /// never make.
    public static func load(userFolder: String?, files: any FileService, warn: (String) -> Void) throws -> ContentLibrary {
        let bundled = try bundled()
        guard let userFolder,
              case let packs = files.directoryNames(in: userFolder, where: { $0.hasSuffix(".toml") && !$0.hasPrefix(".") }).sorted(),
              !packs.isEmpty else {
            return bundled
        }
        var items = bundled.items
        var ids = Set(items.map(\.id))
        var budget = userPacksLimit
        var skipped: (packs: [String], items: [String]) = ([], [])
        for (index, name) in packs.enumerated() {
            let path = userFolder + "/" + name
            let cost = max(BoundedFile.size(of: path) ?? 0, packMinimumCost)
            guard cost <= budget else {
                skipped.packs = Array(packs[index...])
                break
            }
            budget -= cost
            do {
                let pack = try validatePack(path: path, knownIDs: &ids)
                items += pack.filter { !isTooLarge($0) }
                skipped.items += pack.filter(isTooLarge).map(\.id)
            } catch {
                warn("\(error); skipping this pack")
            }
        }
        if let warning = skippedWarning(folder: userFolder, packs: skipped.packs, items: skipped.items) { warn(warning) }
        return ContentLibrary(unique: items)
    }

    /// Whether an item is larger than any gate shows (`itemLimit`): its text, title and author.
    public static func isTooLarge(_ item: ContentItem) -> Bool {
        item.text.utf8.count + (item.title?.utf8.count ?? 0) + (item.author?.utf8.count ?? 0) > itemLimit
    }

    /// One line for everything the bounds left out, naming the first of it.
    static func skippedWarning(folder: String, packs: [String], items: [String]) -> String? {
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        var parts: [String] = []
        if !packs.isEmpty { parts.append("\(count(packs.count, "pack")) past \(BoundedFile.describe(userPacksLimit)) of packs in all") }
        if !items.isEmpty { parts.append("\(count(items.count, "item")) over \(BoundedFile.describe(itemLimit)) each") }
        guard !parts.isEmpty else { return nil }
        let names = TerminalText.excerpt((packs.prefix(20) + items.prefix(20)).joined(separator: ", "))
        return "\(folder): skipped \(parts.joined(separator: " and ")) (\(names)); make them smaller or move some out of the folder"
    }

    /// Reads and checks one pack file, including that its ids are new to `knownIDs` (which
    /// then holds them too).
    public static func validatePack(path: String, knownIDs: inout Set<String>) throws -> [ContentItem] {
        let pack = try ContentPack.parse(try readPack(path), name: path)
        if let clash = pack.first(where: { knownIDs.contains($0.id) }) {
            throw ContentError(pack: path, line: nil, problem: "id \"\(TerminalText.excerpt(clash.id))\" is already used by another pack")
        }
        knownIDs.formUnion(pack.map(\.id))
        return pack
    }

    /// Everything wrong with one pack file (`content validate`): every problem with its line,
    /// unknown keys as warnings, and ids another pack already uses, naming that pack.
    /// `knownIDs` maps each id taken so far to where; it then holds this pack's too.
    public static func checkPack(path: String, knownIDs: inout [String: String]) -> ContentPack.Report {
        let text: String
        do {
            text = try readPack(path)
        } catch {
            var report = ContentPack.Report()
            report.problems.append(error as? ContentError ?? ContentError(pack: path, line: nil, problem: "\(error)"))
            return report
        }
        var report = ContentPack.check(text, name: path)
        report.items = report.items.filter { item in
            guard !isTooLarge(item) else {
                report.problems.append(ContentError(pack: path, line: nil, problem: "\(TerminalText.excerpt(item.id)): larger than the \(BoundedFile.describe(itemLimit)) a gate shows of an item; shorten it or split it"))
                return false
            }
            guard let owner = knownIDs[item.id] else { return true }
            report.problems.append(ContentError(pack: path, line: nil, problem: "id \"\(TerminalText.excerpt(item.id))\" is already used by \(owner)"))
            return false
        }
        for item in report.items { knownIDs[item.id] = path }
        return report
    }

    /// A pack's text; a file that is not UTF-8 or is implausibly large is refused.
    public static func readPack(_ path: String) throws -> String {
        let data: Data
        do {
            data = try BoundedFile.read(path, limit: BoundedFile.packLimit)
        } catch FileReadError.notRegular(let kind) where kind == "a folder" {
            throw ContentError(pack: path, line: nil, problem: "is a folder; give the .toml files inside it")
        } catch FileReadError.tooLarge {
            throw ContentError(pack: path, line: nil, problem: "larger than 4 MiB, not a content pack")
        } catch {
            throw ContentError(pack: path, line: nil, problem: "cannot be read: \(error)")
        }
        guard let text = String(validating: data, as: UTF8.self) else { throw ContentError(pack: path, line: nil, problem: "not UTF-8 text") }
        return text
    }

    /// The ids of each bundled pack, by file name (`content validate` of a bundled pack's own
    /// source must not clash with itself).
    public static func bundledIDs(excludingPacksNamed names: Set<String>) -> Set<String> {
        Set(bundledPacks.filter { !names.contains($0.name) }.flatMap(\.items).map(\.id))
    }

    /// A look through a few hundred items, once per item shown: cheaper than the dictionary
    /// every gate would have to build first.
    public func item(id: String) -> ContentItem? {
        items.first { $0.id == id }
    }

    /// The categories of clinical material (feeling unreal, anxiety) that a gate shows only
    /// when the person turns them on (`extra_categories`, in the welcome or Settings): by
    /// default the gate's words are calm and general. Their names and labels, in the order
    /// the welcome, Settings and `miga content list` show them.
    public static let extraCategories: [(name: String, label: String)] = [
        ("dpdr", "Feeling unreal: depersonalisation and derealisation"),
        ("anxiety", "Anxiety: what it is and how to ride it out"),
    ]

    /// Whether an item of `category` is off unless `extra_categories` lists it.
    public static func isExtra(_ category: String) -> Bool {
        extraCategories.contains { $0.name == category }
    }

    /// Whether a gate may show `item` with these extra categories turned on.
    public static func isShown(_ item: ContentItem, extraCategories: [String]) -> Bool {
        !isExtra(item.category) || extraCategories.contains(item.category)
    }

    /// Items whose kind is enabled, in library order; items of an extra category only when
    /// it is turned on.
    public func items(kinds: [ContentKind], extraCategories: [String] = []) -> [ContentItem] {
        items.filter { kinds.contains($0.kind) && Self.isShown($0, extraCategories: extraCategories) }
    }
}
