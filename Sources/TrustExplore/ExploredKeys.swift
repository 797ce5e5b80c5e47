import Crypto
import Foundation
import TrustVectors
import _CryptoExtras

/// The private keys of the adopted vectors' leaves, `Vectors/explored/keys/`: one PEM file per key,
/// however many vectors present it, named by its type and public key, so that a loopback TLS server
/// can present every adopted chain (``TrustVectors/VectorKeys`` finds a key by the leaf's public
/// key). Adoption (``Adoption``) and `--rebase` (``ExploredAnswers/rebase(_:on:keyType:seed:vectors:)``)
/// keep each leaf's key here as they write its certificates.
struct ExploredKeys {
    /// The folder, relative to `Vectors/`.
    static let folder = "explored/keys"

    private let directory: URL
    /// The files already there, by the canonical SubjectPublicKeyInfo of their key.
    private var files: [[UInt8]: String] = [:]

    /// The keys in `vectors`' `explored/keys/` (none when there is no such folder; a file that is no
    /// private key is passed over).
    init(vectors: URL) {
        directory = vectors.appendingPathComponent(Self.folder)
        for file in ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted() where file.hasSuffix(".pem") {
            guard let key = VectorKeys.keyFile(directory.appendingPathComponent(file)) else { continue }
            if files[key.spki] == nil { files[key.spki] = file }
        }
    }

    /// Keeps the private key `pkcs8` (PKCS#8 DER) unless a file holds the same key already; the
    /// file's path relative to `Vectors/`.
    /// - Throws: ``TrustVectors/FileProblem`` for bytes that are no private key swift-crypto reads,
    ///   or the file system's error.
    @discardableResult
    mutating func keep(_ pkcs8: [UInt8]) throws -> String {
        guard let spki = VectorKeys.subjectPublicKeyInfo(ofPrivateKey: pkcs8) else {
            throw FileProblem(file: directory.path, problem: "was to keep a leaf key that is no PKCS#8 private key swift-crypto reads")
        }
        if let file = files[spki] { return "\(Self.folder)/\(file)" }
        let file = Self.name(pkcs8, spki: spki)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(PEMText.encode(type: "PRIVATE KEY", der: pkcs8).utf8).write(to: directory.appendingPathComponent(file))
        files[spki] = file
        return "\(Self.folder)/\(file)"
    }

    /// `<type>-<16 hex digits of the SHA-256 of its SubjectPublicKeyInfo>.pem`: the same key always
    /// has the same name, whichever run or vector brought it.
    static func name(_ pkcs8: [UInt8], spki: [UInt8]) -> String {
        let fingerprint = SHA256.hash(data: spki).prefix(8).map { String(format: "%02x", $0) }.joined()
        return "\(type(of: pkcs8))-\(fingerprint).pem"
    }

    /// The key type, in the explorer's words (``SigningKey/Kind``): `ed25519`, `p256`, `p384` or
    /// `rsa<bits>`; `key` for another.
    static func type(of pkcs8: [UInt8]) -> String {
        if (try? Curve25519.Signing.PrivateKey(derRepresentation: pkcs8)) != nil { return "ed25519" }
        if (try? P256.Signing.PrivateKey(derRepresentation: pkcs8)) != nil { return "p256" }
        if (try? P384.Signing.PrivateKey(derRepresentation: pkcs8)) != nil { return "p384" }
        if let rsa = try? _RSA.Signing.PrivateKey(unsafeDERRepresentation: pkcs8) { return "rsa\(rsa.keySizeInBits)" }
        return "key"
    }
}
