/// `sync_folder` as written (`~/Sync/miga`) and as used: one rule for the loader, `config set`
/// and the journal, so a value one accepts is never one another refuses.
public enum SyncFolderSetting {
    /// What is wrong with `text` as a folder to share, nil when nothing is. Empty turns sync off.
    public static func problem(_ text: String) -> String? {
        if text.isEmpty { return nil }
        if text.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\0" }) { return "a folder's path is one line" }
        guard text.hasPrefix("/") || text == "~" || text.hasPrefix("~/") else {
            return "an absolute path or one starting with ~/, like ~/Sync/miga"
        }
        guard text.utf8.count <= 4096 else { return "a path of at most 4096 bytes" }
        return nil
    }

    /// The absolute folder, `~` being `home`; nil when `written` is not a usable path.
    public static func expanded(_ written: String, home: String?) -> String? {
        guard !written.isEmpty, problem(written) == nil else { return nil }
        var path = written
        if written == "~" || written.hasPrefix("~/") {
            guard let home, home.hasPrefix("/") else { return nil }
            path = home + written.dropFirst()
        }
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }
}
