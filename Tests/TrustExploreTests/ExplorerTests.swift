import Foundation
import GnuTLSBackend
import OpenSSLBackend
import SwiftCertificatesBackend
import Testing
import TrustCore
import TrustBackendKit
@testable import TrustExplore
import TrustHarness
@testable import TrustVectors
import TrustPolicy

enum ExploreFixtures {
    static let suite = Result { () throws -> VectorSuite in
        guard let directory = VectorSuite.locate() else { throw VectorLoadError(file: "Vectors/manifest.json", problem: "not found") }
        return try VectorSuite.load(from: directory)
    }

    /// The catalogue's valid chain: leaf, intermediate, root anchor.
    static func validChain() throws -> ChainModel {
        let bases = ChainModel.bases(from: try suite.get(), matching: ["valid-chain/p256"])
        return try #require(bases.first)
    }

    static let keys = Result { try KeySource(seed: 1) }
}

/// A mutation changes the one property it names: every other certificate stays byte for byte what
/// the re-keyed base is, and in the mutated certificate only the fields of its family differ (the
/// signature aside, which is remade).
@Suite struct MutationIsolationTests {
    /// The TBSCertificate fields a family may change (version, serial, signature, issuer, validity,
    /// subject, key, extensions).
    static func allowed(_ family: String) -> Set<String>? {
        switch family {
        case "validity": return ["validity"]
        case "basicConstraints", "keyUsage", "extendedKeyUsage", "nameConstraints", "authorityKeyIdentifier", "subjectKeyIdentifier", "extension": return ["extensions"]
        case "subjectAltName": return ["extensions", "subject"]
        case "issuerName": return ["issuer"]
        case "version": return ["version", "extensions", "uniqueIdentifiers"]
        case "serial": return ["serial"]
        default: return nil
        }
    }

    static func fields(_ der: [UInt8]) throws -> [String: [UInt8]] {
        let tbs = try DERTree(der[...])[[0]]
        var children = tbs.children!
        var out: [String: [UInt8]] = [:]
        if children.first?.tag == 0xA0 { out["version"] = children.removeFirst().encoded }
        for (name, element) in zip(["serial", "signature", "issuer", "validity", "subject", "key"], children) { out[name] = element.encoded }
        out["extensions"] = children.dropFirst(6).first { $0.tag == 0xA3 }?.encoded ?? []
        out["uniqueIdentifiers"] = children.dropFirst(6).filter { $0.tag == 0x81 || $0.tag == 0x82 }.flatMap(\.encoded)
        return out
    }

    /// Mutations whose property spans two certificates: a constraint on the CA and the leaf name it
    /// constrains.
    static let twoCertificateMutations: Set<String> = [
        "nameConstraints/excluded-dns-cn-only-leaf", "nameConstraints/excluded-host-wildcard-leaf",
        "nameConstraints/permitted-host-wildcard-leaf", "nameConstraints/rfc822-against-subject-email",
        "subjectKeyIdentifier/eight-octets",
    ]

    @Test func eachMutationChangesOnlyItsField() throws {
        let model = try ExploreFixtures.validChain()
        let keys = try ExploreFixtures.keys.get()
        let base = try MutantDraft(model).render(keys: keys)
        var checked = 0
        for mutation in MutationCatalogue.all {
            guard let allowed = Self.allowed(mutation.family), !Self.twoCertificateMutations.contains(mutation.name) else { continue }
            for role in mutation.roles where role != .chain {
                guard let node = model.node(for: role) else { continue }
                var draft = MutantDraft(model)
                guard mutation.edit(&draft, node), !draft.isUnchanged else { continue }
                let mutant = try draft.render(keys: keys)
                let position = model.presented.firstIndex(of: node).map { ("chain", $0) } ?? ("anchors", model.anchors.firstIndex(of: node)!)
                for (index, der) in mutant.chain.enumerated() where !(position.0 == "chain" && position.1 == index) {
                    #expect(der == base.chain[index], "\(mutation.name) @\(role) changed presented certificate \(index)")
                }
                for (index, der) in mutant.anchors.enumerated() where !(position.0 == "anchors" && position.1 == index) {
                    #expect(der == base.anchors[index], "\(mutation.name) @\(role) changed anchor \(index)")
                }
                let before = try Self.fields(position.0 == "chain" ? base.chain[position.1] : base.anchors[position.1])
                let after = try Self.fields(position.0 == "chain" ? mutant.chain[position.1] : mutant.anchors[position.1])
                let changed = Set(before.keys.filter { before[$0] != after[$0] } + after.keys.filter { before[$0] == nil })
                #expect(!changed.isEmpty, "\(mutation.name) @\(role) changed nothing")
                #expect(changed.isSubset(of: allowed), "\(mutation.name) @\(role) changed \(changed.sorted())")
                checked += 1
            }
        }
        #expect(checked > 150)
    }

    /// The self-issued mutations put a key-rollover certificate between the leaf and the
    /// intermediate: the intermediate's name as subject and issuer, a key of its own, signed by the
    /// intermediate's key, and the leaf signed by its key (Ed25519 signatures are deterministic, so
    /// each is recomputed here); the second also gives the intermediate pathLenConstraint 0.
    @Test func aSelfIssuedCertificateIssuesTheLeaf() throws {
        let model = try ExploreFixtures.validChain()
        let keys = try ExploreFixtures.keys.get()
        let base = try MutantDraft(model).render(keys: keys)
        let intermediate = try #require(model.node(for: .intermediate))
        for name in ["chain/self-issued-rollover", "chain/self-issued-under-pathlen-0"] {
            let mutation = try #require(MutationCatalogue.all.first { $0.name == name })
            var draft = MutantDraft(model)
            #expect(mutation.edit(&draft, try #require(model.node(for: .chain))))
            let chain = try draft.render(keys: keys).chain
            try #require(chain.count == base.chain.count + 1, "\(name)")
            let (leaf, issued, above) = (try Self.fields(chain[0]), try Self.fields(chain[1]), try Self.fields(chain[2]))
            #expect(issued["subject"] == above["subject"] && issued["issuer"] == above["subject"] && leaf["issuer"] == above["subject"], "\(name)")
            #expect(issued["key"] != above["key"], "\(name): the self-issued certificate has a key of its own")
            func signature(_ der: [UInt8]) throws -> (tbs: [UInt8], signature: [UInt8]) {
                let whole = try DERTree(der[...])
                return (whole[[0]].encoded, Array(whole[[2]].content.dropFirst()))
            }
            let selfIssued = draft.certificates.count - 1
            let (leafTBS, leafSignature) = try signature(chain[0])
            #expect(try keys.slot(draft.certificates[selfIssued].slot).sign(leafTBS) == leafSignature, "\(name): the leaf is signed by the new key")
            let (issuedTBS, issuedSignature) = try signature(chain[1])
            #expect(try keys.slot(draft.certificates[intermediate].slot).sign(issuedTBS) == issuedSignature, "\(name): the new key is signed by the intermediate's")
            let constraint = draft.extensionValue(intermediate, Edit.basicConstraints)
            // pathLenConstraint 0 for the one that tests it, none for the rollover (whatever the base had).
            let wanted = name == "chain/self-issued-under-pathlen-0" ? DER.sequence([DER.boolean(true), DER.integer(0)]) : DER.sequence([DER.boolean(true)])
            #expect(constraint == wanted, "\(name): the intermediate's basicConstraints")
        }
    }

    /// Every certificate of a rendered mutant still verifies under its issuer's new key (a mutant
    /// tests its property, not a broken signature), checked here with swift-certificates.
    @Test func renderedChainsAreSignedByTheirIssuers() throws {
        let model = try ExploreFixtures.validChain()
        let rendered = try MutantDraft(model).render(keys: try ExploreFixtures.keys.get())
        let verdict = try OpenSSLBackend(configuration: .uncached).makeEvaluator(anchors: rendered.anchors)
            .evaluate(EvaluationRequest(chain: rendered.chain, host: model.host.map(HostIdentity.init), time: model.time))
        #expect(verdict.isTrusted, "\(verdict.diagnostics)")
    }
}

@Suite struct ExplorerTests {
    static let backends: [any TrustBackend] = [OpenSSLBackend(configuration: .uncached), GnuTLSBackend(configuration: .uncached)]

    /// The same seed and case count give the same classes and the same example bytes.
    @Test func aSeedReproducesTheFindings() async throws {
        let bases = ChainModel.bases(from: try ExploreFixtures.suite.get(), matching: ["valid-chain/*", "wildcard-*"])
        let explorer = Explorer(backends: Self.backends, bases: bases)
        let first = try await explorer.run(Explorer.Options(seed: 7, cases: 200, pairs: 20))
        let second = try await explorer.run(Explorer.Options(seed: 7, cases: 200, pairs: 20))
        #expect(first.findings.map(\.key) == second.findings.map(\.key))
        // Every signature is deterministic (ECDSA by RFC 6979): the examples are the same bytes, the
        // P-256 and RSA re-keyed bases' and the key and signature mutations' included.
        #expect(first.findings.map(\.chain) == second.findings.map(\.chain), "examples are byte for byte the same")
        #expect(first.findings.contains { $0.keyType == .p256 }, "the default key types sign with ECDSA")
        #expect(first.findings.count >= 5, "OpenSSL and GnuTLS disagree on several single mutations of a valid chain")
    }

    /// A back end that does not trust a base as re-keyed (here OpenSSL as a plain client configures
    /// it, which cannot end a path at an intermediate anchor) is left out of that base's mutants and
    /// counted, instead of the base being lost or the library's limit turning into findings.
    @Test func aBackEndThatCannotVerifyABaseIsLeftOutOfItOnly() async throws {
        let bases = ChainModel.bases(from: try ExploreFixtures.suite.get(), matching: ["intermediate-as-anchor/p256", "valid-chain/p256"])
        let backends: [any TrustBackend] = Self.backends + [OpenSSLBackend(configuration: .uncached, settings: .clientDefault)]
        let report = try await Explorer(backends: backends, bases: bases).run(Explorer.Options(seed: 1, cases: 400, pairs: 0, keyTypes: [.ed25519]))
        #expect(Set(report.bases) == ["intermediate-as-anchor/p256", "valid-chain/p256"])
        #expect(report.excludedBackends == ["openssl-default": ["intermediate-as-anchor/p256"]])
        for finding in report.findings {
            let names = finding.answers.map(\.backend)
            #expect(names == (finding.base == "intermediate-as-anchor/p256" ? ["openssl", "gnutls"] : ["openssl", "gnutls", "openssl-default"]), "\(finding.key)")
        }
    }

    /// A class seen through fewer back ends (a base some were left out of) folds into the class of
    /// the same mutation whose back ends answer alike; one where they answer otherwise stays.
    @Test func aClassAskedOfFewerBackEndsFoldsIntoTheWiderOne() {
        func answer(_ backend: String, _ trusted: Bool) -> Explorer.Answer {
            Explorer.Answer(backend: backend, trusted: trusted, failures: trusted ? [] : [.other], diagnostics: [])
        }
        func finding(_ answers: [Explorer.Answer], occurrences: Int) -> Explorer.Finding {
            Explorer.Finding(kind: "verdict", steps: [Explorer.Step(mutation: "keyUsage/absent", role: .leaf)], summary: "", base: "b",
                             answers: answers, chain: [], anchors: [], host: nil, time: "", occurrences: occurrences)
        }
        let wide = finding([answer("a", true), answer("b", false), answer("c", false)], occurrences: 5)
        let narrow = finding([answer("a", true), answer("b", false)], occurrences: 2)
        let other = finding([answer("a", false), answer("c", true)], occurrences: 1)
        let merged = Explorer.mergingSubsets([narrow, other, wide])
        #expect(merged.count == 2)
        #expect(merged.first { $0.answers.count == 3 }?.occurrences == 7)
        #expect(merged.contains { $0.answers.map(\.backend) == ["a", "c"] && $0.occurrences == 1 })
    }

    /// Adoption tries the candidates of one mutation and place together, the one asked of the most
    /// back ends first; ids keep the order they are listed in.
    @Test func adoptionTriesTheWidestClassOfAMutationFirst() {
        func candidate(_ id: String, backends: Int) -> FindingFiles.Candidate {
            FindingFiles.Candidate(
                id: id, description: "", chain: [], anchors: [], host: nil, time: "", expected: nil, references: [],
                observed: (0..<backends).map { Explorer.Answer(backend: "b\($0)", trusted: true, failures: [], diagnostics: []) }, reproduce: ""
            )
        }
        let listed = [candidate("explored/a", backends: 2), candidate("explored/b", backends: 3), candidate("explored/a", backends: 8), candidate("explored/a", backends: 8)]
        let tried = Adoption.tryingOrder(listed)
        #expect(tried.map(\.id) == ["explored/a", "explored/a", "explored/a", "explored/b"])
        #expect(tried.map(\.observed.count) == [8, 8, 2, 3])
    }

    /// A class is named by what causes it: a pair whose answers one of its mutations gives alone
    /// is reported as that mutation.
    @Test func pairsAreMinimised() async throws {
        let bases = ChainModel.bases(from: try ExploreFixtures.suite.get(), matching: ["valid-chain/p256"])
        let report = try await Explorer(backends: Self.backends, bases: bases).run(Explorer.Options(seed: 3, cases: 10_000, pairs: 120))
        let singles = Dictionary(grouping: report.findings.filter { $0.steps.count == 1 }, by: { $0.answers.map(\.signature) })
        for pair in report.findings where pair.steps.count == 2 {
            for step in pair.steps {
                let alone = report.findings.first { $0.steps == [step] && $0.answers.map(\.signature) == pair.answers.map(\.signature) }
                #expect(alone == nil, "\(pair.key) is also given by \(step.description) alone")
            }
        }
        #expect(!singles.isEmpty)
    }

    /// Findings become files that reproduce them, and candidates whose expectation comes from the
    /// mutation's standard answer; adoption records a deviation for each back end that answers
    /// otherwise, and none for one that conforms.
    @Test func findingsBecomeFilesAndAdoptedVectors() async throws {
        let bases = ChainModel.bases(from: try ExploreFixtures.suite.get(), matching: ["valid-chain/p256"])
        let explorer = Explorer(backends: Self.backends, bases: bases, mutations: MutationCatalogue.all.filter { $0.name == "authorityKeyIdentifier/critical" })
        let report = try await explorer.run(Explorer.Options(seed: 1, pairs: 0))
        let finding = try #require(report.findings.first)
        #expect(finding.kind == "verdict")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("explore-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FindingFiles.write(report, to: folder)
        let candidates = try JSONDecoder().decode(FindingFiles.CandidateList.self, from: Data(contentsOf: folder.appendingPathComponent("candidates.json")))
        let candidate = try #require(candidates.vectors.first)
        #expect(candidate.expected == Expectation(trusted: true), "RFC 5280 §6.1 does not check key identifiers")
        // The id is the class's mutations and places, whatever the width of the report's number
        // (a run of over 999 classes once gave ids with a leading "-" beside the same class's).
        #expect(candidate.id == "explored/authorityKeyIdentifier-critical-at-\(finding.steps[0].role.rawValue)")
        #expect(FindingFiles.slug(finding, index: 1233) == "1234-" + FindingFiles.name(finding))
        let vectors = folder.appendingPathComponent("vectors")
        let summary = try Adoption.adopt(folder.appendingPathComponent("candidates.json"), into: vectors, backends: Self.backends)
        #expect(summary.adopted.contains(candidate.id))
        let deviations = try JSONDecoder().decode(DeviationList.self, from: Data(contentsOf: vectors.appendingPathComponent(VectorSuite.exploredDeviationsPath)))
        // RFC 5280 trusts it, the Web PKI does not (BR §7.1.2.11.1: authorityKeyIdentifier is never
        // critical): each back end has a deviation under the profile it departs from, and only there.
        let rejecting = finding.answers.filter { !$0.trusted }.map(\.backend)
        let trusting = finding.answers.filter(\.trusted).map(\.backend)
        #expect(candidate.webpki?.expected.trusted == false)
        let recorded = deviations.deviations.filter { $0.vector == candidate.id }
        #expect(recorded.filter { $0.applies(to: .rfc5280) }.map(\.backend) == rejecting, "under RFC 5280, a deviation for each back end that rejects")
        #expect(recorded.filter { $0.applies(to: .webpki) }.map(\.backend) == trusting, "under the Web PKI, for each that trusts")
        // The adopted vector loads with the catalogue's loader beside an (empty) catalogue.
        try Data(#"{"version": 1, "vectors": []}"#.utf8).write(to: vectors.appendingPathComponent("manifest.json"))
        let loaded = try VectorSuite.load(from: vectors)
        #expect(loaded.vectors.map(\.id).contains(candidate.id))
        #expect(loaded.deviations.filter { $0.vector == candidate.id && $0.applies(to: .rfc5280) }.map(\.backend) == rejecting)
        // The leaf's key is written beside the certificates and kept with the adopted vector, one
        // file per key however many vectors present it, so a TLS server can present each chain.
        let leafKey = try #require(candidate.leafKey)
        let keyFile = try #require(VectorKeys.keyFile(folder.appendingPathComponent(leafKey)))
        #expect(VectorKeys.subjectPublicKeyInfo(ofCertificate: finding.chain[0]) == keyFile.spki, "leaf-key.pem is the leaf's key")
        #expect(loaded.vectors.allSatisfy { $0.leafPrivateKey != nil }, "every adopted vector can be served")
        let keys = vectors.appendingPathComponent("explored/keys")
        let kept = try FileManager.default.contentsOfDirectory(atPath: keys.path)
        #expect(kept.count == Set(loaded.vectors.compactMap(\.leafPrivateKey)).count, "one file per key: \(kept)")
        _ = try Adoption.adopt(folder.appendingPathComponent("candidates.json"), into: vectors, backends: Self.backends)
        #expect(try FileManager.default.contentsOfDirectory(atPath: keys.path).count == kept.count, "adopting again adds no key")
        // Candidates written before the explorer kept its keys are left out, saying why.
        var old = candidates
        for index in old.vectors.indices { old.vectors[index].leafKey = nil }
        try JSONEncoder().encode(old).write(to: folder.appendingPathComponent("old-candidates.json"))
        let keyless = try Adoption.adopt(folder.appendingPathComponent("old-candidates.json"), into: folder.appendingPathComponent("keyless"), backends: Self.backends)
        #expect(keyless.adopted.isEmpty && keyless.leftOutBecause.keys.contains { $0.contains("private key was not kept") }, "\(keyless.leftOutBecause)")
    }
}

/// Findings judged against the standards, not only between back ends.
@Suite struct StandardJudgementTests {
    static let backends: [any TrustBackend] = [OpenSSLBackend(configuration: .uncached), GnuTLSBackend(configuration: .uncached)]

    /// Every single application of `mutation` to the catalogue's valid P-256 chain, re-keyed to Ed25519.
    static func explore(_ mutation: String) async throws -> Explorer.Report {
        let bases = ChainModel.bases(from: try ExploreFixtures.suite.get(), matching: ["valid-chain/p256"])
        return try await Explorer(backends: backends, bases: bases, mutations: MutationCatalogue.all.filter { $0.name == mutation })
            .run(Explorer.Options(seed: 1, pairs: 0, keyTypes: [.ed25519]))
    }

    /// A keyUsage BIT STRING with a trailing zero octet (not DER) at the leaf: OpenSSL and GnuTLS both
    /// trust it, the standards reject it, so it is reported although the back ends agree.
    @Test func aClassEveryBackEndAcceptsAgainstTheStandardsIsReported() async throws {
        let report = try await Self.explore("keyUsage/trailing-zero-octet")
        let leaf = try #require(report.findings.first { $0.steps.first?.role == .leaf })
        #expect(leaf.kind == "shared-accept")
        #expect(leaf.standard?.trusted == false)
        #expect(leaf.answers.allSatisfy { $0.trusted && leaf.conforms($0) == false })
    }

    /// cA TRUE encoded as a BER boolean: OpenSSL's and GnuTLS's parsers take it, so the libraries'
    /// columns accept what the standards reject (the explorer reports what the libraries accept).
    /// Behind the checks layer (`+checks`), its strict-DER check refuses it (`NOT_DER`, said to be
    /// the layer's), so those columns answer as the standards say: the class is closed by the layer
    /// and adopted with the standard's answer and no deviation, pinning the check.
    @Test func aClassTheChecksLayerClosesIsPinnedAndTheLibrariesStillAccept() async throws {
        let libraries = try await Self.explore("basicConstraints/ca-true-ber-boolean")
        let accepted = try #require(libraries.findings.first { $0.steps.first?.role == .intermediate })
        #expect(accepted.kind == "shared-accept")
        #expect(accepted.answers.allSatisfy { $0.trusted })
        let checked: [any TrustBackend] = Self.backends.map { CheckedBackend($0) }
        let bases = ChainModel.bases(from: try ExploreFixtures.suite.get(), matching: ["valid-chain/p256"])
        let report = try await Explorer(backends: checked, bases: bases, mutations: MutationCatalogue.all.filter { $0.name == "basicConstraints/ca-true-ber-boolean" })
            .run(Explorer.Options(seed: 1, pairs: 0, keyTypes: [.p256]))
        let closed = try #require(report.findings.first { $0.steps.first?.role == .intermediate })
        #expect(closed.answers.allSatisfy { $0.diagnostics.contains { $0.hasSuffix("[layer checks]") } })
        #expect(closed.kind == "closed")
        #expect(closed.answers.allSatisfy { closed.conforms($0) == true && $0.diagnostics.contains { $0.hasPrefix("NOT_DER ") } })
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("explore-closed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FindingFiles.write(report, to: folder)
        let vectors = folder.appendingPathComponent("vectors")
        let summary = try Adoption.adopt(folder.appendingPathComponent("candidates.json"), into: vectors, backends: checked)
        #expect(summary.adopted.contains { $0.hasSuffix("basicConstraints-ca-true-ber-boolean-at-intermediate") })
        #expect(summary.deviations == 0, "every back end answers as the standards say")
        let manifest = try JSONDecoder().decode(VectorManifest.self, from: Data(contentsOf: vectors.appendingPathComponent(VectorSuite.exploredManifestPath)))
        let pinned = try #require(manifest.vectors.first { $0.id.hasSuffix("basicConstraints-ca-true-ber-boolean-at-intermediate") })
        #expect(pinned.expected == Expectation(trusted: false, failures: [.malformed]) && pinned.open == nil, "the standard's answer (DER), not a back end's")
        // A mutant no hardening refuses, answered alike and as the standards say, is no class.
        let plain = try await Self.explore("validity/expired")
        #expect(plain.findings.allSatisfy { $0.kind != "closed" })
    }

    /// A class the standards leave open (the compressed point form, a MAY of RFC 5480 §2.2) is
    /// adopted with the sentence quoted and every back end's verdict recorded (neither pass nor
    /// fail, but a change is caught); one no rule answers (a minimum in a name constraint on a base
    /// whose structure the answers do not assume) is never adopted, and no vector expects a majority.
    @Test func openClassesQuoteTheirSentenceAndUnansweredOnesAreLeftOut() async throws {
        let backends: [any TrustBackend] = Self.backends + [SwiftCertificatesBackend(configuration: .uncached)]
        let bases = ChainModel.bases(from: try ExploreFixtures.suite.get(), matching: ["valid-chain/p256"])
        let names: Set<String> = ["key/p256-compressed", "nameConstraints/minimum-one"]
        let report = try await Explorer(backends: backends, bases: bases, mutations: MutationCatalogue.all.filter { names.contains($0.name) })
            .run(Explorer.Options(seed: 1, pairs: 0, keyTypes: [.ed25519]))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("explore-open-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FindingFiles.write(report, to: folder)
        let vectors = folder.appendingPathComponent("vectors")
        let summary = try Adoption.adopt(folder.appendingPathComponent("candidates.json"), into: vectors, backends: backends)
        let manifest = try JSONDecoder().decode(VectorManifest.self, from: Data(contentsOf: vectors.appendingPathComponent(VectorSuite.exploredManifestPath)))
        for entry in manifest.vectors {
            #expect(entry.open != nil || !entry.references.contains { $0.contains("majority") }, "\(entry.id): no majority")
        }
        try Data(#"{"version": 1, "vectors": []}"#.utf8).write(to: vectors.appendingPathComponent("manifest.json"))
        let loaded = try VectorSuite.load(from: vectors)
        let open = manifest.vectors.filter { $0.open != nil }
        for entry in open {
            #expect(entry.open!.contains("MAY"), "\(entry.id) quotes the sentence that leaves it open: \(entry.open!)")
            #expect(Set(loaded.deviations.filter { $0.vector == entry.id }.map(\.backend)) == Set(backends.map(\.name)), "every back end's verdict is recorded on an open vector")
        }
        let runner = ConformanceRunner(backends: backends, suite: loaded)
        for result in await runner.run() where open.contains(where: { $0.id == result.id }) {
            #expect(result.outcome == .open, "\(result.id) on \(result.backend): \(result.judgement.detail)")
        }
        #expect(summary.leftOutBecause.keys.allSatisfy { $0.contains("no standard answer can be justified") || $0.contains("refuses its anchors") }, "\(summary.leftOutBecause)")
    }
}

/// The host-name character classes and the anchor sets mixing a CA and a non-CA certificate of one
/// name and key: each applies to a plain chain and has the standards' answer on it.
@Suite struct CharacterAndAnchorSetFamilyTests {
    @Test func everyNewMutationAppliesAndIsAnswered() async throws {
        let names: Set<String> = [
            "hostName/digit-first-label", "hostName/underscore-label", "hostName/hyphen-first-label", "hostName/label-64-octets",
            "hostName/wildcard-over-digit-label", "hostName/wildcard-over-underscore-label",
            "chain/anchor-non-ca-copy-first", "chain/anchor-non-ca-copy-only", "chain/anchor-non-ca-intermediate-copy",
        ]
        let mutations = MutationCatalogue.all.filter { names.contains($0.name) }
        #expect(Set(mutations.map(\.name)) == names)
        let bases = ChainModel.bases(from: try ExploreFixtures.suite.get(), matching: ["valid-chain/p256"])
        let report = try await Explorer(backends: StandardJudgementTests.backends, bases: bases, mutations: mutations)
            .run(Explorer.Options(seed: 1, pairs: 0, keyTypes: [.p256]))
        #expect(report.mutants == names.count && report.notApplicable == 0, "every mutation applies once: \(report.mutants) mutants, \(report.notApplicable) not applicable")
        #expect(report.answered == names.count, "every mutant has the standards' answer")
        let digit = try #require(MutationCatalogue.answer("hostName/digit-first-label", role: .leaf, host: "www.example.test"))
        let underscore = try #require(MutationCatalogue.answer("hostName/underscore-label", role: .leaf, host: "www.example.test"))
        #expect(digit.trusted && !underscore.trusted)
        #expect(MutationCatalogue.answer("chain/anchor-non-ca-copy-only", role: .chain, host: "www.example.test")?.trusted == true)
    }
}

/// The standards' answers for two changes, and the two profiles.
@Suite struct ComposedAnswerTests {
    /// Independent changes compose: rejected when either alone is, with both failure classes.
    @Test func independentChangesCompose() throws {
        let rejected = try #require(MutationCatalogue.answer(steps: [("validity/expired", .intermediate), ("extendedKeyUsage/only-clientAuth", .leaf)], baseAspects: [], host: "www.example.test"))
        #expect(!rejected.trusted && Set(rejected.failures) == [.expired, .purposeMismatch])
        let trusted = try #require(MutationCatalogue.answer(steps: [("serial/negative", .leaf), ("authorityKeyIdentifier/absent", .intermediate)], baseAspects: [], host: "www.example.test"))
        #expect(trusted.trusted)
        // One left open and one trusted: left open; one left open and one rejected: rejected.
        let open = try #require(MutationCatalogue.answer(steps: [("key/p256-compressed", .leaf), ("serial/negative", .intermediate)], baseAspects: [], host: "www.example.test"))
        #expect(open.open != nil)
        let rejectedOpen = try #require(MutationCatalogue.answer(steps: [("key/p256-compressed", .leaf), ("validity/expired", .intermediate)], baseAspects: [], host: "www.example.test"))
        #expect(rejectedOpen.open == nil && !rejectedOpen.trusted)
    }

    /// Changes that meet (the same extension twice, a constraint and the names it constrains, the
    /// path's structure) have no composed answer; the rules written for an interaction answer it.
    @Test func interactingChangesNeedARule() {
        #expect(MutationCatalogue.answer(steps: [("extendedKeyUsage/empty", .leaf), ("extendedKeyUsage/only-serverAuth", .leaf)], baseAspects: [], host: "www.example.test") == nil)
        #expect(MutationCatalogue.answer(steps: [("nameConstraints/permitted-dns-other", .intermediate), ("subjectAltName/uppercase", .leaf)], baseAspects: [], host: "www.example.test") == nil)
        #expect(MutationCatalogue.answer(steps: [("basicConstraints/pathlen-0", .intermediate), ("chain/twenty-intermediates", .chain)], baseAspects: [], host: "www.example.test") == nil)
        let noPath = MutationCatalogue.answer(steps: [("chain/intermediates-missing", .chain), ("keyUsage/absent", .intermediate)], baseAspects: [], host: "www.example.test")
        #expect(noPath?.trusted == false && noPath?.failures.contains(.untrusted) == true)
        // A base with name constraints of its own: a name change on it has no answer.
        #expect(MutationCatalogue.answer(steps: [("subjectAltName/uppercase", .leaf)], baseAspects: [MutationCatalogue.namesAspect], host: "www.example.test") == nil)
    }

    /// RFC 5280 leaves an anyExtendedKeyUsage-only leaf to the application (a MAY, quoted) and
    /// allows SHA-1; the Web PKI rejects both.
    @Test func theProfilesDifferWhereTheStandardsDo() throws {
        let any = try #require(MutationCatalogue.answer("extendedKeyUsage/only-anyExtendedKeyUsage", role: .leaf, host: "www.example.test"))
        #expect(any.open?.contains("MAY reject certificates that include the anyExtendedKeyUsage OID") == true)
        let sha1 = try #require(MutationCatalogue.answer("signature/rsa-sha1", role: .leaf, host: "www.example.test"))
        #expect(sha1.trusted && sha1.references.allSatisfy { !$0.hasPrefix("CA/B Forum") }, "RFC 5280's answer rests on no Baseline Requirement: \(sha1.references)")
        // The CA's EKU is a MAY of RFC 5280 §4.2.1.12: left open, quoting it.
        let caEKU = try #require(MutationCatalogue.answer("extendedKeyUsage/only-clientAuth", role: .intermediate, host: "www.example.test"))
        #expect(caEKU.open?.contains("MAY require") == true)
    }
}

extension VectorEntry {
    /// Whether this adopted entry is `finding`'s (its id names the mutation and place).
    func steps(_ finding: Explorer.Finding) -> Bool {
        let step = finding.steps[0]
        return id.contains(step.mutation.replacingOccurrences(of: "/", with: "-")) && id.hasSuffix("at-\(step.role.rawValue)")
    }
}

/// Every finding's `reproduce` command (`trust-harness evaluate`, which asks through the default
/// SecurityPolicy) gives the answers the explorer recorded, a back end refusing the anchors included.
@Suite struct FindingReproductionTests {
    @Test func everyFindingReproducesThroughEvaluate() async throws {
        let backends: [any TrustBackend] = [OpenSSLBackend(configuration: .uncached), GnuTLSBackend(configuration: .uncached), SwiftCertificatesBackend(configuration: .uncached)]
        let bases = ChainModel.bases(from: try ExploreFixtures.suite.get(), matching: ["valid-chain/p256"])
        let names: Set<String> = ["key/p256-compressed", "nameConstraints/minimum-one", "authorityKeyIdentifier/critical", "validity/generalized-time-fraction"]
        let explorer = Explorer(backends: backends, bases: bases, mutations: MutationCatalogue.all.filter { names.contains($0.name) })
        let report = try await explorer.run(Explorer.Options(seed: 1, pairs: 10))
        #expect(!report.findings.isEmpty)
        var refusals = 0
        for finding in report.findings {
            let time = try #require(Timestamp.parse(finding.time))
            for answer in finding.answers {
                let backend = try #require(backends.first { $0.name == answer.backend })
                let trusted: Bool
                let failures: [FailureClass]
                do {
                    let decision = try SecurityPolicy().evaluator(on: backend, anchors: finding.anchors).evaluate(chain: finding.chain, forDomain: finding.host, at: time)
                    (trusted, failures) = (decision.trusted, decision.failures)
                } catch {
                    // What evaluate answers for anchors the back end refuses.
                    let verdict = Verdict.anchorsRefused(error)
                    (trusted, failures) = (verdict.isTrusted, verdict.failures)
                    refusals += 1
                }
                #expect(answer.trusted == trusted && answer.failures.sorted() == failures.sorted(),
                        "\(finding.key) on \(answer.backend): explore recorded \(answer.signature), evaluate gives \(trusted ? "trusted" : "rejected \(failures)")")
            }
        }
        #expect(refusals > 0, "swift-certificates refuses a compressed P-256 anchor: the refusal is part of what must reproduce")
    }
}
