import Foundation
import XCTest

/// The documents a clone carries stay true to the clone: docs/ARCHITECTURE.md names every
/// target Package.swift declares, and README.md and docs/ link only to files the repository
/// has and name no issue numbers (a tracker a clone does not have).
final class DocsTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func read(_ path: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The Markdown files a reader of the repository reads.
    func documents() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        return ["README.md"] + docs
    }

    func testArchitectureNamesEveryTarget() throws {
        let package = try read("Package.swift")
        let architecture = try read("docs/ARCHITECTURE.md")
        let declaration = try NSRegularExpression(pattern: #"\.(?:target|executableTarget|testTarget|plugin)\(\s*name:\s*"([^"]+)""#)
        let targets = declaration.matches(in: package, range: NSRange(package.startIndex..., in: package)).compactMap {
            Range($0.range(at: 1), in: package).map { String(package[$0]) }
        }
        XCTAssertGreaterThan(targets.count, 10, "Package.swift's targets were not found")
        for target in targets {
            XCTAssertTrue(architecture.contains("`\(target)`"), "docs/ARCHITECTURE.md does not name the target \(target)")
        }
    }

    /// A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as "-".
    static func anchors(of text: String) -> Set<String> {
        Set(text.split(separator: "\n").filter { $0.hasPrefix("#") }.map { line in
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
            return String(title.filter { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == " " })
                .replacingOccurrences(of: " ", with: "-")
        })
    }

    func testLinksLeadToFilesOfTheRepositoryAndTheirHeadings() throws {
        let link = try NSRegularExpression(pattern: #"\]\(([^)#\s]*)(?:#([^)\s]*))?\)"#)
        for document in try documents() {
            let text = try read(document)
            let folder = URL(fileURLWithPath: document).deletingLastPathComponent().relativePath
            for match in link.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let range = Range(match.range(at: 1), in: text) else { continue }
                let target = String(text[range])
                guard !target.contains("://"), !target.hasPrefix("mailto:") else { continue }
                let url = target.isEmpty ? Self.root.appendingPathComponent(document)
                    : Self.root.appendingPathComponent(folder).appendingPathComponent(target)
                let path = url.standardizedFileURL.path
                XCTAssertTrue(path.hasPrefix(Self.root.standardizedFileURL.path + "/"), "\(document): \(target) is outside the repository")
                XCTAssertTrue(FileManager.default.fileExists(atPath: path), "\(document): \(target) is not in the repository")
                guard let anchor = Range(match.range(at: 2), in: text).map({ String(text[$0]) }), path.hasSuffix(".md"),
                      let linked = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
                XCTAssertTrue(Self.anchors(of: linked).contains(anchor), "\(document): \(target)#\(anchor) names no heading there")
            }
        }
    }

    func testNoIssueNumbers() throws {
        let issue = try NSRegularExpression(pattern: #"(?i)\bissues?\s+#?\d|(?<![\w#])#\d+\b"#)
        for document in try documents() {
            let text = try read(document)
            for match in issue.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let line = text[..<(Range(match.range, in: text)!.lowerBound)].filter { $0 == "\n" }.count + 1
                XCTFail("\(document):\(line): names an issue number, which a clone cannot look up; say what it was instead")
            }
        }
    }
}
