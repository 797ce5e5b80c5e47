import Crypto
import Foundation
@testable import GnuTLSBackend
import SwiftASN1
import Testing
import TrustCore
import X509
import TrustDER

@Suite("GnuTLS evaluator")
struct GnuTLSEvaluatorTests {
    let backend = GnuTLSBackend()
    let root = TestPKI.rootCertificate.derBytes
    let intermediate = TestPKI.intermediateCertificate.derBytes
    let leaf = TestPKI.leafCertificate.derBytes

    func evaluate(
        _ chain: [[UInt8]],
        anchors: [[UInt8]]? = nil,
        host: HostIdentity? = .dns("www.example.com"),
        at time: Date = TestPKI.now
    ) throws -> Verdict {
        let evaluator = try backend.makeEvaluator(anchors: anchors ?? [root])
        return evaluator.evaluate(EvaluationRequest(chain: chain, host: host, time: time))
    }

    @Test func validChainIsTrustedWithTheExactPath() throws {
        let verdict = try evaluate([leaf, intermediate])
        #expect(verdict.path == [leaf, intermediate, root])
    }

    @Test func presentedRootEndsThePathAsTheAnchor() throws {
        let verdict = try evaluate([leaf, intermediate, root])
        #expect(verdict.path == [leaf, intermediate, root])
    }

    @Test func outOfOrderChainWithUnrelatedCertificateIsTrustedWithTheRightPath() throws {
        let unrelated = TestPKI.makeRoot("Unrelated Root").certificate.derBytes
        let verdict = try evaluate([leaf, unrelated, root, intermediate])
        #expect(verdict.path == [leaf, intermediate, root])
    }

    @Test func missingIntermediateIsUntrusted() throws {
        let verdict = try evaluate([leaf])
        #expect(verdict.failures == [.untrusted])
        #expect(verdict.diagnostics.map(\.name) == ["GNUTLS_CERT_SIGNER_NOT_FOUND"])
    }

    @Test func unknownRootIsUntrusted() throws {
        let other = TestPKI.makeRoot("Other Root").certificate.derBytes
        let verdict = try evaluate([leaf, intermediate, root], anchors: [other])
        #expect(verdict.failures == [.untrusted])
    }

    @Test func noAnchorsTrustNothing() throws {
        let verdict = try evaluate([leaf, intermediate, root], anchors: [])
        #expect(verdict.failures == [.untrusted])
    }

    @Test func requestTimeAfterNotAfterIsExpired() throws {
        let verdict = try evaluate([leaf, intermediate], at: TestPKI.leafNotAfter + 1)
        #expect(verdict.failures == [.expired])
        let diagnostic = try #require(verdict.diagnostics.first)
        #expect(diagnostic.name == "GNUTLS_CERT_EXPIRED")
        #expect(diagnostic.code == 1 << 10)
        #expect(diagnostic.message.contains("expired"))
    }

    @Test func requestTimeBeforeNotBeforeIsNotYetValid() throws {
        let verdict = try evaluate([leaf, intermediate], at: TestPKI.leafNotBefore - 1)
        #expect(verdict.failures == [.notYetValid])
        #expect(verdict.diagnostics.map(\.name) == ["GNUTLS_CERT_NOT_ACTIVATED"])
    }

    @Test func validityBoundsAreInclusive() throws {
        #expect(try evaluate([leaf, intermediate], at: TestPKI.leafNotBefore).isTrusted)
        #expect(try evaluate([leaf, intermediate], at: TestPKI.leafNotAfter).isTrusted)
    }

    @Test func expiredIntermediateIsExpired() throws {
        let verdict = try evaluate([leaf, intermediate], at: TestPKI.now + TestPKI.days(366))
        #expect(verdict.failures == [.expired])
    }

    @Test func wrongHostIsAHostnameMismatch() throws {
        let verdict = try evaluate([leaf, intermediate], host: .dns("mail.example.com"))
        #expect(verdict.failures == [.hostnameMismatch])
        #expect(verdict.diagnostics.map(\.code) == [1 << 14])
        #expect(verdict.diagnostics.map(\.name) == ["GNUTLS_CERT_UNEXPECTED_OWNER"])
    }

    @Test func hostMatchIsCaseInsensitive() throws {
        #expect(try evaluate([leaf, intermediate], host: .dns("WWW.Example.COM")).isTrusted)
    }

    @Test func noHostSkipsTheNameCheck() throws {
        #expect(try evaluate([leaf, intermediate], host: nil).isTrusted)
    }

    @Test func ipAddressInSANMatches() throws {
        #expect(try evaluate([leaf, intermediate], host: .ipAddress([10, 0, 0, 1])).isTrusted)
        #expect(try evaluate([leaf, intermediate], host: HostIdentity("10.0.0.1")).isTrusted)
    }

    @Test func otherIPAddressIsAHostnameMismatch() throws {
        let verdict = try evaluate([leaf, intermediate], host: .ipAddress([10, 0, 0, 2]))
        #expect(verdict.failures == [.hostnameMismatch])
    }

    @Test func ipv6AddressMatchesOnlyItsOwnSAN() throws {
        let v6: [UInt8] = [0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [1]
        let certificate = TestPKI.leaf(
            issuer: TestPKI.intermediate,
            extensions: TestPKI.leafExtensions(names: [.ipAddress(ASN1OctetString(contentBytes: ArraySlice(v6)))])
        ).derBytes
        #expect(try evaluate([certificate, intermediate], host: HostIdentity("2001:db8::1")).isTrusted)
        #expect(try evaluate([certificate, intermediate], host: HostIdentity("2001:db8::2")).failures == [.hostnameMismatch])
    }

    @Test func dnsHostThatLooksLikeAnAddressDoesNotMatchTheIPSAN() throws {
        // A dotted quad given as a DNS name is refused before GnuTLS (which, with
        // GNUTLS_VERIFY_DO_NOT_ALLOW_IP_MATCHES, would compare it with DNS names only anyway).
        let verdict = try evaluate([leaf, intermediate], host: .dns("10.0.0.1"))
        #expect(verdict.failures == [.malformed])
        #expect(verdict.diagnostics.first?.message.contains("numeric label") == true)
    }

    @Test func singleLabelWildcardIsAcceptedButNotAcrossLabels() throws {
        let wildcard = TestPKI.leaf(
            issuer: TestPKI.intermediate, extensions: TestPKI.leafExtensions(names: [.dnsName("*.example.com")])
        ).derBytes
        #expect(try evaluate([wildcard, intermediate], host: .dns("api.example.com")).isTrusted)
        #expect(try evaluate([wildcard, intermediate], host: .dns("a.b.example.com")).failures == [.hostnameMismatch])
        #expect(try evaluate([wildcard, intermediate], host: .dns("example.com")).failures == [.hostnameMismatch])
    }

    @Test func hostWithNULIsMalformed() throws {
        let verdict = try evaluate([leaf, intermediate], host: .dns("www.example.com\u{0}.evil.test"))
        #expect(verdict.failures == [.malformed])
    }

    @Test func ipAddressOfWrongLengthIsMalformed() throws {
        let verdict = try evaluate([leaf, intermediate], host: .ipAddress([10, 0, 0]))
        #expect(verdict.failures == [.malformed])
    }

    @Test func clientOnlyLeafIsAPurposeMismatch() throws {
        let client = TestPKI.leaf(
            issuer: TestPKI.intermediate, extensions: TestPKI.leafExtensions(usages: [.clientAuth])
        ).derBytes
        let verdict = try evaluate([client, intermediate])
        #expect(verdict.failures == [.purposeMismatch])
    }

    @Test func pinnedIntermediateInTheMiddleEndsThePath() throws {
        // The intermediate is not self-signed; the chain goes on past it to a root nobody trusts.
        let verdict = try evaluate([leaf, intermediate, root], anchors: [intermediate])
        #expect(verdict.path == [leaf, intermediate])
    }

    @Test func anchorWithTheSameNameAndKeyEndsThePathWithTheAnchor() throws {
        // The same intermediate re-issued as self-signed: trusted in place of the presented one.
        let reissued = TestPKI.selfSigned(
            TestPKI.intermediate, publicKey: .init(TestPKI.intermediateKey.publicKey),
            extensions: TestPKI.caExtensions(pathLength: nil)
        ).derBytes
        let verdict = try evaluate([leaf, intermediate], anchors: [reissued])
        #expect(verdict.path == [leaf, reissued])
    }

    @Test func selfSignedLeafIsItsOwnAnchor() throws {
        let key = P256.Signing.PrivateKey()
        let issuer = TestPKI.Issuer(name: TestPKI.name("www.example.com"), key: .init(key))
        let selfSigned = TestPKI.selfSigned(
            issuer, publicKey: .init(key.publicKey), notBefore: TestPKI.leafNotBefore, notAfter: TestPKI.leafNotAfter,
            extensions: TestPKI.leafExtensions()
        ).derBytes
        #expect(try evaluate([selfSigned], anchors: [selfSigned]).path == [selfSigned])
        #expect(try evaluate([selfSigned], anchors: [root]).failures == [.untrusted])
        #expect(try evaluate([selfSigned], anchors: [selfSigned], host: .dns("other.example.com")).failures == [.hostnameMismatch])
    }

    @Test func pinnedLeafIsTrustedAloneAndStillChecked() throws {
        #expect(try evaluate([leaf, intermediate], anchors: [leaf]).path == [leaf])
        #expect(try evaluate([leaf], anchors: [leaf], at: TestPKI.leafNotAfter + 1).failures == [.expired])
        #expect(try evaluate([leaf], anchors: [leaf], at: TestPKI.leafNotBefore - 1).failures == [.notYetValid])
        #expect(try evaluate([leaf], anchors: [leaf], host: .dns("other.example.com")).failures == [.hostnameMismatch])
        #expect(try evaluate([leaf], anchors: [leaf], host: .ipAddress([10, 0, 0, 1])).isTrusted)
        let client = TestPKI.leaf(
            issuer: TestPKI.intermediate, extensions: TestPKI.leafExtensions(usages: [.clientAuth])
        ).derBytes
        #expect(try evaluate([client], anchors: [client]).failures == [.purposeMismatch])
    }

    @Test func pinnedLeafIsTrustedEvenWhenItsTrustedIssuerHasExpired() throws {
        // The leaf outlives its (also trusted) intermediate: the path ends at the leaf, the first anchor.
        let late = TestPKI.leaf(
            issuer: TestPKI.intermediate, notBefore: TestPKI.now, notAfter: TestPKI.now + TestPKI.days(800)
        ).derBytes
        let time = TestPKI.now + TestPKI.days(400)
        #expect(try evaluate([late, intermediate], anchors: [late, intermediate], at: time).path == [late])
        #expect(try evaluate([late, intermediate], anchors: [root], at: time).failures == [.expired])
    }

    @Test func exceededPathLengthConstraintIsPathLengthExceeded() throws {
        // The intermediate has pathLenConstraint 0, so no CA may follow it.
        let subKey = P256.Signing.PrivateKey()
        let sub = TestPKI.Issuer(name: TestPKI.name("Test Sub-intermediate"), key: .init(subKey))
        let subCertificate = TestPKI.issue(
            subject: sub.name, publicKey: .init(subKey.publicKey), issuer: TestPKI.intermediate,
            notBefore: TestPKI.now - TestPKI.days(30), notAfter: TestPKI.now + TestPKI.days(300),
            extensions: TestPKI.caExtensions(pathLength: nil)
        ).derBytes
        let deep = TestPKI.leaf(issuer: sub).derBytes
        let verdict = try evaluate([deep, subCertificate, intermediate])
        #expect(verdict.failures == [.pathLengthExceeded])
        #expect(verdict.diagnostics.map(\.name) == ["GNUTLS_CERT_SIGNER_CONSTRAINTS_FAILURE"])
    }

    /// A self-issued intermediate (the intermediate's own name, a new key) below a CA with
    /// pathLenConstraint 0: RFC 5280 §6.1.4(l) does not count it, so the path is within the
    /// constraint. GnuTLS counts it and rejects; the class must not claim pathLengthExceeded.
    @Test func aSelfIssuedIntermediateIsNotCountedAgainstPathLength() throws {
        let rolloverKey = P256.Signing.PrivateKey()
        let rollover = TestPKI.Issuer(name: TestPKI.intermediate.name, key: .init(rolloverKey))
        let selfIssued = TestPKI.issue(
            subject: TestPKI.intermediate.name, publicKey: .init(rolloverKey.publicKey), issuer: TestPKI.intermediate,
            notBefore: TestPKI.now - TestPKI.days(30), notAfter: TestPKI.now + TestPKI.days(300),
            extensions: TestPKI.caExtensions(pathLength: nil)
        ).derBytes
        let leaf = TestPKI.leaf(issuer: rollover).derBytes
        let verdict = try evaluate([leaf, selfIssued, intermediate])
        #expect(!verdict.isTrusted, "GnuTLS 3.7 counts self-issued intermediates against pathLenConstraint")
        #expect(verdict.diagnostics.map(\.name) == ["GNUTLS_CERT_SIGNER_CONSTRAINTS_FAILURE"])
        #expect(verdict.failures == [.other], "GnuTLS's count, not the path's: \(verdict.diagnostics)")
    }

    /// The same with key identifiers, as real rollover certificates carry them: its
    /// authorityKeyIdentifier (the old key) differs from its subjectKeyIdentifier (the new key), which
    /// GnuTLS's issuer test compares, yet it is self-issued (RFC 5280 §6.1: the names alone).
    @Test func aSelfIssuedIntermediateWithKeyIdentifiersIsNotCountedEither() throws {
        let rolloverKey = P256.Signing.PrivateKey()
        let rollover = TestPKI.Issuer(name: TestPKI.intermediate.name, key: .init(rolloverKey))
        let selfIssued = TestPKI.issue(
            subject: TestPKI.intermediate.name, publicKey: .init(rolloverKey.publicKey), issuer: TestPKI.intermediate,
            notBefore: TestPKI.now - TestPKI.days(30), notAfter: TestPKI.now + TestPKI.days(300),
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(keyIdentifier: ArraySlice(SHA256.hash(data: rolloverKey.publicKey.derRepresentation).prefix(20)))
                AuthorityKeyIdentifier(keyIdentifier: ArraySlice(repeating: 0x42, count: 20))
            }
        ).derBytes
        #expect(DERCertificate.isSelfIssued(selfIssued))
        let leaf = TestPKI.leaf(issuer: rollover).derBytes
        let verdict = try evaluate([leaf, selfIssued, intermediate])
        #expect(!verdict.isTrusted)
        #expect(verdict.failures == [.other], "GnuTLS's count, not the path's: \(verdict.diagnostics)")
    }

    @Test func nameConstraintViolationIsNotAPathLengthFailure() throws {
        let (constrainedRoot, rootIssuer) = TestPKI.makeRoot("Constrained Root")
        let caKey = P256.Signing.PrivateKey()
        let ca = TestPKI.Issuer(name: TestPKI.name("Constrained CA"), key: .init(caKey))
        let caCertificate = TestPKI.issue(
            subject: ca.name, publicKey: .init(caKey.publicKey), issuer: rootIssuer,
            notBefore: TestPKI.now - TestPKI.days(30), notAfter: TestPKI.now + TestPKI.days(300),
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true))
                Critical(NameConstraints(permittedDNSDomains: ["example.org"]))
            }
        ).derBytes
        let outside = TestPKI.leaf(issuer: ca).derBytes
        let verdict = try evaluate([outside, caCertificate], anchors: [constrainedRoot.derBytes])
        #expect(verdict.failures == [.other])
        #expect(verdict.diagnostics.map(\.name) == ["GNUTLS_CERT_SIGNER_CONSTRAINTS_FAILURE"])
    }

    @Test func issuerThatIsNotACAIsNotCA() throws {
        let key = P256.Signing.PrivateKey()
        let notCA = TestPKI.Issuer(name: TestPKI.name("Not A CA"), key: .init(key))
        let notCACertificate = TestPKI.issue(
            subject: notCA.name, publicKey: .init(key.publicKey), issuer: TestPKI.root,
            notBefore: TestPKI.now - TestPKI.days(30), notAfter: TestPKI.now + TestPKI.days(300),
            extensions: try Certificate.Extensions { Critical(BasicConstraints.notCertificateAuthority) }
        ).derBytes
        let verdict = try evaluate([TestPKI.leaf(issuer: notCA).derBytes, notCACertificate])
        #expect(verdict.failures == [.notCA])
    }

    @Test func forgedSignatureIsBadSignature() throws {
        let forger = TestPKI.Issuer(name: TestPKI.intermediate.name, key: .init(P256.Signing.PrivateKey()))
        let verdict = try evaluate([TestPKI.leaf(issuer: forger).derBytes, intermediate])
        #expect(verdict.failures == [.badSignature])
    }

    @Test func issuerWhoseSignatureVerifiesIsPreferredAmongSameNamedCandidates() throws {
        // An impostor with the intermediate's name and another key is presented first.
        let impostorKey = P256.Signing.PrivateKey()
        let impostor = TestPKI.issue(
            subject: TestPKI.intermediate.name, publicKey: .init(impostorKey.publicKey), issuer: TestPKI.root,
            notBefore: TestPKI.now - TestPKI.days(30), notAfter: TestPKI.now + TestPKI.days(300),
            extensions: TestPKI.caExtensions(pathLength: 0)
        ).derBytes
        let verdict = try evaluate([leaf, impostor, intermediate])
        #expect(verdict.path == [leaf, intermediate, root])
    }

    @Test func pathEndsAtTheAnchorGnuTLSVerifiedAmongSameNamedAnchors() throws {
        // A retired root with the same name, another key and an expired validity is trusted too and
        // added first; the intermediate carries no key identifiers, so only the signature tells them apart.
        let retiredKey = P256.Signing.PrivateKey()
        let retired = TestPKI.selfSigned(
            TestPKI.Issuer(name: TestPKI.root.name, key: .init(retiredKey)), publicKey: .init(retiredKey.publicKey),
            notBefore: TestPKI.now - TestPKI.days(7300), notAfter: TestPKI.now - TestPKI.days(3650),
            extensions: TestPKI.caExtensions(pathLength: nil)
        ).derBytes
        let verdict = try evaluate([leaf, intermediate], anchors: [retired, root])
        #expect(verdict.path == [leaf, intermediate, root])
    }

    // GnuTLS 3.7 behaviour the harness reports as deviations; these tests notice if it changes.

    @Test func gnuTLSFallsBackToTheSubjectCNWhenThereIsNoDNSName() throws {
        let cnOnly = TestPKI.leaf(
            issuer: TestPKI.intermediate, commonName: "www.example.com", extensions: TestPKI.leafExtensions(names: [])
        ).derBytes
        #expect(try evaluate([cnOnly, intermediate]).isTrusted)
        // With any dNSName present the CN is ignored.
        let withSAN = TestPKI.leaf(
            issuer: TestPKI.intermediate, commonName: "www.example.com",
            extensions: TestPKI.leafExtensions(names: [.dnsName("other.example.com")])
        ).derBytes
        #expect(try evaluate([withSAN, intermediate]).failures == [.hostnameMismatch])
    }

    @Test func gnuTLSAcceptsPartialWildcardsMatchingEvenNothing() throws {
        let partial = TestPKI.leaf(
            issuer: TestPKI.intermediate, extensions: TestPKI.leafExtensions(names: [.dnsName("*oo.example.com")])
        ).derBytes
        #expect(try evaluate([partial, intermediate], host: .dns("foo.example.com")).isTrusted)
        #expect(try evaluate([partial, intermediate], host: .dns("oo.example.com")).isTrusted)
        #expect(try evaluate([partial, intermediate], host: .dns("foo.bar.example.com")).failures == [.hostnameMismatch])
    }

    /// GnuTLS's own answer to bytes it cannot import (its evaluator without the kit's preflight,
    /// which refuses them first as not DER): malformed, GnuTLS's error, the index.
    @Test func garbageLeafIsMalformedNamingIndexZero() throws {
        let evaluator = try GnuTLSEvaluator(anchors: [root], settings: backend.settings, configuration: .default)
        let verdict = evaluator.evaluate(EvaluationRequest(chain: [[0x30, 0x03, 0x01, 0x01, 0xFF], intermediate], host: .dns("www.example.com"), time: TestPKI.now))
        #expect(verdict.failures == [.malformed])
        let diagnostic = try #require(verdict.diagnostics.first)
        #expect(diagnostic.depth == 0)
        #expect(diagnostic.code < 0)
        #expect(diagnostic.name.hasPrefix("GNUTLS_E_"))
        #expect(diagnostic.message.contains("certificate 0"))
    }

    @Test func truncatedIntermediateIsMalformedNamingItsIndex() throws {
        let verdict = try evaluate([leaf, Array(intermediate.dropLast(10))])
        #expect(verdict.failures == [.malformed])
        #expect(verdict.diagnostics.first?.depth == 1)
        #expect(verdict.diagnostics.first?.message.contains("certificate 1") == true)
    }

    @Test func trailingBytesAfterACertificateAreMalformed() throws {
        let verdict = try evaluate([leaf + [0x00, 0x00], intermediate])
        #expect(verdict.failures == [.malformed])
        #expect(verdict.diagnostics.first?.depth == 0)
    }

    @Test func emptyCertificateIsMalformed() throws {
        let verdict = try evaluate([leaf, []])
        #expect(verdict.failures == [.malformed])
        #expect(verdict.diagnostics.first?.depth == 1)
    }

    @Test func emptyChainIsMalformed() throws {
        let verdict = try evaluate([])
        #expect(verdict.failures == [.malformed])
        #expect(verdict.diagnostics.count == 1)
    }

    @Test func evaluatorIsReusableAndStateless() throws {
        let evaluator = try backend.makeEvaluator(anchors: [root, root])
        for _ in 0..<3 {
            #expect(evaluator.evaluate(EvaluationRequest(chain: [leaf, intermediate], host: .dns("www.example.com"), time: TestPKI.now)).isTrusted)
            #expect(evaluator.evaluate(EvaluationRequest(chain: [leaf, intermediate], host: .dns("nope.example.com"), time: TestPKI.now)).failures == [.hostnameMismatch])
        }
    }
}
