import Crypto
import Foundation
import Synchronization
import TrustVectors
import _CryptoExtras

/// A key that signs mutants: its SubjectPublicKeyInfo, and signatures over a TBSCertificate with the
/// AlgorithmIdentifier that names them. Ed25519 by default; the other types exist for the mutations
/// of key type, key size and signature hash. Every signature is deterministic (Ed25519 and RSA
/// PKCS #1 v1.5 by construction, ECDSA by RFC 6979 through ``ReproducibleECDSA``), so the same seed
/// gives the same mutant bytes in every run and every shard.
struct SigningKey: Sendable {
    enum Kind: String, Sendable, CaseIterable {
        case ed25519, p256, p384, rsa2048, rsa1024
    }

    /// The hash a signature is made with, where the key type allows a choice.
    enum Hash: String, Sendable {
        case sha1, sha256, sha384, sha512
    }

    private enum Key: @unchecked Sendable {
        // The swift-crypto key types are immutable values; _RSA's is not marked Sendable.
        case ed25519(Curve25519.Signing.PrivateKey)
        case p256(P256.Signing.PrivateKey)
        case p384(P384.Signing.PrivateKey)
        case rsa(_RSA.Signing.PrivateKey)
    }

    let kind: Kind
    /// The key slot it was made for (``init(kind:seed:slot:)``): with the kind and the run's seed,
    /// all it takes to make the key again.
    let slot: Int
    private let key: Key
    /// The DER SubjectPublicKeyInfo.
    let spki: [UInt8]

    /// The private key as PKCS#8 DER (`PrivateKeyInfo`, RFC 5958): what a TLS server presenting a
    /// certificate of this key needs.
    var pkcs8: [UInt8] {
        switch key {
        case .ed25519(let key): return Array(key.pkcs8DERRepresentation)
        case .p256(let key): return Array(key.pkcs8DERRepresentation)
        case .p384(let key): return Array(key.pkcs8DERRepresentation)
        case .rsa(let key): return Array(key.pkcs8DERRepresentation)
        }
    }

    /// The SubjectPublicKeyInfo with P-256 spelled out as explicit ECParameters (specifiedCurve)
    /// instead of its named-curve OID, which RFC 5480 §2.1.1 forbids in PKIX; nil for other key types.
    var explicitParametersSPKI: [UInt8]? {
        guard case .p256(let key) = self.key else { return nil }
        func hex(_ text: String) -> [UInt8] {
            stride(from: 0, to: text.count, by: 2).map { UInt8(text.dropFirst($0).prefix(2), radix: 16)! }
        }
        let p = hex("FFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF")
        let a = hex("FFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFC")
        let b = hex("5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B")
        let g = hex("046B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C2964FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5")
        let n = hex("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551")
        let parameters = DER.sequence([
            DER.integer(1),
            DER.sequence([DER.oid("1.2.840.10045.1.1"), .primitive(0x02, [0] + p)]),
            DER.sequence([.primitive(0x04, a), .primitive(0x04, b)]),
            .primitive(0x04, g),
            .primitive(0x02, [0] + n),
            DER.integer(1),
        ])
        return DER.sequence([
            DER.sequence([DER.oid("1.2.840.10045.2.1"), parameters]),
            .primitive(0x03, [0, 0x04] + Array(key.publicKey.rawRepresentation)),
        ]).encoded
    }

    /// The SubjectPublicKeyInfo with the EC point in compressed form (RFC 5480 §2.2), for P-256; nil
    /// for other key types.
    var compressedSPKI: [UInt8]? {
        guard case .p256(let key) = self.key,
              let agreement = try? P256.KeyAgreement.PublicKey(rawRepresentation: key.publicKey.rawRepresentation) else { return nil }
        let point = Array(agreement.compressedRepresentation)
        return DER.sequence([
            DER.sequence([DER.oid("1.2.840.10045.2.1"), DER.oid("1.2.840.10045.3.1.7")]),
            .primitive(0x03, [0] + point),
        ]).encoded
    }

    /// A key derived from `seed` and `slot`: the same pair gives the same key (Ed25519, P-256 and
    /// P-384 from the seed). RSA keys, which swift-crypto cannot derive from a seed, are the
    /// committed ones of ``RSAKeyPool`` for the slot whatever the seed, or for a slot beyond the
    /// pool one GnuTLS derives from the slot (``SeededRSA``), also whatever the seed: RSA mutants
    /// are reproducible too.
    init(kind: Kind, seed: UInt64, slot: Int) throws {
        let material = Array(SHA384.hash(data: Array("trust-harness explore \(seed) \(slot) \(kind.rawValue)".utf8)))
        switch kind {
        case .ed25519:
            let key = try Curve25519.Signing.PrivateKey(rawRepresentation: material.prefix(32))
            self.init(kind: kind, slot: slot, key: .ed25519(key), spki: [0x30, 0x2A, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x03, 0x21, 0x00] + Array(key.publicKey.rawRepresentation))
        case .p256:
            let key = try P256.Signing.PrivateKey(rawRepresentation: material.prefix(32))
            self.init(kind: kind, slot: slot, key: .p256(key), spki: Array(key.publicKey.derRepresentation))
        case .p384:
            let key = try P384.Signing.PrivateKey(rawRepresentation: material.prefix(48))
            self.init(kind: kind, slot: slot, key: .p384(key), spki: Array(key.publicKey.derRepresentation))
        case .rsa2048, .rsa1024:
            self = try Self.rsaKey(kind, slot: slot)
        }
    }

    /// The RSA key of `kind` for `slot`: the committed one (``RSAKeyPool``), else the one derived
    /// from the kind and slot (``SeededRSA``), made once per process.
    private static func rsaKey(_ kind: Kind, slot: Int) throws -> SigningKey {
        let bits = kind == .rsa2048 ? 2048 : 1024
        let name = "\(bits) \(slot)"
        if let made = rsaKeys.withLock({ $0[name] }) { return made }
        let key: _RSA.Signing.PrivateKey
        if let pooled = RSAKeyPool.keys[bits]?[slot], let der = Data(base64Encoded: pooled) {
            key = try _RSA.Signing.PrivateKey(unsafeDERRepresentation: der)
        } else {
            let seed = Array(SHA256.hash(data: Array("trust-harness explore rsa \(bits) slot \(slot)".utf8)).prefix(28))
            key = try _RSA.Signing.PrivateKey(unsafeDERRepresentation: SeededRSA.privateKey(bits: bits, seed: seed))
        }
        let made = SigningKey(kind: kind, slot: slot, key: .rsa(key), spki: Array(key.publicKey.derRepresentation))
        // Another task may have made one meanwhile: the first kept is the one every caller gets.
        return rsaKeys.withLock { keys in
            if let first = keys[name] { return first }
            keys[name] = made
            return made
        }
    }

    private static let rsaKeys = Mutex<[String: SigningKey]>([:])

    private init(kind: Kind, slot: Int, key: Key, spki: [UInt8]) {
        self.kind = kind
        self.slot = slot
        self.key = key
        self.spki = spki
    }

    /// The AlgorithmIdentifier of this key's signatures made with `hash` (ignored by Ed25519).
    func algorithm(hash: Hash) -> DERTree {
        switch key {
        case .ed25519: return Self.algorithm("1.3.101.112", null: false)
        case .p256, .p384: return Self.algorithm(Self.ecdsaOID(hash), null: false)
        case .rsa:
            let oid = ["sha1": "1.2.840.113549.1.1.5", "sha256": "1.2.840.113549.1.1.11", "sha384": "1.2.840.113549.1.1.12", "sha512": "1.2.840.113549.1.1.13"][hash.rawValue]!
            return Self.algorithm(oid, null: true)
        }
    }

    /// The signature over `tbs` made with `hash` (ignored by Ed25519).
    func sign(_ tbs: [UInt8], hash: Hash = .sha256) throws -> [UInt8] {
        switch key {
        case .ed25519(let key): return Array(try key.signature(for: tbs))
        case .p256(let key):
            return try ReproducibleECDSA.sign(digest: Array(Self.digest(tbs, hash)), hash: hash, curve: .p256, scalar: Array(key.rawRepresentation), point: Array(key.publicKey.rawRepresentation))
        case .p384(let key):
            return try ReproducibleECDSA.sign(digest: Array(Self.digest(tbs, hash)), hash: hash, curve: .p384, scalar: Array(key.rawRepresentation), point: Array(key.publicKey.rawRepresentation))
        case .rsa(let key): return Array(try key.signature(for: Self.digest(tbs, hash), padding: .insecurePKCS1v1_5).rawRepresentation)
        }
    }

    static func ecdsaOID(_ hash: Hash) -> String {
        switch hash {
        case .sha1: return "1.2.840.10045.4.1"
        case .sha256: return "1.2.840.10045.4.3.2"
        case .sha384: return "1.2.840.10045.4.3.3"
        case .sha512: return "1.2.840.10045.4.3.4"
        }
    }

    private static func digest(_ bytes: [UInt8], _ hash: Hash) -> any Digest {
        switch hash {
        case .sha1: return Insecure.SHA1.hash(data: bytes)
        case .sha256: return SHA256.hash(data: bytes)
        case .sha384: return SHA384.hash(data: bytes)
        case .sha512: return SHA512.hash(data: bytes)
        }
    }

    static func algorithm(_ oid: String, null: Bool) -> DERTree {
        .constructed(0x30, [DER.oid(oid)] + (null ? [.primitive(0x05, [])] : []))
    }
}

/// Keys made once per exploration for the mutations that change a certificate's key type: RSA key
/// generation is the slow part, so each type has one key, shared by every mutant that needs it.
struct AlternativeKeys: Sendable {
    let keys: [SigningKey.Kind: SigningKey]

    init(seed: UInt64) throws {
        var keys: [SigningKey.Kind: SigningKey] = [:]
        for kind in SigningKey.Kind.allCases where kind != .ed25519 {
            keys[kind] = try SigningKey(kind: kind, seed: seed, slot: 1_000)
        }
        self.keys = keys
    }
}
