import Foundation
import XCTest
@testable import MigaCore

/// `events import` joins CSV lines into records by a running quote parity: the same records as
/// the plain rule, each line looked at once.
final class CSVRecordFramingTests: XCTestCase {
    /// The rule as it reads: a record ends at the first line break where the record so far
    /// holds an even number of quotes; blank lines between records are nothing.
    func referenceRecords(_ lines: [[UInt8]], limit: Int) -> [String] {
        var out: [String] = []
        var record: [UInt8]?
        var start = 0
        for (index, line) in lines.enumerated() {
            if record == nil {
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
                record = []
                start = index + 1
            } else {
                record!.append(0x0A)
            }
            record! += line
            if record!.count > limit { return out + ["too long at \(start)"] }
            if record!.filter({ $0 == UInt8(ascii: "\"") }).count % 2 == 0 {
                out.append("\(start): " + String(decoding: record!, as: UTF8.self))
                record = nil
            }
        }
        return out + (record == nil ? [] : ["unfinished at \(start)"])
    }

    func framedRecords(_ lines: [[UInt8]], limit: Int) -> [String] {
        var framing = CSVRecordFraming(maxLength: limit)
        var out: [String] = []
        for (index, line) in lines.enumerated() {
            switch line.withUnsafeBytes({ framing.add($0, number: index + 1) }) {
            case .blank, .partial: continue
            case .complete: out.append("\(framing.firstLine): " + String(decoding: framing.record, as: UTF8.self))
            case .tooLong: return out + ["too long at \(framing.firstLine)"]
            }
        }
        return out + (framing.isUnfinished ? ["unfinished at \(framing.firstLine)"] : [])
    }

    func testTheFramingAgreesWithThePlainRule() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("\"\"\",a \r\t\n".utf8)
        for round in 0..<2_000 {
            let text = (0..<Int.random(in: 0...60, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let lines = text.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
            let limit = round % 3 == 0 ? 12 : 1 << 20
            XCTAssertEqual(framedRecords(lines, limit: limit), referenceRecords(lines, limit: limit), String(decoding: text, as: UTF8.self))
        }
    }

    /// Each line is looked at once: 200,000 lines inside one open quote, each a quote pair
    /// longer, cost what reading them costs (the old framing counted the record's quotes
    /// again on every line: 2·10^10 bytes here).
    func testAnOpenQuoteOverManyLinesIsReadOnce() {
        var framing = CSVRecordFraming(maxLength: 1 << 30)
        var line = Array("x\"\"y".utf8)
        XCTAssertEqual(line.withUnsafeBytes { framing.add(UnsafeRawBufferPointer(rebasing: $0[0...1]), number: 1) }, .partial)
        let started = Date()
        for number in 2...200_000 {
            XCTAssertEqual(line.withUnsafeBytes { framing.add($0, number: number) }, .partial)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        line = Array("\"".utf8)
        XCTAssertEqual(line.withUnsafeBytes { framing.add($0, number: 200_001) }, .complete)
        XCTAssertEqual(framing.firstLine, 1)
        XCTAssertEqual(framing.record.count, 2 + 199_999 * 5 + 2)
    }
}
