import Crypto
import Foundation
import Testing
import TrustCore
@testable import TrustVectors
import X509

/// Every committed vector can be presented by a TLS server (`run --handshake`, `probe`, the HTTP
/// clients' loopback server): its leaf's private key is in `keys/` or `explored/keys/`.
@Suite struct VectorKeysTests {
    /// The leaf keys no one has: none. Before the RSA pool (commit 4f37a0d, 2026-11-26) the explorer
    /// made its RSA keys at random and kept none, and 158 explored vectors adopted on 2026-11-25
    /// carried three such keys; `explore --rebase` made them again on the bases they were found on
    /// (issue 60), keeping the new leaves' keys. A key listed here (by the SHA-256 of the leaf's
    /// SubjectPublicKeyInfo, with how many leaves may carry it) would excuse its leaves; the list may
    /// only shrink.
    static let lostKeys: [String: (leaves: Int, what: String)] = [:]

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
        #expect(served == suite.vectors.filter { !$0.chain.isEmpty }.count, "\(served) of \(suite.vectors.count) vectors can be served")
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
