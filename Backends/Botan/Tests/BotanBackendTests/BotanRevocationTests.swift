import BotanBackend
import Foundation
import Testing
import TrustBackendKit
import TrustHarnessTestKit

/// Revocation through Botan's own API: CRLs in a `Certificate_Store_In_Memory` and OCSP responses as
/// `x509_path_validate`'s `ocsp_resp`, the mode as `Path_Validation_Restrictions`' `require_rev` and
/// `ocsp_all_intermediates`; with NIST PKITS's certificates and CRLs (Vectors/pkits/pkits.json) at
/// PKITS's validation time, and the committed revocation vectors' OCSP responses.
@Suite struct BotanRevocationTests {
    /// PKITS 4.4.3: the leaf is on Good CA's CRL. Botan says CERT_IS_REVOKED in every mode.
    @Test(arguments: [RevocationMode?.none, .hardFail, .softFail])
    func aRevokedLeafIsRevoked(_ mode: RevocationMode?) throws {
        let entry = try BackendTestKit.pkitsEntry("pkits::4.4.3-InvalidRevokedEETest3")
        var request = entry.request
        request.revocationLists = entry.crls
        request.revocationMode = mode
        let verdict = try BotanBackend().makeEvaluator(anchors: entry.anchors).evaluate(request)
        #expect(!verdict.isTrusted)
        #expect(verdict.failures == [.revoked], "\(verdict)")
        #expect(verdict.diagnostics.map(\.name) == ["CERT_IS_REVOKED"], "\(verdict)")
        #expect(verdict.diagnostics.first?.depth == 0)
    }

    /// The modes, with CRLs for part of the path. PKITS 4.4.3 with only the trust anchor's CRL (Good
    /// CA covered, the leaf not): hard-fail and the TLS client's default (`require_rev`) want data
    /// for the leaf, NO_REVOCATION_DATA at depth 0; soft-fail trusts it, as does the C interface's
    /// one mode. PKITS 4.1.1 with only Good CA's CRL (the leaf covered, Good CA not): hard-fail
    /// (`ocsp_all_intermediates` too) wants data for Good CA, NO_REVOCATION_DATA at depth 1; the TLS
    /// client's default asks it of the leaf only and trusts the chain.
    @Test func theModesDecideWhatACertificateWithoutDataMeans() throws {
        let revoked = try BackendTestKit.pkitsEntry("pkits::4.4.3-InvalidRevokedEETest3")
        var leafUncovered = revoked.request
        leafUncovered.revocationLists = try #require(Self.crls(of: revoked, naming: "Trust Anchor"))
        let botan = try BotanBackend().makeEvaluator(anchors: revoked.anchors)
        let ffi = try BotanBackend(settings: .ffi).makeEvaluator(anchors: revoked.anchors)
        for (mode, evaluator) in [(RevocationMode?.some(.hardFail), botan), (nil, botan)] {
            var request = leafUncovered
            request.revocationMode = mode
            let verdict = evaluator.evaluate(request)
            #expect(!verdict.isTrusted, "\(String(describing: mode))")
            #expect(verdict.diagnostics.map(\.name) == ["NO_REVOCATION_DATA"], "\(verdict)")
            #expect(verdict.diagnostics.first?.depth == 0)
        }
        for (mode, evaluator) in [(RevocationMode?.some(.softFail), botan), (nil, ffi), (.softFail, ffi)] {
            var request = leafUncovered
            request.revocationMode = mode
            #expect(evaluator.evaluate(request).isTrusted, "\(String(describing: mode)): \(evaluator.evaluate(request))")
        }

        let valid = try BackendTestKit.pkitsEntry("pkits::4.1.1-ValidSignaturesTest1")
        var intermediateUncovered = valid.request
        intermediateUncovered.revocationLists = try #require(Self.crls(of: valid, naming: "Good CA"))
        let evaluator = try BotanBackend().makeEvaluator(anchors: valid.anchors)
        #expect(evaluator.evaluate(intermediateUncovered).isTrusted, "\(evaluator.evaluate(intermediateUncovered))")
        intermediateUncovered.revocationMode = .hardFail
        let hard = evaluator.evaluate(intermediateUncovered)
        #expect(hard.diagnostics.map(\.name) == ["NO_REVOCATION_DATA"], "\(hard)")
        #expect(hard.diagnostics.first?.depth == 1)
    }

    /// Hard-fail with no revocation data at all trusts nothing; soft-fail trusts the chain.
    @Test func aModeWithoutDataIsAskedToo() throws {
        let valid = try BackendTestKit.pkitsEntry("pkits::4.1.1-ValidSignaturesTest1")
        let evaluator = try BotanBackend().makeEvaluator(anchors: valid.anchors)
        var request = valid.request
        request.revocationMode = .hardFail
        #expect(evaluator.evaluate(request).diagnostics.map(\.name) == ["NO_REVOCATION_DATA", "NO_REVOCATION_DATA"])
        request.revocationMode = .softFail
        #expect(evaluator.evaluate(request).isTrusted)
    }

    /// A CRL or an OCSP response Botan cannot decode (a real one cut short) rejects the chain with
    /// Botan's reason, though the rest covers it: never ignored, never trusted.
    @Test func garbageRevocationDataIsRejected() throws {
        let entry = try BackendTestKit.pkitsEntry("pkits::4.1.1-ValidSignaturesTest1")
        var request = entry.request
        let crl = try #require(entry.crls.first)
        request.revocationLists = entry.crls + [Array(crl.prefix(crl.count / 2))]
        let verdict = try BotanBackend().makeEvaluator(anchors: entry.anchors).evaluate(request)
        #expect(!verdict.isTrusted)
        #expect(verdict.failures == [.malformed], "\(verdict)")
        #expect(verdict.origin == .library)
        #expect(verdict.diagnostics.map(\.name) == ["BOTAN_CRL_DECODING_ERROR"], "\(verdict)")
        #expect(verdict.diagnostics.first?.message.contains("CRL \(entry.crls.count)") == true)

        let vector = try BackendTestKit.vector("revocation-ocsp-good/p256")
        var ocsp = vector.request
        let response = try #require(ocsp.ocspResponses.first)
        ocsp.ocspResponses = [Array(response.prefix(response.count / 2))]
        for mode in [RevocationMode.hardFail, .softFail] {
            ocsp.revocationMode = mode
            let rejected = try BotanBackend().makeEvaluator(anchors: vector.anchors).evaluate(ocsp)
            #expect(!rejected.isTrusted)
            #expect(rejected.failures == [.malformed], "\(rejected)")
            #expect(rejected.diagnostics.map(\.name) == ["BOTAN_OCSP_DECODING_ERROR"], "\(rejected)")
        }
    }

    /// OCSP: a good response for the leaf is its revocation data in hard-fail; a revoked one is
    /// CERT_IS_REVOKED; the good response is judged at the request's time, so a year later, past its
    /// nextUpdate, it is OCSP_HAS_EXPIRED (not at the clock's time: the vectors' time is fixed).
    @Test func ocspResponsesAreJudgedAtTheRequestsTime() throws {
        let good = try BackendTestKit.vector("revocation-ocsp-good/p256")
        let evaluator = try BotanBackend().makeEvaluator(anchors: good.anchors)
        var request = good.request
        request.revocationMode = .hardFail
        // The intermediate has no data of its own: hard-fail asks it of the leaf only here.
        let hard = evaluator.evaluate(request)
        #expect(hard.diagnostics.map(\.name) == ["NO_REVOCATION_DATA"], "\(hard)")
        #expect(hard.diagnostics.first?.depth == 1)
        request.revocationMode = nil
        #expect(evaluator.evaluate(request).isTrusted, "\(evaluator.evaluate(request))")
        var later = request
        later.time = request.time.addingTimeInterval(30 * 86_400)
        let stale = evaluator.evaluate(later)
        #expect(stale.diagnostics.contains { $0.name == "OCSP_HAS_EXPIRED" && $0.depth == 0 }, "\(stale)")

        // A revoked response is no revocation data to PKIX::merge_revocation_status (only
        // OCSP_RESPONSE_GOOD is), so where the leaf needs data (the TLS client's default) Botan
        // reports NO_REVOCATION_DATA beside CERT_IS_REVOKED; in soft-fail, CERT_IS_REVOKED alone.
        let revoked = try BackendTestKit.vector("revocation-ocsp-revoked/p256")
        let revokedEvaluator = try BotanBackend().makeEvaluator(anchors: revoked.anchors)
        let byDefault = revokedEvaluator.evaluate(revoked.request)
        #expect(byDefault.diagnostics.map(\.name) == ["NO_REVOCATION_DATA", "CERT_IS_REVOKED"], "\(byDefault)")
        var soft = revoked.request
        soft.revocationMode = .softFail
        let verdict = revokedEvaluator.evaluate(soft)
        #expect(verdict.failures == [.revoked], "\(verdict)")
        #expect(verdict.diagnostics.map(\.name) == ["CERT_IS_REVOKED"], "\(verdict)")
        #expect(verdict.diagnostics.first?.depth == 0)
    }

    /// `botan-ffi` takes what Botan's C interface takes: CRLs in soft-fail. Hard-fail and OCSP
    /// responses are refused by the preflight, origin harness.
    @Test func theFFIVariantRefusesWhatTheCInterfaceCannotTake() throws {
        let entry = try BackendTestKit.pkitsEntry("pkits::4.1.1-ValidSignaturesTest1")
        let evaluator = try BotanBackend(settings: .ffi).makeEvaluator(anchors: entry.anchors)
        var hard = entry.request
        hard.revocationLists = entry.crls
        hard.revocationMode = .hardFail
        var ocsp = entry.request
        ocsp.ocspResponses = [[0x30, 0x03, 0x0A, 0x01, 0x00]]
        for request in [hard, ocsp] {
            let verdict = evaluator.evaluate(request)
            #expect(!verdict.isTrusted)
            #expect(verdict.diagnostics.map(\.name) == ["UNSUPPORTED_CONSTRAINT"])
            #expect(verdict.origin == .harness)
        }
    }

    /// `botan-ffi`'s reference passes CRLs to `botan_x509_cert_verify_with_crl`: it rejects PKITS
    /// 4.4.3's revoked leaf with them and trusts the chain without them.
    @Test func theFFIReferenceTakesCRLs() async throws {
        let entry = try BackendTestKit.pkitsEntry("pkits::4.4.3-InvalidRevokedEETest3")
        let reference = try #require(BotanBackend.package.benchmarks.reference(for: "botan-ffi"))
        #expect(reference.features == [.revocationLists, .softFailRevocation])
        var request = entry.request
        #expect(await reference.trusts(request, anchors: entry.anchors) == true)
        request.revocationLists = entry.crls
        #expect(await reference.trusts(request, anchors: entry.anchors) == false)
        request.revocationLists.append([0x30, 0x00])
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
