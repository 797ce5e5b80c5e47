import DenyListBackend
import OpenSSLBackend
import Testing
import TrustBackendKit
import TrustHarnessTestKit
import TrustPolicy

/// The example back end, plugged into TrustHarness from outside, answers TrustHarness's conformance,
/// bad-input and contract suites with this package's own deviations file; what is its own follows.
@Suite struct DenyListBackendTests {
    @Test(arguments: BackendTestKit.Check.allCases)
    func shared(_ check: BackendTestKit.Check) async throws {
        try await BackendTestKit.expect(check, of: DenyListBackend.package)
    }

    /// What the deny list adds: the valid chain is refused once its intermediate's key is denied.
    @Test func aDeniedKeyOnThePathIsRevoked() throws {
        let vector = try BackendTestKit.vector("valid-chain/p256")
        let pin = try SPKIPin(certificate: vector.request.chain[1])
        let backend = GuardedBackend(DenyListBackend(name: "deny", wrapping: OpenSSLBackend(), denied: [pin]))
        let evaluator = try backend.makeEvaluator(anchors: vector.anchors)
        let verdict = evaluator.evaluate(vector.request)
        #expect(verdict.failures == [.revoked])
        #expect(verdict.diagnostics.map(\.name) == ["DENIED_KEY"])
        // Again, with the pins of the path now in the evaluator's cache.
        #expect(evaluator.evaluate(vector.request) == verdict)
    }
}
