import Foundation
import OpenSSLBackend
import Synchronization
import Testing
import TrustCore
import TrustHarness
import TrustVectors

/// A back end that never returns on the vectors it is told to stall on (a deadlocked async bridge,
/// a library stuck in a loop), and answers as OpenSSL does elsewhere.
struct StallingBackend: TrustBackend {
    let base = OpenSSLBackend()
    let stallOn: String
    var name: String { base.name }
    var libraryVersion: String { base.libraryVersion + " (stalls on purpose)" }

    func makeEvaluator(anchors: [[UInt8]]) throws -> any TrustEvaluator {
        Evaluator(base: try base.makeEvaluator(anchors: anchors), stallOn: stallOn)
    }

    struct Evaluator: TrustEvaluator {
        let base: any TrustEvaluator
        let stallOn: String
        func evaluate(_ request: EvaluationRequest) -> Verdict {
            if request.host?.description == stallOn {
                // Waits for a signal that never comes.
                let never = DispatchSemaphore(value: 0)
                never.wait()
            }
            return base.evaluate(request)
        }
    }
}

/// A hang is an outcome: the run reports the vector and back end that did not return, and goes on.
@Suite struct GuardedEvaluationTests {
    /// The stalled evaluation never returns, so the run's ending at all shows it did not wait for it;
    /// the time limit turns a run that does wait into a failure instead of a hung test.
    @Test(.timeLimit(.minutes(1))) func aHangIsReportedWithItsVectorAndTheRunGoesOn() async throws {
        let suite = try Fixtures.suite()
        var runner = ConformanceRunner(backends: [StallingBackend(stallOn: "other.example.test")], suite: suite)
        runner.evaluationLimit = 0.5
        let subjects = runner.allSubjects.filter { ["valid-chain/p256", "hostname-mismatch/p256", "expired-leaf/p256"].contains($0.id) }
        try #require(subjects.count == 3)
        let results = await runner.run(subjects)
        let hung = try #require(results.first { $0.id == "hostname-mismatch/p256" })
        #expect(hung.outcome == .error)
        #expect(hung.judgement.detail.hasPrefix("HANG: the evaluation of vector hostname-mismatch/p256 on back end openssl did not return within 0.5 s"))
        #expect(hung.error == hung.judgement.detail && hung.observed == nil, "no verdict is made up for it")
        #expect(results.filter { $0.id != "hostname-mismatch/p256" }.allSatisfy { $0.outcome == .pass }, "the other vectors are judged as usual")
    }

    @Test func aReturningEvaluationGivesItsValue() {
        #expect(GuardedEvaluation.run(label: "a label", limit: 5) { 42 } == 42)
        #expect(GuardedEvaluation.run(label: "a label", limit: 0.2) { () -> Int in Thread.sleep(forTimeInterval: 2); return 1 } == nil)
    }
}
