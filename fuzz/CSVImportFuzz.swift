import Foundation

// libFuzzer target: an imported CSV file's lines joined into records (CSVRecordFraming) and
// each record through the CSV event parser. Built by fuzz/run.sh from the framing, the event
// line parser and what it reads with (time stamps, JSON) alone. The framing must agree with
// the plain rule it is a faster form of: a record ends at the first line break where the
// record so far holds an even number of quotes; blank lines between records are nothing; a
// record is cut short at the size limit. A small limit (from the first byte) lets short
// inputs reach it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSVImport(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let first = bytes.first else { return 0 }
    let limit = first < 128 ? Int(first) + 1 : 1 << 20
    let lines = bytes.dropFirst().split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
    let framed = framedRecords(lines, limit: limit)
    let expected = referenceRecords(lines, limit: limit)
    precondition(framed == expected, "framing \(framed) where the plain rule gives \(expected)")
    for case .record(_, let record) in framed {
        _ = try? EventLine.parseCSV(String(decoding: record, as: UTF8.self))
    }
    return 0
}

enum Framed: Equatable {
    case record(line: Int, [UInt8])
    case tooLong(line: Int)
    case unfinished(line: Int)
}

func framedRecords(_ lines: [[UInt8]], limit: Int) -> [Framed] {
    var framing = CSVRecordFraming(maxLength: limit)
    var out: [Framed] = []
    for (index, line) in lines.enumerated() {
        let step = line.withUnsafeBytes { framing.add($0, number: index + 1) }
        switch step {
        case .blank, .partial: continue
        case .complete: out.append(.record(line: framing.firstLine, framing.record))
        case .tooLong: return out + [.tooLong(line: framing.firstLine)]
        }
    }
    if framing.isUnfinished { out.append(.unfinished(line: framing.firstLine)) }
    return out
}

/// The rule as it reads, counting every quote of the record again on each line.
func referenceRecords(_ lines: [[UInt8]], limit: Int) -> [Framed] {
    var out: [Framed] = []
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
        if record!.count > limit { return out + [.tooLong(line: start)] }
        if record!.filter({ $0 == UInt8(ascii: "\"") }).count % 2 == 0 {
            out.append(.record(line: start, record!))
            record = nil
        }
    }
    if record != nil { out.append(.unfinished(line: start)) }
    return out
}
