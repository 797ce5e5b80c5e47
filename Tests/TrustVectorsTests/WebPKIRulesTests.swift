import Foundation
import Testing
import TrustCore
@testable import TrustVectors

/// The Web PKI profile's answers, derived from the catalogue's own certificates.
@Suite struct WebPKIRulesTests {
    static func answer(_ chain: [String], on keyType: KeyType, anchors: [String] = ["root"], rfc5280: TrustVectors.Expectation = TrustVectors.Expectation(trusted: true)) throws -> ProfileAnswer {
        WebPKIRules.answer(chain: try chain.map { try VectorsFolder.certificate($0, keyType) },
                           anchors: try anchors.map { try VectorsFolder.certificate($0, keyType) },
                           rfc5280: ProfileAnswer(expected: rfc5280, references: ["RFC 5280"]), time: Catalogue.validationTime)
    }

    /// A valid P-256 or RSA-2048 chain is what RFC 5280 says; an Ed25519 one is not a Web PKI chain.
    @Test func keysAndSignaturesOutsideTheBaselineRequirementsAreRejected() throws {
        for keyType in [KeyType.p256, .rsa2048] {
            let answer = try Self.answer(["leaf", "intermediate"], on: keyType)
            #expect(answer.expected.trusted && answer.references == ["RFC 5280"], "\(keyType)")
        }
        let ed25519 = try Self.answer(["leaf", "intermediate"], on: .ed25519)
        #expect(!ed25519.expected.trusted && ed25519.expected.failures.contains(.badSignature))
        #expect(ed25519.references.contains(WebPKIRules.key.reference))
    }

    /// A leaf without extendedKeyUsage: allowed by RFC 5280, not by BR §7.1.2.7.10.
    @Test func aLeafWithoutServerAuthIsRejected() throws {
        let answer = try Self.answer(["no-eku-leaf", "intermediate"], on: .p256)
        #expect(!answer.expected.trusted && answer.expected.failures.contains(.purposeMismatch))
        #expect(answer.references == [WebPKIRules.eku.reference])
    }

    /// RFC 5280's rejection stands with the Web PKI's own reasons beside its own (a back end that
    /// names either is right), and an open answer gets the Web PKI's own verdict.
    @Test func aRejectionStandsWithEveryReasonAndAnOpenAnswerIsDecided() throws {
        let rejected = TrustVectors.Expectation(trusted: false, failures: [.expired])
        let both = try Self.answer(["no-eku-leaf", "intermediate"], on: .p256, rfc5280: rejected)
        #expect(!both.expected.trusted && both.expected.failures == [.expired, .purposeMismatch])
        #expect(both.references == ["RFC 5280", WebPKIRules.eku.reference])
        #expect(try Self.answer(["leaf", "intermediate"], on: .p256, rfc5280: rejected).expected == rejected)
        let open = WebPKIRules.answer(chain: [try VectorsFolder.certificate("leaf", .ed25519), try VectorsFolder.certificate("intermediate", .ed25519)],
                                      anchors: [try VectorsFolder.certificate("root", .ed25519)],
                                      rfc5280: ProfileAnswer(expected: TrustVectors.Expectation(trusted: false), references: ["a MAY"], open: "a MAY"), time: Catalogue.validationTime)
        #expect(open.open == nil && !open.expected.trusted)
    }

    /// The anchor's certificate is a CA of the path: a cA FALSE or expired copy of the intermediate
    /// as the only anchor fails; beside the real root, the path through the root decides.
    @Test func theAnchorIsHeldToTheCAProfile() throws {
        let notCA = try Self.answer(["leaf"], on: .p256, anchors: ["intermediate-not-ca-copy"])
        #expect(!notCA.expected.trusted && notCA.expected.failures.contains(.notCA) && notCA.references.contains(WebPKIRules.anchorCA.reference))
        let expired = try Self.answer(["leaf"], on: .p256, anchors: ["intermediate-expired-copy"])
        #expect(!expired.expected.trusted && expired.expected.failures.contains(.expired) && expired.references.contains(WebPKIRules.anchorValidity.reference))
        #expect(try Self.answer(["leaf", "intermediate"], on: .p256, anchors: ["intermediate-not-ca-copy", "root"]).expected.trusted)
        #expect(try Self.answer(["leaf", "intermediate"], on: .p256, anchors: ["root", "intermediate-expired-copy"]).expected.trusted)
    }

    /// A wildcard name is within a permitted subtree only when every name it stands for is, and
    /// within an excluded one when any is; other forms as RFC 5280 §4.2.1.10 gives them.
    @Test func nameConstraintsOfEveryCAApplyWildcardsCovered() {
        typealias N = WebPKINameConstraints
        #expect(N.within(.dns("*.example.test"), .dns("example.test"), all: true))
        #expect(N.within(.dns("*.example.test"), .dns(".example.test"), all: true))
        #expect(!N.within(.dns("*.example.test"), .dns("www.example.test"), all: true))
        #expect(N.within(.dns("*.example.test"), .dns("www.example.test"), all: false))
        #expect(!N.within(.dns("*.example.test"), .dns("a.b.example.test"), all: false))
        #expect(N.within(.dns("www.example.test"), .dns("EXAMPLE.test".lowercased()), all: true))
        #expect(!N.within(.dns("www.example.test"), .dns("ample.test"), all: true))
        #expect(N.within(.dns("www.example.test"), .dns(""), all: true))
        #expect(N.within(.ip([192, 0, 2, 10]), .ip([192, 0, 2, 0, 255, 255, 255, 0]), all: true))
        #expect(!N.within(.ip([192, 0, 3, 10]), .ip([192, 0, 2, 0, 255, 255, 255, 0]), all: true))
        #expect(!N.within(.ip([192, 0, 2, 10]), .ip(Array(repeating: 0, count: 32)), all: true))
        #expect(N.within(.email("admin@www.example.test"), .email(".example.test"), all: true))
        #expect(!N.within(.email("admin@example.test"), .email(".example.test"), all: true))
        #expect(N.within(.email("admin@example.test"), .email("example.test"), all: true))
        #expect(N.within(.uri("https://www.example.test:8443/x"), .uri(".example.test"), all: true))
        #expect(!N.within(.uri("https://www.example.test/"), .uri("example.test"), all: true))
    }

    /// docs/profiles.md lists every rule with its requirement (scripts/standards-check checks the
    /// sections and quotes its source cites in every vector that cites it).
    @Test func theProfilesPageListsEveryRule() throws {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/profiles.md")
        let text = try String(contentsOf: page, encoding: .utf8)
        #expect(Set(WebPKIRules.rules.map(\.id)).count == WebPKIRules.rules.count)
        for rule in WebPKIRules.rules {
            #expect(text.contains("| `\(rule.id)` | \(rule.summary.replacingOccurrences(of: "|", with: "\\|")) |"), "docs/profiles.md lacks rule \(rule.id)")
        }
    }

    /// The committed manifest carries a Web PKI answer exactly where the rules give another one.
    @Test func theManifestCarriesTheRulesAnswers() throws {
        let manifest = try Catalogue.manifest(pin: VectorsFolder.pin, der: { name, keyType in try? VectorsFolder.certificate(name, keyType) })
        #expect(manifest.vectors.contains { $0.id == "valid-chain/ed25519" && $0.webpki?.expected.trusted == false })
        #expect(manifest.vectors.contains { $0.id == "valid-chain/p256" && $0.webpki == nil })
    }
}
