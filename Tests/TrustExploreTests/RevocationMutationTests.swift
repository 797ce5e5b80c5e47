import Crypto
import Foundation
import GnuTLSBackend
import OpenSSLBackend
import SwiftCertificatesBackend
import Testing
import TrustCore
@testable import TrustExplore
import TrustHarness
@testable import TrustVectors
import X509

enum RevocationFixtures {
    /// Hard-fail by default with CRLs of the root and the intermediate, nothing revoked; the leaf's
    /// good OCSP response from the intermediate; from a delegated responder.
    static let crlBase = "revocation-crl-none-revoked/p256"
    static let ocspBase = "revocation-ocsp-good/p256"
    static let delegatedBase = "revocation-ocsp-delegated-good/p256"

    static func base(_ id: String) throws -> ChainModel {
        try #require(ChainModel.bases(from: try ExploreFixtures.suite.get(), matching: [id]).first)
    }

    static let mutations = MutationCatalogue.all.filter { $0.family == "crl" || $0.family == "ocsp" }

    /// Whether `signature` over `signed` verifies under the key of the certificate `der`.
    static func verifies(_ signed: [UInt8], signature: [UInt8], algorithm: DERTree, by der: [UInt8]) throws -> Bool {
        let key = try Certificate(derEncoded: der).publicKey
        let named = try #require(ChainModel.signatureAlgorithm(algorithm), "an algorithm the explorer signs with")
        return key.isValidSignature(signature, for: signed, signatureAlgorithm: named)
    }

    /// The rendered certificate of node `node`: every node is in the chain, the anchors or a
    /// response's certificates.
    static func certificate(_ node: Int, of draft: MutantDraft, _ rendered: MutantDraft.Rendered) -> [UInt8]? {
        if let at = draft.presented.firstIndex(of: node) { return rendered.chain[at] }
        if let at = draft.anchors.firstIndex(of: node) { return rendered.anchors[at] }
        for (response, der) in zip(draft.ocspResponses.filter { !$0.omitted }, rendered.ocspResponses) {
            guard let at = response.certs.firstIndex(of: node), let basic = basicResponse(der), basic.children!.count > 3 else { continue }
            return basic[[3, 0, at]].encoded
        }
        return nil
    }

    /// The BasicOCSPResponse inside an OCSPResponse, if it has one.
    static func basicResponse(_ der: [UInt8]) -> DERTree? {
        guard let response = try? DERTree(der[...]), response.children!.count > 1 else { return nil }
        return try? DERTree(response[[1, 0, 1]].content[...])
    }
}

/// A base's CRLs and OCSP responses are read into the model with who signs them, and every mutant's
/// are re-signed with that certificate's new key: each mutation changes only the field it names.
@Suite struct RevocationModelTests {
    @Test func aBaseCarriesItsRevocationDataWithItsSigners() throws {
        let crl = try RevocationFixtures.base(RevocationFixtures.crlBase)
        #expect(crl.revocationLists.count == 2 && crl.ocspResponses.isEmpty && crl.revocationIsPlain)
        let leafList = try #require(crl.node(for: .crl))
        let caList = try #require(crl.node(for: .caCRL))
        #expect(crl.revocationLists[leafList].signer == crl.node(for: .intermediate))
        #expect(crl.revocationLists[caList].signer == crl.node(for: .root))
        #expect(crl.revocationLists.allSatisfy { $0.followsIssuer && $0.followsKeyIdentifier })
        #expect(crl.requiredFeatures == [.revocationLists])

        let delegated = try RevocationFixtures.base(RevocationFixtures.delegatedBase)
        let response = try #require(delegated.node(for: .ocsp).map { delegated.ocspResponses[$0] })
        let responder = try #require(response.signer)
        #expect(!delegated.presented.contains(responder) && !delegated.anchors.contains(responder), "the delegated responder is a node of its own")
        #expect(response.certs == [responder] && response.certIssuer == delegated.node(for: .intermediate) && response.subject == delegated.node(for: .leaf))
        #expect(response.followsSerial && response.followsIssuerNameHash && response.followsIssuerKeyHash && response.followsResponderID)
        #expect(delegated.revocationIsPlain && delegated.requiredFeatures == [.ocspResponses])

        // A base whose CRL the answers do not assume (expired, listing the leaf) leaves the revocation
        // mutations unanswered there, and only there.
        let expired = try RevocationFixtures.base("revocation-crl-expired-soft/p256")
        #expect(!expired.revocationIsPlain && expired.revocationMode == .softFail)
        #expect(MutationCatalogue.answer(steps: [("crl/absent", .crl)], baseAspects: expired.aspects, host: expired.host, revocationMode: .softFail) == nil)
        #expect(MutationCatalogue.answer(steps: [("crl/absent", .crl)], baseAspects: crl.aspects, host: crl.host, revocationMode: .softFail)?.trusted == true)
    }

    /// Every revocation mutation that applies changes its CRL or response and nothing else: the
    /// certificates and the other CRLs are byte for byte the re-keyed base's; the data it changes
    /// still verifies under its signer's new key, except where the mutation breaks the signature; an
    /// OCSP CertID still hashes the issuer's new key, except where the mutation changes it.
    @Test func eachRevocationMutationChangesOnlyItsDataAndReSignsIt() throws {
        let keys = try ExploreFixtures.keys.get()
        var checked: [String: Int] = [:]
        for id in [RevocationFixtures.crlBase, RevocationFixtures.ocspBase, RevocationFixtures.delegatedBase] {
            let model = try RevocationFixtures.base(id)
            let base = try MutantDraft(model, slotKind: .p256).renderAll(keys: keys)
            for mutation in RevocationFixtures.mutations {
                for role in mutation.roles {
                    guard let index = model.node(for: role) else { continue }
                    var draft = MutantDraft(model, slotKind: .p256)
                    guard mutation.edit(&draft, index) else { continue }
                    #expect(!draft.isUnchanged, "\(mutation.name) @\(role) on \(id) changed nothing")
                    let mutant = try draft.renderAll(keys: keys)
                    let place = "\(mutation.name) @\(role.rawValue) on \(id)"
                    let breaksSignature = mutation.name.hasSuffix("/signature-broken") || mutation.name.hasSuffix("/signed-by-another-key")
                    let changesResponder = mutation.name == "ocsp/responder-without-ocsp-signing"
                    #expect(mutant.chain == base.chain && mutant.anchors == base.anchors, "\(place) changed a certificate")
                    if role == .ocsp {
                        #expect(mutant.revocationLists == base.revocationLists)
                        let response = draft.ocspResponses[index]
                        if response.omitted { #expect(mutant.ocspResponses.isEmpty, "\(place)"); checked[mutation.name, default: 0] += 1; continue }
                        #expect(mutant.ocspResponses[index] != base.ocspResponses[index] || changesResponder, "\(place) changed nothing in the response")
                        guard let basic = RevocationFixtures.basicResponse(mutant.ocspResponses[index]) else {
                            #expect(!response.hasBody, "\(place): a body is written unless the mutation removes it")
                            checked[mutation.name, default: 0] += 1
                            continue
                        }
                        // A response that no longer carries its responder's certificate: the base's has it.
                        let signer = try #require(response.signer.flatMap { RevocationFixtures.certificate($0, of: draft, mutant) ?? RevocationFixtures.certificate($0, of: MutantDraft(model, slotKind: .p256), base) }, "\(place): the responder's certificate")
                        let valid = try RevocationFixtures.verifies(basic[[0]].encoded, signature: Array(basic[[2]].content.dropFirst()), algorithm: basic[[1]], by: signer)
                        #expect(valid != breaksSignature, "\(place): the response's signature \(valid ? "verifies" : "does not verify") under the responder's new key")
                        let certID = basic[[0, response.responsesIndex, 0, 0]]
                        let issuer = try #require(response.certIssuer.flatMap { RevocationFixtures.certificate($0, of: draft, mutant) })
                        let hash = try #require(EditableOCSPResponse.hash(certID[[0]]))
                        let keyHash = hash(try #require(EditableOCSPResponse.keyBits(issuer)))
                        #expect((certID[[2]].content == keyHash) != (mutation.name == "ocsp/certid-issuer-key-hash-changed"), "\(place): issuerKeyHash follows the issuer's new key")
                    } else {
                        #expect(mutant.ocspResponses == base.ocspResponses)
                        let list = draft.revocationLists[index]
                        let others = zip(draft.revocationLists.indices.filter { $0 != index && !draft.revocationLists[$0].omitted }, base.revocationLists.indices.filter { $0 != index })
                        let rendered = draft.revocationLists.indices.filter { !draft.revocationLists[$0].omitted }
                        for (mine, theirs) in others {
                            #expect(mutant.revocationLists[rendered.firstIndex(of: mine)!] == base.revocationLists[theirs], "\(place) changed another CRL")
                        }
                        if list.omitted { #expect(mutant.revocationLists.count == base.revocationLists.count - 1, "\(place)"); checked[mutation.name, default: 0] += 1; continue }
                        let der = mutant.revocationLists[rendered.firstIndex(of: index)!]
                        #expect(der != base.revocationLists[index], "\(place) changed nothing in the CRL")
                        let whole = try DERTree(der[...])
                        let signer = try #require(list.signer.flatMap { RevocationFixtures.certificate($0, of: draft, mutant) })
                        let valid = try RevocationFixtures.verifies(whole[[0]].encoded, signature: Array(whole[[2]].content.dropFirst()), algorithm: whole[[1]], by: signer)
                        #expect(valid != breaksSignature, "\(place): the CRL's signature \(valid ? "verifies" : "does not verify") under the CA's new key")
                    }
                    checked[mutation.name, default: 0] += 1
                }
            }
        }
        let unapplied = Set(RevocationFixtures.mutations.map(\.name)).subtracting(checked.keys)
        #expect(unapplied.isEmpty, "every revocation mutation applies to one of the bases: \(unapplied.sorted())")
        #expect(checked.values.reduce(0, +) >= 60)
    }

    /// The re-keyed bases verify with their revocation data, and a CRL entry follows the leaf's
    /// serial number and the CA's new key: OpenSSL finds the leaf revoked.
    @Test func theRenderedDataIsWhatTheLibrariesRead() throws {
        let keys = try ExploreFixtures.keys.get()
        let model = try RevocationFixtures.base(RevocationFixtures.crlBase)
        func verdict(_ draft: MutantDraft, _ backend: any TrustBackend) throws -> Verdict {
            let rendered = try draft.renderAll(keys: keys)
            var request = EvaluationRequest(chain: rendered.chain, host: model.host.map(HostIdentity.init), time: model.time)
            request.revocationLists = rendered.revocationLists
            request.ocspResponses = rendered.ocspResponses
            request.revocationMode = draft.model.revocationMode
            return try backend.makeEvaluator(anchors: rendered.anchors).evaluate(request)
        }
        let openssl = OpenSSLBackend(configuration: .uncached)
        #expect(try verdict(MutantDraft(model, slotKind: .p256), openssl).isTrusted)
        var revoked = MutantDraft(model, slotKind: .p256)
        let serial = try #require(MutationCatalogue.all.first { $0.name == "serial/negative" })
        #expect(serial.edit(&revoked, try #require(model.node(for: .leaf))))
        let entry = try #require(MutationCatalogue.all.first { $0.name == "crl/revoked-key-compromise" })
        #expect(entry.edit(&revoked, try #require(model.node(for: .crl))))
        let rejected = try verdict(revoked, openssl)
        #expect(!rejected.isTrusted && rejected.failures == [.revoked], "\(rejected.diagnostics)")
        for id in [RevocationFixtures.ocspBase, RevocationFixtures.delegatedBase] {
            let ocsp = try RevocationFixtures.base(id)
            let good = try verdict(MutantDraft(ocsp, slotKind: .rsa2048), SwiftCertificatesBackend(configuration: .uncached))
            #expect(good.isTrusted, "\(id): \(good.diagnostics)")
            // Revoked is read only from a response that matches the leaf (CertID with the issuer's
            // new key) and verifies under the responder's new key: under the library's soft-fail
            // default, any other would be ignored and the leaf trusted.
            var draft = MutantDraft(ocsp, slotKind: .rsa2048)
            let status = try #require(MutationCatalogue.all.first { $0.name == "ocsp/status-revoked" })
            #expect(status.edit(&draft, try #require(ocsp.node(for: .ocsp))))
            let rejected = try verdict(draft, SwiftCertificatesBackend(configuration: .uncached))
            #expect(!rejected.isTrusted && rejected.failures == [.revoked], "\(id): \(rejected.diagnostics)")
        }
    }
}

/// The standard answers of the revocation mutations rest on the base's mode.
@Suite struct RevocationAnswerTests {
    @Test func unusableDataIsAnsweredByTheMode() throws {
        let host = "www.example.test"
        let hard = try #require(MutationCatalogue.answer("crl/next-update-past", role: .crl, host: host, revocationMode: .hardFail))
        #expect(!hard.trusted && hard.open == nil && Set(hard.failures) == [.other, .revoked, .untrusted])
        #expect(MutationCatalogue.answer("crl/next-update-past", role: .crl, host: host, revocationMode: .softFail)?.trusted == true)
        #expect(MutationCatalogue.answer("crl/next-update-past", role: .crl, host: host)?.open?.contains("relying party's policy") == true, "no mode: the library's default, open")
        // A CRL without nextUpdate: RFC 5280 says it does not specify what a client does.
        #expect(MutationCatalogue.answer("crl/next-update-absent", role: .crl, host: host, revocationMode: .hardFail)?.open?.contains("not specified by this profile") == true)
        #expect(MutationCatalogue.answer("crl/revoked-remove-from-crl", role: .crl, host: host)?.trusted == true)
        #expect(MutationCatalogue.answer("crl/revoked-key-compromise", role: .caCRL, host: host)?.failures == [.revoked])
        #expect(MutationCatalogue.answer("crl/idp-only-ca-certs", role: .caCRL, host: host)?.trusted == true)
        #expect(MutationCatalogue.answer("crl/idp-only-ca-certs", role: .crl, host: host, revocationMode: .hardFail)?.trusted == false)
        #expect(MutationCatalogue.answer("ocsp/status-unknown", role: .ocsp, host: host, revocationMode: .softFail)?.trusted == true)
        // RFC 6960 §4.2.2.1's SHOULD decides (docs/profiles.md's rule), as for the catalogue's
        // revocation-ocsp-not-yet-valid vectors: unreliable, so not trusted under hard-fail.
        #expect(MutationCatalogue.answer("ocsp/this-update-future", role: .ocsp, host: host, revocationMode: .hardFail)?.trusted == false)
        #expect(MutationCatalogue.answer("ocsp/this-update-future", role: .ocsp, host: host, revocationMode: .softFail)?.trusted == true)
        for mutation in RevocationFixtures.mutations {
            for role in mutation.roles {
                for mode in [RevocationMode.hardFail, .softFail] {
                    let answer = MutationCatalogue.answer(mutation.name, role: role, host: host, revocationMode: mode)
                    #expect(answer != nil, "\(mutation.name) @\(role.rawValue) under \(mode) has a standard answer")
                }
            }
        }
    }

    /// Two changes to one CRL: an entry in a CRL that is not used revokes nothing; on two CRLs they
    /// compose. A certificate change that revocation checking rests on has no answer on a base with
    /// revocation data.
    @Test func twoChangesAndCertificateChangesOnARevocationBase() throws {
        let host = "www.example.test"
        let base: Set<String> = [MutationCatalogue.revocationAspect]
        let unused = MutationCatalogue.answer(steps: [("crl/revoked-key-compromise", .crl), ("crl/next-update-past", .crl)], baseAspects: base, host: host, revocationMode: .softFail)
        #expect(unused?.trusted == true)
        let listed = MutationCatalogue.answer(steps: [("crl/revoked-key-compromise", .crl), ("crl/times-generalized", .crl)], baseAspects: base, host: host, revocationMode: .softFail)
        #expect(listed?.trusted == false && listed?.failures == [.revoked])
        let twoLists = MutationCatalogue.answer(steps: [("crl/revoked-key-compromise", .crl), ("crl/next-update-past", .caCRL)], baseAspects: base, host: host, revocationMode: .softFail)
        #expect(twoLists?.trusted == false && twoLists?.failures == [.revoked])
        #expect(MutationCatalogue.answer(steps: [("crl/next-update-absent", .crl), ("crl/next-update-past", .crl)], baseAspects: base, host: host, revocationMode: .softFail) == nil, "the same field twice")
        #expect(MutationCatalogue.answer(steps: [("keyUsage/only-keyCertSign", .intermediate)], baseAspects: [], host: host)?.trusted == true)
        #expect(MutationCatalogue.answer(steps: [("keyUsage/only-keyCertSign", .intermediate)], baseAspects: base, host: host) == nil, "without cRLSign the intermediate's CRL is not usable (§6.3.3(f))")
        #expect(MutationCatalogue.answer(steps: [("crl/idp-only-user-certs", .crl), ("basicConstraints/leaf-is-ca", .leaf)], baseAspects: base, host: host) == nil)
    }
}

/// A short exploration of the revocation bases on the built-in back ends: each base is asked only of
/// the back ends that take its data in its mode, and it finds where they disagree on revocation.
@Suite struct RevocationExplorationTests {
    static let backends: [any TrustBackend] = [OpenSSLBackend(configuration: .uncached), GnuTLSBackend(configuration: .uncached), SwiftCertificatesBackend(configuration: .uncached)]

    @Test func theBuiltInsDisagreeOnRevocationAndFindingsCarryTheData() async throws {
        let bases = ChainModel.bases(from: try ExploreFixtures.suite.get(), matching: [RevocationFixtures.crlBase, RevocationFixtures.ocspBase, RevocationFixtures.delegatedBase])
        #expect(bases.count == 3)
        let report = try await Explorer(backends: Self.backends, bases: bases, mutations: RevocationFixtures.mutations)
            .run(Explorer.Options(seed: 1, pairs: 0, keyTypes: [.p256]))
        #expect(report.bases.count == 3, "an OCSP base is asked of the one built-in that takes OCSP responses")
        #expect(report.lackingFeatures?["swift-certificates"] == ["\(RevocationFixtures.crlBase) as p256"])
        #expect(Set(report.lackingFeatures?["openssl"] ?? []) == ["\(RevocationFixtures.ocspBase) as p256", "\(RevocationFixtures.delegatedBase) as p256"])
        for finding in report.findings {
            let asked = Set(finding.answers.map(\.backend))
            #expect(asked == (finding.base == RevocationFixtures.crlBase ? ["openssl", "gnutls"] : ["swift-certificates"]), "\(finding.key)")
            #expect(finding.revocation != nil, "\(finding.key) carries the data it was asked with")
        }
        // GnuTLS believes only CRLs an anchor signed (GNUTLS_TL_VERIFY_CRL): the intermediate's CRL
        // listing the leaf is never read, where OpenSSL and the standards reject.
        let revoked = try #require(report.findings.first { $0.steps == [Explorer.Step(mutation: "crl/revoked-key-compromise", role: .crl)] })
        #expect(revoked.kind == "verdict" && revoked.standard == Expectation(trusted: false, failures: [.revoked]))
        #expect(revoked.answers.first { $0.backend == "openssl" }?.signature == "rejected [revoked]")
        #expect(revoked.answers.first { $0.backend == "gnutls" }?.trusted == true)
        #expect(revoked.revocation?.crls.count == 2)
        // removeFromCRL in the root's CRL: OpenSSL and the standards (§6.3.3(k)) find the
        // intermediate UNREVOKED, GnuTLS revoked.
        let removed = try #require(report.findings.first { $0.steps == [Explorer.Step(mutation: "crl/revoked-remove-from-crl", role: .caCRL)] })
        #expect(removed.kind == "verdict" && removed.standard?.trusted == true)
        #expect(removed.answers.first { $0.backend == "gnutls" }?.signature == "rejected [revoked]")
        #expect(removed.answers.first { $0.backend == "openssl" }?.trusted == true)

        // The files reproduce a class with its data, and adoption leaves it out with the reason.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("explore-revocation-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FindingFiles.write(report, to: folder)
        let index = try #require(report.findings.firstIndex { $0.key == revoked.key })
        let own = folder.appendingPathComponent(FindingFiles.slug(revoked, index: index))
        let loaded = try VectorSuite.load(from: own)
        let vector = try #require(loaded.vectors.first)
        #expect(vector.revocationLists == revoked.revocation?.crls && vector.chain == revoked.chain && vector.expected == revoked.standard)
        #expect(FindingFiles.command(revoked, folder: own.path).contains("run --vectors"))
        // `run` of every class's folder gives the answers explore recorded.
        for (index, finding) in report.findings.enumerated() {
            let suite = try VectorSuite.load(from: folder.appendingPathComponent(FindingFiles.slug(finding, index: index)))
            for result in await ConformanceRunner(backends: Self.backends, suite: suite).run() {
                let recorded = finding.answers.first { $0.backend == result.backend }
                if let recorded {
                    #expect(result.observed?.trusted == recorded.trusted && result.observed?.failures.sorted() == recorded.failures.sorted(), "\(finding.key): run gives \(String(describing: result.observed)) for \(result.backend)")
                } else {
                    #expect(result.outcome == .skipped, "\(finding.key): \(result.backend) is not asked, as explore did not ask it")
                }
            }
        }
        let candidates = try JSONDecoder().decode(FindingFiles.CandidateList.self, from: Data(contentsOf: folder.appendingPathComponent("candidates.json")))
        #expect(candidates.vectors.allSatisfy { $0.revocation?.crls.isEmpty == false || $0.revocation?.ocspResponses.isEmpty == false || $0.revocation?.mode != nil })
        let summary = try Adoption.adopt(folder.appendingPathComponent("candidates.json"), into: folder.appendingPathComponent("vectors"), backends: Self.backends)
        #expect(summary.adopted.isEmpty && summary.leftOutBecause.keys.allSatisfy { $0.contains("CRLs or OCSP responses") }, "\(summary.leftOutBecause)")
    }
}
