/// Joins the lines of an imported CSV file into records (RFC 4180): inside a quoted field a
/// line break is text, so a record ends only at a line whose end leaves the quotes balanced.
/// Each line is looked at once, whatever the record's length: the parity of the quotes is
/// kept as the lines come and a line is appended without reading the record again (counting
/// every quote of the record on every line made an unclosed quote quadratic: 15 s for 20,000
/// short lines). Standalone (the standard library only), so fuzz/run.sh builds it alone.
struct CSVRecordFraming {
    /// The longest record taken, in bytes (the import's line limit).
    let maxLength: Int
    /// The record so far: its lines joined by "\n", without their line breaks.
    private(set) var record: [UInt8] = []
    /// The 1-based number of the record's first line; 0 between records.
    private(set) var firstLine = 0
    /// An odd number of quotes so far: a quoted field is open and the line break is its text.
    /// A doubled quote inside a field counts twice, so it leaves this as it was.
    private(set) var insideQuotes = false
    private var complete = false

    init(maxLength: Int) { self.maxLength = maxLength }

    enum Step: Equatable {
        /// A blank line between records: nothing (inside a quoted field it is text).
        case blank
        /// The record goes on over the next line.
        case partial
        /// `record` holds a whole record, until the next `add`.
        case complete
        /// The record would pass `maxLength`; it started on `firstLine`.
        case tooLong
    }

    /// Takes the next line (without its "\n"); `number` is its 1-based line number.
    mutating func add(_ line: UnsafeRawBufferPointer, number: Int) -> Step {
        if complete { startNext() }
        if firstLine == 0 {
            if Self.isBlank(line) { return .blank }
            firstLine = number
        } else {
            record.append(0x0A)
        }
        guard record.count + line.count <= maxLength else { return .tooLong }
        record.append(contentsOf: line)
        insideQuotes = Self.countsOddQuotes(line) != insideQuotes
        if insideQuotes { return .partial }
        complete = true
        return .complete
    }

    /// Whether a record was begun and never ended (at the end of the file: a quote never closed).
    var isUnfinished: Bool { firstLine != 0 && !complete }

    private mutating func startNext() {
        record.removeAll(keepingCapacity: true)
        firstLine = 0
        complete = false
    }

    /// Spaces, tabs and a CR only (a line break written as CRLF).
    static func isBlank(_ line: UnsafeRawBufferPointer) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    static func countsOddQuotes(_ line: UnsafeRawBufferPointer) -> Bool {
        var odd = false
        for byte in line where byte == UInt8(ascii: "\"") { odd.toggle() }
        return odd
    }
}
