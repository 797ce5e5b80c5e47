import DenyListBackend
import Foundation
import OpenSSLBackend
import Testing
import TrustCore
import TrustHarness
import TrustHarnessTestKit
import TrustPolicy

/// The example back end, plugged into TrustHarness from outside, runs TrustHarness's whole
/// conformance, bad-input and contract suites, with this package's own deviations file.
@Suite struct DenyListBackendTests {
    static let registry = try! BackendRegistry([
        .init {
            DenyListBackend(name: "openssl-denylist", wrapping: OpenSSLBackend(configuration: $0), denied: DenyList.keys, configuration: $0)
        },
    ])

    static var deviations: URL { Bundle.module.url(forResource: "deviations", withExtension: "json")! }

    @Test func conformance() async throws {
        try await BackendTestKit.expectConformance(Self.registry, deviations: Self.deviations)
    }

    @Test func badInput() async throws {
        try await BackendTestKit.expectBadInputAnswers(Self.registry, deviations: Self.deviations)
    }

    @Test func contract() async throws {
        try await BackendTestKit.expectContract(Self.registry)
    }

    /// What the deny list adds: the valid chain is refused once its intermediate's key is denied.
    @Test func aDeniedKeyOnThePathIsRevoked() throws {
        let suite = try BackendTestKit.suite(deviations: nil)
        let vector = try #require(suite.vectors.first { $0.id == "valid-chain/p256" })
        let pin = try SPKIPin(certificate: vector.chain[1])
        let backend = GuardedBackend(DenyListBackend(name: "deny", wrapping: OpenSSLBackend(), denied: [pin]))
        let evaluator = try backend.makeEvaluator(anchors: vector.anchors)
        let verdict = evaluator.evaluate(vector.request)
        #expect(verdict.failures == [.revoked])
        #expect(verdict.diagnostics.map(\.name) == ["DENIED_KEY"])
        // Again, with the pins of the path now in the evaluator's cache.
        #expect(evaluator.evaluate(vector.request) == verdict)
    }
}
