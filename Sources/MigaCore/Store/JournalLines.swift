import FoundationEssentials
// fuzz/run.sh compiles this file and the JSON target's files as one module.
#if canImport(JSON)
import JSON
#endif

/// The whole lines of one read of another machine's journal file (`SyncJournal`), from where
/// the last read stopped: its events, the lines that are none, and how many bytes were
/// taken. A last line without its end is a copy still in progress and is left for the next
/// read, so reading a file in any number of pieces takes exactly what reading it at once
/// takes (fuzz/JournalFuzz.swift holds it to that). Pure: the fold does the file and the
/// database.
struct JournalLines {
    /// The layout this miga writes and reads, in each file's first line (`SyncJournal.format`).
    static let format = 1

    var events: [Event] = []
    /// Lines that are neither an event nor the header: damaged, or a newer miga's events.
    var skipped = 0
    /// Bytes of whole lines taken: where the next read starts.
    var consumed = 0
    /// The machine's name, from the header.
    var host: String?
    /// The header names a later layout: nothing was taken.
    var newerFormat: Int?
    /// No line ends within `maxLineLength` bytes: not miga's, and never to be waited for.
    var overlong = false

    /// `bytes` from where the last read stopped; the header is looked for only in the file's
    /// first line (`atFileStart`).
    init(_ bytes: Data, atFileStart: Bool, maxLineLength: Int) {
        guard let lastNewline = bytes.lastIndex(of: 0x0A) else {
            overlong = bytes.count >= maxLineLength
            return
        }
        var position = 0
        for line in bytes[bytes.startIndex...lastNewline].split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
            defer { position += line.count + 1 }
            if line.isEmpty { continue }
            if atFileStart, position == 0, let header = Self.header(Data(line)) {
                if header.format > Self.format {
                    // A newer layout: nothing of it is guessed at; it waits for an update.
                    events = []
                    skipped = 0
                    host = nil
                    newerFormat = header.format
                    return
                }
                host = header.host
                continue
            }
            if let event = try? EventLine.parse(Data(line)) {
                events.append(event)
            } else {
                skipped += 1
            }
        }
        consumed = position
    }

    /// The first line's `miga_journal` (a format that is not a whole number counts as newer:
    /// it is no layout this miga knows) and `host`; nil when the line is no header.
    static func header(_ line: Data) -> (format: Int, host: String?)? {
        guard let object = (try? JSONValue.parse(line))?.object, let format = object["miga_journal"] else { return nil }
        let number: Int
        if case .number(let text) = format, let value = Int(text) { number = value } else { number = Int.max }
        let host = object["host"]?.string.map { String($0.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(64).map(Character.init)) }
        return (number, host?.isEmpty == false ? host : nil)
    }
}
