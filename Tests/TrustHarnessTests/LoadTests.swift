import Testing
import TrustCore
@testable import TrustHarness
import TrustVectors

/// Many tasks on shared evaluators give exactly the single-task verdicts: every chain vector and
/// bad-input case, on every back end, at their own validation times, interleaved across 8 tasks
/// (so GnuTLS's per-thread time is switched between requests on every thread).
@Suite(.timeLimit(.minutes(5))) struct LoadTests {
    @Test(arguments: [BackendConfiguration.default, .uncached])
    func concurrentVerdictsEqualSingleTaskVerdicts(configuration: BackendConfiguration) async throws {
        let vectors = try #require(VectorSuite.locate())
        let runner = try LoadRunner(
            backends: BackendRegistry.all(configuration: configuration),
            suite: try VectorSuite.load(from: vectors),
            corpus: try BadInputCorpus.load(vectors: vectors)
        )
        #expect(runner.jobs.count > 300)
        let wrong = await runner.wrongVerdicts(tasks: 8, rounds: 2)
        #expect(wrong.isEmpty, "\(Set(wrong).sorted().prefix(10))")
    }

    /// Eight tasks share one cached evaluator per back end and anchor set (one cache with room for
    /// everything, one so small it evicts all the time): every verdict, for every chain vector, is
    /// the one an uncached evaluator gives alone.
    @Test(arguments: [1024, 2])
    func sharedCachedEvaluatorsGiveTheUncachedVerdicts(capacity: Int) async throws {
        let suite = try VectorSuite.load(from: try #require(VectorSuite.locate()))
        for type in BackendRegistry.types {
            let cached = type.init(configuration: BackendConfiguration(certificateCacheCapacity: capacity))
            let uncached = type.init(configuration: .uncached)
            var evaluators: [[[UInt8]]: any TrustEvaluator] = [:]
            var jobs: [(evaluator: any TrustEvaluator, request: EvaluationRequest, expected: Verdict)] = []
            for vector in suite.vectors {
                if evaluators[vector.anchors] == nil { evaluators[vector.anchors] = try cached.makeEvaluator(anchors: vector.anchors) }
                let expected = try uncached.makeEvaluator(anchors: vector.anchors).evaluate(vector.request)
                jobs.append((evaluators[vector.anchors]!, vector.request, expected))
            }
            let shared = jobs
            let wrong = await withTaskGroup(of: [String].self) { group in
                for task in 0..<8 {
                    group.addTask {
                        let jobs = shared
                        var wrong: [String] = []
                        for round in 0..<2 {
                            for offset in jobs.indices {
                                // Half the tasks hammer one chain, the others walk all of them.
                                let index = task.isMultiple(of: 2) ? task % 3 : (offset + task * 31 + round * 17) % jobs.count
                                if jobs[index].evaluator.evaluate(jobs[index].request) != jobs[index].expected { wrong.append("\(index)") }
                            }
                        }
                        return wrong
                    }
                }
                return await group.reduce(into: []) { $0 += $1 }
            }
            #expect(wrong.isEmpty, "\(cached.name), capacity \(capacity): \(wrong.count) verdicts differ from uncached ones")
        }
    }

    @Test func aShortTimedRunReportsItsFigures() async throws {
        let vectors = try #require(VectorSuite.locate())
        let runner = try LoadRunner(backends: BackendRegistry.all, suite: try VectorSuite.load(from: vectors), corpus: nil)
        let report = await runner.run(tasks: 4, seconds: 0.5)
        #expect(report.wrongVerdicts == 0)
        #expect(report.evaluations > 0 && report.perSecond > 0 && report.singleTaskPerSecond > 0, "\(report)")
        #expect(report.residentMiBAtEnd > 0)
    }
}
