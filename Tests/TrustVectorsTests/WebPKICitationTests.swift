import Crypto
import Foundation
import SwiftASN1
import Testing
import TrustVectors
import X509

/// Each Web PKI answer cites exactly the key and signature rules its own certificates break, checked
/// vector by vector with swift-certificates' parser, not with the rules' own reader: a rule an answer
/// cites is one its certificates break, and a rule they break is cited.
@Suite struct WebPKICitationTests {
    static let keysRule = "Web PKI rule keys:"
    static let signaturesRule = "Web PKI rule signatures:"

    /// RSA of at least 2048 bits (a multiple of 8), or ECDSA on P-256, P-384 or P-521.
    static func permitted(_ key: Certificate.PublicKey) -> Bool {
        if P256.Signing.PublicKey(key) != nil || P384.Signing.PublicKey(key) != nil || P521.Signing.PublicKey(key) != nil { return true }
        guard let bits = rsaBits(key) else { return false }
        return bits >= 2048 && bits % 8 == 0
    }

    /// The RSA modulus size of `key`; nil for another key type. swift-certificates keeps an RSA
    /// key's PKCS #1 RSAPublicKey (modulus, exponent) as its bytes, and an EC key's point.
    static func rsaBits(_ key: Certificate.PublicKey) -> Int? {
        guard P256.Signing.PublicKey(key) == nil, P384.Signing.PublicKey(key) == nil, P521.Signing.PublicKey(key) == nil,
              let rsa = try? DER.parse(Array(key.subjectPublicKeyInfoBytes)), case .constructed(let numbers) = rsa.content else { return nil }
        let integers = Array(numbers)
        guard integers.count == 2, integers.allSatisfy({ $0.identifier == .integer }), case .primitive(let bytes) = integers[0].content else { return nil }
        let significant = bytes.drop { $0 == 0 }
        guard let first = significant.first else { return 0 }
        return (significant.count - 1) * 8 + (8 - first.leadingZeroBitCount)
    }

    /// Whether `certificate`'s signature algorithm is one the rule permits for `issuer`'s key.
    static func signaturePermitted(_ certificate: Certificate, by issuer: Certificate.PublicKey) -> Bool {
        let algorithm = certificate.signatureAlgorithm
        if rsaBits(issuer) != nil {
            return [.sha256WithRSAEncryption, .sha384WithRSAEncryption, .sha512WithRSAEncryption].contains(algorithm)
                || String(describing: algorithm).contains("1.2.840.113549.1.1.10")  // RSASSA-PSS, which the library names by its OID
        }
        if P256.Signing.PublicKey(issuer) != nil { return algorithm == .ecdsaWithSHA256 }
        if P384.Signing.PublicKey(issuer) != nil { return algorithm == .ecdsaWithSHA384 }
        if P521.Signing.PublicKey(issuer) != nil { return algorithm == .ecdsaWithSHA512 }
        return false
    }

    @Test func everyAnswerCitesTheKeyAndSignatureRulesItsCertificatesBreak() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let suite = try VectorSuite.load(from: root.appendingPathComponent("Vectors"))
        var checked = 0
        for vector in suite.vectors {
            let answer = vector.entry.answer(for: .webpki)
            // One path, in order, that swift-certificates reads: leaf, at most one intermediate, the anchor.
            // A leaf that is itself the anchor is a path of one, whose self-signature is not processed.
            guard vector.anchors.count == 1, (1...2).contains(vector.chain.count), vector.chain[0] != vector.anchors[0],
                  let path = try? (vector.chain + vector.anchors).map({ try Certificate(derEncoded: $0) }),
                  zip(path, path.dropFirst()).allSatisfy({ $0.issuer == $1.subject }) else { continue }
            let keysBroken = !path.allSatisfy { Self.permitted($0.publicKey) }
            let signaturesBroken = !zip(path, path.dropFirst()).allSatisfy { Self.signaturePermitted($0, by: $1.publicKey) }
            let citesKeys = answer.references.contains { $0.hasPrefix(Self.keysRule) }
            let citesSignatures = answer.references.contains { $0.hasPrefix(Self.signaturesRule) }
            checked += 1
            #expect(citesKeys == keysBroken, "\(vector.id): cites the key rule \(citesKeys), its certificates break it \(keysBroken)")
            #expect(citesSignatures == signaturesBroken, "\(vector.id): cites the signature rule \(citesSignatures), its certificates break it \(signaturesBroken)")
        }
        #expect(checked > 300)
    }
}

/// Every deviation record of the project names its cause: none is a draft (`"draft": true`).
@Suite struct DeviationCauseTests {
    @Test func noRecordOfTheProjectIsADraft() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for path in ["Vectors/deviations.json", "Vectors/explored/deviations.json"] {
            let list = try JSONDecoder().decode(DeviationList.self, from: Data(contentsOf: root.appendingPathComponent(path)))
            let drafts = list.deviations.filter(\.draft)
            #expect(drafts.isEmpty, "\(path): \(drafts.count) record(s) with a drafted reason, e.g. \(drafts.prefix(3).map { "\($0.backend) \($0.vector)" })")
        }
    }
}
