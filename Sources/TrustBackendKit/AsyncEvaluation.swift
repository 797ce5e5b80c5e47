import Foundation
import TrustCore

/// Runs an `async` operation to completion on the calling thread, for the synchronous
/// ``TrustEvaluator/evaluate(_:)`` of a back end whose library is `async` (such as
/// swift-certificates' `Verifier.validate`).
///
/// The obvious bridge, a semaphore around a `Task`, deadlocks under load: every thread of the
/// cooperative pool can be blocked in a semaphore wait while the tasks they wait for sit in the
/// queue. This one runs the operation as a task whose executor preference (SE-0417) is an executor
/// the calling thread drains itself: the task's first job and every job after an `await` are
/// enqueued here, and the calling thread runs them until the task has finished. No other thread is
/// asked to do the work, so the call never waits for the pool, and it costs no thread of its own.
///
/// A job that goes to another executor (an actor the operation awaits on, a `Task.sleep`) is run
/// there and comes back. The bridge has no timeout of its own: an operation that never finishes
/// keeps the calling thread waiting, as a synchronous library that never returns would, and the
/// harness, which runs every evaluation under one limit (`TrustHarness.GuardedEvaluation`, 60 s
/// unless `TRUST_HARNESS_EVALUATION_LIMIT` says otherwise), reports it as a hang: an error naming
/// the vector and the back end, never a pass, a skip or a limit.
///
/// ```swift
/// let result = CallerThreadExecutor.run { await verifier.validate(leaf: leaf, intermediates: pool) }
/// ```
public final class CallerThreadExecutor: TaskExecutor, @unchecked Sendable {
    /// Guards ``jobs`` and ``finished``; signalled on every enqueue and on completion.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false

    private init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    /// The operation's result, when it has finished.
    public static func run<Value: Sendable>(_ operation: sending @escaping () async -> Value) -> Value {
        let executor = CallerThreadExecutor()
        let result = ResultBox<Value>()
        Task(executorPreference: executor) {
            result.value = await operation()
            executor.finish()
        }
        let unowned = executor.asUnownedTaskExecutor()
        while true {
            executor.condition.lock()
            while executor.jobs.isEmpty && !executor.finished {
                executor.condition.wait()
            }
            if executor.jobs.isEmpty {
                executor.condition.unlock()
                // The task wrote the value before it signalled completion.
                return result.value!
            }
            let job = executor.jobs.removeFirst()
            executor.condition.unlock()
            job.runSynchronously(on: unowned)
        }
    }

    /// Written by the task before it signals completion, read by the calling thread after it sees
    /// it under the lock, so the lock orders the two.
    private final class ResultBox<Value>: @unchecked Sendable {
        var value: Value?
    }
}

/// An evaluator whose library is `async`: implement ``evaluate(_:)`` with `await`, and hand the
/// harness ``AsyncEvaluator`` around it from `makeEvaluator(anchors:)`.
///
/// ```swift
/// struct MyAsyncEvaluator: AsyncTrustEvaluator {
///     let roots: CertificateStore
///     func evaluate(_ request: EvaluationRequest) async -> Verdict {
///         var verifier = Verifier(rootCertificates: roots) { RFC5280Policy(fixedExpiryValidationTime: request.time) }
///         ...
///     }
/// }
/// func makeEvaluator(anchors: [[UInt8]]) throws -> any TrustEvaluator {
///     AsyncEvaluator(MyAsyncEvaluator(roots: try store(anchors)))
/// }
/// ```
public protocol AsyncTrustEvaluator: Sendable {
    func evaluate(_ request: EvaluationRequest) async -> Verdict
}

/// The synchronous ``TrustEvaluator`` the harness calls, running an
/// ``AsyncTrustEvaluator`` on the calling thread with ``CallerThreadExecutor``: no deadlock under
/// load, no thread per call. It has no timeout of its own: an evaluation that never finishes is a
/// hang, which the harness catches under its one limit and reports as an error naming the vector
/// and the back end (``CallerThreadExecutor``).
public struct AsyncEvaluator<Base: AsyncTrustEvaluator>: TrustEvaluator {
    public let base: Base

    public init(_ base: Base) {
        self.base = base
    }

    public func evaluate(_ request: EvaluationRequest) -> Verdict {
        let base = base
        return CallerThreadExecutor.run { await base.evaluate(request) }
    }
}
