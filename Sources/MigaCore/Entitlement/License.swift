@preconcurrency import Crypto
import FoundationEssentials
import JSON

/// A purchased licence as the seller sends it (DESIGN "Entitlement"):
/// `{"payload":"<base64 JSON>","signature":"<base64 Ed25519>"}`, the signature over the exact
/// payload bytes.
public struct LicenseFile: Equatable, Sendable {
    public var payload: String
    public var signature: String

    public init(payload: String, signature: String) {
        self.payload = payload
        self.signature = signature
    }

    /// What the payload says, once the signature checked out.
    public struct Payload: Equatable, Sendable {
        public var product: String
        public var licenseID: String
        public var licensee: String
        public var issuedAt: String
        public var edition: String
    }

    public var json: String {
        "{\"payload\":\(JSONText.string(payload)),\"signature\":\(JSONText.string(signature))}"
    }
}

/// Checks licences against the public keys compiled into this build.
public struct LicenseVerifier {
    /// Anything larger is not a licence file (a real one is a few hundred bytes).
    public static let maxFileSize = BoundedFile.licenceLimit
    public static let product = "miga"

    public var trustedKeys: [Curve25519.Signing.PublicKey]

    public init(trustedKeys: [Curve25519.Signing.PublicKey] = LicenseKeys.trusted) {
        self.trustedKeys = trustedKeys
    }

    /// Reads a licence file, refusing folders, FIFOs and oversized files before reading them.
    public func read(path: String) throws -> (LicenseFile, LicenseFile.Payload) {
        let data: Data
        do {
            data = try BoundedFile.read(path, limit: Self.maxFileSize)
        } catch FileReadError.notRegular(let kind) where kind == "a folder" {
            throw LicenseError.directory(path)
        } catch FileReadError.tooLarge {
            throw LicenseError.tooLarge(path)
        } catch let error as FileReadError {
            throw LicenseError.unreadable(path, error)
        }
        return try verify(data)
    }

    /// Parses and verifies licence file contents.
    public func verify(_ data: Data) throws -> (LicenseFile, LicenseFile.Payload) {
        guard !data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else { throw LicenseError.empty }
        guard let object = try? JSONValue.parse(data), let payload = object["payload"]?.string,
              let signature = object["signature"]?.string else {
            throw LicenseError.notALicense
        }
        return try verify(LicenseFile(payload: payload, signature: signature))
    }

    public func verify(_ file: LicenseFile) throws -> (LicenseFile, LicenseFile.Payload) {
        guard let payloadBytes = Data(base64Encoded: file.payload) else { throw LicenseError.notBase64("payload") }
        guard let signature = Data(base64Encoded: file.signature) else { throw LicenseError.notBase64("signature") }
        guard trustedKeys.contains(where: { $0.isValidSignature(signature, for: payloadBytes) }) else {
            throw LicenseError.badSignature
        }
        guard let fields = (try? JSONValue.parse(payloadBytes))?.object else {
            throw LicenseError.payloadNotJSON
        }
        func field(_ key: String) throws -> String {
            guard let value = fields[key]?.string, !value.isEmpty else { throw LicenseError.missingField(key) }
            return value
        }
        let product = try field("product")
        guard product == Self.product else { throw LicenseError.wrongProduct(product) }
        return (file, LicenseFile.Payload(product: product, licenseID: try field("license_id"), licensee: try field("licensee"),
                                          issuedAt: try field("issued_at"), edition: try field("edition")))
    }
}

/// Why a licence was refused. The previous entitlement is always kept.
public enum LicenseError: Error, CustomStringConvertible, Equatable {
    case unreadable(String, FileReadError)
    case directory(String)
    case tooLarge(String)
    case empty
    case notALicense
    case notBase64(String)
    case badSignature
    case payloadNotJSON
    case missingField(String)
    case wrongProduct(String)

    public var description: String {
        let kept = "; your current entitlement is unchanged"
        switch self {
        case .unreadable(let path, .missing): return "cannot read \(path): it does not exist; check the path" + kept
        case .unreadable(let path, let problem): return "cannot read \(path): \(problem)" + kept
        case .directory(let path): return "\(path) is a folder; give the licence file inside it" + kept
        case .tooLarge(let path): return "\(path) is larger than \(LicenseVerifier.maxFileSize / 1024) KiB, so it is not a miga licence" + kept
        case .empty: return "the licence file is empty" + kept
        case .notALicense: return "not a miga licence (expected {\"payload\": …, \"signature\": …}); use the file you received on purchase" + kept
        case .notBase64(let part): return "the licence's \(part) is not base64; use the file exactly as you received it" + kept
        case .badSignature: return "the licence's signature does not match (edited, damaged, or not issued for miga); use the file exactly as you received it" + kept
        case .payloadNotJSON: return "the licence's payload is not JSON" + kept
        case .missingField(let key): return "the licence has no \(key)" + kept
        case .wrongProduct(let product): return "this licence is for \"\(TerminalText.excerpt(product))\", not miga" + kept
        }
    }
}
