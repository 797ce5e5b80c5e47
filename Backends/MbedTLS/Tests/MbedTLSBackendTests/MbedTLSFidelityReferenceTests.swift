import Foundation
import MbedTLSBackend
import Testing
import TrustBackendKit
import TrustHarnessTestKit

/// Every mbedTLS back end has a fidelity reference (`trust-harness fidelity`), mbedTLS called plainly
/// with that back end's profile.
@Suite struct MbedTLSFidelityReferenceTests {
    static let baselines = MbedTLSBackend.package.benchmarks

    @Test func everyEntryHasAReference() {
        let labels = MbedTLSBackend.package.entries.map { Self.baselines.reference(for: $0.name)?.label }
        #expect(labels == ["mbedtls-c", "mbedtls-suiteb-c"])
    }

    /// `mbedtls_x509_crt_profile_suiteb` admits ECDSA on P-256 and P-384 only: an RSA chain the default
    /// profile trusts is refused, a P-256 chain trusted.
    @Test func theSuiteBReferenceVerifiesWithTheSuiteBProfile() async throws {
        let suiteB = try #require(Self.baselines.reference(for: "mbedtls-suiteb"))
        let plain = try #require(Self.baselines.reference(for: "mbedtls"))
        let rsa = try BackendTestKit.vector("valid-chain/rsa2048")
        #expect(await plain.trusts(rsa.request, anchors: rsa.anchors) == true)
        #expect(await suiteB.trusts(rsa.request, anchors: rsa.anchors) == false)
        let p256 = try BackendTestKit.vector("valid-chain/p256")
        #expect(await suiteB.trusts(p256.request, anchors: p256.anchors) == true)
    }

    /// The reference answers each committed vector as `mbedtls-suiteb` does, where both answer (the
    /// CRL vectors in soft-fail and with no mode too).
    @Test func theSuiteBVariantAgreesWithItsReference() async throws {
        let backend = MbedTLSBackend(settings: .suiteB)
        let reference = try #require(Self.baselines.reference(for: backend.name))
        for vector in try BackendTestKit.vectors(includingExplored: false) where vector.request.requiredFeatures.isSubset(of: reference.features) {
            guard let trusts = await reference.trusts(vector.request, anchors: vector.anchors) else { continue }
            let verdict = backend.evaluatorFailingClosed(anchors: vector.anchors).evaluate(vector.request)
            #expect(verdict.isTrusted == trusts, "\(vector.id): \(backend.name) \(verdict.isTrusted), \(reference.label) \(trusts)")
        }
    }
}
