import BotanBackend
import Foundation
import Testing
import TrustBackendKit
import TrustHarnessTestKit

/// Every Botan back end has a fidelity reference (`trust-harness fidelity`), each Botan called plainly
/// with that back end's settings.
@Suite struct BotanFidelityReferenceTests {
    static let baselines = BotanBackend.package.benchmarks

    @Test func everyEntryHasAReference() {
        let labels = BotanBackend.package.entries.map { Self.baselines.reference(for: $0.name)?.label }
        #expect(labels == ["botan-c", "botan-ffi-c", "botan-legacy-c"])
    }

    /// `botan_x509_cert_verify` validates for `Usage_Type::UNSPECIFIED`: it trusts a client-only
    /// leaf, as `botan-ffi` does, where the TLS client's call (`botan`'s loop) refuses it.
    @Test func theFFIReferenceAsksForNoUsage() async throws {
        let vector = try BackendTestKit.vector("client-auth-only-leaf/p256")
        let ffi = try #require(Self.baselines.reference(for: "botan-ffi"))
        let tls = try #require(Self.baselines.reference(for: "botan"))
        #expect(await ffi.trusts(vector.request, anchors: vector.anchors) == true)
        #expect(await tls.trusts(vector.request, anchors: vector.anchors) == false)
    }

    /// The FFI checks the host and the time it is given, and cannot be asked at 1970-01-01T00:00:00Z
    /// (a `reference_time` of 0 is Botan's "now").
    @Test func theFFIReferenceTakesTheHostAndTime() async throws {
        let vector = try BackendTestKit.vector("valid-chain/p256")
        let ffi = try #require(Self.baselines.reference(for: "botan-ffi"))
        #expect(await ffi.trusts(vector.request, anchors: vector.anchors) == true)
        var otherHost = vector.request
        otherHost.host = .dns("other.example.test")
        #expect(await ffi.trusts(otherHost, anchors: vector.anchors) == false)
        var later = vector.request
        later.time = Date(timeIntervalSince1970: 7_258_118_400)  // 2200-01-01: expired
        #expect(await ffi.trusts(later, anchors: vector.anchors) == false)
        var epoch = vector.request
        epoch.time = Date(timeIntervalSince1970: 0)
        #expect(await ffi.trusts(epoch, anchors: vector.anchors) == nil)
    }

    /// The references answer each committed vector as their back ends do, where both answer,
    /// revocation vectors included where the reference takes their inputs and mode (`botan-ffi`'s:
    /// CRLs, soft-fail or no mode).
    @Test(arguments: ["botan", "botan-ffi", "botan-legacy"])
    func theVariantAgreesWithItsReference(_ name: String) async throws {
        let entry = try #require(BotanBackend.package.entries.first { $0.name == name })
        let backend = entry.make(.default)
        let reference = try #require(Self.baselines.reference(for: name))
        for vector in try BackendTestKit.vectors(includingExplored: false) where vector.request.requiredFeatures.isSubset(of: reference.features) {
            guard let trusts = await reference.trusts(vector.request, anchors: vector.anchors) else { continue }
            let verdict = backend.evaluatorFailingClosed(anchors: vector.anchors).evaluate(vector.request)
            #expect(verdict.isTrusted == trusts, "\(vector.id): \(name) \(verdict.isTrusted), \(reference.label) \(trusts)")
        }
    }
}
