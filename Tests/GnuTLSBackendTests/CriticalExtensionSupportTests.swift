import Foundation
@testable import GnuTLSBackend
import SwiftASN1
import TestPKI
import Testing
import TrustCore
import X509

/// A pinned leaf must get the answer GnuTLS gives the same leaf on any other path: for every
/// extension, critical, the pinned verdict and the presented-with-its-chain verdict agree on
/// `GNUTLS_CERT_UNKNOWN_CRIT_EXTENSIONS` (issue 11: a hand-kept list let a critical
/// policyConstraints through on the pinned path only).
@Suite("GnuTLS critical extension support")
struct CriticalExtensionSupportTests {
    /// Every extension RFC 5280 defines, those of other RFCs a TLS verifier meets, and two no
    /// verifier can know: (OID, a DER value of the right shape).
    static let extensions: [(oid: String, value: [UInt8])] = [
        ("2.5.29.9", [0x30, 0x00]),  // subjectDirectoryAttributes
        ("2.5.29.14", [0x04, 0x01, 0x01]),  // subjectKeyIdentifier
        ("2.5.29.16", [0x30, 0x00]),  // privateKeyUsagePeriod
        ("2.5.29.18", [0x30, 0x05, 0x82, 0x03, 0x61, 0x2E, 0x62]),  // issuerAltName
        ("2.5.29.30", [0x30, 0x09, 0xA0, 0x07, 0x30, 0x05, 0x82, 0x03, 0x61, 0x2E, 0x62]),  // nameConstraints
        ("2.5.29.31", distributionPoints),  // cRLDistributionPoints
        ("2.5.29.32", [0x30, 0x06, 0x30, 0x04, 0x06, 0x02, 0x2A, 0x03]),  // certificatePolicies
        ("2.5.29.33", [0x30, 0x08, 0x30, 0x06, 0x06, 0x01, 0x2A, 0x06, 0x01, 0x2B]),  // policyMappings
        ("2.5.29.35", [0x30, 0x03, 0x80, 0x01, 0x01]),  // authorityKeyIdentifier
        ("2.5.29.36", [0x30, 0x03, 0x81, 0x01, 0x05]),  // policyConstraints
        ("2.5.29.37", [0x30, 0x0A, 0x06, 0x08, 0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x01]),  // extKeyUsage
        ("2.5.29.46", distributionPoints),  // freshestCRL
        ("2.5.29.54", [0x02, 0x01, 0x00]),  // inhibitAnyPolicy
        ("1.3.6.1.5.5.7.1.1", accessDescriptions),  // authorityInfoAccess
        ("1.3.6.1.5.5.7.1.11", accessDescriptions),  // subjectInfoAccess
        ("1.3.6.1.5.5.7.1.24", [0x30, 0x03, 0x02, 0x01, 0x05]),  // TLS feature (status_request)
        ("1.3.6.1.4.1.11129.2.4.2", [0x04, 0x00]),  // CT signed certificate timestamps
        ("1.3.6.1.5.5.7.48.1.5", [0x05, 0x00]),  // OCSP no check
        ("1.3.6.1.4.1.32473.1", [0x05, 0x00]),  // RFC 5612 documentation arc: unknown to all
        ("1.3.6.1.4.1.32473.99.7", [0x05, 0x00]),
    ]

    /// One DistributionPoint whose fullName is the URI "a.b".
    static let distributionPoints: [UInt8] = [0x30, 0x0B, 0x30, 0x09, 0xA0, 0x07, 0xA0, 0x05, 0x86, 0x03, 0x61, 0x2E, 0x62]
    /// One AccessDescription: OCSP at the URI "a".
    static let accessDescriptions: [UInt8] = [
        0x30, 0x0F, 0x30, 0x0D, 0x06, 0x08, 0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x30, 0x01, 0x86, 0x01, 0x61,
    ]

    static func leaf(with oid: String, value: [UInt8]) throws -> [UInt8] {
        let identifier = try ASN1ObjectIdentifier(dotRepresentation: oid)
        // The extension replaces the leaf's own of that OID (extKeyUsage, the key identifiers), which may appear once.
        return TestPKI.leaf("www.example.com", issuer: TestPKI.intermediate, names: [.dnsName("www.example.com")]) { extensions in
            _ = extensions.remove(identifier)
            try extensions.append(Certificate.Extension(oid: identifier, critical: true, value: value[...]))
        }.der
    }

    @Test(arguments: extensions.map(\.oid))
    func pinnedAndPresentedLeavesAgree(oid: String) throws {
        let value = try #require(Self.extensions.first { $0.oid == oid }?.value)
        let leaf = try Self.leaf(with: oid, value: value)
        let backend = GnuTLSBackend()
        let request = EvaluationRequest(chain: [leaf, TestPKI.intermediate.der], host: .dns("www.example.com"), time: TestPKI.start)
        let presented = try backend.makeEvaluator(anchors: [TestPKI.root.der]).evaluate(request)
        let pinned = try backend.makeEvaluator(anchors: [leaf]).evaluate(request)
        let pinnedAlone = try backend.makeEvaluator(anchors: [leaf]).evaluate(EvaluationRequest(chain: [leaf], host: .dns("www.example.com"), time: TestPKI.start))
        func unknown(_ verdict: Verdict) -> Bool {
            verdict.diagnostics.contains { $0.name == "GNUTLS_CERT_UNKNOWN_CRIT_EXTENSIONS" }
        }
        #expect(unknown(presented) == unknown(pinned), "\(oid): presented \(presented), pinned \(pinned)")
        #expect(unknown(pinned) == unknown(pinnedAlone), "\(oid)")
        #expect(unknown(pinned) == !CriticalExtensionSupport.isSupported(oid), "\(oid)")
        // Where GnuTLS supports the extension, nothing else about these leaves is wrong.
        if CriticalExtensionSupport.isSupported(oid) && !["2.5.29.30", "2.5.29.37"].contains(oid) {
            #expect(pinned.isTrusted, "\(oid): \(pinned)")
        }
    }

    /// What GnuTLS 3.7 is known to lack (lib/x509/supported_exts.gperf): a change in the linked
    /// library shows here, and then the README's deviation list needs a look.
    @Test func gnutls37LacksPolicyMappingsAndPolicyConstraints() {
        #expect(!CriticalExtensionSupport.isSupported("2.5.29.33"))
        #expect(!CriticalExtensionSupport.isSupported("2.5.29.36"))
        #expect(!CriticalExtensionSupport.isSupported("1.3.6.1.4.1.32473.1"))
        #expect(CriticalExtensionSupport.isSupported("2.5.29.19"))
        #expect(CriticalExtensionSupport.isSupported("2.5.29.32"))
        #expect(CriticalExtensionSupport.isSupported("2.5.29.54"))
    }
}
