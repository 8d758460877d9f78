import Foundation

// libFuzzer target: another machine's journal file (`JournalLines`), as the fold reads it: in
// pieces, each read starting where the last one's whole lines ended. Whatever the bytes, and
// wherever the file is cut, reading it in two pieces must take exactly what reading it at once
// takes: the same events in the same order, the same lines skipped, the same bytes consumed;
// and what is consumed always ends at a line end. The first byte picks the cut.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJournal(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard let first = bytes.first else { return 0 }
    let file = bytes.dropFirst()
    let limit = 4096
    let whole = JournalLines(Data(file), atFileStart: true, maxLineLength: limit)
    precondition(whole.consumed <= file.count)
    precondition(whole.consumed == 0 || file[file.startIndex + whole.consumed - 1] == 0x0A, "consumed stops inside a line")
    if whole.newerFormat != nil || whole.overlong { precondition(whole.events.isEmpty && whole.consumed == 0) }

    // The same file arriving in two pieces: the first read sees only its first `cut` bytes.
    let cut = file.isEmpty ? 0 : Int(first) % (file.count + 1)
    let early = JournalLines(Data(file.prefix(cut)), atFileStart: true, maxLineLength: limit)
    guard early.newerFormat == nil, !early.overlong, whole.newerFormat == nil, !whole.overlong else { return 0 }
    let late = JournalLines(Data(file.dropFirst(early.consumed)), atFileStart: early.consumed == 0, maxLineLength: limit)
    guard late.newerFormat == nil, !late.overlong else { return 0 }
    precondition(early.consumed + late.consumed == whole.consumed, "pieces took \(early.consumed)+\(late.consumed), at once \(whole.consumed)")
    precondition(early.events + late.events == whole.events, "pieces read other events than the whole")
    precondition(early.skipped + late.skipped == whole.skipped, "pieces skipped other lines than the whole")
    return 0
}
