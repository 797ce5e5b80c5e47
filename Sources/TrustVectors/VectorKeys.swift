import Foundation
import SwiftASN1
import X509

/// The private keys of the committed vectors (`keys/<key type>/<name>.pem`, and the explorer's in
/// `explored/keys/<name>.pem`), found by the public key of a certificate: what a loopback TLS server
/// needs to present a vector's chain.
public enum VectorKeys {
    /// The keys of one folder, read once, by public key.
    public struct Index: Sendable {
        private let keys: [Certificate.PublicKey: [UInt8]]

        /// Every readable key in `directory`'s `keys/*/` and, unless `explored` is false,
        /// `explored/keys/` (none when there are no such folders; a file that is not a PEM private key
        /// is passed over).
        public init(directory: URL, explored: Bool = true) {
            var keys: [Certificate.PublicKey: [UInt8]] = [:]
            let folder = directory.appendingPathComponent("keys")
            let types = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            let folders = types.sorted().map { folder.appendingPathComponent($0) } + (explored ? [directory.appendingPathComponent("explored/keys")] : [])
            for typeFolder in folders {
                for file in ((try? FileManager.default.contentsOfDirectory(atPath: typeFolder.path)) ?? []).sorted() where file.hasSuffix(".pem") {
                    guard let data = try? FileProblem.contents(of: typeFolder.appendingPathComponent(file)),
                          let document = try? PEMDocument(pemString: String(decoding: data, as: UTF8.self)),
                          let key = try? Certificate.PrivateKey(derBytes: document.derBytes) else { continue }
                    if keys[key.publicKey] == nil { keys[key.publicKey] = document.derBytes }
                }
            }
            self.keys = keys
        }

        /// The PKCS#8 DER of the private key whose public key is `certificate`'s, or nil when none
        /// matches (or swift-certificates cannot read the certificate).
        public func privateKey(for certificate: [UInt8]) -> [UInt8]? {
            guard !keys.isEmpty, let wanted = try? Certificate(derEncoded: certificate).publicKey else { return nil }
            return keys[wanted]
        }
    }

    /// The PKCS#8 DER of the private key whose public key is `certificate`'s, from `directory`'s
    /// `keys/`, or nil when none matches (or the certificate cannot be read).
    public static func privateKey(for certificate: [UInt8], in directory: URL) -> [UInt8]? {
        Index(directory: directory).privateKey(for: certificate)
    }
}
