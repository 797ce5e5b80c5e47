import Foundation
@testable import NSSBackend
import Testing
import TrustHarnessTestKit
import TrustBackendKit

/// Revocation through NSS's CRL cache (CERT_CacheCRL for the request, CERT_UncacheCRL after), with
/// NIST PKITS's certificates and CRLs (Vectors/pkits/pkits.json) at PKITS's validation time.
@Suite struct NSSRevocationTests {
    /// PKITS 4.4.3: the leaf is on Good CA's CRL. NSS says revoked, in either mode.
    @Test(arguments: [RevocationMode.hardFail, .softFail])
    func aRevokedLeafIsRevoked(_ mode: RevocationMode) throws {
        let entry = try BackendTestKit.pkitsEntry("pkits::4.4.3-InvalidRevokedEETest3")
        var request = entry.request
        request.revocationLists = entry.crls
        request.revocationMode = mode
        let verdict = try NSSBackend().makeEvaluator(anchors: entry.anchors).evaluate(request)
        #expect(!verdict.isTrusted)
        #expect(verdict.failures.contains(.revoked), "\(verdict)")
        #expect(verdict.diagnostics.contains { $0.name == "SEC_ERROR_REVOKED_CERTIFICATE" }, "\(verdict)")
    }

    /// CRLs without a mode get NSS's classic policy: PKITS 4.4.3 revoked, 4.1.1 (its CRLs cover
    /// every certificate, none listed) trusted.
    @Test func crlsWithoutAModeAreChecked() throws {
        let revoked = try BackendTestKit.pkitsEntry("pkits::4.4.3-InvalidRevokedEETest3")
        var request = revoked.request
        request.revocationLists = revoked.crls
        #expect(try NSSBackend().makeEvaluator(anchors: revoked.anchors).evaluate(request).failures.contains(.revoked))
        let valid = try BackendTestKit.pkitsEntry("pkits::4.1.1-ValidSignaturesTest1")
        var validRequest = valid.request
        validRequest.revocationLists = valid.crls
        validRequest.revocationMode = .hardFail
        let verdict = try NSSBackend().makeEvaluator(anchors: valid.anchors).evaluate(validRequest)
        #expect(verdict.isTrusted, "\(verdict)")
    }

    /// A mode without CRLs: hard-fail needs a CRL of every certificate's issuer, so nothing can be
    /// trusted; soft-fail lets a certificate no CRL covers through.
    @Test func hardFailWithoutDataRejectsAndSoftFailPasses() throws {
        let entry = try BackendTestKit.pkitsEntry("pkits::4.1.1-ValidSignaturesTest1")
        let evaluator = try NSSBackend().makeEvaluator(anchors: entry.anchors)
        var request = entry.request
        request.revocationMode = .hardFail
        #expect(!evaluator.evaluate(request).isTrusted)
        request.revocationMode = .softFail
        #expect(evaluator.evaluate(request).isTrusted)
    }

    /// A CRL NSS cannot decode (a real CRL cut short) is refused with NSS's own error, not ignored.
    @Test func aGarbageCRLIsRejected() throws {
        let entry = try BackendTestKit.pkitsEntry("pkits::4.1.1-ValidSignaturesTest1")
        var request = entry.request
        let crl = try #require(entry.crls.first)
        request.revocationLists = entry.crls + [Array(crl.prefix(crl.count / 2))]
        request.revocationMode = .softFail
        let verdict = try NSSBackend().makeEvaluator(anchors: entry.anchors).evaluate(request)
        #expect(!verdict.isTrusted)
        #expect(verdict.failures == [.malformed], "\(verdict)")
        #expect(verdict.origin == .library)
        #expect(verdict.diagnostics.allSatisfy { $0.message.contains("CERT_CacheCRL") })
    }

    /// One request's CRLs never answer for another's: the same chain, alternately with and without
    /// the CRL that revokes its leaf, gets the same two verdicts every time, in whatever NSS it
    /// runs (CRL requests go to worker processes; the others to the program's own NSS or a worker).
    @Test func crlsDoNotOutliveTheirRequest() throws {
        let entry = try BackendTestKit.pkitsEntry("pkits::4.4.3-InvalidRevokedEETest3")
        let evaluator = try NSSBackend().makeEvaluator(anchors: entry.anchors)
        var withCRLs = entry.request
        withCRLs.revocationLists = entry.crls
        for _ in 0..<3 {
            #expect(evaluator.evaluate(entry.request).isTrusted)
            #expect(evaluator.evaluate(withCRLs).failures.contains(.revoked))
        }
    }
}
