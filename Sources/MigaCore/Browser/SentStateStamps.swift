import MigaSystem

/// Which config.toml and snooze the extension's last state was worked out from, so an edit
/// reaches it once and an edit made while a reply was being worked out is never taken as sent.
///
/// The stamps of a state are those taken *before* it is worked out: a file replaced during the
/// work (the person saving while the extension asks) leaves stamps newer than the state's, and
/// the next look pushes a state again. Stamps taken after the work would hide that edit until
/// the next one.
struct SentStateStamps {
    let files: [String]
    private(set) var sent: [ConfigStamp]

    init(files: [String]) {
        self.files = files
        sent = files.map(ConfigStamp.init(path:))
    }

    /// The files' stamps now: take them before working out a state that is to answer a request.
    func now() -> [ConfigStamp] { files.map(ConfigStamp.init(path:)) }

    /// A state worked out after `stamps` were taken has reached the extension.
    mutating func stateSent(from stamps: [ConfigStamp]) { sent = stamps }

    /// True when a file changed since the last state sent: the caller works out a state now and
    /// sends it (recorded here as sent already, from stamps taken before that work).
    mutating func pushDue() -> Bool {
        let current = now()
        guard current != sent else { return false }
        sent = current
        return true
    }
}
