import Foundation
import Testing
import TrustHarnessTestKit
import TrustBackendKit
import WolfSSLBackend

/// Revocation through wolfSSL's certificate manager (wolfSSL_CertManagerEnableCRL with
/// WOLFSSL_CRL_CHECKALL, wolfSSL_CertManagerLoadCRLBuffer, wolfSSL_CertManagerCheckCRL), with NIST
/// PKITS's certificates and CRLs (Vectors/pkits/pkits.json) at PKITS's validation time.
@Suite struct WolfSSLRevocationTests {
    /// PKITS 4.4.3: the leaf is on Good CA's CRL (signed by the intermediate, so loaded only once the
    /// intermediate is a signer: through the manager's CRL I/O hook). wolfSSL says CRL_CERT_REVOKED.
    @Test(arguments: [RevocationMode?.none, .hardFail])
    func aRevokedLeafIsRevoked(_ mode: RevocationMode?) throws {
        let entry = try BackendTestKit.pkitsEntry("pkits::4.4.3-InvalidRevokedEETest3")
        var request = entry.request
        request.revocationLists = entry.crls
        request.revocationMode = mode
        let verdict = try WolfSSLBackend().makeEvaluator(anchors: entry.anchors).evaluate(request)
        #expect(!verdict.isTrusted)
        #expect(verdict.failures.contains(.revoked), "\(verdict)")
        #expect(verdict.diagnostics.contains { $0.name == "CRL_CERT_REVOKED" }, "\(verdict)")
    }

    /// PKITS 4.1.1 with its CRLs (every certificate covered, none listed) is trusted; without them,
    /// hard-fail leaves every certificate without a CRL (CRL_MISSING).
    @Test func hardFailNeedsACRLOfEveryCertificate() throws {
        let entry = try BackendTestKit.pkitsEntry("pkits::4.1.1-ValidSignaturesTest1")
        let evaluator = try WolfSSLBackend().makeEvaluator(anchors: entry.anchors)
        var request = entry.request
        request.revocationLists = entry.crls
        request.revocationMode = .hardFail
        let verdict = evaluator.evaluate(request)
        #expect(verdict.isTrusted, "\(verdict)")
        request.revocationLists = []
        let missing = evaluator.evaluate(request)
        #expect(!missing.isTrusted)
        #expect(missing.diagnostics.contains { $0.name == "CRL_MISSING" }, "\(missing)")
    }

    /// A CRL wolfSSL cannot decode (a real CRL cut short) fails the verification with wolfSSL's
    /// error, even though the other CRLs cover the chain.
    @Test func aGarbageCRLIsRejected() throws {
        let entry = try BackendTestKit.pkitsEntry("pkits::4.1.1-ValidSignaturesTest1")
        var request = entry.request
        let crl = try #require(entry.crls.first)
        request.revocationLists = entry.crls + [Array(crl.prefix(crl.count / 2))]
        let verdict = try WolfSSLBackend().makeEvaluator(anchors: entry.anchors).evaluate(request)
        #expect(!verdict.isTrusted)
        #expect(verdict.failures.contains(.malformed), "\(verdict)")
        #expect(verdict.origin == .library)
        #expect(verdict.diagnostics.contains { $0.message.contains("wolfSSL_CertManagerLoadCRLBuffer") }, "\(verdict)")
    }

    /// A CRL's nextUpdate is judged at the request's time (wc_Time, the bridge's time callback), not
    /// the clock's: PKITS 4.4.11's CA CRL has nextUpdate 2010-01-02T08:30Z. At PKITS's time wolfSSL
    /// will not load it (ParseCRL's date check, reported by 5.5.4 as ASN_PARSE_E) and the chain is
    /// rejected; at 2010-01-01T12:00Z, where the CRL is current and the certificates valid (from
    /// 2010-01-01T08:30Z), it loads and the chain is trusted. (The clock, in 2026, would refuse both.)
    @Test func crlTimesAreTheRequests() throws {
        let stale = try BackendTestKit.pkitsEntry("pkits::4.4.11-InvalidOldCRLnextUpdateTest11")
        let evaluator = try WolfSSLBackend().makeEvaluator(anchors: stale.anchors)
        var request = stale.request
        request.revocationLists = stale.crls
        let late = evaluator.evaluate(request)
        #expect(!late.isTrusted)
        #expect(late.diagnostics.contains { $0.message.contains("revocation list 1") }, "\(late)")
        request.time = try #require(ISO8601DateFormatter().date(from: "2010-01-01T12:00:00Z"))
        let early = evaluator.evaluate(request)
        #expect(early.isTrusted, "\(early)")
    }
}
