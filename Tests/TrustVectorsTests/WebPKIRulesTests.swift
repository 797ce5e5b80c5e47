import Testing
import TrustCore
@testable import TrustVectors

/// The Web PKI profile's answers, derived from the catalogue's own certificates.
@Suite struct WebPKIRulesTests {
    static func answer(_ chain: [String], on keyType: KeyType, rfc5280: TrustVectors.Expectation = TrustVectors.Expectation(trusted: true)) throws -> ProfileAnswer {
        WebPKIRules.answer(chain: try chain.map { try VectorsFolder.certificate($0, keyType) },
                           anchors: [try VectorsFolder.certificate("root", keyType)],
                           rfc5280: ProfileAnswer(expected: rfc5280, references: ["RFC 5280"]))
    }

    /// A valid P-256 or RSA-2048 chain is what RFC 5280 says; an Ed25519 one is not a Web PKI chain.
    @Test func keysAndSignaturesOutsideTheBaselineRequirementsAreRejected() throws {
        for keyType in [KeyType.p256, .rsa2048] {
            let answer = try Self.answer(["leaf", "intermediate"], on: keyType)
            #expect(answer.expected.trusted && answer.references == ["RFC 5280"], "\(keyType)")
        }
        let ed25519 = try Self.answer(["leaf", "intermediate"], on: .ed25519)
        #expect(!ed25519.expected.trusted && ed25519.expected.failures.contains(.badSignature))
        #expect(ed25519.references.contains(WebPKIRules.keyRule))
    }

    /// A leaf without extendedKeyUsage: allowed by RFC 5280, not by BR §7.1.2.7.10.
    @Test func aLeafWithoutServerAuthIsRejected() throws {
        let answer = try Self.answer(["no-eku-leaf", "intermediate"], on: .p256)
        #expect(!answer.expected.trusted && answer.expected.failures.contains(.purposeMismatch))
        #expect(answer.references == [WebPKIRules.ekuRule])
    }

    /// RFC 5280's rejection stands, and an open answer gets the Web PKI's own verdict.
    @Test func aRejectionStandsAndAnOpenAnswerIsDecided() throws {
        let rejected = TrustVectors.Expectation(trusted: false, failures: [.expired])
        #expect(try Self.answer(["no-eku-leaf", "intermediate"], on: .p256, rfc5280: rejected).expected == rejected)
        let open = WebPKIRules.answer(chain: [try VectorsFolder.certificate("leaf", .ed25519), try VectorsFolder.certificate("intermediate", .ed25519)],
                                      anchors: [try VectorsFolder.certificate("root", .ed25519)],
                                      rfc5280: ProfileAnswer(expected: TrustVectors.Expectation(trusted: false), references: ["a MAY"], open: "a MAY"))
        #expect(open.open == nil && !open.expected.trusted)
    }

    /// The committed manifest carries a Web PKI answer exactly where the rules give another one.
    @Test func theManifestCarriesTheRulesAnswers() throws {
        let manifest = try Catalogue.manifest(pin: VectorsFolder.pin, der: { name, keyType in try? VectorsFolder.certificate(name, keyType) })
        #expect(manifest.vectors.contains { $0.id == "valid-chain/ed25519" && $0.webpki?.expected.trusted == false })
        #expect(manifest.vectors.contains { $0.id == "valid-chain/p256" && $0.webpki == nil })
    }
}
