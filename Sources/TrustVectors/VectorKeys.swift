import Crypto
import Foundation
import SwiftASN1
import TrustDER
import X509
import _CryptoExtras

/// The private keys of the committed vectors (`keys/<key type>/<name>.pem`, and the explorer's in
/// `explored/keys/<name>.pem`), found by the public key of a certificate: what a loopback TLS server
/// needs to present a vector's chain.
///
/// A key is found by its SubjectPublicKeyInfo in canonical form (as swift-certificates encodes the
/// key), so that a leaf swift-certificates refuses to read (a negative serial, a duplicate
/// extension, an RSA key under 2048 bits, an EC point in compressed form or its curve spelled out
/// as explicit parameters) is still served with its key: its SubjectPublicKeyInfo is then taken
/// from the DER directly (``TrustDER/DERCertificate``).
public enum VectorKeys {
    /// The keys of one folder, read once, by public key.
    public struct Index: Sendable {
        private let keys: [[UInt8]: [UInt8]]

        /// Every readable key in `directory`'s `keys/*/` and, unless `explored` is false,
        /// `explored/keys/` (none when there are no such folders; a file that is not a PEM private key
        /// is passed over).
        public init(directory: URL, explored: Bool = true) {
            var keys: [[UInt8]: [UInt8]] = [:]
            let folder = directory.appendingPathComponent("keys")
            let types = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            let folders = types.sorted().map { folder.appendingPathComponent($0) } + (explored ? [directory.appendingPathComponent("explored/keys")] : [])
            for typeFolder in folders {
                for file in ((try? FileManager.default.contentsOfDirectory(atPath: typeFolder.path)) ?? []).sorted() where file.hasSuffix(".pem") {
                    guard let key = VectorKeys.keyFile(typeFolder.appendingPathComponent(file)) else { continue }
                    if keys[key.spki] == nil { keys[key.spki] = key.der }
                }
            }
            self.keys = keys
        }

        /// The PKCS#8 DER of the private key whose public key is `certificate`'s, or nil when none
        /// matches (or the certificate has no SubjectPublicKeyInfo where RFC 5280 puts it).
        public func privateKey(for certificate: [UInt8]) -> [UInt8]? {
            guard !keys.isEmpty, let wanted = VectorKeys.subjectPublicKeyInfo(ofCertificate: certificate) else { return nil }
            return keys[wanted]
        }
    }

    /// The PKCS#8 DER of the private key whose public key is `certificate`'s, from `directory`'s
    /// `keys/`, or nil when none matches (or the certificate cannot be read).
    public static func privateKey(for certificate: [UInt8], in directory: URL) -> [UInt8]? {
        Index(directory: directory).privateKey(for: certificate)
    }

    /// The private key in the PEM file at `url` (its DER, as the file has it) and its canonical
    /// SubjectPublicKeyInfo; nil when the file cannot be read or holds no private key swift-crypto
    /// reads.
    public static func keyFile(_ url: URL) -> (der: [UInt8], spki: [UInt8])? {
        guard let data = try? FileProblem.contents(of: url),
              let document = try? PEMDocument(pemString: String(decoding: data, as: UTF8.self)),
              let spki = subjectPublicKeyInfo(ofPrivateKey: document.derBytes) else { return nil }
        return (document.derBytes, spki)
    }

    /// The canonical SubjectPublicKeyInfo (DER) of the private key `der` (PKCS#8, or PKCS #1 for
    /// RSA), or nil when it is no key swift-crypto reads.
    public static func subjectPublicKeyInfo(ofPrivateKey der: [UInt8]) -> [UInt8]? {
        if let key = try? Certificate.PrivateKey(derBytes: der) { return encoded(key.publicKey) }
        // swift-certificates refuses RSA keys under 2048 bits, which the explorer's key-size
        // mutations make.
        if let key = try? _RSA.Signing.PrivateKey(unsafeDERRepresentation: der) { return Array(key.publicKey.derRepresentation) }
        return nil
    }

    /// The canonical SubjectPublicKeyInfo (DER) of `certificate`'s public key: as swift-certificates
    /// reads it, or, for a certificate it refuses, taken from the DER and made canonical where the
    /// key allows; nil when the DER has no SubjectPublicKeyInfo in its place.
    public static func subjectPublicKeyInfo(ofCertificate certificate: [UInt8]) -> [UInt8]? {
        if let read = try? Certificate(derEncoded: certificate) { return encoded(read.publicKey) }
        return DERCertificate.subjectPublicKeyInfo(certificate).map { canonical(Array($0)) }
    }

    /// `spki` as swift-certificates would encode the same key: a P-256 or P-384 point in
    /// compressed form, or on a curve given by explicit parameters of that curve's field, becomes
    /// the named curve's uncompressed point; a key swift-certificates reads is re-encoded; anything
    /// else (an RSA key under 2048 bits, an unknown algorithm) is kept as it is.
    static func canonical(_ spki: [UInt8]) -> [UInt8] {
        if let key = (try? Certificate.PublicKey(derEncoded: spki)) ?? ellipticCurveKey(spki), let canonical = encoded(key) { return canonical }
        return spki
    }

    /// The SubjectPublicKeyInfo (DER) swift-certificates writes for `key` (its
    /// `subjectPublicKeyInfoBytes` are only the subjectPublicKey's bits).
    static func encoded(_ key: Certificate.PublicKey) -> [UInt8]? {
        var serializer = DER.Serializer()
        guard (try? serializer.serialize(key)) != nil else { return nil }
        return serializer.serializedBytes
    }

    /// The P-256 or P-384 key of an id-ecPublicKey SubjectPublicKeyInfo that names its curve or
    /// gives it as ECParameters over that curve's prime field (RFC 5480 §2.1.1 allows only the
    /// name in PKIX), its point compressed or not (§2.2); nil for anything else.
    static func ellipticCurveKey(_ spki: [UInt8]) -> Certificate.PublicKey? {
        try? DER.sequence(DER.parse(spki), identifier: .sequence) { nodes -> Certificate.PublicKey? in
            guard let algorithm = nodes.next(), let bits = nodes.next() else { return nil }
            let curve: ASN1ObjectIdentifier? = try DER.sequence(algorithm, identifier: .sequence) { fields in
                guard let oid = fields.next(), try ASN1ObjectIdentifier(derEncoded: oid) == .AlgorithmIdentifier.idEcPublicKey,
                      let parameters = fields.next() else { return nil }
                if parameters.identifier == .objectIdentifier { return try ASN1ObjectIdentifier(derEncoded: parameters) }
                // ECParameters ::= SEQUENCE { version, fieldID SEQUENCE { fieldType, prime }, curve, base, order, cofactor OPTIONAL }
                return try DER.sequence(parameters, identifier: .sequence) { ecParameters in
                    _ = ecParameters.next()
                    guard let fieldID = ecParameters.next() else { return nil }
                    while ecParameters.next() != nil {}
                    let prime: ArraySlice<UInt8> = try DER.sequence(fieldID, identifier: .sequence) { field in
                        _ = field.next()
                        guard let prime = field.next() else { throw ASN1Error.invalidASN1Object(reason: "fieldID without a prime") }
                        return try ArraySlice<UInt8>(derEncoded: prime)
                    }
                    return primes[Array(prime.drop { $0 == 0 })]
                }
            }
            let point = try ASN1BitString(derEncoded: bits).bytes
            let compressed = point.first == 0x02 || point.first == 0x03
            switch curve {
            case ASN1ObjectIdentifier.NamedCurves.secp256r1:
                return Certificate.PublicKey(compressed ? try P256.Signing.PublicKey(compressedRepresentation: point) : try P256.Signing.PublicKey(x963Representation: point))
            case ASN1ObjectIdentifier.NamedCurves.secp384r1:
                return Certificate.PublicKey(compressed ? try P384.Signing.PublicKey(compressedRepresentation: point) : try P384.Signing.PublicKey(x963Representation: point))
            default:
                return nil
            }
        } ?? nil
    }

    /// The named curves by the prime of their field (SEC 2 §2.4.2, §2.5.1), for explicit parameters.
    private static let primes: [[UInt8]: ASN1ObjectIdentifier] = [
        hex("FFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF"): ASN1ObjectIdentifier.NamedCurves.secp256r1,
        hex("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFFFF0000000000000000FFFFFFFF"): ASN1ObjectIdentifier.NamedCurves.secp384r1,
    ]

    private static func hex(_ text: String) -> [UInt8] {
        stride(from: 0, to: text.count, by: 2).map { UInt8(text.dropFirst($0).prefix(2), radix: 16)! }
    }
}
