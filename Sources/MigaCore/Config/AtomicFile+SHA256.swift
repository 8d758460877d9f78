import Crypto
import FoundationEssentials
import JSON

/// The hashes that say whether a file is the one miga wrote (the install manifest, doctor,
/// `sync_config`'s agreed copy). Here, not in MigaSystem: the Linux layer needs no crypto.
extension AtomicFile {
    public static func sha256(_ data: Data) -> String {
        NumberText.hex(SHA256.hash(data: data))
    }

    public static func sha256(ofFile path: String) -> String? {
        read(path).map(sha256)
    }
}
