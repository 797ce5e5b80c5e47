import Testing
import TrustDER

/// The strict DER check refuses no real DER certificate: the vectors, the system trust store and
/// x509-limbo's well-formed certificates pass; limbo's deliberately malformed ones are refused,
/// each for the reason listed.
@Suite struct DERCertificateCorpusTests {
    @Test func everyVectorIsDER() throws {
        let vectors = try CertificateCorpus.vectors()
        #expect(vectors.count > 100)
        for vector in vectors {
            #expect(DERCertificate.encodingProblem(vector.der) == nil, "\(vector.name)")
        }
    }

    @Test func everySystemTrustAnchorIsDER() throws {
        for anchor in try CertificateCorpus.systemStore() {
            #expect(DERCertificate.encodingProblem(anchor.der) == nil, "\(anchor.name)")
        }
    }

    /// Limbo id and role -> what the check says. Each is malformed on purpose; the two
    /// `unrelated` cases expect success, since the malformed certificate is not on the path.
    static let limboRefused: [String: String] = [
        "invalid::invalid-issuer-key untrusted[0]": "missing element in RSAPublicKey",
        "rfc5280::eku::ee-eku-empty peer": "extension 2.5.29.37: empty SEQUENCE or SET where SIZE (1..MAX) is required",
        "rfc5280::san::malformed peer": "extension 2.5.29.17: length 120 runs past the end",
        "webpki::nc::intermediate-permitted-excluded-subtrees-both-empty-sequences untrusted[0]": "extension 2.5.29.30: empty SEQUENCE or SET where SIZE (1..MAX) is required in GeneralSubtrees",
        "webpki::malformed-aia peer": "extension 1.3.6.1.5.5.7.1.1: length 97 runs past the end",
    ]

    @Test func limboIsDERExceptItsMalformedCertificates() throws {
        var refused: [String: String] = [:]
        for entry in try CertificateCorpus.limbo() {
            if let problem = DERCertificate.encodingProblem(entry.der) { refused[entry.name] = problem }
        }
        #expect(Set(refused.keys) == Set(Self.limboRefused.keys), "refused: \(refused)")
        for (name, reason) in Self.limboRefused {
            #expect(refused[name]?.contains(reason) == true, "\(name): \(refused[name] ?? "passes")")
        }
    }
}
