import BuiltInBackends
import Testing
import TrustCore
@testable import TrustHarness
import TrustVectors

/// Many tasks on shared evaluators give exactly the single-task verdicts: every chain vector and
/// bad-input case, on every back end, at their own validation times, interleaved across 4 tasks
/// from different offsets (more tasks than this machine's threads, so GnuTLS's per-thread time is
/// switched between requests on every thread, and the caches see every request four times).
@Suite(.timeLimit(.minutes(5))) struct LoadTests {
    /// The references come from uncached evaluators, one task alone; the tasks share cached ones
    /// (a cache with room for everything, one so small it evicts all the time).
    /// With a cache so small that it evicts all the time: evaluations racing to insert and evict.
    /// (Shared evaluators with the default cache, on every back end and variant, against the same
    /// uncached references: the test kit's contract suite, run by the back ends' test targets; an
    /// uncached evaluator keeps nothing between requests but its anchors.)
    @Test(arguments: [BackendConfiguration(certificateCacheCapacity: 2)])
    func concurrentVerdictsEqualSingleTaskVerdicts(configuration: BackendConfiguration) async throws {
        let vectors = try #require(VectorSuite.locate())
        let runner = try LoadRunner(
            backends: BuiltInBackends.registry.all(configuration: configuration),
            references: BuiltInBackends.registry.all(configuration: .uncached),
            suite: try VectorSuite.load(from: vectors),
            corpus: try BadInputCorpus.load(vectors: vectors)
        )
        #expect(runner.jobs.count > 300)
        let wrong = await runner.wrongVerdicts(tasks: 4, rounds: 1)
        #expect(wrong.isEmpty, "\(Set(wrong).sorted().prefix(10))")
    }

    @Test func aShortTimedRunReportsItsFigures() async throws {
        let vectors = try #require(VectorSuite.locate())
        let runner = try LoadRunner(backends: BuiltInBackends.registry.all(), references: BuiltInBackends.registry.all(configuration: .uncached), suite: try VectorSuite.load(from: vectors), corpus: nil)
        let report = await runner.run(tasks: 4, seconds: 0.5)
        #expect(report.wrongVerdicts == 0)
        #expect(report.evaluations > 0 && report.perSecond > 0 && report.singleTaskPerSecond > 0, "\(report)")
        #expect(report.residentMiBAtEnd > 0)
    }
}
