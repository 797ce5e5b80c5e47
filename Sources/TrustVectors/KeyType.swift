import Crypto
import X509
import _CryptoExtras

/// A key algorithm the catalogue covers. Every case of the catalogue exists once per key type, and
/// the raw value is the last component of a vector id and the folder name under `certs/` and `keys/`.
enum KeyType: String, CaseIterable, Sendable, Hashable {
    case rsa2048
    case p256
    case ed25519

    /// The signature algorithm every certificate issued by a key of this type uses.
    var signatureAlgorithm: Certificate.SignatureAlgorithm {
        switch self {
        case .rsa2048: return .sha256WithRSAEncryption
        case .p256: return .ecdsaWithSHA256
        case .ed25519: return .ed25519
        }
    }

    /// The human-readable algorithm name, used in subject names.
    var label: String {
        switch self {
        case .rsa2048: return "RSA-2048"
        case .p256: return "P-256"
        case .ed25519: return "Ed25519"
        }
    }

    /// Whether an end-entity key of this type is used for key transport as well as for signing,
    /// so its keyUsage also asserts keyEncipherment (RSA key exchange in TLS 1.2).
    var encryptsKeys: Bool { self == .rsa2048 }

    /// A new private key as PKCS#8 DER (`PrivateKeyInfo`, RFC 5958).
    func makePrivateKey() throws -> [UInt8] {
        switch self {
        case .rsa2048:
            return Array(try _RSA.Signing.PrivateKey(keySize: .bits2048).pkcs8DERRepresentation)
        case .p256:
            return Array(P256.Signing.PrivateKey().derRepresentation)
        case .ed25519:
            // swift-crypto has no PKCS#8 form for Ed25519; RFC 8410 §7 fixes its 16-byte prefix.
            return Self.ed25519PKCS8Prefix + Array(Curve25519.Signing.PrivateKey().rawRepresentation)
        }
    }

    /// Whether `publicKey` is a key of this type (for RSA, of exactly 2048 bits).
    func matches(_ publicKey: Certificate.PublicKey) -> Bool {
        switch self {
        case .rsa2048: return _RSA.Signing.PublicKey(publicKey)?.keySizeInBits == 2048
        case .p256: return P256.Signing.PublicKey(publicKey) != nil
        case .ed25519: return Curve25519.Signing.PublicKey(publicKey) != nil
        }
    }

    /// `PrivateKeyInfo { version 0, AlgorithmIdentifier { id-Ed25519 }, OCTET STRING { OCTET STRING (32) } }`.
    private static let ed25519PKCS8Prefix: [UInt8] = [
        0x30, 0x2E, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
    ]
}
