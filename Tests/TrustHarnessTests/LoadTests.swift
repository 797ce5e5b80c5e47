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
    // That shared evaluators under many tasks (with a cache so small it evicts all the time) give
    // exactly one uncached task's verdicts, for every chain vector and bad-input case, is the test
    // kit's contract suite (expectContract), run on every built-in back end by TestKitTests.

    @Test func aShortTimedRunReportsItsFigures() async throws {
        // The generated catalogue (the explored vectors are mutants of the same chains): this is
        // about the figures a run reports, and the reference pass over every vector was two of its
        // three seconds.
        let suite = try Fixtures.suite().keepingVectors { !$0.id.hasPrefix("explored/") }
        let runner = try LoadRunner(backends: BuiltInBackends.registry.all(), references: BuiltInBackends.registry.all(configuration: .uncached), suite: suite, corpus: nil)
        let report = await runner.run(tasks: 4, seconds: 0.25)
        #expect(report.wrongVerdicts == 0)
        #expect(report.evaluations > 0 && report.perSecond > 0 && report.singleTaskPerSecond > 0, "\(report)")
        #expect(report.residentMiBAtEnd > 0)
    }
}
