import Foundation
import OpenSSLBackend
import Synchronization
import Testing
import TrustBackendKit
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

/// An async back end (the kit's ``AsyncEvaluator``) whose evaluation never finishes on one host: the
/// bridge has no timeout of its own, so the harness's one limit catches it as a hang.
struct SleepingAsyncBackend: TrustBackend {
    let base = OpenSSLBackend()
    let sleepOn: String
    var name: String { "sleeping-async" }
    var libraryVersion: String { base.libraryVersion + " (sleeps on purpose)" }

    func makeEvaluator(anchors: [[UInt8]]) throws -> any TrustEvaluator {
        AsyncEvaluator(Evaluator(base: try base.makeEvaluator(anchors: anchors), sleepOn: sleepOn))
    }

    struct Evaluator: AsyncTrustEvaluator {
        let base: any TrustEvaluator
        let sleepOn: String
        func evaluate(_ request: EvaluationRequest) async -> Verdict {
            if request.host?.description == sleepOn {
                try? await Task.sleep(for: .seconds(3_600))
            }
            return base.evaluate(request)
        }
    }
}

@Suite struct AsyncHangTests {
    /// The same message and outcome as any hang: never a limit, a skip or a pass.
    @Test(.timeLimit(.minutes(1))) func anAsyncEvaluationThatNeverFinishesIsAHangInTheMatrix() async throws {
        let suite = try Fixtures.suite()
        var runner = ConformanceRunner(backends: [SleepingAsyncBackend(sleepOn: "other.example.test")], suite: suite)
        runner.evaluationLimit = 0.5
        let subjects = runner.allSubjects.filter { ["valid-chain/p256", "hostname-mismatch/p256"].contains($0.id) }
        try #require(subjects.count == 2)
        let results = await runner.run(subjects)
        let hung = try #require(results.first { $0.id == "hostname-mismatch/p256" })
        #expect(hung.outcome == .error)
        #expect(hung.judgement.detail == GuardedEvaluation.hangMessage(GuardedEvaluation.label(vector: "hostname-mismatch/p256", backend: "sleeping-async"), limit: 0.5))
        #expect(results.first { $0.id == "valid-chain/p256" }?.outcome == .pass)
    }

    /// In a suite, a hang is an error that fails the run, not a skipped case.
    @Test(.timeLimit(.minutes(1))) func anAsyncEvaluationThatNeverFinishesIsAnErrorInASuite() async throws {
        let suite = try LimboTests.suite()
        let probe = SuiteRunner(backends: [])
        let backend = SleepingAsyncBackend(sleepOn: "")
        let testcase = try #require(suite.testcases.first { $0.expectedPeerName?.kind == "DNS" && probe.skipReason($0, backend: backend) == nil })
        let host = try #require(testcase.expectedPeerName?.value)
        let cases = [testcase]
        var runner = SuiteRunner(backends: [SleepingAsyncBackend(sleepOn: host)])
        runner.evaluationLimit = 0.5
        let results = await runner.run(Array(cases))
        let result = try #require(results.first)
        #expect(result.actual == .error && result.outcome == .error)
        #expect(result.context?.hasPrefix("HANG: the evaluation of vector \(testcase.id) on back end sleeping-async did not return within 0.5 s") == true)
        #expect(SuiteSummary(results).backends.first?.all.unexpected == 1)
    }
}
