import Foundation
@testable import GnuTLSBackend
import TestPKI
import Testing
import TrustCore
import TrustDER
import TrustHarnessTestKit
import X509

/// What GnuTLS does with what the evaluator gives it, in more detail than a vector shows: the names
/// and codes of its rejections, its own choices among presented and trusted certificates, a leaf
/// identical to an anchor, a client's limit on the presented list, the path the evaluator reads from
/// GnuTLS's verification callback, and the GnuTLS 3.7 behaviour recorded as deviations. Expected
/// verdicts come from the standards or from GnuTLS 3.7's documented and source behaviour (cited).
/// What every back end must do is the catalogue's (Vectors/manifest.json, TrustHarnessTests'
/// TestKitTests.conformance) and the contract suite's (TestKitTests.contract).
@Suite("GnuTLS evaluator")
struct GnuTLSEvaluatorTests {
    let backend = GnuTLSBackend()
    let root = TestPKI.root.der
    let intermediate = TestPKI.intermediate.der
    let leaf = TestPKI.leaf.der

    func evaluate(
        _ chain: [[UInt8]],
        anchors: [[UInt8]]? = nil,
        host: HostIdentity? = .dns("www.example.com"),
        at time: Date = TestPKI.start
    ) throws -> Verdict {
        let evaluator = try backend.makeEvaluator(anchors: anchors ?? [root])
        return evaluator.evaluate(EvaluationRequest(chain: chain, host: host, time: time))
    }

    // MARK: Diagnostics

    /// The catalogue's chain vectors, read once.
    static let catalogue = Result { try BackendTestKit.vectors(includingExplored: false) }

    /// The rejection of a catalogue vector, whose class the conformance suite checks, under
    /// GnuTLS's own name and code (the gnutls_certificate_status_t bit).
    @Test(arguments: [
        ("missing-intermediate/p256", "GNUTLS_CERT_SIGNER_NOT_FOUND", 1 << 6),
        ("expired-leaf/p256", "GNUTLS_CERT_EXPIRED", 1 << 10),
        ("not-yet-valid-leaf/p256", "GNUTLS_CERT_NOT_ACTIVATED", 1 << 9),
        ("hostname-mismatch/p256", "GNUTLS_CERT_UNEXPECTED_OWNER", 1 << 14),
        ("pathlen-zero-exceeded/p256", "GNUTLS_CERT_SIGNER_CONSTRAINTS_FAILURE", 1 << 16),
    ])
    func rejectionsCarryGnuTLSsNameAndCode(vector id: String, name: String, code: Int) throws {
        let vector = try #require(try Self.catalogue.get().first { $0.id == id })
        let verdict = try backend.makeEvaluator(anchors: vector.anchors).evaluate(vector.request)
        #expect(!verdict.isTrusted)
        #expect(verdict.diagnostics.map(\.name) == [name], "\(verdict.diagnostics)")
        #expect(verdict.diagnostics.map(\.code) == [code], "\(verdict.diagnostics)")
    }

    /// GnuTLS's own answer to bytes it cannot import (its evaluator without the kit's preflight,
    /// which refuses them first as not DER): malformed, GnuTLS's error, the index.
    @Test func garbageLeafIsMalformedNamingIndexZero() throws {
        let evaluator = try GnuTLSEvaluator(anchors: [root], settings: backend.settings, configuration: .default)
        let verdict = evaluator.evaluate(EvaluationRequest(chain: [[0x30, 0x03, 0x01, 0x01, 0xFF], intermediate], host: .dns("www.example.com"), time: TestPKI.start))
        #expect(verdict.failures == [.malformed])
        let diagnostic = try #require(verdict.diagnostics.first)
        #expect(diagnostic.depth == 0)
        #expect(diagnostic.code < 0)
        #expect(diagnostic.name.hasPrefix("GNUTLS_E_"))
        #expect(diagnostic.message.contains("certificate 0"))
    }

    // MARK: Anchors

    @Test func noAnchorsTrustNothing() throws {
        let verdict = try evaluate([leaf, intermediate, root], anchors: [])
        #expect(verdict.failures == [.untrusted])
    }

    @Test func duplicateAnchorsAreAccepted() throws {
        let evaluator = try backend.makeEvaluator(anchors: [root, root])
        #expect(evaluator.evaluate(EvaluationRequest(chain: [leaf, intermediate], host: .dns("www.example.com"), time: TestPKI.start)).path == [leaf, intermediate, root])
    }

    /// GnuTLS 3.7's `_gnutls_verify_crt_status` (lib/x509/verify.c) cuts the list at a presented
    /// certificate the trust list holds (by name and key) and verifies what is below it against that
    /// trusted copy: the path ends there, whatever was presented above it.
    @Test func pinnedIntermediateInTheMiddleEndsThePath() throws {
        // The intermediate is not self-signed; the chain goes on past it to a root nobody trusts.
        let verdict = try evaluate([leaf, intermediate, root], anchors: [intermediate])
        #expect(verdict.path == [leaf, intermediate])
    }

    /// The same comparison is by name and key, not bytes, "because it can happen that a CA
    /// certificate is upgraded from intermediate CA to self-signed CA" (its comment): the trusted
    /// re-issue takes the presented intermediate's place, and ends the path.
    @Test func anchorWithTheSameNameAndKeyEndsThePathWithTheAnchor() throws {
        let reissued = TestPKI.ca(TestPKI.intermediate.commonName, issuer: nil, key: TestPKI.intermediate.key).der
        let verdict = try evaluate([leaf, intermediate], anchors: [reissued])
        #expect(verdict.path == [leaf, reissued])
    }

    /// A leaf identical to a trusted certificate: when its signer is not found, GnuTLS 3.7 looks the
    /// last certificate up by its own subject (`gnutls_x509_trust_list_verify_crt2`,
    /// lib/x509/verify-high.c) and `_gnutls_verify_crt_status` accepts the identical trusted copy
    /// after checking only its validity period and signature strength (`check_ca_sanity`); the
    /// name and key purpose are still checked on the leaf. The path is the leaf alone.
    @Test func leafIdenticalToAnAnchorIsTrustedAloneAndStillChecked() throws {
        let notBefore = TestPKI.leaf.certificate.notValidBefore, notAfter = TestPKI.leaf.certificate.notValidAfter
        #expect(try evaluate([leaf], anchors: [leaf]).path == [leaf])
        #expect(try evaluate([leaf], anchors: [leaf], at: notAfter + 1).failures == [.expired])
        #expect(try evaluate([leaf], anchors: [leaf], at: notBefore - 1).failures == [.notYetValid])
        #expect(try evaluate([leaf], anchors: [leaf], host: .dns("other.example.com")).failures == [.hostnameMismatch])
        // 192.0.2.1 is one of the leaf's iPAddress names.
        #expect(try evaluate([leaf], anchors: [leaf], host: .ipAddress([192, 0, 2, 1])).path == [leaf])
        let client = TestPKI.leaf("www.example.com", issuer: TestPKI.intermediate, names: [.dnsName("www.example.com")], usages: [.clientAuth]).der
        #expect(try evaluate([client], anchors: [client]).failures == [.purposeMismatch])
    }

    /// Followed by its chain, the same leaf is not recognised: `gnutls_x509_trust_list_verify_crt2`
    /// compares the presented certificates only with the trusted ones stored under one name (the
    /// trust list is hashed by subject): the last certificate's issuer, then, when that signer is not
    /// found, the last certificate's own subject. Here those are the root's and the intermediate's
    /// names, while the leaf's trusted copy is stored under the leaf's; the intermediate's signer is
    /// not found, so the chain is untrusted.
    @Test func leafIdenticalToAnAnchorFollowedByItsChainIsNotRecognised() throws {
        let verdict = try evaluate([leaf, intermediate], anchors: [leaf])
        #expect(verdict.failures == [.untrusted], "\(verdict.diagnostics)")
        #expect(verdict.diagnostics.map(\.name) == ["GNUTLS_CERT_SIGNER_NOT_FOUND"])
    }

    // MARK: The presented list

    /// A certification path is the leaf, its issuers and the anchor (RFC 5280 §6.1); GnuTLS's
    /// `gnutls_x509_trust_list_verify_crt2` takes the rest of the list "sorted or not" (its
    /// documentation) and sorts it itself, so a certificate that issues nothing on the path is not
    /// part of the path reported, wherever it was presented.
    @Test func theReportedPathOfATrustedChainLeavesOutAnUnrelatedCertificate() throws {
        let unrelated = TestPKI.unrelatedRoot.der
        let stranger = TestPKI.ca("TrustHarness Unrelated CA", issuer: TestPKI.unrelatedRoot).der
        #expect(try evaluate([leaf, unrelated, intermediate]).path == [leaf, intermediate, root])
        #expect(try evaluate([leaf, intermediate, stranger]).path == [leaf, intermediate, root])
        #expect(try evaluate([leaf, stranger, root, intermediate]).path == [leaf, intermediate, root])
    }

    /// A GnuTLS client verifies at most its credentials' verify depth of presented certificates,
    /// 16 by default (`_gnutls_x509_cert_verify_peers`, lib/cert-session.c; DEFAULT_MAX_VERIFY_DEPTH):
    /// a chain of 16 is verified, and the same chain with its root appended (17) is refused with
    /// GNUTLS_E_CONSTRAINT_ERROR before anything is verified.
    @Test func moreThanSixteenPresentedCertificatesAreRefusedAsAGnuTLSClientRefusesThem() throws {
        var issuer = TestPKI.root
        var authorities: [TestPKI.Node] = []
        for level in 1...15 {
            issuer = TestPKI.ca("TrustHarness Depth CA \(level)", issuer: issuer)
            authorities.append(issuer)
        }
        let deep = TestPKI.leaf("www.example.com", issuer: issuer, names: [.dnsName("www.example.com")]).der
        let sixteen = [deep] + authorities.reversed().map(\.der)
        #expect(sixteen.count == 16)
        #expect(try evaluate(sixteen).path == sixteen + [root])
        let refused = try evaluate(sixteen + [root])
        #expect(!refused.isTrusted)
        #expect(refused.diagnostics.map(\.name) == ["GNUTLS_E_CONSTRAINT_ERROR"])
        // GNUTLS_E_CONSTRAINT_ERROR is -101 (gnutls/gnutls.h).
        #expect(refused.diagnostics.map(\.code) == [-101])
        // GnuTLS's documented client bound, applied by the back end: a limit, labelled as one.
        #expect(refused.diagnostics.map(\.origin) == [.limit])
        #expect(refused.diagnostics.first?.message.contains("lib/cert-session.c") == true)
    }

    // MARK: GnuTLS's own path

    /// A self-issued intermediate (the intermediate's own name, a new key, no key identifiers) below
    /// a CA with pathLenConstraint 0: RFC 5280 §6.1.4(l) does not count it, so the path is within the
    /// constraint. GnuTLS counts it and rejects; the class must not claim pathLengthExceeded.
    @Test func aSelfIssuedIntermediateIsNotCountedAgainstPathLength() throws {
        let selfIssued = TestPKI.mint(
            TestPKI.intermediate.commonName, issuer: TestPKI.intermediate,
            notBefore: TestPKI.start - TestPKI.days(30), notAfter: TestPKI.start + TestPKI.days(300)
        ) { _, _ in
            try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            }
        }
        let leaf = TestPKI.leaf("www.example.com", issuer: selfIssued, names: [.dnsName("www.example.com")]) {
            _ = $0.remove(.X509ExtensionID.authorityKeyIdentifier)
        }.der
        let verdict = try evaluate([leaf, selfIssued.der, intermediate])
        #expect(!verdict.isTrusted, "GnuTLS 3.7 counts self-issued intermediates against pathLenConstraint")
        #expect(verdict.diagnostics.map(\.name) == ["GNUTLS_CERT_SIGNER_CONSTRAINTS_FAILURE"])
        #expect(verdict.failures == [.other], "GnuTLS's count, not the path's: \(verdict.diagnostics)")
    }

    /// The same with key identifiers, as real rollover certificates carry them: its
    /// authorityKeyIdentifier (the old key) differs from its subjectKeyIdentifier (the new key), which
    /// GnuTLS's issuer test compares, yet it is self-issued (RFC 5280 §6.1: the names alone).
    @Test func aSelfIssuedIntermediateWithKeyIdentifiersIsNotCountedEither() throws {
        let selfIssued = TestPKI.ca(
            TestPKI.intermediate.commonName, issuer: TestPKI.intermediate,
            notBefore: TestPKI.start - TestPKI.days(30), notAfter: TestPKI.start + TestPKI.days(300)
        )
        #expect(DERCertificate.isSelfIssued(selfIssued.der))
        let leaf = TestPKI.leaf("www.example.com", issuer: selfIssued, names: [.dnsName("www.example.com")]).der
        let verdict = try evaluate([leaf, selfIssued.der, intermediate])
        #expect(!verdict.isTrusted)
        #expect(verdict.failures == [.other], "GnuTLS's count, not the path's: \(verdict.diagnostics)")
    }

    /// A CA under the intermediate, whose pathLenConstraint is 0, breaks RFC 5280 §4.2.1.9 as
    /// GnuTLS counts and as the RFC counts: the class is pathLengthExceeded.
    @Test func anExceededPathLengthConstraintIsClassedSo() throws {
        let sub = TestPKI.ca("TrustHarness Sub CA", issuer: TestPKI.intermediate)
        let leaf = TestPKI.leaf("www.example.com", issuer: sub, names: [.dnsName("www.example.com")]).der
        let verdict = try evaluate([leaf, sub.der, intermediate])
        #expect(verdict.diagnostics.map(\.name) == ["GNUTLS_CERT_SIGNER_CONSTRAINTS_FAILURE"])
        #expect(verdict.failures == [.pathLengthExceeded], "\(verdict.diagnostics)")
    }

    @Test func nameConstraintViolationIsNotAPathLengthFailure() throws {
        let constrainedRoot = TestPKI.ca("Constrained Root", issuer: nil)
        let constrained = TestPKI.ca(
            "Constrained CA", issuer: constrainedRoot, nameConstraints: NameConstraints(permittedDNSDomains: ["example.org"]),
            notBefore: TestPKI.start - TestPKI.days(30), notAfter: TestPKI.start + TestPKI.days(300)
        )
        let outside = TestPKI.leaf("www.example.com", issuer: constrained, names: [.dnsName("www.example.com")]).der
        let verdict = try evaluate([outside, constrained.der], anchors: [constrainedRoot.der])
        #expect(verdict.failures == [.other])
        #expect(verdict.diagnostics.map(\.name) == ["GNUTLS_CERT_SIGNER_CONSTRAINTS_FAILURE"])
    }

    /// GnuTLS's sort (`_gnutls_sort_clist`, lib/x509/common.c) takes as each certificate's issuer the
    /// first presented certificate that names it (`gnutls_x509_crt_check_issuer`: names and key
    /// identifiers, no signature), and GnuTLS then verifies that one path only. An impostor with the
    /// intermediate's name and key identifier but another key, presented first, is taken, and the
    /// leaf's signature fails; presented after the intermediate, it is never looked at.
    @Test func gnutlsTakesTheFirstPresentedCertificateThatNamesTheIssuer() throws {
        let impostor = TestPKI.mint(
            TestPKI.intermediate.commonName, issuer: TestPKI.root,
            notBefore: TestPKI.start - TestPKI.days(30), notAfter: TestPKI.start + TestPKI.days(300)
        ) { _, aki in
            try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(keyIdentifier: TestPKI.intermediate.keyIdentifier)
                if let aki { aki }
            }
        }.der
        let first = try evaluate([leaf, impostor, intermediate])
        #expect(first.diagnostics.map(\.name) == ["GNUTLS_CERT_SIGNATURE_FAILURE"], "\(first.diagnostics)")
        #expect(first.failures == [.badSignature])
        #expect(try evaluate([leaf, intermediate, impostor]).path == [leaf, intermediate, root])
    }

    /// The same rule at the request's time: of two presented copies of the intermediate (one name,
    /// one key, valid one after the other), the first presented is taken whether or not it is valid
    /// then, so the chain is expired while the first copy is, and trusted through it while it is valid.
    @Test func theFirstPresentedIssuerIsTakenEvenWhenItIsExpired() throws {
        func reissued(from notBefore: Date, to notAfter: Date) -> [UInt8] {
            TestPKI.ca(
                TestPKI.intermediate.commonName, issuer: TestPKI.root, pathLength: 0, key: TestPKI.intermediate.key,
                notBefore: notBefore, notAfter: notAfter
            ).der
        }
        let old = reissued(from: TestPKI.start - TestPKI.days(365), to: TestPKI.start - TestPKI.days(10))
        let new = reissued(from: TestPKI.start - TestPKI.days(5), to: TestPKI.start + TestPKI.days(365))
        // A leaf valid at both times.
        let leaf = TestPKI.leaf(
            "www.example.com", issuer: TestPKI.intermediate, names: [.dnsName("www.example.com")], notBefore: TestPKI.start - TestPKI.days(30)
        ).der
        #expect(try evaluate([leaf, old, new]).failures == [.expired])
        #expect(try evaluate([leaf, old, new], at: TestPKI.start - TestPKI.days(20)).path == [leaf, old, root])
        #expect(try evaluate([leaf, new, old]).path == [leaf, new, root])
    }

    /// Of several trusted certificates that name the issuer, GnuTLS's `find_issuer`
    /// (lib/x509/verify.c) takes the last one valid at the time, and the path ends at the one it took.
    @Test func pathEndsAtTheAnchorGnuTLSVerifiedAmongSameNamedAnchors() throws {
        // A retired root with the same name and key identifier, another key and an expired validity
        // is trusted too and added first.
        let retired = TestPKI.mint(
            TestPKI.root.commonName, issuer: nil,
            notBefore: TestPKI.start - TestPKI.days(7300), notAfter: TestPKI.start - TestPKI.days(3650)
        ) { _, _ in
            try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(keyIdentifier: TestPKI.root.keyIdentifier)
            }
        }.der
        let verdict = try evaluate([leaf, intermediate], anchors: [retired, root])
        #expect(verdict.path == [leaf, intermediate, root])
    }

    // MARK: Deviations in detail

    /// GnuTLS 3.7 behaviour the harness records as a deviation (partial-wildcard-leading): a '*'
    /// that starts the left-most label matches any prefix, even none.
    @Test func gnuTLSAcceptsPartialWildcardsMatchingEvenNothing() throws {
        let partial = TestPKI.leaf("www.example.com", issuer: TestPKI.intermediate, names: [.dnsName("*oo.example.com")]).der
        #expect(try evaluate([partial, intermediate], host: .dns("foo.example.com")).isTrusted)
        #expect(try evaluate([partial, intermediate], host: .dns("oo.example.com")).isTrusted)
        #expect(try evaluate([partial, intermediate], host: .dns("foo.bar.example.com")).failures == [.hostnameMismatch])
    }
}
