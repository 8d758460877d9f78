import Foundation
import XCTest
@testable import MigaCore

/// README's config block (the first `toml` block under "Configuration") is the key table's: each
/// top-level key with its default, range or choices and one-line doc, in the table's order, so
/// a key added, renamed or given a new range cannot leave the README behind. The `[apps.…]`
/// and `[site."…"]` examples below it may only use keys those tables take.
final class ReadmeConfigTests: XCTestCase {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("README.md")

    /// The block's top-level lines as the table makes them: `key = default  # range: doc`, a
    /// choice's choices after its doc, and whether apps and sites may set it.
    static var documentedKeys: [String] {
        ConfigKeys.table.filter { $0.scope != .app }.map { key in
            let value = ConfigKeys.toml(ConfigKeyPath(app: nil, key: key.name), in: MigaConfig())
            var comment = key.doc
            switch key.kind {
            case .integer(let range, _): comment = "\(range.lowerBound)..\(range.upperBound): " + comment
            case .choice(let choices): comment += "; " + choices.map { "\"\($0)\"" }.joined(separator: " or ")
            default: break
            }
            if key.scope == .globalAndApp { comment += " (per app and site too)" }
            let assignment = "\(key.name) = \(value)"
            return assignment.padding(toLength: max(assignment.count + 1, 28), withPad: " ", startingAt: 0) + "# " + comment
        }
    }

    /// The lines of the first ```toml block under README's "Configuration" heading.
    func configBlock() throws -> [String] {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        let section = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("## Configuration") }, "README.md has no Configuration section")
        let start = try XCTUnwrap(lines[section...].firstIndex(of: "```toml"), "README.md's Configuration has no ```toml block")
        let end = try XCTUnwrap(lines[(start + 1)...].firstIndex(of: "```"), "README.md's toml block does not end")
        return Array(lines[(start + 1)..<end])
    }

    func testTopLevelKeysAreTheTablesWithTheirDefaultsRangesAndDocs() throws {
        let block = try configBlock()
        let topLevel = Array(block.prefix { !$0.hasPrefix("[") }.filter { !$0.isEmpty && !$0.hasPrefix("#") })
        XCTAssertEqual(topLevel, Self.documentedKeys,
                       "README.md's config block should begin with these lines:\n" + Self.documentedKeys.joined(separator: "\n"))
    }

    func testAppAndSiteExamplesUseOnlyKeysTheirTablesTake() throws {
        var table = ""
        var checked = 0
        for line in try configBlock() {
            if line.hasPrefix("[") {
                table = line
                continue
            }
            guard !table.isEmpty, let name = line.split(separator: "=").first?.trimmingCharacters(in: .whitespaces),
                  !name.isEmpty, !name.hasPrefix("#") else { continue }
            let allowed = table.hasPrefix("[apps.") ? ConfigKeys.perApp : ConfigKeys.perSite
            XCTAssertTrue(allowed.contains(name), "README.md: \(name) under \(table) is not a key that table takes")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 0, "README.md's config block shows no app or site table")
    }
}
