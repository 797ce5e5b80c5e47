import Foundation
@testable import GnuTLSBackend
import TestPKI
import Testing
import TrustCore

@Suite("Per-request GnuTLS time")
struct EvaluationScopeTests {
    @Test func hookReturnsTheScopeTimeInsideAndTheRealTimeOutside() throws {
        #expect(EvaluationScope.isAvailable)
        let inside = EvaluationScope.run(at: 42) { _ in EvaluationScope.timeHook(nil) }
        #expect(inside == 42)
        var written: time_t = 0
        let nested = EvaluationScope.run(at: 7) { _ in
            let inner = EvaluationScope.run(at: 9) { _ in EvaluationScope.timeHook(nil) }
            return (inner, EvaluationScope.timeHook(&written))
        }
        #expect(nested?.0 == 9)
        #expect(nested?.1 == 7)
        #expect(written == 7)
        let real = time(nil)
        let outside = EvaluationScope.timeHook(nil)
        #expect(abs(outside - real) <= 2)
    }

    @Test func otherThreadsSeeTheRealTimeWhileAnEvaluationRuns() throws {
        let real = time(nil)
        let seenElsewhere = EvaluationScope.run(at: 1_000) { _ -> time_t in
            let other = TimeBox()
            Thread.detachNewThread {
                other.value = EvaluationScope.timeHook(nil)
                other.done.signal()
            }
            other.done.wait()
            return other.value
        }
        let value = try #require(seenElsewhere)
        #expect(abs(value - real) <= 2)
    }

    /// Many tasks at once, interleaving times at which one chain is valid, expired and not yet valid:
    /// each evaluation must get the verdict of its own request's time.
    @Test func concurrentEvaluationsEachSeeTheirOwnTime() async throws {
        let evaluator = try GnuTLSBackend().makeEvaluator(anchors: [TestPKI.root.der])
        let chain = [TestPKI.leaf.der, TestPKI.intermediate.der]
        let notBefore = TestPKI.leaf.certificate.notValidBefore, notAfter = TestPKI.leaf.certificate.notValidAfter
        let cases: [(time: Date, failures: [FailureClass])] = [
            (TestPKI.start, []),
            (notAfter + TestPKI.days(1), [.expired]),
            (notBefore - TestPKI.days(1), [.notYetValid]),
            (notAfter, []),
            (notAfter + 1, [.expired]),
            (notBefore - 1, [.notYetValid]),
        ]
        let tasks = 8
        let perTask = 200
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var wrong = 0
                    for iteration in 0..<perTask {
                        let expected = cases[(task + iteration) % cases.count]
                        let verdict = evaluator.evaluate(EvaluationRequest(chain: chain, host: .dns("www.example.com"), time: expected.time))
                        if verdict.failures != expected.failures || verdict.isTrusted != expected.failures.isEmpty {
                            wrong += 1
                        }
                        if iteration % 16 == 0 {
                            await Task.yield()
                        }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    /// The same from plain threads, so the interleaving does not depend on the cooperative pool's width.
    @Test func concurrentEvaluationsOnThreadsEachSeeTheirOwnTime() throws {
        let evaluator = try GnuTLSBackend().makeEvaluator(anchors: [TestPKI.root.der])
        let chain = [TestPKI.leaf.der, TestPKI.intermediate.der]
        let times = [TestPKI.start, TestPKI.leaf.certificate.notValidAfter + 1, TestPKI.leaf.certificate.notValidBefore - 1]
        let expected: [[FailureClass]] = [[], [.expired], [.notYetValid]]
        let counter = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for iteration in 0..<200 {
                let index = (thread + iteration) % times.count
                let verdict = evaluator.evaluate(EvaluationRequest(chain: chain, host: nil, time: times[index]))
                if verdict.failures != expected[index] {
                    counter.increment()
                }
            }
        }
        #expect(counter.value == 0)
    }
}

/// A thread-safe count for the thread test.
private final class Counter: @unchecked Sendable {
    // @unchecked Sendable: every access to `count` holds `lock`.
    private let lock = NSLock()
    private var count = 0

    func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}

/// A time written by one thread and read by another after the semaphore.
private final class TimeBox: @unchecked Sendable {
    // @unchecked Sendable: `value` is written before `done` is signalled and read only after waiting on it.
    var value: time_t = 0
    let done = DispatchSemaphore(value: 0)
}
