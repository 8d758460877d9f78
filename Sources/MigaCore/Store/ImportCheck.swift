import FoundationEssentials

/// Step 1 of `EventStore.importLines`, a line at a time: each line is read and checked into the
/// spool, and the first bad one throws with its number before anything is written. It counts
/// the events, and watches a hash of each one's identity (`ImportedIdentities`): only if two
/// collide may the file hold an event twice, and step 2 then looks every event up.
///
/// A value with mutating steps rather than variables shared by nested functions: those lived in
/// boxes that Swift checked for overlapping access on every line.
struct ImportCheck {
    let name: String
    let spool: ImportSpool
    private(set) var events = 0
    private(set) var mayRepeatEvents = false
    private var seen = ImportedIdentities()
    /// JSONL or CSV, by the first byte (`{` is JSONL); nil before the first line that is not blank.
    private var csv: Bool?
    /// A CSV record may go on over several lines inside quotes.
    private var records = CSVRecordFraming(maxLength: EventStore.maxLineLength)

    init(name: String, spool: ImportSpool) {
        self.name = name
        self.spool = spool
    }

    mutating func take(_ line: UnsafeRawBufferPointer, number: Int) throws {
        if csv == nil {
            if CSVRecordFraming.isBlank(line) { return }
            csv = try Self.isCSV(firstLine: line, number: number, name: name)
            if csv == true { return }
        }
        if csv == true {
            switch records.add(line, number: number) {
            case .blank, .partial: return
            case .tooLong: throw ImportError(file: name, line: records.firstLine, problem: "a record longer than \(EventStore.maxLineLength) bytes")
            case .complete: break
            }
            let record = records.record
            let event = try Self.parse(name: name, line: records.firstLine) { try EventLine.parseCSV(String(decoding: record, as: UTF8.self)) }
            try spool.append(event)
            try spooled(ImportRow.identity(event), at: event.timestamp)
            return
        }
        if CSVRecordFraming.isBlank(line) { return }
        // The export's own shape, straight from the bytes, spooled without a String.
        if let fields = EventLine.exportedFields(line) {
            try spool.append(fields)
            try spooled(ImportRow.identity(fields.timestamp, fields.session, fields.type, fields.app), at: fields.timestamp)
            return
        }
        let event = try Self.parse(name: name, line: number) { try EventLine.parse(Data(line)) }
        try spool.append(event)
        try spooled(ImportRow.identity(event), at: event.timestamp)
    }

    /// After the last line: a quoted CSV field left open is an error.
    func finish() throws {
        if records.isUnfinished {
            throw ImportError(file: name, line: records.firstLine, problem: "a quoted field that never ends")
        }
    }

    private mutating func spooled(_ identity: @autoclosure () -> UInt64, at timestamp: Int64) throws {
        events += 1
        if !mayRepeatEvents {
            let spool = spool
            mayRepeatEvents = try !seen.insert(identity(), at: timestamp) {
                var identities: [UInt64] = []
                try spool.forEach(groupsOf: 64) { group in
                    for event in group { identities.append(ImportRow.identity(event.timestamp, event.session, event.type, event.app)) }
                }
                return identities
            }
        }
    }

    /// Whether a file whose first line is `line` is CSV (else JSONL); a CSV file must start with
    /// the export's header, which is not an event.
    private static func isCSV(firstLine line: UnsafeRawBufferPointer, number: Int, name: String) throws -> Bool {
        guard line.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }) != UInt8(ascii: "{") else {
            return false
        }
        var header = String(decoding: line, as: UTF8.self)
        if header.hasPrefix("\u{FEFF}") { header.removeFirst() }
        guard header.trimming(.whitespacesAndNewlines) == EventLine.csvHeader else {
            throw ImportError(file: name, line: number, problem: "neither a JSON object nor miga's CSV header (\(EventLine.csvHeader))")
        }
        return true
    }

    /// One event read by `parse`; its problem, if any, as an ImportError at `line`.
    private static func parse(name: String, line: Int, _ parse: () throws -> Event) throws -> Event {
        do {
            return try parse()
        } catch let error as ImportError {
            throw error
        } catch {
            throw ImportError(file: name, line: line, problem: "\(error)")
        }
    }
}
