import FoundationEssentials
import MigaSystem

/// The config's warnings, said by a gate once for each state of them: a broken `[[schedule]]`
/// that stays broken is not news at every launch of every app. `miga doctor`, `miga config
/// show` and `miga install` say them every time.
struct ConfigWarningNotice {
    var path: String
    var files: any FileService

    init(context: MigaContext) {
        path = context.paths.stateDirectory + "/config-warned"
        files = context.files
    }

    /// The warnings a gate should say now: all of them when they differ from the last said,
    /// none when they are the same. Recorded as said; a file that cannot be kept means they
    /// are said again next time, never that a gate waits or fails.
    func due(_ warnings: [String]) -> [String] {
        guard !warnings.isEmpty else {
            // Fixed: the same mistake made again later is news again.
            try? AtomicFile.remove(path) // gone already is fine
            return []
        }
        // A fingerprint, not the text: ten thousand warnings stay a line.
        let fingerprint = MigaPaths.hexHash(warnings.joined(separator: "\n")) + "\n"
        if let said = AtomicFile.read(path), String(decoding: said, as: UTF8.self) == fingerprint { return [] }
        try? files.makeDirectories(FilePath.parent(of: path), mode: 0o700)
        try? AtomicFile.write(fingerprint, to: path, mode: 0o600)
        return warnings
    }
}
