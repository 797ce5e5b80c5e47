import OpenSSLBackend
import Testing
import TrustBackendKit
import TrustVectors

/// The guard every back end's evaluators are behind (the registry's, ``BackendPreflight``'s): what a faulty or careless plugged-in back end
/// says is turned into a fail-closed rejection, whatever the wrapped library would have said.
@Suite struct GuardedBackendTests {
    /// The real OpenSSL back end with its verdict rewritten, as a buggy plugin might.
    struct Rewriting: TrustBackend {
        let rewrite: @Sendable (Verdict, EvaluationRequest) -> Verdict
        let base = OpenSSLBackend()
        var name: String { "rewriting" }
        var libraryVersion: String { base.libraryVersion }
        func makeEvaluator(anchors: [[UInt8]]) throws -> any TrustEvaluator {
            Evaluator(base: try base.makeEvaluator(anchors: anchors), rewrite: rewrite)
        }
        struct Evaluator: TrustEvaluator {
            let base: any TrustEvaluator
            let rewrite: @Sendable (Verdict, EvaluationRequest) -> Verdict
            func evaluate(_ request: EvaluationRequest) -> Verdict { rewrite(base.evaluate(request), request) }
        }
    }

    static func verdict(_ rewrite: @escaping @Sendable (Verdict, EvaluationRequest) -> Verdict, chain: (LoadedVector) -> [[UInt8]] = \.chain) throws -> Verdict {
        let vector = try #require(try KitFixtures.suite().vectors.first { $0.id == "valid-chain/p256" })
        let registry = try BackendRegistry([.init { _ in Rewriting(rewrite: rewrite) }])
        let evaluator = try registry.all()[0].makeEvaluator(anchors: vector.anchors)
        return evaluator.evaluate(EvaluationRequest(chain: chain(vector), host: vector.host, time: vector.time))
    }

    @Test func anHonestVerdictPassesUnchanged() throws {
        #expect(try Self.verdict { verdict, _ in verdict }.isTrusted)
    }

    @Test func aTrustedPathNotEndingAtAnAnchorIsRejected() throws {
        let verdict = try Self.verdict { verdict, _ in .trusted(path: Array(verdict.path?.dropLast() ?? [])) }
        #expect(verdict.diagnostics.map(\.name) == ["UNEXPECTED_SUCCESS"])
    }

    @Test func aTrustedPathNotStartingAtTheLeafIsRejected() throws {
        let verdict = try Self.verdict { verdict, _ in .trusted(path: Array(verdict.path?.dropFirst() ?? [])) }
        #expect(verdict.diagnostics.map(\.name) == ["UNEXPECTED_SUCCESS"])
    }

    @Test func aRejectionWithoutADiagnosticIsExplained() throws {
        let verdict = try Self.verdict { _, _ in .rejected([]) }
        #expect(verdict.diagnostics.map(\.name) == ["UNEXPLAINED_REJECTION"])
    }

    @Test func badInputNeverReachesTheWrappedBackEnd() throws {
        let verdict = try Self.verdict({ _, _ in .trusted(path: []) }, chain: { _ in [] })
        #expect(verdict.diagnostics.map(\.name) == ["EMPTY_CHAIN"])
    }
}
