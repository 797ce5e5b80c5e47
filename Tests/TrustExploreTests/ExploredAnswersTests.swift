import Foundation
import Testing
import TrustCore
@testable import TrustExplore
import TrustVectors

/// The adopted vectors answer as the rules say, and each tests the change its id names.
@Suite struct ExploredAnswersTests {
    static func adopted() throws -> [LoadedVector] {
        try ExploreFixtures.suite.get().vectors.filter { $0.id.hasPrefix("explored/") }
    }

    /// A vector keeps no answer its rule no longer gives: RFC 5280's is the mutations' (run
    /// `trust-harness explore --reanswer` after changing a rule). The Web PKI's is checked by
    /// `generate --check`, which derives it again from the certificates.
    @Test func everyAdoptedVectorCarriesItsRulesAnswer() throws {
        var derived = 0
        for vector in try Self.adopted() {
            guard let answer = ExploredAnswers.rfc5280(for: vector.entry) else { continue }
            derived += 1
            #expect(answer == vector.entry.answer(for: .rfc5280), "\(vector.id): run trust-harness explore --reanswer")
        }
        let count = try Self.adopted().count
        #expect(derived * 10 >= count * 9, "the ids of nearly every adopted vector name its mutations (\(derived) of \(count))")
    }

    /// The ids parse back into the mutations and places they were made from.
    @Test func idsNameTheirSteps() {
        #expect(ExploredAnswers.steps(of: "explored/keyUsage-only-cRLSign-at-leaf+authorityKeyIdentifier-issuer-and-serial-mismatch-at-leaf")
            == [Explorer.Step(mutation: "keyUsage/only-cRLSign", role: .leaf), Explorer.Step(mutation: "authorityKeyIdentifier/issuer-and-serial-mismatch", role: .leaf)])
        #expect(ExploredAnswers.steps(of: "explored/chain-anchors-reversed+on-ed25519") == [Explorer.Step(mutation: "chain/anchors-reversed", role: .chain)])
        #expect(ExploredAnswers.steps(of: "explored/no-such-mutation-at-leaf") == nil)
        #expect(ExploredAnswers.steps(of: "valid-chain/p256") == nil)
    }

    /// The Web PKI rules a mutation of a family at a place can break. A rejection citing any other
    /// rule would be the base's departure, not the vector's change.
    static func rules(_ step: Explorer.Step) -> Set<String> {
        let family = String(step.mutation.prefix { $0 != "/" })
        let ca = step.role == .intermediate || step.role == .root
        var rules: Set<String> = []
        switch family {
        case "extendedKeyUsage": rules = ca ? ["ca-eku"] : ["leaf-eku"]
        case "subjectAltName", "hostName": rules = ["leaf-san", "leaf-san-criticality"]
        case "basicConstraints", "keyUsage":
            rules = step.role == .leaf ? ["leaf-not-ca"] : step.role == .root ? ["anchor-ca", "anchor-path-length"] : ["ca-extensions"]
        case "nameConstraints", "nameConstraintType":
            rules = step.role == .leaf ? ["leaf-no-name-constraints"] : ["name-constraints", "dns-constraint-syntax", "anchor-critical-extensions"]
            // This one also takes the leaf's subjectAltName away (its host only in the commonName).
            if step.mutation == "nameConstraints/excluded-dns-cn-only-leaf" { rules.insert("leaf-san") }
        case "authorityKeyIdentifier", "subjectKeyIdentifier": rules = ["authority-key-identifier", "authority-key-identifier-content"]
        case "version": rules = ["version-3", "leaf-eku", "leaf-san", "authority-key-identifier", "authority-key-identifier-content", "ca-extensions", "anchor-ca"]
        case "serial": rules = ["serial"]
        // A key mutation can change the signature its CA makes, and a signature mutation the
        // issuer's key that makes it: which of the two rules each vector breaks is checked vector
        // by vector from its certificates (TrustVectorsTests' WebPKICitationTests).
        case "key", "signature": rules = ["keys", "signatures"]
        case "issuerName": rules = ["name-chaining"]
        case "validity": rules = step.role == .root ? ["anchor-validity"] : []
        case "extension", "policy", "extensionValue":
            rules = ["anchor-critical-extensions"]
            // An empty extensions list takes every extension away.
            if step.mutation == "extension/empty-list" { rules.formUnion(["leaf-eku", "leaf-san", "authority-key-identifier", "authority-key-identifier-content", "ca-extensions", "anchor-ca"]) }
        case "revocation": rules = ["pointers-not-critical", "anchor-critical-extensions"]
        case "chain": rules = ["name-chaining", "anchor-ca"]
        default: rules = []
        }
        return rules
    }

    /// Every explored vector that the Web PKI profile rejects for one of its own rules breaks only
    /// rules its mutations can break: its base conforms to both profiles (an Ed25519 base says so in
    /// its id, `+on-ed25519`, and may break the key and signature rules).
    @Test func everyVectorTestsTheChangeItsIdNames() throws {
        var checked = 0
        for vector in try Self.adopted() {
            guard let steps = ExploredAnswers.steps(of: vector.id) else { continue }
            let answer = vector.entry.answer(for: .webpki)
            let cited = Set(answer.references.compactMap { reference -> String? in
                guard reference.hasPrefix("Web PKI rule ") else { return nil }
                return String(reference.dropFirst("Web PKI rule ".count).prefix { $0 != ":" })
            })
            guard !answer.expected.trusted, !cited.isEmpty else { continue }
            checked += 1
            var allowed = steps.reduce(into: Set<String>()) { $0.formUnion(Self.rules($1)) }
            if vector.id.hasSuffix("+" + ExploredAnswers.ed25519Base) { allowed.formUnion(["keys", "signatures"]) }
            #expect(cited.isSubset(of: allowed), "\(vector.id) is rejected under webpki for \(cited.subtracting(allowed).sorted()), which its mutations do not change: its base departs")
        }
        #expect(checked > 50)
    }

    /// A description is its mutations' own words, made again by `explore --reanswer`, so it cannot
    /// drift from the vector it names; and no description claims a verdict its RFC 5280 answer does
    /// not give (a description states what the certificates are, the answer what a relying party does).
    @Test func everyDescriptionIsItsMutationsWordsAndClaimsNoOtherVerdict() throws {
        var checked = 0
        // Every vector, the catalogue's included, for the verdict a description claims.
        for vector in try ExploreFixtures.suite.get().vectors {
            if let made = ExploredAnswers.description(of: vector.id) {
                checked += 1
                #expect(vector.entry.description == made, "\(vector.id): run trust-harness explore --reanswer")
            }
            let answer = vector.entry.answer(for: .rfc5280)
            guard answer.open == nil else { continue }
            let text = vector.entry.description
            let claimsRejection = ["MUST reject", "must be rejected", "is invalid", "applies to it", "the path is invalid"].contains { text.contains($0) }
            let claimsTrust = ["is valid and must be found", "must be trusted", "the path is valid"].contains { text.contains($0) }
            #expect(!(claimsRejection && answer.expected.trusted), "\(vector.id): its description claims a rejection, its answer trusts")
            #expect(!(claimsTrust && !answer.expected.trusted), "\(vector.id): its description claims trust, its answer rejects")
        }
        #expect(checked > 350)
    }
}
