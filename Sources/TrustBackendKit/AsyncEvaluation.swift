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
/// there and comes back; if the operation does not finish within `timeout`, ``run(timeout:_:)``
/// gives up and returns nil, and the caller fails closed (``AsyncEvaluator`` answers
/// `ASYNC_EVALUATION_DID_NOT_FINISH`).
///
/// ```swift
/// let result = CallerThreadExecutor.run { await verifier.validate(leaf: leaf, intermediates: pool) }
/// ```
public final class CallerThreadExecutor: TaskExecutor, @unchecked Sendable {
    /// Guards ``jobs`` and ``finished``; signalled on every enqueue and on completion.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false

    /// How long the calling thread waits, by default, for a job that went elsewhere.
    public static let timeout: TimeInterval = 10

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

    /// The operation's result, or nil when it did not finish within `timeout` seconds.
    public static func run<Value: Sendable>(timeout: TimeInterval = CallerThreadExecutor.timeout, _ operation: sending @escaping () async -> Value) -> Value? {
        let executor = CallerThreadExecutor()
        let result = ResultBox<Value>()
        Task(executorPreference: executor) {
            result.value = await operation()
            executor.finish()
        }
        let unowned = executor.asUnownedTaskExecutor()
        while true {
            executor.condition.lock()
            let deadline = Date(timeIntervalSinceNow: timeout)
            while executor.jobs.isEmpty && !executor.finished {
                guard executor.condition.wait(until: deadline) else {
                    executor.condition.unlock()
                    return nil
                }
            }
            if executor.jobs.isEmpty {
                executor.condition.unlock()
                return result.value
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
/// load, no thread per call. An evaluation that does not finish within `timeout` seconds fails
/// closed (`ASYNC_EVALUATION_DID_NOT_FINISH`, said to be a limit of the bridge).
public struct AsyncEvaluator<Base: AsyncTrustEvaluator>: TrustEvaluator {
    public let base: Base
    public let timeout: TimeInterval

    public init(_ base: Base, timeout: TimeInterval = CallerThreadExecutor.timeout) {
        self.base = base
        self.timeout = timeout
    }

    public func evaluate(_ request: EvaluationRequest) -> Verdict {
        let base = base
        return CallerThreadExecutor.run(timeout: timeout) { await base.evaluate(request) }
            ?? .failClosed(.other, name: "ASYNC_EVALUATION_DID_NOT_FINISH", message: "the async evaluation did not finish within \(Int(timeout)) s", origin: .limit)
    }
}
