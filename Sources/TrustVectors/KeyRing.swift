import Foundation
import SwiftASN1
import X509

/// The private keys of one key type, by name: read from an earlier `Vectors/` folder where they
/// exist, so regenerated certificates keep their keys, and made anew otherwise.
struct KeyRing {
    let keyType: KeyType
    /// PKCS#8 DER by key name, exactly as read or made.
    private var encodings: [String: [UInt8]] = [:]
    private var privateKeys: [String: Certificate.PrivateKey] = [:]

    /// Loads or makes every key in `names`.
    /// - Parameter folder: a `Vectors/` folder to read `keys/<key type>/<name>.pem` from, or nil to
    ///   make every key anew.
    /// - Throws: ``VectorGeneratorError/unusableKey(path:reason:)`` when a key file exists but is not
    ///   a PEM PKCS#8 private key of this key type: it is never silently replaced.
    init(keyType: KeyType, names: [String], reusingFrom folder: URL?) throws {
        self.keyType = keyType
        for name in names {
            let relativePath = Catalogue.keyPath(name, keyType)
            let der: [UInt8]
            if let folder, let data = try VectorFiles.readData(relativePath, in: folder) {
                der = try Self.decode(data, path: relativePath)
            } else {
                der = try keyType.makePrivateKey()
            }
            let privateKey: Certificate.PrivateKey
            do {
                privateKey = try Certificate.PrivateKey(derBytes: der)
            } catch {
                throw VectorGeneratorError.unusableKey(path: relativePath, reason: "its PKCS#8 content cannot be read (\(error))")
            }
            guard keyType.matches(privateKey.publicKey) else {
                throw VectorGeneratorError.unusableKey(
                    path: relativePath,
                    reason: "it holds a \(privateKey) key, not a \(keyType.label) key"
                )
            }
            encodings[name] = der
            privateKeys[name] = privateKey
        }
    }

    /// - Throws: ``VectorGeneratorError/catalogue(_:)`` for a key name the ring was not made with.
    func privateKey(_ name: String) throws -> Certificate.PrivateKey {
        guard let key = privateKeys[name] else {
            throw VectorGeneratorError.catalogue("no key named \(name) for \(keyType.rawValue)")
        }
        return key
    }

    /// The key file's content: PEM `PRIVATE KEY` (PKCS#8) with a final newline.
    func pemFile(_ name: String) throws -> String {
        guard let der = encodings[name] else {
            throw VectorGeneratorError.catalogue("no key named \(name) for \(keyType.rawValue)")
        }
        return PEMText.encode(type: Self.pemType, der: der)
    }

    private static let pemType = "PRIVATE KEY"

    private static func decode(_ data: Data, path: String) throws -> [UInt8] {
        guard let text = String(data: data, encoding: .utf8) else {
            throw VectorGeneratorError.unusableKey(path: path, reason: "it is not UTF-8 text, so not PEM")
        }
        let document: PEMDocument
        do {
            document = try PEMDocument(pemString: text)
        } catch {
            throw VectorGeneratorError.unusableKey(path: path, reason: "it is not a single PEM document (\(error))")
        }
        guard document.discriminator == pemType else {
            throw VectorGeneratorError.unusableKey(
                path: path,
                reason: "it is a PEM \(document.discriminator), not a PKCS#8 \(pemType)"
            )
        }
        return document.derBytes
    }
}
