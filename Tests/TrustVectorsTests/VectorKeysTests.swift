import Crypto
import Foundation
import Testing
import TrustCore
@testable import TrustVectors
import X509

/// Every committed vector can be presented by a TLS server (`run --handshake`, `probe`, the HTTP
/// clients' loopback server): its leaf's private key is in `keys/` or `explored/keys/`.
@Suite struct VectorKeysTests {
    /// The leaf keys no one has. Every leaf the explorer makes carries a key it can make again from
    /// its seed (Ed25519, P-256 and P-384 from the seed, RSA from RSAKeyPool or SeededRSA), and
    /// adoption keeps it; but before the RSA pool (commit 4f37a0d, 2026-11-26) the explorer made its
    /// RSA keys at random and kept none, and the explored vectors adopted on 2026-11-25 whose leaf is
    /// RSA carry such keys. No seed makes them again and their certificates are committed, so these
    /// leaves stay unserved until the vectors are made again (`explore --rebase`, which keeps the new
    /// leaf's key). By the SHA-256 of the leaf's SubjectPublicKeyInfo, with how many leaves carry
    /// each: the list and the counts may only shrink.
    static let lostKeys: [String: (leaves: Int, what: String)] = [
        "d926a53cb8213727b23a8762c34f92a6de86b5238d6263e4be179d32bbe473b7": (153, "RSA-2048 (the leaves of the RSA-2048 bases)"),
        "56318492a76c6c15efb48219be8d38c438062bda4ca6fbb481840098bf178feb": (3, "RSA-2048 (the leaves of the host-name and anchor-set classes adopted later that day)"),
        "30fd396b53ee4fbbcf40fa83520c5ebbc73be7917974997d0363126fec9854b8": (2, "RSA-1024 (the alternative key of key/rsa1024 at the leaf)"),
    ]

    static func fingerprint(_ spki: [UInt8]) -> String {
        SHA256.hash(data: spki).map { String(format: "%02x", $0) }.joined()
    }

    /// Counts the vectors without a leaf key and lists them: each must carry one of ``lostKeys``.
    @Test func everyLeafATLSServerCanPresentHasItsKey() throws {
        let suite = try VectorSuite.load(from: VectorsFolder.committed())
        var unexplained: [String] = []
        var lost: [String: [String]] = [:]
        for vector in suite.vectors where !vector.chain.isEmpty && vector.leafPrivateKey == nil {
            let spki = try #require(VectorKeys.subjectPublicKeyInfo(ofCertificate: vector.chain[0]), "\(vector.id): the leaf has no SubjectPublicKeyInfo in its place")
            let fingerprint = Self.fingerprint(spki)
            if Self.lostKeys[fingerprint] != nil {
                lost[fingerprint, default: []].append(vector.id)
            } else {
                unexplained.append("\(vector.id) (SubjectPublicKeyInfo sha256 \(fingerprint))")
            }
        }
        #expect(unexplained.isEmpty, "\(unexplained.count) vectors have no key for their leaf: \(unexplained.joined(separator: ", "))")
        for (fingerprint, known) in Self.lostKeys {
            let leaves = lost[fingerprint] ?? []
            #expect(leaves.count <= known.leaves, "more leaves than before carry the lost key \(known.what): \(leaves.joined(separator: ", "))")
            #expect(!leaves.isEmpty, "no leaf carries the lost key \(known.what) any more: take it out of lostKeys")
        }
        let served = suite.vectors.filter { !$0.chain.isEmpty }.count - lost.values.joined().count
        #expect(served >= suite.vectors.count - 158, "\(served) of \(suite.vectors.count) vectors can be served")
    }

    /// A leaf swift-certificates refuses to read is still found by its key: the SubjectPublicKeyInfo
    /// is taken from the DER, and a P-256 point in compressed form or on explicit parameters is
    /// compared as the named curve's point.
    @Test func leavesSwiftCertificatesCannotReadAreFoundByTheirKey() throws {
        let suite = try VectorSuite.load(from: VectorsFolder.committed())
        let byID = Dictionary(uniqueKeysWithValues: suite.vectors.map { ($0.id, $0) })
        for id in ["explored/serial-empty-at-leaf", "explored/extension-duplicate-own-at-leaf", "explored/key-p256-compressed-at-leaf", "explored/key-p256-explicit-parameters-at-leaf"] {
            let vector = try #require(byID[id])
            #expect((try? Certificate(derEncoded: vector.chain[0])) == nil, "\(id): swift-certificates reads it; pick a leaf it refuses")
            #expect(vector.leafPrivateKey != nil, "\(id) has no key")
        }
        let compressed = try #require(byID["explored/key-p256-compressed-at-leaf"]?.leafPrivateKey)
        let explicit = try #require(byID["explored/key-p256-explicit-parameters-at-leaf"]?.leafPrivateKey)
        #expect(compressed == explicit, "both re-encode the explorer's one alternative P-256 key")
    }

    /// An RSA key under 2048 bits, which swift-certificates refuses, is read too (the explorer's
    /// alternative RSA-1024 key, committed in explored/keys/).
    @Test func rsaKeysUnder2048BitsAreRead() throws {
        let url = try VectorsFolder.committed().appendingPathComponent("explored/keys/rsa1024-9aac1b0aa491825e.pem")
        let key = try #require(VectorKeys.keyFile(url), "explored/keys/rsa1024-9aac1b0aa491825e.pem is read")
        #expect((try? Certificate.PrivateKey(derBytes: key.der)) == nil, "swift-certificates reads it; the test needs a key it refuses")
        #expect(key.spki.count == 162, "an RSA-1024 SubjectPublicKeyInfo")
    }
}
