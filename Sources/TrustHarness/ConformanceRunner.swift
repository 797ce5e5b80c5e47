import TrustCore
import TrustVectors

/// Runs vectors against back ends and judges each verdict. Knows nothing of C or of report formats.
public struct ConformanceRunner: Sendable {
    public var backends: [any TrustBackend]
    public var suite: VectorSuite

    public init(backends: [any TrustBackend] = BackendRegistry.all, suite: VectorSuite) {
        self.backends = backends
        self.suite = suite
    }

    /// Evaluates every vector on every back end, in vector order then back-end order.
    ///
    /// Evaluators are made once per back end and distinct anchor set, as a client makes them once,
    /// and evaluations run concurrently across all cores; the results do not depend on that order.
    public func run(vectors selected: [LoadedVector]? = nil, progress: (@Sendable (Int, Int) -> Void)? = nil) async -> [ConformanceResult] {
        let vectors = selected ?? suite.vectors
        let evaluators = EvaluatorCache(backends: backends)
        let jobs = vectors.flatMap { vector in backends.indices.map { (vector, $0) } }
        let total = jobs.count
        var results = [ConformanceResult?](repeating: nil, count: total)
        await withTaskGroup(of: (Int, ConformanceResult).self) { group in
            var next = 0
            var done = 0
            let width = max(2, ProcessInfo.processInfo.activeProcessorCount * 2)
            func submit() {
                guard next < total else { return }
                let index = next
                let (vector, backendIndex) = jobs[index]
                next += 1
                group.addTask {
                    (index, self.evaluate(vector, on: backendIndex, evaluators: evaluators))
                }
            }
            for _ in 0..<width { submit() }
            for await (index, result) in group {
                results[index] = result
                done += 1
                progress?(done, total)
                submit()
            }
        }
        return results.map { $0! }
    }

    /// Evaluates one vector on one back end, sequentially, without sharing evaluators.
    public func evaluate(_ vector: LoadedVector, backend: any TrustBackend) -> ConformanceResult {
        let evaluator = Result { try backend.makeEvaluator(anchors: vector.anchors) }
        return result(vector, backend: backend.name, evaluator: evaluator)
    }

    func evaluate(_ vector: LoadedVector, on backendIndex: Int, evaluators: EvaluatorCache) -> ConformanceResult {
        let backend = backends[backendIndex]
        return result(vector, backend: backend.name, evaluator: evaluators.evaluator(backendIndex, anchors: vector.anchors))
    }

    func result(_ vector: LoadedVector, backend: String, evaluator: Result<any TrustEvaluator, any Error>) -> ConformanceResult {
        switch evaluator {
        case .failure(let error):
            return ConformanceResult(
                vector: vector, backend: backend, verdict: nil, error: "\(error)",
                judgement: Judgement(outcome: .error, failureKind: nil, detail: "could not make an evaluator: \(error)")
            )
        case .success(let evaluator):
            let verdict = evaluator.evaluate(vector.request)
            let judgement = Judgement.judge(
                verdict,
                expected: vector.expected,
                expectedPath: vector.expectedPath,
                deviation: suite.deviation(backend: backend, vector: vector.id)
            )
            return ConformanceResult(vector: vector, backend: backend, verdict: verdict, error: nil, judgement: judgement)
        }
    }
}

import Foundation
import Synchronization

/// Evaluators shared across concurrent evaluations, one per back end and anchor set.
final class EvaluatorCache: Sendable {
    private let backends: [any TrustBackend]
    private let made = Mutex<[Key: Result<any TrustEvaluator, any Error>]>([:])

    struct Key: Hashable {
        var backend: Int
        var anchors: [[UInt8]]
    }

    init(backends: [any TrustBackend]) {
        self.backends = backends
    }

    func evaluator(_ backend: Int, anchors: [[UInt8]]) -> Result<any TrustEvaluator, any Error> {
        let key = Key(backend: backend, anchors: anchors)
        if let existing = made.withLock({ $0[key] }) { return existing }
        let fresh = Result { try backends[backend].makeEvaluator(anchors: anchors) }
        return made.withLock { table in
            if let existing = table[key] { return existing }
            table[key] = fresh
            return fresh
        }
    }
}
