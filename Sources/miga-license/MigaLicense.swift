import ArgumentParser
import Crypto
import FoundationEssentials
import MigaCore
import JSON

/// The seller's side: make a signing key pair and sign licences for `miga license activate`.
/// Not installed with miga; the private key never goes into the repository.
@main
struct MigaLicense: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "miga-license",
        abstract: "Make miga's licence signing key and sign licences (for whoever sells miga).",
        discussion: """
            Examples:
              miga-license keygen --private-key ~/secrets/miga-signing-key
              miga-license sign --private-key ~/secrets/miga-signing-key --licensee "Ada Lovelace" > ada.miga-license
            """,
        subcommands: [Keygen.self, PublicKey.self, Sign.self]
    )

    struct Keygen: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keygen",
            abstract: "Write a new Ed25519 private key (mode 0600) and print its public key for LicenseKeys.swift.")

        @Option(help: "Where to write the private key (must not exist).")
        var privateKey: String

        func run() throws {
            guard !FileManager.default.fileExists(atPath: privateKey) else {
                throw ValidationError("\(privateKey) exists; miga-license never overwrites a key")
            }
            let key = Curve25519.Signing.PrivateKey()
            try AtomicFile.write(key.rawRepresentation.base64EncodedString() + "\n", to: privateKey, mode: 0o600)
            print(key.publicKey.rawRepresentation.base64EncodedString())
        }
    }

    struct PublicKey: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "public-key", abstract: "Print the public key of a private key.")

        @Option(help: "The private key file.")
        var privateKey: String

        func run() throws {
            print(try loadKey(privateKey).publicKey.rawRepresentation.base64EncodedString())
        }
    }

    struct Sign: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "sign", abstract: "Print a signed licence file.")

        @Option(help: "The private key file.")
        var privateKey: String

        @Option(help: "Who the licence is for.")
        var licensee: String

        @Option(help: "The edition.")
        var edition = "standard"

        @Option(help: "The licence id (default: a new UUID).")
        var licenseID: String?

        @Option(help: "When it was issued, ISO 8601 (default: now).")
        var issuedAt: String?

        @Option(help: .hidden) // to make licences for another product in tests
        var product = LicenseVerifier.product

        func run() throws {
            let key = try loadKey(privateKey)
            let issued = issuedAt ?? Date().formatted(.iso8601)
            let payload = "{\"product\":\(JSONText.string(product)),\"license_id\":\(JSONText.string(licenseID ?? UUID().uuidString.lowercased())),"
                + "\"licensee\":\(JSONText.string(licensee)),\"issued_at\":\(JSONText.string(issued)),\"edition\":\(JSONText.string(edition))}"
            let bytes = Data(payload.utf8)
            let signature = try key.signature(for: bytes)
            print(LicenseFile(payload: bytes.base64EncodedString(), signature: signature.base64EncodedString()).json)
        }
    }
}

func loadKey(_ path: String) throws -> Curve25519.Signing.PrivateKey {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8),
          let raw = Data(base64Encoded: text.trimming(.whitespacesAndNewlines)) else {
        throw ValidationError("\(path) is not a key made by `miga-license keygen`")
    }
    return try Curve25519.Signing.PrivateKey(rawRepresentation: raw)
}
