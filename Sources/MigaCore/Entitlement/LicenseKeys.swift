@preconcurrency import Crypto
import FoundationEssentials

/// The public keys licences are checked against. The seller keeps the private half of the
/// production key outside this repository (`miga-license keygen` makes a pair).
public enum LicenseKeys {
    /// Raw 32-byte Ed25519 public keys, base64.
    static let production = ["TOgHvzhx9DKdETkWqz57IZXlSCW/NtXHAFvimWBedXI="]

    #if DEBUG
    /// Trusted by debug builds only, so tests can sign licences (its private half is in
    /// Tests/Fixtures/license/test-signing-key). Release builds never accept it.
    static let test = ["V6iHslq5TFfWGt/e059wBY4w4GP/p7FwOR0N/x5jhcg="]
    #else
    static let test: [String] = []
    #endif

    public static let trusted: [Curve25519.Signing.PublicKey] = (production + test).compactMap { text in
        Data(base64Encoded: text).flatMap { try? Curve25519.Signing.PublicKey(rawRepresentation: $0) }
    }
}
