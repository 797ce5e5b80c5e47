import Foundation
@testable import GnuTLSBackend
import TestPKI
import Testing
import TrustCore
import TrustDER
import TrustHarnessTestKit
import X509

/// What GnuTLS's evaluator does of its own: the names and codes of its rejections, its path
/// building among same-named candidates, pinned certificates (which GnuTLS does not recognise by
/// itself), and the GnuTLS 3.7 behaviour recorded as deviations in more detail than a vector shows.
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

    @Test func pinnedIntermediateInTheMiddleEndsThePath() throws {
        // The intermediate is not self-signed; the chain goes on past it to a root nobody trusts.
        let verdict = try evaluate([leaf, intermediate, root], anchors: [intermediate])
        #expect(verdict.path == [leaf, intermediate])
    }

    @Test func anchorWithTheSameNameAndKeyEndsThePathWithTheAnchor() throws {
        // The same intermediate re-issued as self-signed: trusted in place of the presented one.
        let reissued = TestPKI.ca(TestPKI.intermediate.commonName, issuer: nil, key: TestPKI.intermediate.key).der
        let verdict = try evaluate([leaf, intermediate], anchors: [reissued])
        #expect(verdict.path == [leaf, reissued])
    }

    @Test func pinnedLeafIsTrustedAloneAndStillChecked() throws {
        let notBefore = TestPKI.leaf.certificate.notValidBefore, notAfter = TestPKI.leaf.certificate.notValidAfter
        #expect(try evaluate([leaf, intermediate], anchors: [leaf]).path == [leaf])
        #expect(try evaluate([leaf], anchors: [leaf], at: notAfter + 1).failures == [.expired])
        #expect(try evaluate([leaf], anchors: [leaf], at: notBefore - 1).failures == [.notYetValid])
        #expect(try evaluate([leaf], anchors: [leaf], host: .dns("other.example.com")).failures == [.hostnameMismatch])
        #expect(try evaluate([leaf], anchors: [leaf], host: .ipAddress([192, 0, 2, 1])).isTrusted)
        let client = TestPKI.leaf("www.example.com", issuer: TestPKI.intermediate, names: [.dnsName("www.example.com")], usages: [.clientAuth]).der
        #expect(try evaluate([client], anchors: [client]).failures == [.purposeMismatch])
    }

    // MARK: Path building

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

    @Test func issuerWhoseSignatureVerifiesIsPreferredAmongSameNamedCandidates() throws {
        // An impostor with the intermediate's name and key identifier but another key is presented
        // first: only the signature tells them apart.
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
        let verdict = try evaluate([leaf, impostor, intermediate])
        #expect(verdict.path == [leaf, intermediate, root])
    }

    @Test func pathEndsAtTheAnchorGnuTLSVerifiedAmongSameNamedAnchors() throws {
        // A retired root with the same name and key identifier, another key and an expired validity
        // is trusted too and added first: only the signature tells them apart.
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
