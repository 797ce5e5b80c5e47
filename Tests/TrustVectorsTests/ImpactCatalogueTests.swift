import Foundation
import Testing
import TrustCore
@testable import TrustVectors

/// The impact of a departure follows from the rule its vector's answer cites, never from the vector:
/// the derivation, its edges, and the committed catalogue's completeness.
@Suite struct ImpactCatalogueTests {
    let catalogue: ImpactCatalogue

    init() throws {
        catalogue = try ImpactCatalogue.load(from: VectorsFolder.committed())
    }

    func rejection(_ failures: [FailureClass], _ references: String...) -> ProfileAnswer {
        ProfileAnswer(expected: Expectation(trusted: false, failures: failures), references: references)
    }

    @Test func acceptingTakesTheGravestRuleCited() {
        #expect(catalogue.accepting(rejection([.hostnameMismatch], "RFC 9525 §6.3")).impact?.class == "another-name")
        #expect(catalogue.accepting(rejection([.badSignature], "RFC 5280 §6.1.3(a)(1) (Basic Certificate Processing): \"...\"")).impact?.class == "forged-signature")
        // A time encoding and an expired date cited together: the expiry is the graver.
        let both = rejection([.expired, .malformed], "RFC 5280 §4.1.2.5.1: \"...\"", "RFC 5280 §6.1.3(a)(2): \"...\"")
        #expect(catalogue.accepting(both).impact?.class == "outside-validity")
        #expect(catalogue.accepting(both).impact?.rule == "RFC 5280 §6.1.3(a)(2)")
        // Context references name no rule that decides.
        let context = rejection([.notCA], "two independent changes: the chain is rejected when either alone is", "RFC 5280 §6.1.4(k): \"...\"")
        #expect(catalogue.accepting(context).impact?.class == "unauthorised-issuer")
    }

    /// One citation, two meanings, told apart by the failure class the answer allows.
    @Test func keyUsageAtACAOrAtALeaf() {
        #expect(catalogue.accepting(rejection([.notCA, .other], "RFC 5280 §4.2.1.3 (Key Usage): \"...\"")).impact?.class == "unauthorised-issuer")
        #expect(catalogue.accepting(rejection([.purposeMismatch], "RFC 5280 §4.2.1.3 (Key Usage): \"...\"")).impact?.class == "other-purpose")
        #expect(catalogue.accepting(rejection([.malformed], "RFC 5280 §4.2.1.9: \"Where it appears, the pathLenConstraint field MUST be greater than or equal to zero.\"")).impact?.class == "parser-differential")
    }

    /// A citation matches only whole: §6.1 is not §6.1.3(a)(2), §4.1 is not §4.1.2.5.
    @Test func citationsMatchWhole() {
        #expect(catalogue.rules(named: "RFC 5280 §6.1.3(a)(2): \"...\"").map(\.cite) == ["RFC 5280 §6.1.3(a)(2)"])
        #expect(catalogue.rules(named: "RFC 5280 §6.1 (Basic Path Validation)").map(\.cite) == ["RFC 5280 §6.1"])
        #expect(catalogue.rules(named: "RFC 5280 §4.1.2.5.2: \"...\"").map(\.cite) == ["RFC 5280 §4.1.2.5.2"])
        #expect(catalogue.rules(named: "RFC 5280 §4.1.9: invented").isEmpty)
    }

    @Test func anUnknownRuleIsNamedNeverDefaulted() {
        guard case .unclassified(let why) = catalogue.accepting(rejection([.other], "RFC 9999 §1: a rule nobody classed")) else {
            Issue.record("an unknown rule got a class")
            return
        }
        #expect(why.contains("RFC 9999 §1") && why.contains("impacts.json"))
        var entry = VectorEntry(id: "made-up/p256", description: "", chain: [], anchors: [], host: nil, time: "2025-06-01T00:00:00Z",
                                expected: .rejected(.other), references: ["RFC 9999 §1: a rule nobody classed"])
        #expect(catalogue.problems([entry]).count == 2)  // under both profiles
        entry.references = ["RFC 9525 §6.3"]
        #expect(catalogue.problems([entry]).isEmpty)
    }

    @Test func refusingCostsWhatTheProfilesSay() {
        let valid = ProfileAnswer(expected: .trusted(path: []), references: ["RFC 5280 §6.1 (Basic Path Validation)", "RFC 9525 §6.3"])
        #expect(catalogue.refusing(valid, trustedUnder: [.rfc5280, .webpki]).impact?.class == "web-pki-refused")
        #expect(catalogue.refusing(valid, trustedUnder: [.rfc5280]).impact?.class == "private-ca-refused")
        let boundary = ProfileAnswer(expected: .trusted(path: []), references: ["RFC 5280 §4.1.2.5 (Validity): \"...\"", "RFC 5280 §6.1.3(a)(2): \"...\""])
        #expect(catalogue.refusing(boundary, trustedUnder: [.rfc5280, .webpki]).impact?.class == "rare-encoding-refused")
    }

    /// Accepts before rejects of a severity, graver severities first.
    @Test func theOrderIsSeverityThenDirection() {
        let ranked = catalogue.ranked
        #expect(ranked.first?.severity == .critical)
        for (a, b) in zip(ranked, ranked.dropFirst()) {
            #expect(a.severity <= b.severity)
            if a.severity == b.severity { #expect(!(a.direction == .rejects && b.direction == .accepts)) }
        }
        for impactClass in catalogue.classes {
            #expect(impactClass.cwe.hasPrefix("CWE-") && !impactClass.precedents.isEmpty, "\(impactClass.id)")
            for precedent in impactClass.precedents { #expect(precedent.url.hasPrefix("https://"), "\(precedent.id)") }
        }
    }

    /// Every case of the vendored x509-limbo and PKITS suites has a class either way.
    @Test func everySuiteCaseHasAClass() throws {
        let folder = try VectorsFolder.committed()
        for (suite, path) in [("limbo", "limbo/limbo.json"), ("pkits", "pkits/pkits.json")] {
            let data = try Data(contentsOf: folder.appendingPathComponent(path))
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let ids = try #require(object["testcases"] as? [[String: Any]]).compactMap { $0["id"] as? String }
            #expect(ids.count > 200)
            for id in ids {
                for accepted in [true, false] {
                    #expect(catalogue.suiteCase(suite, id: id, group: nil, accepted: accepted).impact != nil, "\(suite) \(id)")
                }
            }
        }
        #expect(catalogue.suiteCase("bettertls-nameconstraints", id: "bettertls::nameconstraints::tc1", group: nil, accepted: true).impact?.class == "unauthorised-issuer")
        #expect(catalogue.suiteCase("limbo", id: "somewhere::else", group: nil, accepted: true).impact == nil)
    }
}
