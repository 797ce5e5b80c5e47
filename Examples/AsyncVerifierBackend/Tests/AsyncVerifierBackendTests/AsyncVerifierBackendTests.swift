import AsyncVerifierBackend
import Testing
import TrustBackendKit
import TrustHarnessTestKit

/// The async back end answers TrustHarness's conformance, bad-input and contract suites with its own
/// deviations file, and its evaluations run on the calling thread, also many at once.
@Suite struct AsyncVerifierBackendTests {
    @Test(arguments: BackendTestKit.Check.allCases)
    func shared(_ check: BackendTestKit.Check) async throws {
        try await BackendTestKit.expect(check, of: AsyncVerifierBackend.package)
    }

    /// Many evaluations at once on every thread of the cooperative pool: none waits for the pool.
    @Test func manyAtOnceDoNotDeadlock() async throws {
        let vector = try BackendTestKit.vector("valid-chain/p256")
        let evaluator = try AsyncVerifierBackend().makeEvaluator(anchors: vector.anchors)
        let trusted = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<64 { group.addTask { evaluator.evaluate(vector.request).isTrusted } }
            var all = true
            for await one in group { all = all && one }
            return all
        }
        #expect(trusted)
    }
}
