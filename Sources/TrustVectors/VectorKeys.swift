import Foundation
import SwiftASN1
import X509

/// The private keys of the committed vectors (`keys/<key type>/<name>.pem`), found by the public key
/// of a certificate: what a loopback TLS server needs to present a vector's chain.
public enum VectorKeys {
    /// The PKCS#8 DER of the private key whose public key is `certificate`'s, from `directory`'s
    /// `keys/`, or nil when none matches (or the certificate cannot be read).
    public static func privateKey(for certificate: [UInt8], in directory: URL) -> [UInt8]? {
        guard let wanted = try? Certificate(derEncoded: certificate).publicKey else { return nil }
        let keys = directory.appendingPathComponent("keys")
        guard let types = try? FileManager.default.contentsOfDirectory(atPath: keys.path) else { return nil }
        for type in types.sorted() {
            let folder = keys.appendingPathComponent(type)
            for file in ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted() where file.hasSuffix(".pem") {
                guard let data = try? FileProblem.contents(of: folder.appendingPathComponent(file)),
                      let document = try? PEMDocument(pemString: String(decoding: data, as: UTF8.self)),
                      let key = try? Certificate.PrivateKey(derBytes: document.derBytes),
                      key.publicKey == wanted else { continue }
                return document.derBytes
            }
        }
        return nil
    }
}
