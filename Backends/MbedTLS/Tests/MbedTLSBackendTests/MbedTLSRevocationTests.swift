import Foundation
import MbedTLSBackend
import Testing
import TrustBackendKit
import TrustHarnessTestKit

/// CRLs through mbedTLS's own API (`mbedtls_x509_crl_parse_der`, then `ca_crl` of
/// `mbedtls_x509_crt_verify_with_profile`), with NIST PKITS's certificates and CRLs
/// (Vectors/pkits/pkits.json) at PKITS's validation time.
@Suite struct MbedTLSRevocationTests {
    /// PKITS 4.4.3: the leaf is on Good CA's CRL. mbedTLS says MBEDTLS_X509_BADCERT_REVOKED, in its
    /// one mode, asked by name or by default.
    @Test(arguments: [RevocationMode?.none, .softFail])
    func aRevokedLeafIsRevoked(_ mode: RevocationMode?) throws {
        let entry = try BackendTestKit.pkitsEntry("pkits::4.4.3-InvalidRevokedEETest3")
        var request = entry.request
        request.revocationLists = entry.crls
        request.revocationMode = mode
        let verdict = try MbedTLSBackend().makeEvaluator(anchors: entry.anchors).evaluate(request)
        #expect(!verdict.isTrusted)
        #expect(verdict.failures == [.revoked], "\(verdict)")
        #expect(verdict.diagnostics.map(\.name) == ["MBEDTLS_X509_BADCERT_REVOKED"], "\(verdict)")
        #expect(verdict.diagnostics.first?.depth == 0)
        #expect(verdict.origin == .library)
    }

    /// Soft-fail, mbedTLS's one mode: the same chain with only the trust anchor's CRL (which covers
    /// Good CA and lists nothing) is trusted, since no CRL names the leaf's issuer; with no CRL at
    /// all, too. PKITS 4.1.1 with every CRL (none listing a certificate of the path) is trusted.
    @Test func aCertificateNoCRLCoversIsNotRevoked() throws {
        let revoked = try BackendTestKit.pkitsEntry("pkits::4.4.3-InvalidRevokedEETest3")
        let evaluator = try MbedTLSBackend().makeEvaluator(anchors: revoked.anchors)
        var request = revoked.request
        request.revocationLists = try #require(Self.crls(of: revoked, naming: "Trust Anchor"))
        #expect(request.revocationLists.count == 1)
        #expect(evaluator.evaluate(request).isTrusted, "\(evaluator.evaluate(request))")
        request.revocationLists = []
        request.revocationMode = .softFail
        #expect(evaluator.evaluate(request).isTrusted)

        let valid = try BackendTestKit.pkitsEntry("pkits::4.1.1-ValidSignaturesTest1")
        var covered = valid.request
        covered.revocationLists = valid.crls
        #expect(try MbedTLSBackend().makeEvaluator(anchors: valid.anchors).evaluate(covered).isTrusted)
    }

    /// A CRL mbedTLS cannot parse (a real CRL cut short) rejects the chain with mbedTLS's error,
    /// though the other CRLs cover it: never ignored.
    @Test func aGarbageCRLIsRejected() throws {
        let entry = try BackendTestKit.pkitsEntry("pkits::4.1.1-ValidSignaturesTest1")
        var request = entry.request
        let crl = try #require(entry.crls.first)
        request.revocationLists = entry.crls + [Array(crl.prefix(crl.count / 2))]
        let verdict = try MbedTLSBackend().makeEvaluator(anchors: entry.anchors).evaluate(request)
        #expect(!verdict.isTrusted)
        #expect(verdict.failures == [.malformed], "\(verdict)")
        #expect(verdict.origin == .library)
        #expect(verdict.diagnostics.first?.name.hasPrefix("MBEDTLS_ERR_X509_") == true, "\(verdict)")
        #expect(verdict.diagnostics.first?.message.contains("CRL \(entry.crls.count)") == true, "\(verdict)")
    }

    /// A CRL's nextUpdate is judged at the request's time (the bridge's pinned clock reaches
    /// x509_crt_verifycrl's mbedtls_x509_time_is_past), not the clock's: PKITS 4.4.11's CA CRL has
    /// nextUpdate 2010-01-02T08:30Z. At PKITS's time mbedTLS sets MBEDTLS_X509_BADCRL_EXPIRED on the
    /// leaf; at 2010-01-01T12:00Z, where the CRL is current and the certificates valid (from
    /// 2010-01-01T08:30Z), the chain is trusted. (The clock, in 2026, would flag both.)
    @Test func crlTimesAreTheRequests() throws {
        let stale = try BackendTestKit.pkitsEntry("pkits::4.4.11-InvalidOldCRLnextUpdateTest11")
        let evaluator = try MbedTLSBackend().makeEvaluator(anchors: stale.anchors)
        var request = stale.request
        request.revocationLists = stale.crls
        let late = evaluator.evaluate(request)
        #expect(!late.isTrusted)
        #expect(late.diagnostics.map(\.name) == ["MBEDTLS_X509_BADCRL_EXPIRED"], "\(late)")
        #expect(late.diagnostics.first?.depth == 0)
        request.time = try #require(ISO8601DateFormatter().date(from: "2010-01-01T12:00:00Z"))
        let early = evaluator.evaluate(request)
        #expect(early.isTrusted, "\(early)")
    }

    /// The fidelity reference takes the CRLs the plain way too: it rejects PKITS 4.4.3's revoked
    /// leaf with them and trusts the chain without them.
    @Test func theReferenceTakesCRLs() async throws {
        let entry = try BackendTestKit.pkitsEntry("pkits::4.4.3-InvalidRevokedEETest3")
        let reference = try #require(MbedTLSBackend.package.benchmarks.reference(for: "mbedtls"))
        #expect(reference.features.contains(.revocationLists))
        var request = entry.request
        #expect(await reference.trusts(request, anchors: entry.anchors) == true)
        request.revocationLists = entry.crls
        #expect(await reference.trusts(request, anchors: entry.anchors) == false)
    }

    /// The CRLs of `entry` that spell `commonName` (PKITS's CRLs name their issuer, a CA's common
    /// name, and no other CA), or nil when none does.
    static func crls(of entry: PKITSEntry, naming commonName: String) -> [[UInt8]]? {
        let needle = Array(commonName.utf8)
        let found = entry.crls.filter { crl in crl.indices.contains { crl[$0...].starts(with: needle) } }
        return found.isEmpty ? nil : found
    }
}
